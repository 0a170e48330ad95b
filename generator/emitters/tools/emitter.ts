/**
 * `src/tools.ts` of each connector package — its `/tools` entry: every entity–action pair as a tool definition
 * (definitions.ts), each with a `call` bound to the typed client method, and the runtime's adapters to the MCP,
 * OpenAI, Anthropic and Vercel AI SDK tool shapes. The client entry never imports it, so a program that does not
 * import `<package>/tools` does not bundle it.
 */
import type { ConnectorIR, SpecIR } from '../../ir.js';
import { clientClassName } from '../clients/client-names.js';
import { generatedHeader } from '../header.js';
import { camelCase } from '../naming.js';
import type { Emitter } from '../types.js';
import { toolDefinitions, type ToolData } from './definitions.js';
import { agentsPage } from './docs.js';

/** Adapters and helpers of the runtime that the `/tools` entry re-exports (users need not depend on the runtime). */
const RUNTIME_VALUES = ['agentInputSchema', 'anthropicTools', 'mcpTools', 'openaiResponsesTools', 'openaiTools', 'runAnthropicToolUse', 'runOpenAIToolCall', 'runTool', 'vercelTools'];
const RUNTIME_TYPES = ['AnthropicTool', 'JsonSchema', 'McpTool', 'McpToolResult', 'OpenAIChatTool', 'OpenAIResponsesTool', 'RunToolOptions', 'ToolDefinition', 'ToolOutcome', 'VercelTool'];

const indent = (text: string, by: string) => text.replace(/\n/g, `\n${by}`);

/** Emits src/tools.ts for one connector. */
export function toolsFile(ir: SpecIR, connector: ConnectorIR, definitions: ToolData[]): string {
  const client = clientClassName(connector);
  const runtime = ir.packaging.runtime.name;
  const tools = definitions.map((tool) => {
    const data = JSON.stringify(tool, null, 2).replace(/\n}$/, ',');
    const call = `  call: (client, params, options) => client.${camelCase(tool.entity)}.${camelCase(tool.action)}(params as never, options),\n}`;
    return `  ${indent(`${data}\n${call}`, '  ')}`;
  });
  return [
    generatedHeader(connector.file),
    `import type { ToolDefinition } from '${runtime}';`,
    `import type { ${client} } from './client.js';`,
    `export { ${RUNTIME_VALUES.join(', ')} } from '${runtime}';`,
    `export type { ${RUNTIME_TYPES.join(', ')} } from '${runtime}';`,
    '',
    `/**`,
    ` * Every entity–action pair of the ${connector.title} connector as a tool for AI agents (${tools.length} tools): a stable`,
    ` * name, a description for a model, MCP annotations, the params' JSON Schema and a \`call\` on a {@link ${client}}.`,
    ` * Hand them to a framework with \`mcpTools\`, \`openaiTools\`, \`openaiResponsesTools\`, \`anthropicTools\` or \`vercelTools\`.`,
    ` * @example`,
    ` * const toolset = openaiTools(tools, new ${client}({ baseUrl, token, sourceId }));`,
    ` */`,
    `export const tools: readonly ToolDefinition<${client}>[] = [`,
    `${tools.join(',\n')},`,
    '];',
    '',
  ].join('\n');
}

/** The `/tools` entry of every connector package, and the agent docs page. */
export const toolsEmitter: Emitter = {
  name: 'tools',
  emit(ir) {
    const definitions = new Map(ir.connectors.map((c) => [c.id, toolDefinitions(ir, c)]));
    const files = new Map(ir.connectors.map((c) => [`${c.id}/src/tools.ts`, toolsFile(ir, c, definitions.get(c.id)!)]));
    if (ir.connectors.length) files.set('docs/agents.md', agentsPage(ir, definitions));
    return files;
  },
};
