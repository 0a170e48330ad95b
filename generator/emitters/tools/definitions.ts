/**
 * Agent tools as data: one tool per entity–action pair, with a stable name, a description written for a model, MCP
 * annotations, the params' JSON Schema (2020-12, self-contained: search carries its filter/sort grammar under
 * `$defs`) and an example call. The one source of what every tool format says: the `/tools` entry of each package
 * (and through it the MCP server and the OpenAI, Anthropic and Vercel shapes) and the agent docs read it.
 */
import type { ActionIR, ConnectorIR, EntityIR, PropertyIR, SpecIR } from '../../ir.js';
import { paginationDescriptor } from '../clients/paging.js';
import { paramsSchema, type JsonSchema } from '../openapi/schemas.js';
import { searchNames, searchSchemas } from '../openapi/search.js';
import { FORMAT_EXAMPLES } from '../validators/json-schema.js';
import { describeTool } from './describe.js';
import type { ToolAnnotations, ToolDefinition } from '../../../runtime/src/tools.js';
import { exampleParams } from '../example-params.js';

/** Longest tool name the tool APIs accept (OpenAI, Anthropic: `^[a-zA-Z0-9_-]{1,64}$`). */
export const MAX_TOOL_NAME = 64;

/** The name of a pair's tool: `<connector>_<entity>_<action>`, stable as long as the ids are. */
export function toolName(connector: Pick<ConnectorIR, 'id'>, entity: Pick<EntityIR, 'name'>, action: Pick<ActionIR, 'name'>): string {
  return `${connector.id}_${entity.name}_${action.name}`;
}

/** One tool as data: the runtime's `ToolDefinition` minus its `call` (the generated file binds it to the client). */
export type ToolData = Omit<ToolDefinition, 'call'>;

const VERBS: Record<string, string> = { list: 'List', get: 'Get', create: 'Create', update: 'Update', delete: 'Delete', api_search: 'Search (native query)', search: 'Search', download: 'Download' };

/** The human title: `List customers (Payments)`. */
function title(connector: ConnectorIR, entity: EntityIR, action: ActionIR): string {
  return `${VERBS[action.name] ?? action.name} ${entity.name.replace(/_/g, ' ')} (${connector.title})`;
}

/** Reads do not change anything; deletes destroy; reads and deletes can be repeated; every action reaches a third-party system. */
function annotations(connector: ConnectorIR, entity: EntityIR, action: ActionIR): ToolAnnotations {
  const read = action.kind === 'read';
  return {
    title: title(connector, entity, action),
    readOnlyHint: read,
    destructiveHint: action.name === 'delete',
    idempotentHint: read || action.name === 'delete',
    openWorldHint: true,
  };
}

/** The search params of an entity: one schema, its filter, sort and operand schemas under `$defs`. */
function searchInputSchema(ir: SpecIR, entity: EntityIR): JsonSchema {
  const names = searchNames(entity.name);
  const prefix = `entity.${entity.name}.search.`;
  const short = (name: string) => name.slice(prefix.length).replace(/\./g, '_');
  const schemas = searchSchemas(ir, entity, (name) => ({ $ref: `#/$defs/${short(name)}` }));
  const defs = [...schemas].filter(([name]) => name !== names.params && name !== names.result && name !== names.fields);
  return { ...schemas.get(names.params)!, $defs: Object.fromEntries(defs.map(([name, schema]) => [short(name), schema])) };
}

/** A value of a param for an example call: its const, default, first enum value, a value of its format, lower bound, or a placeholder. */
function exampleValue(p: PropertyIR): unknown {
  if (p.const !== undefined) return p.const;
  if (p.default !== undefined) return p.default;
  if (p.enum?.length && !p.separator && p.types[0] !== 'array') return p.enum[0];
  if (p.format && p.types[0] === 'string') return FORMAT_EXAMPLES[p.format];
  switch (p.types[0]) {
    case 'integer':
    case 'number':
      return p.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return p.items ? Array.from({ length: p.minItems ?? 0 }, () => exampleValue({ ...p.items!, name: p.name, required: true, source: p.source })) : [];
    case 'object':
      return Object.fromEntries((p.properties ?? []).filter((q) => q.required).map((q) => [q.name, exampleValue(q)]));
    default:
      return p.enum?.length ? String(p.enum[0]) : `<${p.name}>`;
  }
}

