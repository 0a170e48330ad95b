/**
 * Valid requests of each entity–action pair, as data: which params a request sends and where each value comes from
 * (a literal that satisfies the param's constraints, or a key or field of a fixture record, so the mock finds what
 * the request names). The contract-tests emitter writes them as code; the OpenAPI proxy test
 * (test/openapi-prism.test.ts) resolves them against generated/fixtures/. One rule set, read by both.
 */
import { entityFields, identifyingParam } from '../fixtures/dataset.js';
import type { ActionIR, ConnectorIR, EntityIR, PropertyIR } from '../../ir.js';

/** The scalar type a key is sent as. */
export type KeyType = 'string' | 'integer' | 'number';

/** Where one param value of a request comes from. */
export type ParamSource =
  | { from: 'literal'; value: unknown }
  | { from: 'key'; entity: string; index: number; type: KeyType }
  | { from: 'field'; entity: string; index: number; field: string };

/** Actions that address one record. */
const ADDRESSING: readonly string[] = ['get', 'update', 'delete', 'download'];

/** A value that satisfies a param's constraints. */
export function exampleValue(p: PropertyIR): unknown {
  if (p.const !== undefined) return p.const;
  if (p.enum?.length) return p.enum[0];
  switch (p.types[0]) {
    case 'integer':
    case 'number':
      return Math.min(Math.max(p.minimum ?? 1, 1), p.maximum ?? Number.MAX_SAFE_INTEGER);
    case 'boolean':
      return true;
    case 'array':
      return p.items?.enum?.length ? [p.items.enum[0]] : [];
    case 'object':
      return Object.fromEntries((p.properties ?? []).filter((x) => x.required).map((x) => [x.name, exampleValue(x)]));
    default: {
      const text = p.pattern ? 'contract-test' : `contract ${p.name}`;
      return p.maxLength !== undefined ? text.slice(0, p.maxLength) : text;
    }
  }
}

/** The type a param that holds a key is sent as. */
export const keyType = (p: PropertyIR | undefined): KeyType => (p?.types[0] === 'integer' || p?.types[0] === 'number' ? p.types[0] : 'string');

/** The param that names the target record of a get/update/delete/download (none: the mock scans param values). */
export function targetParam(entity: EntityIR, action: ActionIR): PropertyIR | undefined {
  const key = identifyingParam(entity);
  const own = action.params.find((p) => p.name === key?.name);
  if (own) return own;
  const required = action.params.filter((p) => p.required && p.const === undefined && !p.enum);
  return required.find((p) => /(^id$|Id$|_id$|gid$)/.test(p.name)) ?? (action.params.length === 0 && action.paramsUnspecified ? undefined : required.at(-1));
}

/**
 * The params of a valid request, in order: the required ones, and the target param (reading fixture record `index`);
 * a list filter that names a record field takes fixture record 0's value, so the answer is not empty. Where the
 * contract does not show the params of an addressing action, `id` carries the key (the mock finds a record by any
 * param value that is its key). Params in `skip` are left out (the caller sets them).
 */
export function requestParams(connector: ConnectorIR, entity: EntityIR, action: ActionIR, index: number, skip: ReadonlySet<string> = new Set()): [string, ParamSource][] {
  const fields = new Set(entityFields(connector, entity).map((f) => f.name));
  const target = ADDRESSING.includes(action.name) ? targetParam(entity, action) : undefined;
  const filters = (action.name === 'list' || action.name === 'api_search') && entity.actions.some((a) => a.name === 'list');
  const out: [string, ParamSource][] = [];
  for (const p of action.params) {
    if (skip.has(p.name)) continue;
    if (p === target) out.push([p.name, { from: 'key', entity: entity.name, index, type: keyType(p) }]);
    else if (!p.required) continue;
    else if (filters && fields.has(p.name) && p.types[0] !== 'object' && p.types[0] !== 'array' && p.const === undefined && !p.enum) out.push([p.name, { from: 'field', entity: entity.name, index: 0, field: p.name }]);
    else out.push([p.name, { from: 'literal', value: exampleValue(p) }]);
  }
  if (target === undefined && !skip.has('id') && action.paramsUnspecified && ADDRESSING.includes(action.name)) out.push(['id', { from: 'key', entity: entity.name, index, type: 'string' }]);
  return out;
}

/** A query-language param's query that matches one fixture record: the fields to take a value from, and the writer. */
export interface QueryLanguage {
  /** Record fields whose value the query matches on (none: any string field of the record). */
  fields?: string[];
  /** The query matching records whose `field` equals `value`. */
  write(field: string, value: string): unknown;
}

/** Every query language of the spec's api_search params (ParamIR.queryLanguage), in the subset the mock reads. */
export const QUERY_LANGUAGES: Record<NonNullable<PropertyIR['queryLanguage']>, QueryLanguage> = {
  search_query: { write: (field, value) => `${field}:"${value}"` },
  jql: { fields: ['key', 'id'], write: (field, value) => `${field} = "${value}"` },
  drive_query: { fields: ['name'], write: (field, value) => `${field} = '${value}'` },
  code_search: { fields: ['id'], write: (_field, value) => value },
  filter_groups: { fields: ['id'], write: (field, value) => [{ filters: [{ propertyName: field, operator: 'EQ', value }] }] },
};

/** The action's query-language param and the record fields a matching query may use, if it has one. */
export function queryParam(connector: ConnectorIR, entity: EntityIR, action: ActionIR): { param: PropertyIR; fields: string[] } | undefined {
  const param = action.params.find((p) => p.queryLanguage);
  if (!param) return undefined;
  const strings = entityFields(connector, entity).filter((f) => f.types[0] === 'string' && !f.enum && f.const === undefined).map((f) => f.name);
  return { param, fields: QUERY_LANGUAGES[param.queryLanguage!].fields ?? strings };
}
