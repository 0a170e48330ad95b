/**
 * Execute's actions over a source's data: list and api_search (selection + the connector's paging), get, create,
 * update and delete (visible to later reads), search (the uniform search engine) and download (bytes, with ranges).
 * Everything is driven by the IR: no connector is named here.
 */
import { entityFields } from '../generator/emitters/fixtures/dataset.js';
import { Random } from '../generator/emitters/fixtures/random.js';
import { identifier, valueFor } from '../generator/emitters/fixtures/values.js';
import type { ActionIR, ConnectorIR, ShapeIR } from '../generator/ir.js';
import { HttpError, notFound } from './errors.js';
import { cutPage } from './paging.js';
import { projectRecord } from './query/index.js';
import { SearchRequestError } from './search/index.js';
import { selectRecords } from './select.js';
import type { EntityStore, SourceData } from './store.js';

/** What an action answers: a JSON envelope, or bytes. */
export type ActionResult =
  | { kind: 'json'; status: number; records: unknown; meta?: unknown }
  | { kind: 'bytes'; status: number; body: Uint8Array; headers: Record<string, string> };

/** Per-request facts an action needs besides its params. */
export interface ActionContext {
  /** The source's data. */
  source: SourceData;
  /** The entity's store. */
  store: EntityStore;
  /** The action of the spec. */
  action: ActionIR;
  /** URL of the execute endpoint (next-page links point at it). */
  url: string;
  /** HTTP Range header of the request, if any. */
  rangeHeader?: string;
  /** Counter for deterministic new records. */
  writeCount: number;
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

/** The record a get, update, delete or download names: by the identifying param, else by any param value that is a key. */
export function findTarget(store: EntityStore, params: Record<string, unknown>): number {
  if (store.keyParam && params[store.keyParam] !== undefined) return store.indexOf(params[store.keyParam]);
  for (const value of Object.values(params)) {
    const at = store.indexOf(value);
    if (at >= 0) return at;
  }
  return Object.keys(params).length === 0 && store.records.length === 1 ? 0 : -1;
}

function missing(store: EntityStore, params: Record<string, unknown>): HttpError {
  const named = store.keyParam ? `${store.keyParam} ${JSON.stringify(params[store.keyParam])}` : `params ${JSON.stringify(params)}`;
  return notFound(`no ${store.entity.name} record with ${named}`);
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
 * Writes params onto a record: those that name its fields; when none does and the record is one open object
 * (e.g. a `data` object whose contents the contract does not show), inside that object.
 */
function write(record: Record<string, unknown>, params: Record<string, unknown>, props: readonly { name: string; types: string[] }[]): void {
  if (overlay(record, params, new Set(props.map((p) => p.name)))) return;
  const objects = props.filter((p) => p.types[0] === 'object');
  if (objects.length !== 1) return;
  const name = objects[0]!.name;
  const inner = { ...(record[name] as object) } as Record<string, unknown>;
  overlay(inner, params, new Set(Object.keys(params)));
  record[name] = inner;
}

function searchDataOf(store: EntityStore, record: Record<string, unknown>): Record<string, unknown> | undefined {
  const props = store.entity.searchable?.properties;
  if (!props) return undefined;
  if (props.length === 0) return Object.fromEntries(Object.entries(record).filter(([, v]) => v === null || typeof v !== 'object' || Array.isArray(v)));
  return Object.fromEntries(props.map((p) => [p.name, record[p.name] ?? null]));
}

function list(ctx: ActionContext, params: Record<string, unknown>): ActionResult {
  const { source, store, action } = ctx;
  const scheme = source.connector.pagination.find((s) => s.name === action.pagination);
  const selection = selectRecords(source.connector, store, action, scheme, params);
  const meta = source.connector.meta.find((m) => m.name === action.result.meta);
  const page = cutPage(action, scheme, meta, params, selection.indexes.length, (i) => store.keys[selection.indexes[i]!], ctx.url);
  const records = selection.indexes.slice(page.from, page.to).map((i) => projectRecord(asResult(source.connector, action, store.records[i]!), selection.project));
  return { kind: 'json', status: 200, records, meta: page.meta };
}

function get(ctx: ActionContext, params: Record<string, unknown>): ActionResult {
  const at = findTarget(ctx.store, params);
  if (at < 0) throw missing(ctx.store, params);
  return { kind: 'json', status: 200, records: asResult(ctx.source.connector, ctx.action, ctx.store.records[at]!) };
}

function create(ctx: ActionContext, params: Record<string, unknown>): ActionResult {
  const { source, store, action } = ctx;
  const random = Random.for('create', source.id, store.entity.name, ctx.writeCount);
  const props = entityFields(source.connector, store.entity);
  const record: Record<string, unknown> = Object.fromEntries(props.map((p) => [p.name, valueFor(Random.for(random.next(), p.name), p.name, p)]));
  write(record, params, props);
  const shape = shapeOf(source.connector, store.entity.record);
  const key = store.newKey(() => identifier(Random.for(random.next(), 'key'), shape?.idFormat, shape?.idPrefix));
  if (store.keyField) record[store.keyField] = key;
  store.put(key, record, searchDataOf(store, record));
  const result = action.result.record === store.entity.record ? asResult(source.connector, action, record) : resultShape(source.connector, action, params, key);
  return { kind: 'json', status: 200, records: result };
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
  const at = findTarget(store, params);
  if (at < 0) throw missing(store, params);
  const key = store.keys[at]!;
  const record = { ...store.records[at]! };
  write(record, params, entityFields(source.connector, store.entity));
  if (store.keyField) record[store.keyField] = key;
  store.put(key, record, searchDataOf(store, record));
  return { kind: 'json', status: 200, records: asResult(source.connector, action, record) };
}

function remove(ctx: ActionContext, params: Record<string, unknown>): ActionResult {
  const { store, source, action } = ctx;
  const at = findTarget(store, params);
  if (at < 0) throw missing(store, params);
  const key = store.keys[at]!;
  store.remove(key);
  const shape = shapeOf(source.connector, action.result.record);
  const receipt: Record<string, unknown> = {};
  for (const p of shape?.properties ?? []) {
    receipt[p.name] = p.name === store.keyField ? key : p.const !== undefined ? p.const : p.name === 'deleted' ? true : valueFor(Random.for('delete', p.name), p.name, p);
  }
  if (!shape?.properties.length) Object.assign(receipt, { [store.keyField ?? 'id']: key, deleted: true });
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
  const length = 2048 + (Random.for('download', entity, String(key)).int(0, 2047));
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = line[i % line.length]!;
  return out;
}

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
  const { store, action } = ctx;
  const at = findTarget(store, params);
  if (at < 0) throw missing(store, params);
  const key = store.keys[at]!;
  const record = store.records[at]!;
  const content = contentOf(store.entity.name, key);
  // A requested or recorded type is sent only when it is a media type (`pdf` or free text is no Content-Type).
  const typeParam = action.params.find((p) => /mime/i.test(p.name) && typeof params[p.name] === 'string');
  const contentType = [typeParam && params[typeParam.name], record['mimeType']].find((t): t is string => typeof t === 'string' && MEDIA_TYPE.test(t)) ?? 'application/octet-stream';
  const name = ['name', 'filename', 'title'].map((f) => record[f]).find((v) => typeof v === 'string') ?? `${store.entity.name}-${key}.bin`;
  const headers: Record<string, string> = {
    'content-type': contentType,
    'content-disposition': `attachment; filename="${String(name).replace(/["\\\r\n]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(String(name))}`,
    'accept-ranges': 'bytes',
  };
  const range = (action.rangeParam && typeof params[action.rangeParam] === 'string' ? (params[action.rangeParam] as string) : undefined) ?? ctx.rangeHeader;
  if (range === undefined) return { kind: 'bytes', status: 200, body: content, headers };
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
