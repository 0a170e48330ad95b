/**
 * Execute's actions over a source's records: list and api_search (selection + the connector's paging), get, create,
 * update and delete (visible to every later read), search (the uniform search engine over the same records) and
 * download (bytes, with ranges). Everything is driven by the IR: no connector is named here.
 */
import { identifyingParam } from '../generator/emitters/fixtures/entity-facts.js';
import { getPath, setPath } from '../generator/emitters/fixtures/model.js';
import { Random } from '../generator/emitters/fixtures/random.js';
import { identifier, valueFor } from '../generator/emitters/fixtures/values.js';
import type { ActionIR, ConnectorIR, EntityIR, PropertyIR, ShapeIR } from '../generator/ir.js';
import { HttpError, invalidParams } from './errors.js';
import { resolveParent, type ParentScope } from './parent.js';
import { cutPage } from './paging.js';
import { projectRecord } from './query/index.js';
import { checkInvariants } from './rules.js';
import { SearchRequestError } from './search/index.js';
import { selectRecords } from './select.js';
import type { EntityStore, Row, SourceData } from './store.js';

/** What an action answers: a JSON envelope, or bytes. */
export type ActionResult =
  | { kind: 'json'; status: number; records: unknown; meta?: unknown }
  | { kind: 'bytes'; status: number; body: Uint8Array; headers: Record<string, string> };

/** Per-request facts an action needs besides its params. */
export interface ActionContext {
  /** The source's data. */
  source: SourceData;
  /** The entity of the request (its records may be another entity's: recordsFrom). */
  entity: EntityIR;
  /** The store of the entity's records. */
  store: EntityStore;
  /** The action of the spec. */
  action: ActionIR;
  /** URL of the execute endpoint (next-page links point at it). */
  url: string;
  /** HTTP Range header of the request, if any. */
  rangeHeader?: string;
}

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function shapeOf(connector: ConnectorIR, name: string | undefined): ShapeIR | undefined {
  return connector.records.find((r) => r.name === name);
}

/** A stored record as the action's result shape lists it (closed shapes keep their own fields only). */
function asResult(connector: ConnectorIR, action: ActionIR, record: Record<string, unknown>): Record<string, unknown> {
  const shape = shapeOf(connector, action.result.record);
  if (!shape || shape.unspecified !== undefined || shape.properties.length === 0) return record;
  return Object.fromEntries(shape.properties.filter((p) => Object.hasOwn(record, p.name)).map((p) => [p.name, record[p.name]]));
}

/**
 * The record a get, update, delete or download names: by the action's key param (its key, else a field of its
 * alternateKeys), else by a param named like the record's key field, else by any param value that is a key; a
 * singleton is found without params.
 */
export function findTarget(store: EntityStore, action: ActionIR, params: Record<string, unknown>): Row | undefined {
  if (action.keyParam !== undefined) {
    const value = params[action.keyParam];
    let row = store.find(value);
    for (const field of action.alternateKeys?.fields ?? []) row ??= store.findBy(field, value);
    return row;
  }
  const path = store.model.keyPath;
  if (path !== undefined && !path.includes('.') && params[path] !== undefined) return store.find(params[path]);
  for (const value of Object.values(params)) {
    const row = store.find(value);
    if (row !== undefined) return row;
  }
  return store.model.count === 1 && store.size === 1 ? store.rowAt(0) : undefined;
}

function missing(ctx: ActionContext, params: Record<string, unknown>, scope?: ParentScope): HttpError {
  const { store, action, entity } = ctx;
  const owner = store.model.entity.name;
  const where = owner === entity.name ? '' : ` (${entity.name} addresses ${owner} records)`;
  const inParent = scope ? ` in the ${scope.rule.entity} record ${scope.named} names` : '';
  const ofParent = scope ? ` of that ${scope.rule.entity} record` : '';
  if (action.keyParam !== undefined) {
    const value = params[action.keyParam];
    const alternates = (action.alternateKeys?.fields ?? []).map((f) => `, or its ${f}`).join('');
    const message = `no ${owner} record with ${action.keyParam} ${JSON.stringify(value)}${inParent}${where}; ${action.keyParam} takes the key${store.model.keyPath ? ` (${store.model.keyPath})` : ''} of an existing ${owner} record${ofParent}${alternates}`;
    // The field problem names the param, so clients read where (field) and what (error_code: the error's code).
    return new HttpError(404, message, [{ field: `params.${action.keyParam}`, message: `names no ${owner} record${ofParent}`, error_code: 'record_not_found' }]);
  }
  return new HttpError(404, `no ${owner} record matches params ${JSON.stringify(params)}${inParent}${where}`, [{ field: 'params', message: `name no ${owner} record${ofParent}`, error_code: 'record_not_found' }]);
}

