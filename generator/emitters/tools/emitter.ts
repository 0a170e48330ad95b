/**
 * `src/tools.ts` of each connector package — its `/tools` entry: every entity–action pair as a tool definition
 * (definitions.ts), each with a `call` bound to the typed client method, and the runtime's adapters to the MCP,
 * OpenAI, Anthropic and Vercel AI SDK tool shapes. The client entry never imports it, so a program that does not
 * import `<package>/tools` does not bundle it. Sub-schemas and paging descriptors that several tools repeat are
 * written once (shared-literals.ts), and the MCP hints as one of three sets, which keeps the file small and readable.
 */
import type { ConnectorIR, SpecIR } from '../../ir.js';
import { clientClassName } from '../clients/client-names.js';
import { generatedHeader } from '../header.js';
import { camelCase } from '../naming.js';
import { printDoc } from '../ts/doc.js';
import { code, constDecl, exportFrom, fileDoc, importDecl, literal, spread, type LiteralValue } from '../ts/syntax.js';
import { splitEmitter } from '../types.js';
import { toolDefinitions, toolSummaries, type ToolData, type ToolSummary } from './definitions.js';
import { agentsPage } from './docs.js';
import { sharedLiterals } from './shared-literals.js';

/** Adapters and helpers of the runtime that the `/tools` entry re-exports (users need not depend on the runtime). */
const RUNTIME_VALUES = ['agentInputSchema', 'anthropicTools', 'mcpTools', 'openaiResponsesTools', 'openaiTools', 'runAnthropicToolUse', 'runOpenAIToolCall', 'runTool', 'vercelTools'];
const RUNTIME_TYPES = ['AnthropicTool', 'JsonSchema', 'McpTool', 'McpToolResult', 'OpenAIChatTool', 'OpenAIResponsesTool', 'RunToolOptions', 'ToolDefinition', 'ToolOutcome', 'VercelTool'];

/** The MCP hint sets a tool can have (annotations besides the title), by their entries. */
const HINTS: Record<string, { name: string; doc: string; value: Record<string, boolean> }> = Object.fromEntries(
  [
    { name: 'readHints', doc: 'a read: changes nothing, can be repeated', value: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true } },
    { name: 'writeHints', doc: 'a create or update: changes data in the third-party system', value: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true } },
    { name: 'deleteHints', doc: 'a delete: destroys data, repeating it changes nothing more', value: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: true } },
  ].map((h) => [JSON.stringify(Object.entries(h.value)), h]),
);

/** Names the file declares besides the shared schemas. */
const RESERVED = new Set(['tools', ...RUNTIME_VALUES, ...RUNTIME_TYPES]);

/** Who uses a shared schema, for its doc comment. */
function usedBy(uses: string[]): string {
  const shown = uses.slice(0, 3).map((u) => `\`${u}\``).join(', ');
  return uses.length > 3 ? `${shown} and ${uses.length - 3} more` : shown;
}

/**
 * Emits src/tools.ts for one connector: sub-schemas that several tools repeat are written once, as consts each tool
 * refers to (every `inputSchema` is still a complete JSON Schema object at run time). Printed in the generated style.
 */
export function toolsFile(ir: SpecIR, connector: ConnectorIR, definitions: ToolData[]): string {
  const client = clientClassName(connector);
  const runtime = ir.packaging.runtime.name;
  const roots = definitions.flatMap((tool) => {
    const action = connector.entities.find((e) => e.name === tool.entity)?.actions.find((a) => a.name === tool.action);
    const scheme = tool.result === 'hits' ? 'search' : (action?.pagination ?? tool.name);
    return [
      { label: tool.name, noun: 'Schema', prefix: `${tool.entity}_${tool.action}`, value: tool.inputSchema },
      ...(tool.paging ? [{ label: tool.name, noun: 'Paging', prefix: scheme, value: tool.paging, wholeAs: 'PaginationDescriptor' }] : []),
    ];
  });
  const literals = sharedLiterals(roots, new Set([...RESERVED, client, ...Object.values(HINTS).map((h) => h.name)]));
  const shared = literals.shared.map((s) => constDecl({ docs: [`${s.noun} shared by ${usedBy(s.uses)}.`], name: s.name, ...(s.type ? { type: s.type } : {}), value: literal(literals.definition(s)) }));
  // The MCP hints of a tool are one of a few sets: each is written once and spread into the tools' annotations.
  const hints = definitions.map((tool) => {
    const h = HINTS[JSON.stringify(Object.entries(tool.annotations).filter(([k]) => k !== 'title'))];
    if (!h) throw new Error('internal: a tool has MCP hints the tools emitter has no name for');
    return h;
  });
  const hintSets = [...new Set(hints)].map((h) => constDecl({ docs: [`MCP annotations of ${h.doc}.`], name: h.name, value: [literal(h.value), ' as const'] }));
  const tools: LiteralValue[] = definitions.map((tool, i) => {
    const { annotations, inputSchema, paging, ...data } = tool;
    const { name } = hints[i]!;
    return {
      ...data,
      // annotations before inputSchema, where the definition has them.
      annotations: { title: annotations.title, [`...${name}`]: spread(name) },
      inputSchema: literals.literal(inputSchema),
      ...(paging ? { paging: literals.literal(paging) } : {}),
      call: code(`(client, params, options) => client.${camelCase(tool.entity)}.${camelCase(tool.action)}(params as never, options)`),
    };
  });
  const types = [...new Set([...literals.shared.flatMap((s) => (s.type ? [s.type] : [])), 'ToolDefinition'])].sort();
  const declarations = [
    importDecl({ typeOnly: true, names: types, from: runtime }),
    importDecl({ typeOnly: true, names: [client], from: './client.js' }),
    exportFrom({ names: RUNTIME_VALUES, from: runtime }),
    exportFrom({ typeOnly: true, names: RUNTIME_TYPES, from: runtime }),
  ];
  const toolsDecl = constDecl({
    docs: [
      `Every entity–action pair of the ${connector.title} connector as a tool for AI agents (${tools.length} tools): a stable`,
      `name, a description for a model, MCP annotations, the params' JSON Schema and a \`call\` on a {@link ${client}}.`,
      'Hand them to a framework with `mcpTools`, `openaiTools`, `openaiResponsesTools`, `anthropicTools` or `vercelTools`.',
      'Tools share schema objects (the consts above): treat the definitions as read-only.',
      '@example',
      `const toolset = openaiTools(tools, new ${client}({ baseUrl, token, sourceId }));`,
    ],
    exported: true,
    name: 'tools',
    type: `readonly ToolDefinition<${client}>[]`,
    value: literal(tools),
  });
  return printDoc(fileDoc(generatedHeader(connector.file), [declarations, [...hintSets, ...shared], [toolsDecl]]));
}

/**
 * The `/tools` entry of every connector package (per connector, cached), and the agent docs page (shared, from each
 * connector's tool summaries: its fragment, as JSON).
 */
export const toolsEmitter = splitEmitter({
  name: 'tools',
  // tools.ts is printed in the generated style (ts/doc.ts); agents.md is not TypeScript.
  formatted: true,
  connector: (ir, c) => new Map([[`${c.id}/src/tools.ts`, toolsFile(ir, c, toolDefinitions(ir, c))]]),
  fragment: (_, c) => JSON.stringify(toolSummaries(c)),
  shared(ir, fragments) {
    if (!ir.connectors.length) return new Map();
    return new Map([['docs/agents.md', agentsPage(ir, new Map([...fragments].map(([id, text]) => [id, JSON.parse(text) as ToolSummary[]])))]]);
  },
});
