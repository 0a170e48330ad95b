/**
 * The description of a tool, written for a model: what the call does and returns, how to page, the limits its
 * params carry, which fields search can filter and with which operators, and whether it reads or writes. Every
 * tool format (MCP, OpenAI, Anthropic, Vercel) carries this one text; nothing is written per connector.
 */
import type { ActionIR, ConnectorIR, EntityIR, PropertyIR, SpecIR } from '../../ir.js';
import { operatorsFor, readingOrder } from '../docs/search-operators.js';

/** Longest description (OpenAI rejects longer function descriptions on some models); the schema says the rest. */
export const MAX_DESCRIPTION = 1024;

/** How much detail fits: full lists first, then shorter ones (the input schema always lists every field). */
type Detail = { fields: number; types: boolean; entity: boolean };
const DETAILS: Detail[] = [
  { fields: 20, types: true, entity: true },
  { fields: 10, types: false, entity: true },
  { fields: 6, types: false, entity: false },
  { fields: 3, types: false, entity: false },
  { fields: 0, types: false, entity: false },
];

const sentence = (text: string | undefined) => (text ? `${text.trim().replace(/\s+/g, ' ').replace(/[.:]?$/, '.')}` : '');

function typeOf(p: PropertyIR): string {
  const base = p.types.join('|');
  return p.types[0] === 'array' && p.items ? `${p.items.types.join('|')}[]` : base;
}

/** `a, b, c and 12 more`. */
function names(list: string[], max: number): string {
  if (max === 0) return `${list.length} (the schema lists them)`;
  return list.length > max ? `${list.slice(0, max).join(', ')} and ${list.length - max} more` : list.join(', ');
}

/** What the result holds. */
function returns(connector: ConnectorIR, entity: EntityIR, action: ActionIR, detail: Detail): string {
  const record = connector.records.find((r) => r.name === (action.result.record ?? entity.record));
  const fields = record?.properties.length ? ` Record fields: ${names(record.properties.map((p) => p.name), detail.fields)}${record.unspecified ? ' (and more the contract does not list)' : ''}.` : '';
  switch (action.result.shape) {
    case 'list':
      return `Returns one page: { records: [${record?.name ?? 'record'}…], meta }.${fields}`;
    case 'single':
      return `Returns one ${record?.name ?? 'record'}.${fields}`;
    case 'hits':
      return 'Returns one page of hits: { hits: [{ id, score, data }], next_cursor, took_ms }; data holds the searchable fields.';
    default:
      return `Returns the file: its name, content type and content (UTF-8 text, else base64)${action.maxBytes ? `; at most ${action.maxBytes} bytes` : ''}.`;
  }
}

/** How to get the next page. */
function paging(connector: ConnectorIR, action: ActionIR): string {
  const continuation = "Next page: call again with the result's 'next' arguments (null on the last page).";
  if (action.result.shape === 'hits') return continuation;
  if (action.result.shape !== 'list') return '';
  if (action.pagination === 'none') return 'One page holds every result.';
  if (action.pagination === 'unspecified') return 'How this action pages is not specified by the contract.';
  const scheme = connector.pagination.find((p) => p.name === action.pagination);
  return `Paging: ${sentence(scheme?.description)} ${continuation}`.replace('Paging:  ', 'Paging: ');
}

/** Bounds, defaults and required params, in words. */
function limits(action: ActionIR): string {
  const required = action.params.filter((p) => p.required).map((p) => p.name);
  const bounded = action.params
    .filter((p) => p.minimum !== undefined || p.maximum !== undefined || p.maxItems !== undefined || p.maxLength !== undefined || p.default !== undefined)
    .map((p) => {
      const parts = [
        p.minimum !== undefined && p.maximum !== undefined ? `${p.minimum}–${p.maximum}` : p.maximum !== undefined ? `at most ${p.maximum}` : p.minimum !== undefined ? `at least ${p.minimum}` : '',
        p.maxItems !== undefined ? `at most ${p.maxItems} entries` : '',
        p.maxLength !== undefined ? `at most ${p.maxLength} characters` : '',
        p.default !== undefined ? `default ${JSON.stringify(p.default)}` : '',
      ].filter(Boolean);
      return `${p.name} ${parts.join(', ')}`;
    });
  return [required.length ? `Required: ${required.join(', ')}.` : '', bounded.length ? `Limits: ${bounded.join('; ')}.` : '', action.paramsUnspecified ? 'The contract does not list all params of this action; others are passed through.' : ''].filter(Boolean).join(' ');
}

/** Searchable fields with their types, and which operators apply to which. */
function searchGrammar(ir: SpecIR, entity: EntityIR, detail: Detail): string {
  const fields = entity.searchable?.properties ?? [];
  const operators = ir.service.search.operators;
  const combinators = readingOrder(operators).filter((op) => op.operand === 'filter' || op.operand === 'filters').map((op) => op.name);
  const grammar = `query.filter: one operator object, e.g. {"eq":{"<field>":value}}; ${combinators.join('/')} combine filters. query.sort: [{"<field>":"asc"|"desc"}].`;
  if (!fields.length) return `${grammar} Searchable fields: not specified by the contract (${sentence(entity.searchable?.unspecified)}).`;
  // Fields grouped by the operators that apply to them (the same rules as the schema and the runtime's types).
  const groups = new Map<string, string[]>();
  for (const f of fields) {
    const ops = operatorsFor(f, operators).map((op) => op.name).join(' ');
    groups.set(ops, [...(groups.get(ops) ?? []), detail.types ? `${f.name} (${typeOf(f)})` : f.name]);
  }
  const byOperators = [...groups].map(([ops, list]) => `${names(list, detail.fields)}: ${ops}`).join('; ');
  return `${grammar} Searchable fields and their operators: ${byOperators}.`;
}

/** Read or write, in words. */
function effect(action: ActionIR): string {
  if (action.kind === 'read') return 'Read-only.';
  if (action.name === 'delete') return 'WRITE: deletes the record in the third-party system; it cannot be undone.';
  return `WRITE: ${action.name === 'create' ? 'creates a record' : 'changes the record'} in the third-party system.`;
}

/** The description of one pair's tool, at the most detail that fits {@link MAX_DESCRIPTION}. */
export function describeTool(ir: SpecIR, connector: ConnectorIR, entity: EntityIR, action: ActionIR): string {
  const what = `${connector.title} — ${entity.name} ${action.name}: ${sentence(action.description)}`;
  // The parts every level of detail says alike, made once.
  const about = entity.description ? `Entity: ${sentence(entity.description)}` : '';
  const pages = paging(connector, action);
  const bounds = action.name === 'search' ? '' : limits(action);
  const deprecated = action.deprecated ? `Deprecated: ${sentence(action.deprecated)}` : '';
  let text = '';
  for (const detail of DETAILS) {
    const parts = [
      what,
      detail.entity ? about : '',
      returns(connector, entity, action, detail),
      pages,
      action.name === 'search' ? searchGrammar(ir, entity, detail) : bounds,
      deprecated,
      effect(action),
    ];
    text = parts.filter(Boolean).join(' ');
    if (text.length <= MAX_DESCRIPTION) return text;
  }
  throw new Error(`internal: the description of ${connector.id} ${entity.name} ${action.name} stays over ${MAX_DESCRIPTION} characters`);
}
