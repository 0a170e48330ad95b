/**
 * The MCP server: the catalogue's tools over the MCP SDK's low-level `Server` (the tool schemas are JSON Schema
 * from the spec, not zod). Static mode lists one tool per exposed pair; dynamic mode lists three — list the
 * catalogue, describe one action, execute one — so a model with a small context reaches every pair. Arguments are
 * checked against the tool's schema before anything is sent; results are structured content plus a compact text,
 * bounded by the output guard; failures are tool errors (`isError`), and the token is scrubbed from everything.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import {
  MIN_SECRET_LENGTH,
  ParamValidationError,
  agentInputSchema,
  describeIssues,
  mcpResult,
  nestedDeeperThan,
  renderText,
  runTool,
  toolError,
  type ToolDefinition,
} from '@connector-sdk/runtime';
import { DYNAMIC_TOOLS, toolMode, type BoundTool, type Catalogue, type ServerIdentity } from './catalogue.js';
import type { McpServerConfig } from './config.js';

type Args = Record<string, unknown>;

/**
 * How deep a call's arguments may nest: far beyond any the tools need (a search filter's `not` of `and` of …), below
 * what the schema check can follow (ajv's validators recurse: 300 levels of `not` overflowed the stack), and below the
 * mock's limit on a request body (64 levels, the arguments three levels in).
 */
const MAX_ARGUMENT_DEPTH = 60;

/** Replaces every occurrence of `secret` in the strings of a JSON value (keys included), as redactToken does. */
function scrub<T>(value: T, secret: string): T {
  if (secret.length < MIN_SECRET_LENGTH) return value;
  const text = JSON.stringify(value);
  if (!text.includes(secret) && !text.includes(JSON.stringify(secret).slice(1, -1))) return value;
  const deep = (v: unknown): unknown =>
    typeof v === 'string'
      ? v.split(secret).join('[REDACTED]')
      : Array.isArray(v)
        ? v.map(deep)
        : v && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [deep(k), deep(x)]))
          : v;
  return deep(value) as T;
}

/** A tool error result that was never sent to the service. */
function refusal(name: string, message: string): CallToolResult {
  const structured = { error: { message } };
  return {
    content: [{ type: 'text', text: renderText({ name }, structured) }],
    structuredContent: structured,
    isError: true,
  };
}

/** The tool list entry of a definition. */
function listing(tool: ToolDefinition<never>): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: agentInputSchema(tool) as Tool['inputSchema'],
    annotations: tool.annotations,
  };
}

/** Runs exposed tools: schema check first (no request for invalid arguments), then the client, then the guard. */
class Executor {
  readonly #validators = new Map<string, ValidateFunction>();
  readonly #ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
  /** Aborted when the server stops: calls still waiting on the service end at once (stopCalls). */
  readonly stopping = new AbortController();

  constructor(
    readonly catalogue: Catalogue,
    readonly config: McpServerConfig,
  ) {}

  /** Runs tool `name`; `signal` is the host's cancellation of this call (notifications/cancelled). */
  async run(name: string, args: unknown, signal?: AbortSignal): Promise<CallToolResult> {
    const bound = this.catalogue.exposed.get(name);
    if (!bound) {
      if (this.catalogue.refused.has(name))
        return refusal(name, `${name} writes, and this server runs read-only: it was not sent`);
      return refusal(
        name,
        `unknown tool ${JSON.stringify(name)}${this.#dynamic() ? ` (${DYNAMIC_TOOLS.list} lists the tools)` : ''}`,
      );
    }
    if (nestedDeeperThan(args, MAX_ARGUMENT_DEPTH))
      return refusal(name, `the arguments nest deeper than ${MAX_ARGUMENT_DEPTH} levels: no request was sent`);
    const invalid = this.#check(bound, args ?? {});
    if (invalid) {
      const structured = { error: toolError(invalid) };
      return {
        content: [{ type: 'text', text: `${renderText(bound.tool, structured)}\nNo request was sent.` }],
        structuredContent: structured,
        isError: true,
      };
    }
    // Ends when the host cancels the call or the server stops, not only when the service answers (or times out).
    // By hand, not AbortSignal.any (Node 20.3 and later): the listeners go when the call ends.
    const ended = new AbortController();
    const end = () => ended.abort();
    const signals = [signal, this.stopping.signal].filter((s) => s !== undefined);
    for (const s of signals) s.addEventListener('abort', end);
    if (signals.some((s) => s.aborted)) end();
    try {
      return mcpResult(
        await runTool(bound.tool, bound.client, args, { maxChars: this.config.maxChars, signal: ended.signal }),
      );
    } finally {
      for (const s of signals) s.removeEventListener('abort', end);
    }
  }

