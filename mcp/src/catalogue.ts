/**
 * Which tools a server exposes: the tools of every connector that has a source, narrowed by the configured
 * connectors, entities and actions, without writes in read-only mode; each bound to a client of its connector.
 */
import type { ClientOptions, ToolDefinition } from '@connector-sdk/runtime';
import type { McpServerConfig } from './config.js';

/** One connector the server can serve: its tools and how to make its client (generated: connectors.ts). */
export interface ConnectorEntry {
  /** Connector id. */
  id: string;
  /** Human title. */
  title: string;
  /** Its tool definitions (the package's `/tools` entry). */
  tools: readonly ToolDefinition<never>[];
  /** A client of the connector for one source. */
  createClient(options: ClientOptions): unknown;
}

/** A tool bound to the client of its source. */
export interface BoundTool {
  /** The definition. */
  tool: ToolDefinition<never>;
  /** The client it runs on. */
  client: never;
}

/** The catalogue of one server: what it exposes, and what it knows but hides (to refuse it with a reason). */
export interface Catalogue {
  /** Exposed tools by name, in connector, entity and action order. */
  exposed: Map<string, BoundTool>;
  /** Write tools hidden by read-only mode, by name. */
  refused: Set<string>;
}

/** Whether a tool passes the entity filter: `connector.entity` or a bare `entity`. */
function entityMatches(filter: readonly string[] | undefined, tool: ToolDefinition<never>): boolean {
  return !filter || filter.includes(`${tool.connector}.${tool.entity}`) || filter.includes(tool.entity);
}

/** Builds the catalogue: one client per mapped connector, its tools filtered by the configuration. */
export function buildCatalogue(config: McpServerConfig, connectors: readonly ConnectorEntry[]): Catalogue {
  const exposed = new Map<string, BoundTool>();
  const refused = new Set<string>();
  const known = new Set(
    connectors.flatMap((c) => c.tools.map((t) => `${t.connector}.${t.entity}`).concat(c.tools.map((t) => t.entity))),
  );
  for (const e of config.entities ?? [])
    if (!known.has(e)) throw new Error(`--entities: no entity '${e}' in the connectors served`);
  const actions = new Set(connectors.flatMap((c) => c.tools.map((t) => t.action)));
  for (const a of config.actions ?? [])
    if (!actions.has(a)) throw new Error(`--actions: no action '${a}' (known: ${[...actions].join(', ')})`);
  for (const connector of connectors) {
    const sourceId = config.sources.get(connector.id);
    if (sourceId === undefined || (config.connectors && !config.connectors.includes(connector.id))) continue;
    const client = connector.createClient({ baseUrl: config.baseUrl, token: config.token, sourceId }) as never;
    for (const tool of connector.tools) {
      if (!entityMatches(config.entities, tool) || (config.actions && !config.actions.includes(tool.action))) continue;
      if (exposed.has(tool.name)) throw new Error(`internal: two tools are named ${tool.name}`);
      if (config.readOnly && tool.kind === 'write') refused.add(tool.name);
      else exposed.set(tool.name, { tool, client });
    }
  }
  return { exposed, refused };
}

/** Who the server says it is to MCP clients. */
export interface ServerIdentity {
  name: string;
  version: string;
}

/** Names of the dynamic mode's tools. */
export const DYNAMIC_TOOLS = { list: 'list_actions', describe: 'describe_action', execute: 'execute_action' } as const;

/** Tools above which `auto` mode switches to the dynamic tools. */
export const DYNAMIC_THRESHOLD = 50;

/** The mode a configuration runs in. */
export function toolMode(config: McpServerConfig, catalogue: Catalogue): 'static' | 'dynamic' {
  if (config.tools !== 'auto') return config.tools;
  return catalogue.exposed.size > DYNAMIC_THRESHOLD ? 'dynamic' : 'static';
}