/**
 * The row a get, update, delete or download addresses: within the parent record its params name (404 when they name
 * none, or when the record belongs to another parent), else anywhere.
 */
function targetRow(ctx: ActionContext, params: Record<string, unknown>): Row {
  const scope = resolveParent(ctx.source, ctx.entity, ctx.action, params);
  const row = findTarget(ctx.store, ctx.action, params);
  if (row === undefined || (scope && !scope.holds(row))) throw missing(ctx, params, scope);
  return row;
}

/** Whether a value fits a record field's type, constant and allowed values (what the record's schema holds it to). */
function fitsField(value: unknown, f: PropertyIR): boolean {
  if (value === null) return f.nullable;
  if (f.const !== undefined) return value === f.const;
  if (f.enum && !f.enum.includes(value as never)) return false;
  const kind = Array.isArray(value) ? 'array' : typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value;
  return f.types.some((t) => t === 'any' || t === kind || (t === 'number' && kind === 'integer'));
}

/**
 * A write's params that name a record field (at the top level) must fit it: a customer update cannot make `object`
 * "invoice" or `created` "yesterday" (the contract may not show the write's params, but it shows the record).
 */
function checkWrittenFields(params: Record<string, unknown>, fields: readonly PropertyIR[]): void {
  const problems = fields
    .filter((f) => Object.hasOwn(params, f.name) && params[f.name] !== undefined && !fitsField(params[f.name], f))
    .map((f) => ({ field: `params.${f.name}`, message: `names the record field ${f.name}, which holds ${f.const !== undefined ? JSON.stringify(f.const) : `${f.enum ? `one of ${f.enum.map((v) => JSON.stringify(v)).join(', ')}` : f.types.join(' or ')}${f.nullable ? ' or null' : ''}`}`, error_code: 'invalid_field_value' }));
  if (problems.length) throw invalidParams(`invalid params: ${problems.map((p) => `${p.field.slice(7)} ${p.message}`).join('; ')}`, problems);
}

/** Copies params that name fields of the record onto it; never a prototype key. */
function overlay(record: Record<string, unknown>, params: Record<string, unknown>, fields: Set<string>): boolean {
  let any = false;
  for (const [k, v] of Object.entries(params)) {
    if (UNSAFE_KEYS.has(k) || !fields.has(k)) continue;
    record[k] = v;
    any = true;
  }
  return any;
}

/**
 * Writes params onto a record: those that name its fields; when none does and the record is one object field
 * (e.g. a `data` object whose contents the contract does not show), inside that object.
 */
function write(record: Record<string, unknown>, params: Record<string, unknown>, props: readonly PropertyIR[]): void {
  if (overlay(record, params, new Set(props.map((p) => p.name)))) return;
  const wrapper = wrapperField(props);
  if (!wrapper) return;
  const name = wrapper.name;
  const inner = { ...(record[name] as object) } as Record<string, unknown>;
  overlay(inner, params, new Set(Object.keys(params)));
  record[name] = inner;
}

/** The one field of a record that is one object (issue_tracking's `data`), which holds what writes give; else undefined. */
function wrapperField(props: readonly PropertyIR[]): PropertyIR | undefined {
  return props.length === 1 && props[0]!.types[0] === 'object' ? props[0] : undefined;
}

/** The list position of a key in a selection (rows: the selection's rows; none: every row of the store). */
function positionIn(store: EntityStore, rows: readonly Row[] | undefined, key: unknown): number {
  const row = store.find(key);
  if (row === undefined) return -1;
  if (rows) return rows.indexOf(row);
  return store.positionOf(row);
}