  #dynamic(): boolean {
    return toolMode(this.config, this.catalogue) === 'dynamic';
  }

  /** The problems of a dynamic tool's own arguments against its input schema, one line; undefined when valid. */
  checkOwnArguments(tool: Tool, args: unknown): string | undefined {
    const key = `dynamic:${tool.name}`; // apart from the exposed tools' validators
    let validate = this.#validators.get(key);
    if (!validate) this.#validators.set(key, (validate = this.#ajv.compile(tool.inputSchema)));
    if (validate(args)) return undefined;
    const problems = describeIssues((validate.errors ?? []) as never, 'param', args).map((p) => p.message);
    return `invalid arguments of ${tool.name}: ${problems.join('; ')}. Nothing was run.`;
  }

  /** The arguments' problems against the tool's schema (with `_fields`), as the client would report them. */
  #check({ tool }: BoundTool, args: unknown): ParamValidationError | undefined {
    let validate = this.#validators.get(tool.name);
    if (!validate) this.#validators.set(tool.name, (validate = this.#ajv.compile(agentInputSchema(tool))));
    if (validate(args)) return undefined;
    const problems = describeIssues((validate.errors ?? []) as never, 'param', args).map((p) => {
      const said = p.constraint === 'unknown' ? filterKeyProblem(tool, p.path) : undefined;
      return said ? { ...p, message: said } : p;
    });
    return new ParamValidationError(tool.entity, tool.action, problems);
  }
}

/** A search filter's operand: `query.filter.fuzzy.balance`, inside and/or/not too. */
const FILTER_OPERAND = /^query\.filter(?:\.(?:and|or)\[\d+\]|\.not)*\.([A-Za-z_]+)\.(.+)$/;

/**
 * What an unknown key inside a search filter is (the schema check calls it an unknown param): an operator the field
 * does not take, with the operators it does, or no searchable field. Undefined for other paths.
 */
function filterKeyProblem(tool: ToolDefinition<never>, path: string): string | undefined {
  const [, operator, field] = FILTER_OPERAND.exec(path) ?? [];
  const defs = tool.inputSchema['$defs'] as
    Record<string, { properties?: Record<string, { $ref?: string; properties?: object }> }> | undefined;
  const operators = defs?.['filter']?.properties;
  if (!operator || !field || !operators?.[operator]) return undefined;
  /** The fields an operator compares (its operand's properties). */
  const fieldsOf = (op: string) => Object.keys(defs?.[operators[op]?.$ref?.split('/').pop() ?? '']?.properties ?? {});
  const taking = Object.keys(operators).filter((op) => fieldsOf(op).includes(field));
  if (taking.length === 0) return `'${field}' (in ${path}) is not a searchable field of ${tool.entity}`;
  return `search operator '${operator}' does not apply to field '${field}' (in ${path}); '${field}' takes: ${taking.join(', ')}`;
}

