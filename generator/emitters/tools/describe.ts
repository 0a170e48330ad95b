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

/** What the result holds, but its record's field list (recordFields). */
function returns(record: ConnectorIR['records'][number] | undefined, action: ActionIR, fields: (detail: Detail) => string): (detail: Detail) => string {
  switch (action.result.shape) {
    case 'list':
      return (detail) => `Returns one page: { records: [${record?.name ?? 'record'}…], meta }.${fields(detail)}`;
    case 'single':
      return (detail) => `Returns one ${record?.name ?? 'record'}.${fields(detail)}`;
    case 'hits': {
      const text = 'Returns one page of hits: { hits: [{ id, score, data }], next_cursor, took_ms }; data holds the searchable fields.';
      return () => text;
    }
    default: {
      const text = `Returns the file: its name, content type and content (UTF-8 text, else base64)${action.maxBytes ? `; at most ${action.maxBytes} bytes` : ''}.`;
      return () => text;
    }
  }
}

/** The record's fields as `returns` lists them, at a level of detail (empty without fields). */
function recordFields(record: ConnectorIR['records'][number] | undefined): (detail: Detail) => string {
  if (!record?.properties.length) return () => '';
  const list = record.properties.map((p) => p.name);
  const more = record.unspecified ? ' (and more the contract does not list)' : '';
  return (detail) => ` Record fields: ${names(list, detail.fields)}${more}.`;
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

/**
 * Searchable fields with their types, and which operators apply to which: the fields are grouped once per tool, and
 * each level of detail only lists them.
 */
function searchGrammar(ir: SpecIR, entity: EntityIR): (detail: Detail) => string {
  const fields = entity.searchable?.properties ?? [];
  const operators = ir.service.search.operators;
  const combinators = readingOrder(operators).filter((op) => op.operand === 'filter' || op.operand === 'filters').map((op) => op.name);
  const grammar = `query.filter: one operator object, e.g. {"eq":{"<field>":value}}; ${combinators.join('/')} combine filters. query.sort: [{"<field>":"asc"|"desc"}].`;
  if (!fields.length) {
    const text = `${grammar} Searchable fields: not specified by the contract (${sentence(entity.searchable?.unspecified)}).`;
    return () => text;
  }
  // Fields grouped by the operators that apply to them (the same rules as the schema and the runtime's types).
  const groups = new Map<string, PropertyIR[]>();
  for (const f of fields) {
    const ops = operatorsFor(f, operators).map((op) => op.name).join(' ');
    const group = groups.get(ops);
    if (group) group.push(f);
    else groups.set(ops, [f]);
  }
  const listed = (label: (f: PropertyIR) => string) => [...groups].map(([ops, list]) => [ops, list.map(label)] as const);
  const typed = listed((f) => `${f.name} (${typeOf(f)})`);
  let plain: typeof typed | undefined;
  return (detail) => {
    const byOperators = (detail.types ? typed : (plain ??= listed((f) => f.name))).map(([ops, list]) => `${names(list, detail.fields)}: ${ops}`).join('; ');
    return `${grammar} Searchable fields and their operators: ${byOperators}.`;
  };
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
  // The parts every level of detail says alike, made once; the others are functions of the detail.
  const about = entity.description ? `Entity: ${sentence(entity.description)}` : '';
  const record = connector.records.find((r) => r.name === (action.result.record ?? entity.record));
  const result = returns(record, action, recordFields(record));
  const pages = paging(connector, action);
  const grammar = action.name === 'search' ? searchGrammar(ir, entity) : undefined;
  const bounds = grammar ? '' : limits(action);
  const deprecated = action.deprecated ? `Deprecated: ${sentence(action.deprecated)}` : '';
  const writes = effect(action);
  for (const detail of DETAILS) {
    const parts = [what, detail.entity ? about : '', result(detail), pages, grammar ? grammar(detail) : bounds, deprecated, writes];
    const text = parts.filter(Boolean).join(' ');
    if (text.length <= MAX_DESCRIPTION) return text;
  }
  throw new Error(`internal: the description of ${connector.id} ${entity.name} ${action.name} stays over ${MAX_DESCRIPTION} characters`);
}