function list(ctx: ActionContext, params: Record<string, unknown>): ActionResult {
  const { source, store, action } = ctx;
  const scheme = source.connector.pagination.find((s) => s.name === action.pagination);
  const scope = resolveParent(source, ctx.entity, action, params);
  const selection = selectRecords(store, action, scheme, params);
  // Within a parent: only its records, in the selection's order.
  const rows = scope ? (selection.rows ?? Array.from(store.rows())).filter(scope.holds) : selection.rows;
  const total = rows ? rows.length : store.size;
  const rowAt = (i: number) => (rows ? rows[i]! : store.rowAt(i));
  const meta = source.connector.meta.find((m) => m.name === action.result.meta);
  const page = cutPage(action, scheme, meta, params, total, (i) => store.keyOf(rowAt(i)), ctx.url, (key) => positionIn(store, rows, key), (i, path) => store.valueOf(rowAt(i), path));
  const records: Record<string, unknown>[] = [];
  for (let i = page.from; i < page.to; i++) records.push(projectRecord(asResult(source.connector, action, store.recordOf(rowAt(i))), selection.project));
  return { kind: 'json', status: 200, records, meta: page.meta };
}

function get(ctx: ActionContext, params: Record<string, unknown>): ActionResult {
  const row = targetRow(ctx, params);
  return { kind: 'json', status: 200, records: asResult(ctx.source.connector, ctx.action, ctx.store.recordOf(row)) };
}

/** A value of the ordering field that puts a new record where the newest belongs: now, or just past the newest. */
function newestValue(store: EntityStore, field: PropertyIR): unknown {
  const ordering = store.model.ordering!;
  const now = Date.now() / 1000;
  const edge = store.size === 0 ? undefined : store.valueOf(store.rowAt(ordering.direction === 'desc' ? 0 : store.size - 1), ordering.field);
  if (field.types.includes('integer') || field.types.includes('number')) return Math.max(Math.floor(now), typeof edge === 'number' ? edge + 1 : 0);
  if (field.format === 'unix_time_string') {
    const micros = Math.max(Math.round(now * 1e6), typeof edge === 'string' ? Math.round(Number(edge) * 1e6) + 1 : 0);
    return `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`;
  }
  if (typeof edge === 'string' && !Number.isNaN(Date.parse(edge))) return new Date(Math.max(now * 1000, Date.parse(edge) + 1000)).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return undefined;
}

/**
 * A write whose result is the record of another entity, named by that entity's key param (channel_topics create
 * with `channel`, answered with the channel): the write changes that record, and the answer is the record.
 */
function writeThrough(ctx: ActionContext, params: Record<string, unknown>): ActionResult | undefined {
  const { source, action, entity } = ctx;
  const owner = source.connector.entities.find((e) => e !== entity && !e.recordsFrom && e.record === action.result.record);
  const keyParam = owner && identifyingParam(owner)?.name;
  if (!owner || keyParam === undefined || !action.params.some((p) => p.name === keyParam)) return undefined;
  const { store } = source.entity(owner.name)!;
  const row = store.find(params[keyParam]);
  if (row === undefined) {
    const message = `no ${owner.name} record with ${keyParam} ${JSON.stringify(params[keyParam])}; ${keyParam} takes the key of an existing ${owner.name} record`;
    throw new HttpError(404, message, [{ field: `params.${keyParam}`, message: `names no ${owner.name} record`, error_code: 'record_not_found' }]);
  }
  const key = store.keyOf(row);
  const record = { ...store.recordOf(row) };
  const { [keyParam]: _key, ...changes } = params;
  checkWrittenFields(changes, store.model.fields);
  write(record, changes, store.model.fields);
  checkInvariants(store.model.invariants, record, changes);
  store.put(key, record);
  return { kind: 'json', status: 200, records: asResult(source.connector, action, record) };
}

function create(ctx: ActionContext, params: Record<string, unknown>): ActionResult {
  const through = writeThrough(ctx, params);
  if (through) return through;
  const { source, store, action, entity } = ctx;
  const scope = resolveParent(source, entity, action, params);
  const model = store.model;
  // A param the create does not give holds its default, as the service applies it (issue_tracking priority 0).
  params = { ...Object.fromEntries(action.params.filter((p) => p.default !== undefined).map((p) => [p.name, p.default])), ...params };
  checkWrittenFields(params, model.fields);
  const record = blankUnsent(store.template(), model.fields, params, model.keyPath, model.ordering?.field);
  write(record, params, model.fields);
  // The record's own field naming its parent holds the parent it was created under.
  if (scope?.rule.field) setPath(record, scope.rule.field, scope.value);
  // The newest record of an ordered list comes first (or last) as the order says.
  const ordering = model.ordering;
  const orderField = ordering && model.fields.find((f) => f.name === ordering.field);
  if (orderField && params[orderField.name] === undefined) {
    const value = newestValue(store, orderField);
    if (value !== undefined) record[orderField.name] = value;
  }
  checkInvariants(model.invariants, record, params);
  const shape = shapeOf(source.connector, model.entity.record);
  const keyPath = model.keyPath;
  const ruled = keyPath !== undefined && keyPath === ordering?.field ? getPath(record, keyPath) : undefined;
  const key = (ruled as string | number | undefined) ?? store.newKey((serial, attempt) => identifier(Random.for(Random.for('create', source.id, model.entity.name, serial).next(), 'key', attempt), shape?.idFormat, shape?.idPrefix));
  if (keyPath !== undefined) setPath(record, keyPath, key);
  store.put(key, record);
  if (scope) store.setParent(key, scope.key);
  const result = action.result.record === entity.record || action.result.record === model.entity.record ? asResult(source.connector, action, record) : resultShape(source.connector, action, params, key);
  return { kind: 'json', status: 200, records: result };
}