/** The three tools of dynamic mode. */
function dynamicTools(catalogue: Catalogue, config: McpServerConfig): Tool[] {
  const all = [...catalogue.exposed.values()].map((b) => b.tool);
  const connectors = [...new Set(all.map((t) => t.connector))];
  const writes = all.some((t) => t.kind === 'write');
  const name = {
    type: 'string',
    description: `A tool name from ${DYNAMIC_TOOLS.list}, e.g. "${all[0]?.name ?? 'payments_customers_list'}".`,
  };
  return [
    {
      name: DYNAMIC_TOOLS.list,
      title: 'List actions',
      description: `Lists the ${all.length} actions this server can run (connector, entity, action: ${connectors.join(', ')}), with their names. Narrow with connector, entity, kind or words of the query. Then ${DYNAMIC_TOOLS.describe} gives one action's arguments, and ${DYNAMIC_TOOLS.execute} runs it.`,
      inputSchema: {
        type: 'object',
        properties: {
          connector: { type: 'string', enum: connectors, description: 'Only this connector.' },
          entity: { type: 'string', description: 'Only this entity (e.g. "customers").' },
          kind: { type: 'string', enum: ['read', 'write'], description: 'Only reads or only writes.' },
          query: {
            type: 'string',
            description: 'Words that must all appear in the action name, title or description.',
          },
        },
        additionalProperties: false,
      },
      annotations: {
        title: 'List actions',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    {
      name: DYNAMIC_TOOLS.describe,
      title: 'Describe an action',
      description: `What one action does and returns, how it pages, and the JSON Schema of its arguments (give them to ${DYNAMIC_TOOLS.execute} as 'arguments').`,
      inputSchema: { type: 'object', properties: { name }, required: ['name'], additionalProperties: false },
      annotations: {
        title: 'Describe an action',
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    {
      name: DYNAMIC_TOOLS.execute,
      title: 'Execute an action',
      description: `Runs one action with its arguments (the schema ${DYNAMIC_TOOLS.describe} gives). Results are bounded to ${config.maxChars} characters; a page's 'next' holds the arguments of the next page.${config.readOnly ? ' This server is read-only.' : writes ? ' Some actions write to the third-party system: check with describe first.' : ''}`,
      inputSchema: {
        type: 'object',
        properties: {
          name,
          arguments: { type: 'object', description: 'The arguments of the action.', additionalProperties: true },
        },
        required: ['name'],
        additionalProperties: false,
      },
      annotations: {
        title: 'Execute an action',
        readOnlyHint: !writes,
        destructiveHint: all.some((t) => t.annotations.destructiveHint),
        idempotentHint: !writes,
        openWorldHint: true,
      },
    },
  ];
}

/** list_actions: the exposed actions that match, cut to the guard's size with a hint to narrow. */
function listActions(catalogue: Catalogue, config: McpServerConfig, args: Args): CallToolResult {
  const words = String(args['query'] ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean);
  const matches = [...catalogue.exposed.values()]
    .map((b) => b.tool)
    .filter(
      (t) =>
        (args['connector'] === undefined || t.connector === args['connector']) &&
        (args['entity'] === undefined || t.entity === args['entity']) &&
        (args['kind'] === undefined || t.kind === args['kind']),
    )
    .filter((t) => words.every((w) => `${t.name} ${t.title} ${t.description}`.toLowerCase().includes(w)));
  const lines: string[] = [];
  // The header and the "N more" line count too (room kept for their longest forms).
  const room =
    config.maxChars -
    `${matches.length} actions\n`.length -
    `\n${matches.length} more: narrow with connector, entity, kind or query.`.length;
  let size = 0;
  for (const t of matches) {
    const line = `${t.name} (${t.kind}) ${t.title}`;
    if (size + line.length + 1 > room) break;
    lines.push(line);
    size += line.length + 1;
  }
  const shown = matches.slice(0, lines.length).map((t) => ({ name: t.name, title: t.title, kind: t.kind }));
  const cut =
    lines.length < matches.length
      ? `${matches.length - lines.length} more: narrow with connector, entity, kind or query.`
      : undefined;
  const structured = {
    actions: shown,
    count: matches.length,
    ...(cut ? { truncated: { shown: shown.length, of: matches.length, reason: cut } } : {}),
  };
  return {
    content: [{ type: 'text', text: [`${matches.length} actions`, ...lines, ...(cut ? [cut] : [])].join('\n') }],
    structuredContent: structured,
    isError: false,
  };
}

/** describe_action: one action's description, annotations and argument schema. */
function describeAction(catalogue: Catalogue, args: Args): CallToolResult {
  const name = String(args['name'] ?? '');
  const bound = catalogue.exposed.get(name);
  if (!bound)
    return refusal(
      DYNAMIC_TOOLS.describe,
      catalogue.refused.has(name)
        ? `${name} writes, and this server runs read-only`
        : `unknown action ${JSON.stringify(name)} (${DYNAMIC_TOOLS.list} lists them)`,
    );
  const { tool } = bound;
  const structured = {
    name: tool.name,
    title: tool.title,
    kind: tool.kind,
    description: tool.description,
    annotations: tool.annotations,
    inputSchema: agentInputSchema(tool),
  };
  return {
    content: [
      {
        type: 'text',
        text: `${tool.name} (${tool.kind})\n${tool.description}\nArguments (JSON Schema): ${JSON.stringify(structured.inputSchema)}`,
      },
    ],
    structuredContent: structured,
    isError: false,
  };
}

/** One executor per catalogue: its compiled validators outlive the per-request servers of the HTTP transport. */
const executors = new WeakMap<Catalogue, Executor>();

/** Ends the calls of the catalogue's servers still waiting on the service (the server is stopping): each answers an AbortError. */
export function stopCalls(catalogue: Catalogue): void {
  executors.get(catalogue)?.stopping.abort();
}

/** A new MCP server over the catalogue (one per connection; the catalogue, its clients and validators are shared). */
export function createMcpServer(identity: ServerIdentity, config: McpServerConfig, catalogue: Catalogue): Server {
  const mode = toolMode(config, catalogue);
  let executor = executors.get(catalogue);
  if (!executor) executors.set(catalogue, (executor = new Executor(catalogue, config)));
  const run = executor;
  const server = new Server(identity, {
    capabilities: { tools: {} },
    instructions:
      mode === 'dynamic'
        ? `Reads${config.readOnly ? '' : ' and writes'} records of third-party systems through the Connector Execution Service. Find an action with ${DYNAMIC_TOOLS.list}, read its arguments with ${DYNAMIC_TOOLS.describe}, run it with ${DYNAMIC_TOOLS.execute}. A page's 'next' holds the arguments of the next page.`
        : `Reads${config.readOnly ? '' : ' and writes'} records of third-party systems through the Connector Execution Service: one tool per entity and action. A page's 'next' holds the arguments of the next page; _fields keeps results small.`,
  });
  const tools =
    mode === 'dynamic' ? dynamicTools(catalogue, config) : [...catalogue.exposed.values()].map((b) => listing(b.tool));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args = {} } = request.params;
    // A dynamic tool's own arguments are checked first: a misspelt kind would otherwise list nothing, silently.
    const own = mode === 'dynamic' ? tools.find((t) => t.name === name) : undefined;
    const invalid = own && run.checkOwnArguments(own, args);
    let result: CallToolResult;
    if (invalid) result = refusal(name, invalid);
    else if (mode === 'dynamic' && name === DYNAMIC_TOOLS.list) result = listActions(catalogue, config, args);
    else if (mode === 'dynamic' && name === DYNAMIC_TOOLS.describe) result = describeAction(catalogue, args);
    else if (mode === 'dynamic' && name === DYNAMIC_TOOLS.execute)
      result = await run.run(String(args['name'] ?? ''), args['arguments'] ?? {}, extra.signal);
    else if (mode === 'dynamic')
      result = refusal(
        name,
        `unknown tool ${JSON.stringify(name)}: this server lists its actions through ${DYNAMIC_TOOLS.list}`,
      );
    else result = await run.run(name, args, extra.signal);
    return scrub(result, config.token);
  });
  return server;
}
