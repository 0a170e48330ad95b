/**
 * Valid requests of each entity–action pair, as data: which params a request sends and where each value comes from
 * (a literal that satisfies the param's constraints and format, or a key or field of a fixture record, so the mock
 * finds what the request names). Read from the spec's rules: the action's `keyParam` addresses the record, `matches`
 * params filter by a value a fixture record holds, each param group is satisfied with the alternative that filters
 * least, and entities with `recordsFrom` address their owner's records. The contract-tests emitter renders these as
 * code (params.ts); the OpenAPI proxy test (test/openapi-prism.test.ts) resolves them against generated/fixtures/.
 * One definition of a valid request, read by both.
 */
import { entityFields, identifyingParam, recordCount } from '../fixtures/entity-facts.js';
import { parentIndexOf } from '../fixtures/model.js';
import { authConfigFields, parentChain, recordsEntity, type ActionIR, type ConnectorIR, type EntityIR, type PropertyIR } from '../../ir.js';
import { FORMAT_EXAMPLES } from '../validators/json-schema.js';

/** The scalar type a key is sent as. */
export type KeyType = 'string' | 'integer' | 'number';

/** Where one param value of a request comes from. */
export type ParamSource =
  | { from: 'literal'; value: unknown }
  | { from: 'key'; entity: string; index: number; type: KeyType }
  | { from: 'field'; entity: string; index: number; field: string };

/** A request's params, in order: name and where the value comes from. */
export type RequestParams = [name: string, source: ParamSource][];

/** Actions that address one record. */
const ADDRESSING: readonly string[] = ['get', 'update', 'delete', 'download'];

/** Fixture record each action's request addresses: deletes and updates never touch the record reads compare with. */
export const RECORD_INDEX: Readonly<Partial<Record<ActionIR['name'], number>>> = { update: 1, delete: 2 };

/** Reads before writes, so reads see the fixtures as generated (a sort comparator of actions). */
const readsFirst = (a: ActionIR, b: ActionIR): number => (a.kind === b.kind ? 0 : a.kind === 'read' ? -1 : 1);

/**
 * Every entity–action pair of a connector in the order requests are sent: the reads of all entities before any
 * write (a write to an entity another one reads from would skew it), otherwise the spec's order.
 */
export function pairsInOrder(connector: ConnectorIR): (readonly [EntityIR, ActionIR])[] {
  return connector.entities.flatMap((e) => e.actions.map((a) => [e, a] as const)).sort((x, y) => readsFirst(x[1], y[1]));
}