/**
 * A new record's values for what its create did not give (params with a default were given it by create): null where
 * the field may be null, false for a flag — not the generated values of a fixture record (a new message that looks
 * like a reply, a new channel already archived). The key, the ordering field, constants and derived values keep the
 * template's, as do other required values.
 */
function blankUnsent(record: Record<string, unknown>, fields: readonly PropertyIR[], params: Record<string, unknown>, keyPath: string | undefined, orderField: string | undefined): Record<string, unknown> {
  // A record that is one object (issue_tracking's `data`) holds the create's params inside it (write): blanked likewise.
  const wrapper = wrapperField(fields);
  const inner = wrapper?.properties && record[wrapper.name];
  if (wrapper?.properties && inner !== null && typeof inner === 'object' && !Array.isArray(inner)) {
    const innerKey = keyPath?.startsWith(`${wrapper.name}.`) ? keyPath.slice(wrapper.name.length + 1) : undefined;
    record[wrapper.name] = blankUnsent({ ...(inner as Record<string, unknown>) }, wrapper.properties!, params, innerKey, orderField);
    return record;
  }
  const top = keyPath?.split('.')[0];
  for (const f of fields) {
    if (params[f.name] !== undefined || f.name === top || f.name === orderField || f.const !== undefined || f.derive || f.name.includes('.')) continue;
    if (f.types.length === 1 && f.types[0] === 'boolean') record[f.name] = false;
    else if (f.nullable) record[f.name] = null;
  }
  return record;
}

/** A result of another shape than the entity's record (e.g. a topic change answered with the channel). */
function resultShape(connector: ConnectorIR, action: ActionIR, params: Record<string, unknown>, key: string | number): Record<string, unknown> {
  const shape = shapeOf(connector, action.result.record);
  const out: Record<string, unknown> = Object.fromEntries((shape?.properties ?? []).map((p) => [p.name, valueFor(Random.for('result', action.name, p.name, String(key)), p.name, p)]));
  overlay(out, params, new Set(shape?.properties.map((p) => p.name) ?? []));
  if (!shape || shape.properties.length === 0) out['id'] ??= key;
  return out;
}

function update(ctx: ActionContext, params: Record<string, unknown>): ActionResult {
  const { store, source, action } = ctx;
  const row = targetRow(ctx, params);
  const key = store.keyOf(row);
  // Partial: the fields not given keep their values.
  const record = { ...store.recordOf(row) };
  const { [action.keyParam ?? '']: _key, ...changes } = params;
  checkWrittenFields(changes, store.model.fields);
  write(record, changes, store.model.fields);
  if (store.model.keyPath !== undefined) setPath(record, store.model.keyPath, key);
  checkInvariants(store.model.invariants, record, changes);
  store.put(key, record);
  return { kind: 'json', status: 200, records: asResult(source.connector, action, record) };
}

function remove(ctx: ActionContext, params: Record<string, unknown>): ActionResult {
  const { store, source, action } = ctx;
  const row = targetRow(ctx, params);
  const key = store.keyOf(row);
  store.remove(key);
  const shape = shapeOf(source.connector, action.result.record);
  const receipt: Record<string, unknown> = {};
  for (const p of shape?.properties ?? []) {
    receipt[p.name] = p.name === store.model.keyPath ? key : p.const !== undefined ? p.const : p.name === 'deleted' ? true : null;
  }
  if (!shape?.properties.length) Object.assign(receipt, { [store.model.keyPath ?? 'id']: key, deleted: true });
  return { kind: 'json', status: 200, records: receipt };
}