/** Arguments of an example call: the required params and a param group's (search: a filter on a searchable text field, and a limit). */
export function exampleArguments(entity: EntityIR, action: ActionIR): Record<string, unknown> {
  if (action.name === 'search') {
    const text = entity.searchable?.properties.find((p) => p.types.length === 1 && p.types[0] === 'string');
    return { query: text ? { filter: { eq: { [text.name]: `<${text.name}>` } } } : {}, limit: 10 };
  }
  return Object.fromEntries(exampleParams(action).map((p) => [p.name, exampleValue(p)]));
}

/** The params schema of a pair's tool, with an example call. */
function inputSchema(ir: SpecIR, connector: ConnectorIR, entity: EntityIR, action: ActionIR): JsonSchema {
  const schema = action.name === 'search' ? searchInputSchema(ir, entity) : paramsSchema(action, `${connector.id} ${entity.name} ${action.name}`);
  return { ...schema, examples: [exampleArguments(entity, action)] };
}

/** How a pair's result pages, as the runtime's descriptor (absent: one page). */
function paging(ir: SpecIR, connector: ConnectorIR, action: ActionIR): ToolDefinition['paging'] {
  if (action.result.shape === 'hits') return paginationDescriptor(ir.service.search.pagination, undefined);
  if (action.result.shape !== 'list' || action.pagination === 'none' || action.pagination === 'unspecified') return undefined;
  const scheme = connector.pagination.find((p) => p.name === action.pagination);
  return scheme && paginationDescriptor(scheme, connector);
}

/** What the agent docs list of a tool: no description or schemas, which cost most of a definition to make. */
export interface ToolSummary extends Pick<ToolData, 'name' | 'title' | 'kind' | 'action'> {
  /** The example arguments (the first entry of the full definition's `inputSchema.examples`). */
  example: Record<string, unknown>;
}

/** The summaries of a connector's tools, in the order of toolDefinitions. */
export function toolSummaries(connector: ConnectorIR): ToolSummary[] {
  return connector.entities.flatMap((entity) =>
    entity.actions.map((action) => ({ name: toolName(connector, entity, action), title: title(connector, entity, action), kind: action.kind, action: action.name, example: exampleArguments(entity, action) })),
  );
}

/** Every tool of a connector, in entity and action order. Throws on a name the tool APIs would refuse or a duplicate. */
export function toolDefinitions(ir: SpecIR, connector: ConnectorIR): ToolData[] {
  const tools: ToolData[] = [];
  const names = new Set<string>();
  for (const entity of connector.entities) {
    for (const action of entity.actions) {
      const name = toolName(connector, entity, action);
      if (!/^[a-zA-Z0-9_-]+$/.test(name) || name.length > MAX_TOOL_NAME) throw new Error(`tool name '${name}' (${connector.file}) is not 1–${MAX_TOOL_NAME} characters of [a-zA-Z0-9_-]`);
      if (names.has(name)) throw new Error(`two tools of ${connector.id} are named '${name}'`);
      names.add(name);
      const pages = paging(ir, connector, action);
      tools.push({
        name,
        title: title(connector, entity, action),
        description: describeTool(ir, connector, entity, action),
        connector: connector.id,
        entity: entity.name,
        action: action.name,
        kind: action.kind,
        result: action.result.shape,
        annotations: annotations(connector, entity, action),
        inputSchema: inputSchema(ir, connector, entity, action),
        ...(pages ? { paging: pages } : {}),
      });
    }
  }
  return tools;
}