/** A value that satisfies a param's constraints and format. */
export function exampleValue(p: PropertyIR): unknown {
  if (p.const !== undefined) return p.const;
  if (p.enum?.length) return p.enum[0];
  if (p.format) return FORMAT_EXAMPLES[p.format];
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

/** The type a param that holds a key is sent as (integer keys stay numbers, others are strings). */
export const keyType = (p: PropertyIR | undefined): KeyType => (p?.types[0] === 'integer' || p?.types[0] === 'number' ? p.types[0] : 'string');

/** The param that names the target record of a get/update/delete/download (none: the mock finds a singleton). */
export function targetParam(action: ActionIR): PropertyIR | undefined {
  return ADDRESSING.includes(action.name) && action.keyParam ? action.params.find((p) => p.name === action.keyParam) : undefined;
}

/** The names of entityFields, per fields list (entityFields keeps each entity's): every request of a pair reads them. */
const namesOf = new WeakMap<readonly PropertyIR[], ReadonlySet<string>>();

function fieldNames(connector: ConnectorIR, entity: EntityIR): ReadonlySet<string> {
  const fields = entityFields(connector, entity);
  let names = namesOf.get(fields);
  if (!names) namesOf.set(fields, (names = new Set(fields.map((f) => f.name))));
  return names;
}

/** The alternative of each param group a call gives: the one with the fewest params that filter records. */
function groupParams(connector: ConnectorIR, entity: EntityIR, action: ActionIR): Set<string> {
  const fields = fieldNames(connector, entity);
  const out = new Set<string>();
  for (const group of action.paramGroups ?? []) {
    const filtering = (alt: string[]) => alt.filter((n) => fields.has(n)).length;
    const best = [...group.alternatives].sort((a, b) => filtering(a) - filtering(b) || a.length - b.length)[0]!;
    best.forEach((n) => out.add(n));
  }
  return out;
}

/** A param of a parent rule an action acts within: the entities from the record up to the parent it names, and the field. */
export interface ParentLink {
  /** The param. */
  param: string;
  /** Entity names from the record's parent up to the one the param names (one: its parent; two: its grandparent). */
  chain: string[];
  /** The field of that record the param gives. */
  field: string;
}

/**
 * The params of the parent rule an action acts within, and of its parent's rule where the action names that one too
 * (comments list: the number and its repository's repo).
 */
export function parentLinks(connector: ConnectorIR, entity: EntityIR, action: ActionIR): ParentLink[] {
  const out: ParentLink[] = [];
  const rules = parentChain(connector, entity, action);
  rules.forEach((rule, i) => {
    const chain = rules.slice(0, i + 1).map((r) => r.entity);
    for (const p of rule.params) if (!out.some((l) => l.param === p.param)) out.push({ param: p.param, chain, field: p.field });
  });
  return out;
}

/** The params that name the parent record (parentLinks) of fixture record `index`, read from that parent's fixture record. */
export function parentParams(connector: ConnectorIR, entity: EntityIR, action: ActionIR, index: number): Map<string, ParamSource> {
  const out = new Map<string, ParamSource>();
  for (const link of parentLinks(connector, entity, action)) {
    let at = index;
    for (const name of link.chain) at = parentIndexOf(at, recordCount(connector, connector.entities.find((e) => e.name === name)!, {}));
    out.set(link.param, { from: 'field', entity: link.chain.at(-1)!, index: at, field: link.field });
  }
  return out;
}

/**
 * The params of a valid request, in order: the required ones (and those a param group needs); the target param reads
 * fixture record `index`; list filters read record 0 (by the field they match), so the answer is not empty; params of a
 * parent rule name the parent of the record addressed (parentParams). Params
 * in `skip` are left out (the caller sets them).
 */
export function requestParams(connector: ConnectorIR, entity: EntityIR, action: ActionIR, index: number, skip: ReadonlySet<string> = new Set()): RequestParams {
  const owner = recordsEntity(connector, entity);
  const fields = fieldNames(connector, owner);
  const target = targetParam(action);
  const filters = (action.name === 'list' || action.name === 'api_search') && owner.actions.some((a) => a.name === 'list');
  const grouped = groupParams(connector, owner, action);
  const out: RequestParams = [];
  const field = (name: string): ParamSource => ({ from: 'field', entity: entity.name, index: 0, field: name });
  // A record is addressed within its parent; a list within the parent of record `index` holds that record.
  const parents = parentParams(connector, entity, action, index);
  for (const p of action.params) {
    if (skip.has(p.name)) continue;
    const parent = parents.get(p.name);
    if (parent) out.push([p.name, parent]);
    else if (p === target) out.push([p.name, { from: 'key', entity: entity.name, index, type: keyType(p) }]);
    else if (!p.required && !grouped.has(p.name)) continue;
    else if (filters && p.matches && p.types[0] !== 'object') out.push([p.name, field(p.matches.fields[0]!)]);
    else if (filters && fields.has(p.name) && p.types[0] !== 'object' && p.types[0] !== 'array' && p.const === undefined && !p.enum) out.push([p.name, field(p.name)]);
    else out.push([p.name, { from: 'literal', value: exampleValue(p) }]);
  }
  return out;
}

/** `base` without the params `extra` sets, then `extra`. */
function withParams(connector: ConnectorIR, entity: EntityIR, action: ActionIR, index: number, extra: RequestParams): RequestParams {
  return [...requestParams(connector, entity, action, index, new Set(extra.map(([name]) => name))), ...extra];
}

/** The entity whose record a write changes and answers with, when it is another entity's (named by its key param). */
export function writeThroughTarget(connector: ConnectorIR, entity: EntityIR, action: ActionIR): EntityIR | undefined {
  const target = connector.entities.find((e) => e !== entity && !e.recordsFrom && e.record === action.result.record);
  const key = target && identifyingParam(target);
  return target && key && action.params.some((p) => p.name === key.name) ? target : undefined;
}

const hiddenText = (f: PropertyIR) => f.types[0] === 'string' && !f.enum && f.const === undefined && !f.format && !/(^id$|_id$|Id$)/.test(f.name);

/**
 * Create params: the required ones, and (where the contract hides them) two string fields of the record. A param the
 * entity's list filters by (an issue's comments by issueId) takes the value the list reads, so the created record is
 * in that list; a write answered with another entity's record (a channel's topic set) names one that exists.
 */
export function createParams(connector: ConnectorIR, entity: EntityIR, action: ActionIR): RequestParams {
  const extra: RequestParams = [];
  const owner = recordsEntity(connector, entity);
  const list = owner.actions.find((a) => a.name === 'list');
  for (const p of action.params.filter((x) => x.required)) {
    const filter = list?.params.find((x) => x.name === p.name && x.required);
    if (filter?.matches) extra.push([p.name, { from: 'field', entity: owner.name, index: 0, field: filter.matches.fields[0]! }]);
  }
  const target = writeThroughTarget(connector, entity, action);
  const key = target && identifyingParam(target);
  if (target && key) extra.push([key.name, { from: 'key', entity: target.name, index: 0, type: keyType(key) }]);
  if (action.paramsUnspecified) {
    for (const f of entityFields(connector, entity).filter(hiddenText).slice(0, 2)) extra.push([f.name, { from: 'literal', value: `contract ${f.name}` }]);
  }
  return withParams(connector, entity, action, 0, extra);
}

/** The value an update changes: a non-target param that names a record field, else a hidden string field. */
export function changedParam(connector: ConnectorIR, entity: EntityIR, action: ActionIR): RequestParams {
  const fields = entityFields(connector, recordsEntity(connector, entity));
  const target = targetParam(action);
  const changeable = (p: PropertyIR) => p !== target && p.types[0] === 'string' && !p.enum && p.const === undefined && !p.format;
  const param = action.params.find((p) => changeable(p) && fields.some((f) => f.name === p.name)) ?? action.params.find((p) => changeable(p) && p.required) ?? action.params.find(changeable);
  if (param) return [[param.name, { from: 'literal', value: param.pattern ? 'renamed-record' : `updated ${param.name}` }]];
  const field = fields.find((f) => hiddenText(f) && f.name !== target?.name);
  return field && action.paramsUnspecified ? [[field.name, { from: 'literal', value: `updated ${field.name}` }]] : [];
}

/** Update params: the record at RECORD_INDEX.update, with one value changed. */
export function updateParams(connector: ConnectorIR, entity: EntityIR, action: ActionIR): RequestParams {
  return withParams(connector, entity, action, RECORD_INDEX.update!, changedParam(connector, entity, action));
}

/**
 * The one valid request of a pair that succeeds: creates and updates as above, deletes address RECORD_INDEX.delete,
 * other actions record 0. (A query-language param is set by the caller from a sample record: see queryParam.)
 */
export function validRequest(connector: ConnectorIR, entity: EntityIR, action: ActionIR): RequestParams {
  if (action.name === 'create') return createParams(connector, entity, action);
  if (action.name === 'update') return updateParams(connector, entity, action);
  return requestParams(connector, entity, action, RECORD_INDEX[action.name] ?? 0);
}

/**
 * The auth_config a test source is created with: a placeholder of every credential, and every configuration
 * variable supplied there in its format (advertising's region_url, a URL), so what the service accepts is exercised.
 */
export function sourceAuthConfig(connector: ConnectorIR): RequestParams {
  return authConfigFields(connector.auth).map((m) => [m.name, { from: 'literal', value: m.format ? exampleValue(m) : `<${m.name}>` }]);
}

/** A query-language param's query that matches one fixture record: the fields to take a value from, and the writer. */
export interface QueryLanguage {
  /** Record fields whose value the query matches on, in order of preference (none: any free-text field). */
  fields?: string[];
  /** Also any string field of the record, enums included (code search matches free words in any text). */
  anyText?: boolean;
  /** The query matching records whose `field` equals `value`. */
  write(field: string, value: string): unknown;
}

/** Every query language of the spec's api_search params (ParamIR.queryLanguage), in the subset the mock reads. */
export const QUERY_LANGUAGES: Record<NonNullable<PropertyIR['queryLanguage']>, QueryLanguage> = {
  search_query: { write: (field, value) => `${field}:"${value}"` },
  jql: { fields: ['key', 'id'], write: (field, value) => `${field} = "${value}"` },
  drive_query: { fields: ['name'], write: (field, value) => `${field} = '${value}'` },
  code_search: { fields: ['id'], anyText: true, write: (_field, value) => value },
  filter_groups: { fields: ['id'], write: (field, value) => [{ filters: [{ propertyName: field, operator: 'EQ', value }] }] },
};

/** The action's query-language param and the record fields a matching query may use, if it has one. */
export function queryParam(connector: ConnectorIR, entity: EntityIR, action: ActionIR): { param: PropertyIR; fields: string[] } | undefined {
  const param = action.params.find((p) => p.queryLanguage);
  if (!param) return undefined;
  const language = QUERY_LANGUAGES[param.queryLanguage!];
  const strings = entityFields(connector, entity).filter((f) => f.types[0] === 'string' && f.const === undefined);
  const fields = language.anyText ? [...(language.fields ?? []), ...strings.map((f) => f.name)] : (language.fields ?? strings.filter((f) => !f.enum).map((f) => f.name));
  return { param, fields };
}