function search(ctx: ActionContext, params: Record<string, unknown>): ActionResult {
  try {
    return { kind: 'json', status: 200, records: ctx.store.search()!.search(params) };
  } catch (error) {
    if (error instanceof SearchRequestError) throw new HttpError(422, `invalid search: ${error.message}`, error.errors.map((e) => ({ ...e, field: e.field.startsWith('params') ? e.field : `params.${e.field}` })));
    throw error;
  }
}

/** Deterministic content of a downloadable record: a few KB naming the record. */
function contentOf(entity: string, key: string | number): Uint8Array {
  const line = Buffer.from(`${entity}:${key}\n`);
  const length = 2048 + Random.for('download', entity, String(key)).int(0, 2047);
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = line[i % line.length]!;
  return out;
}

/** One byte range, as parseRange reads it (`bytes=a-b`, `bytes=a-`, `bytes=-n`). */
const SINGLE_RANGE = /^bytes=(\d+-\d*|-\d+)$/;

/** Parses `bytes=a-b`, `bytes=a-` or `bytes=-n` against a length; undefined when unsatisfiable or malformed. */
export function parseRange(header: string, length: number): { start: number; end: number } | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (match[1] === '') {
    start = Math.max(0, length - Number(match[2]));
    end = length - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? length - 1 : Math.min(Number(match[2]), length - 1);
  }
  return start <= end && start < length ? { start, end } : undefined;
}

/** A media type: `type/subtype`, optionally with parameters (RFC 9110 tokens). */
const MEDIA_TYPE = /^[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+(\s*;\s*[\w!#$%&'*+.^`|~-]+=("[^"\r\n]*"|[\w!#$%&'*+.^`|~-]+))*$/;

function download(ctx: ActionContext, params: Record<string, unknown>): ActionResult {
  const { store, action, entity } = ctx;
  const row = targetRow(ctx, params);
  const key = store.keyOf(row);
  const record = store.recordOf(row);
  const content = contentOf(entity.name, key);
  // A requested type (an export's target format) decides the content's type, else the record's own; either is sent
  // only when it is a media type (`pdf` or free text is no Content-Type: the bytes' type is then unknown).
  const typeParam = action.params.find((p) => /mime/i.test(p.name) && typeof params[p.name] === 'string');
  const type = typeParam ? params[typeParam.name] : record['mimeType'];
  const contentType = typeof type === 'string' && MEDIA_TYPE.test(type) ? type : 'application/octet-stream';
  const name = ['name', 'filename', 'title'].map((f) => record[f]).find((v) => typeof v === 'string') ?? `${entity.name}-${key}.bin`;
  const headers: Record<string, string> = {
    'content-type': contentType,
    'content-disposition': `attachment; filename="${String(name).replace(/["\\\r\n]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(String(name))}`,
    'accept-ranges': 'bytes',
  };
  const range = (action.rangeParam && typeof params[action.rangeParam] === 'string' ? (params[action.rangeParam] as string) : undefined) ?? ctx.rangeHeader;
  // A range that is not one `bytes=` range (malformed, another unit, several ranges) is ignored: the whole content,
  // as HTTP lets a server do (RFC 9110 §14.2). One that lies outside the content is a 416.
  if (range === undefined || !SINGLE_RANGE.test(range.trim())) return { kind: 'bytes', status: 200, body: content, headers };
  const slice = parseRange(range, content.length);
  if (!slice) throw new HttpError(416, `range ${JSON.stringify(range)} is not satisfiable for ${content.length} bytes`, [{ field: `params.${action.rangeParam ?? 'range'}`, message: 'unsatisfiable or malformed range', error_code: 'invalid_range' }], { 'content-range': `bytes */${content.length}` });
  return { kind: 'bytes', status: 206, body: content.subarray(slice.start, slice.end + 1), headers: { ...headers, 'content-range': `bytes ${slice.start}-${slice.end}/${content.length}` } };
}

const HANDLERS: Record<ActionIR['name'], (ctx: ActionContext, params: Record<string, unknown>) => ActionResult> = {
  list,
  api_search: list,
  get,
  create,
  update,
  delete: remove,
  search,
  download,
};

/** Runs an action whose params already passed validation. */
export function runAction(ctx: ActionContext, params: Record<string, unknown>): ActionResult {
  return HANDLERS[ctx.action.name](ctx, params);
}
