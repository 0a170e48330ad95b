/**
 * The server side of every paging scheme: reads the position from the request's paging param, cuts a page, and
 * writes the meta keys the scheme's client reads (next value, has-more flags, totals), from the same scheme data
 * the runtime's iterator uses. Positions the mock hands out are opaque tokens (numbers where the param is a number);
 * a token it did not issue is a 422.
 */
import type { ActionIR, PaginationIR, PropertyIR, ShapeIR } from '../generator/ir.js';
import { FALLBACK_PAGE_SIZE } from '../generator/emitters/fixtures/entity-facts.js';
import { invalidParams } from './errors.js';
import { isoSeconds, setPath } from './query/values.js';
import { shortDigest } from './search/cursor.js';

/** A cut page and its meta. */
export interface PageOut {
  /** Indexes (into the matching items) of the page's items. */
  from: number;
  /** End index (exclusive). */
  to: number;
  /** The meta object of the response. */
  meta: Record<string, unknown>;
}

const TOKEN_PREFIX = 'pos:';

/**
 * An opaque position token: base64url of "pos:<offset>", or "pos:<offset>:<key>" with the key of the last record
 * served, so the next page continues after that record even when writes moved it (a message posted meanwhile); then,
 * after a line break, the fingerprint of the request it continues (requestFingerprint), when it has one.
 */
export function encodeToken(offset: number, lastKey?: unknown, query?: string): string {
  return Buffer.from(`${TOKEN_PREFIX}${offset}${lastKey === undefined ? '' : `:${String(lastKey)}`}${query === undefined ? '' : `\n${query}`}`).toString('base64url');
}

function decodeToken(value: unknown, param: string, query?: string): { offset: number; after?: string } {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return { offset: value };
  if (typeof value === 'string') {
    const text = Buffer.from(value, 'base64url').toString();
    const match = /^pos:(\d{1,9})(?::([^\n]{1,512}))?(?:\n([A-Za-z0-9_-]{16}))?$/.exec(text);
    if (match && match[3] !== undefined && query !== undefined && match[3] !== query) {
      const message = 'belongs to another request (a token continues the filters and sort that returned it; only the page size may change)';
      throw invalidParams(`invalid ${param}: ${message}`, [{ field: `params.${param}`, message, error_code: 'invalid_cursor' }]);
    }
    if (match) return { offset: Number(match[1]), ...(match[2] !== undefined ? { after: match[2] } : {}) };
  }
  throw invalidParams(`invalid ${param}: not a position this service issued`, [{ field: `params.${param}`, message: 'not a position this service issued', error_code: 'invalid_cursor' }]);
}

/**
 * The fingerprint of a request's params but its paging ones (the position, the page size, the backward param), as the
 * uniform search's cursors digest their query (search/cursor.ts): a token carries it, and a request that changed its
 * filters or sort is refused the token.
 */
export function requestFingerprint(params: Record<string, unknown>, paging: readonly (string | undefined)[]): string {
  return shortDigest(Object.fromEntries(Object.entries(params).filter(([k, v]) => !paging.includes(k) && v !== null)));
}

/** Sets a meta key at a dotted path (`next_page.offset`), creating its objects (query/values.ts setPath). */
const setMeta = (meta: Record<string, unknown>, dotted: string, value: unknown) => setPath(meta, dotted.split('.'), value);

/**
 * The record field a scheme's position param bounds from below, when that param is an interval bound (live_chat's
 * incremental exports: `start_time` is Unix seconds, inclusive, on the records' time): the selection already starts
 * there, and the next page's position is the time of the first record it holds.
 */
export function timePosition(action: ActionIR, scheme: PaginationIR | undefined): PropertyIR | undefined {
  const p = scheme && action.params.find((x) => x.name === scheme.param);
  return p?.rangeOf !== undefined && p.bound?.side === 'lower' && p.bound.inclusive ? p : undefined;
}

/** A record's time as the position param's type takes it: Unix seconds for a number param (an ISO date converted). */
function timeValue(value: unknown, param: PropertyIR): unknown {
  if (param.types[0] !== 'integer' && param.types[0] !== 'number') return value;
  if (typeof value === 'number') return value;
  if (typeof value !== 'string') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value);
  const seconds = isoSeconds(value);
  return seconds === undefined ? undefined : param.types[0] === 'integer' ? Math.floor(seconds) : seconds;
}

/** The page size a request asks for: its size param, else the param's default, else the fallback. */
export function pageSize(action: ActionIR, scheme: PaginationIR | undefined, params: Record<string, unknown>): number {
  const sizeParam = scheme?.sizeParam ? action.params.find((p) => p.name === scheme.sizeParam) : undefined;
  const asked = sizeParam ? params[sizeParam.name] : undefined;
  if (typeof asked === 'number' && asked > 0) return Math.floor(asked);
  return typeof sizeParam?.default === 'number' ? sizeParam.default : FALLBACK_PAGE_SIZE;
}

/** Meta keys no paging rule set: filled by name and type so the meta matches its shape. */
function fillMeta(meta: Record<string, unknown>, props: PropertyIR[], facts: { total: number; size: number; page: number; hasMore: boolean; hasPrevious: boolean; url: (offset: number) => string; nextOffset: number; prevOffset: number }): void {
  for (const p of props) {
    if (meta[p.name] !== undefined) {
      if (p.properties && typeof meta[p.name] === 'object' && meta[p.name] !== null) fillMeta(meta[p.name] as Record<string, unknown>, p.properties, facts);
      continue;
    }
    const name = p.name.toLowerCase();
    const t = p.types[0];
    if (p.const !== undefined) meta[p.name] = p.const;
    else if (t === 'integer' || t === 'number') meta[p.name] = /size/.test(name) ? facts.size : /number/.test(name) ? facts.page : facts.total;
    else if (t === 'boolean') meta[p.name] = /last/.test(name) ? !facts.hasMore : /more/.test(name) ? facts.hasMore : false;
    else if (t === 'string') {
      const previous = /prev/.test(name);
      const present = previous ? facts.hasPrevious : facts.hasMore;
      meta[p.name] = present ? facts.url(previous ? facts.prevOffset : facts.nextOffset) : p.nullable ? null : '';
    } else if (t === 'object') {
      meta[p.name] = facts.hasMore || !p.nullable ? {} : null;
      if (meta[p.name] && p.properties) fillMeta(meta[p.name] as Record<string, unknown>, p.properties, facts);
    } else meta[p.name] = null;
  }
}

/** Cuts the page a request asks for out of `total` matching items and builds its meta. */
export function cutPage(
  action: ActionIR,
  scheme: PaginationIR | undefined,
  metaShape: ShapeIR | undefined,
  params: Record<string, unknown>,
  total: number,
  keyAt: (index: number) => unknown,
  baseUrl: string,
  positionOf?: (key: unknown) => number,
  valueAt?: (index: number, path: string) => unknown,
): PageOut {
  const size = scheme ? pageSize(action, scheme, params) : total;
  const given = (name: string | undefined) => (name === undefined || params[name] === undefined || params[name] === null || params[name] === '' ? undefined : params[name]);
  const cursor = given(scheme?.param);
  // What a token of this request continues: its params but the paging ones (digested only when a token is read or made).
  let fingerprint: string | undefined;
  const query = () => (fingerprint ??= requestFingerprint(params, [scheme?.param, scheme?.sizeParam, scheme?.previousParam, scheme?.next.queryParam]));
  const before = scheme?.next.from === 'last_record' ? given(scheme.previousParam) : undefined;
  /** The position of the record a key param names; a key of no record in the selection is a 422. */
  const positionNamedBy = (param: string, key: unknown) => {
    let at = positionOf ? positionOf(key) : -1;
    if (!positionOf) for (let i = 0; i < total && at < 0; i++) if (String(keyAt(i)) === String(key)) at = i;
    if (at < 0) throw invalidParams(`invalid ${param}: no record ${JSON.stringify(key)}`, [{ field: `params.${param}`, message: 'names no record of this entity', error_code: 'invalid_cursor' }]);
    return at;
  };
  let from = 0;
  const timed = timePosition(action, scheme);
  if (timed && valueAt) {
    // The selection starts at the time asked for; the next page starts at the time of its first record.
    const to = Math.min(total, size);
    return pageOut(action, scheme, metaShape, total, baseUrl, size, 0, to, to < total, (offset) => timeValue(valueAt(offset, timed.rangeOf!), timed));
  }
  if (scheme && before !== undefined) {
    // Backwards (ending_before): the page of records just before the one named; has_more says more lie before it.
    if (cursor !== undefined) {
      throw invalidParams(`give ${scheme.param} or ${scheme.previousParam}, not both`, [{ field: `params.${scheme.previousParam}`, message: `cannot be combined with ${scheme.param}`, error_code: 'param_group' }]);
    }
    const to = positionNamedBy(scheme.previousParam!, before);
    const start = Math.max(0, to - size);
    return pageOut(action, scheme, metaShape, total, baseUrl, size, start, to, start > 0);
  }
  if (scheme && cursor !== undefined) {
    switch (scheme.next.from) {
      case 'last_record': {
        // The param names the last record seen: continue after it. A since_id scheme takes any id (0 for the start):
        // the page starts at the first record whose id is greater.
        const numeric = typeof cursor === 'number' || (typeof cursor === 'string' && /^\d+$/.test(cursor));
        if (scheme.style === 'since_id' && numeric && (positionOf ? positionOf(cursor) : -1) < 0) {
          from = 0;
          while (from < total && !(Number(keyAt(from)) > Number(cursor))) from++;
        } else from = positionNamedBy(scheme.param, cursor) + 1;
        break;
      }
      case 'page_number':
        from = (Number(cursor) - (scheme.next.start ?? 1)) * size;
        break;
      default: {
        // After the record the token names, where it still is; else at the offset it was issued for.
        const { offset, after } = decodeToken(cursor, scheme.param, query());
        const at = after !== undefined && positionOf ? positionOf(after) : -1;
        from = at >= 0 ? at + 1 : offset;
      }
    }
  }
  from = Math.max(0, Math.min(from, total));
  const to = Math.min(total, from + size);
  return pageOut(action, scheme, metaShape, total, baseUrl, size, from, to, to < total, undefined, keyAt, query);
}

/** The page from `from` to `to` (exclusive) and its meta; `hasMore`: whether more records lie in the paging direction. */
function pageOut(
  action: ActionIR,
  scheme: PaginationIR | undefined,
  metaShape: ShapeIR | undefined,
  total: number,
  baseUrl: string,
  size: number,
  from: number,
  to: number,
  hasMore: boolean,
  positionAt?: (offset: number) => unknown,
  keyAt?: (index: number) => unknown,
  query?: () => string,
): PageOut {
  const paramType = action.params.find((p) => p.name === scheme?.param)?.types[0];
  // A token going forward names the record before it (the last one served); numbers stay plain offsets.
  const lastKey = (offset: number) => {
    const key = keyAt && offset > 0 && offset <= total ? keyAt(offset - 1) : undefined;
    return key !== undefined && String(key).length <= 256 ? key : undefined;
  };
  const tokenFor = (offset: number) => (positionAt ? positionAt(offset) : paramType === 'integer' || paramType === 'number' ? offset : encodeToken(offset, offset === to ? lastKey(offset) : undefined, query?.()));
  const url = (offset: number) => `${baseUrl}?${scheme?.next.queryParam ?? scheme?.param ?? 'page'}=${encodeURIComponent(String(scheme?.next.from === 'page_number' ? Math.floor(offset / size) + (scheme.next.start ?? 1) : tokenFor(offset)))}`;
  const meta: Record<string, unknown> = {};
  if (scheme) {
    const path = scheme.next.path;
    if (scheme.next.from === 'meta' && path) {
      // On the last page a nested next (`next_page.offset`) goes away with its object: `next_page: null`. Where the
      // shape says the key (or its object) is never null, fillMeta gives it its empty value ('' or {}) instead.
      if (hasMore) setMeta(meta, path, scheme.next.queryParam ? url(to) : tokenFor(to));
      else if (metaShape?.properties.find((p) => p.name === path.split('.')[0])?.nullable !== false) setMeta(meta, path.split('.')[0]!, null);
    }
    for (const stop of scheme.stop) {
      if (!stop.key) continue;
      if (stop.when === 'metaFalse') setMeta(meta, stop.key, hasMore);
      else if (stop.when === 'metaTrue') setMeta(meta, stop.key, !hasMore);
      else if (stop.when === 'totalReached') setMeta(meta, stop.key, total);
      else if (stop.when === 'metaMissing' && stop.key !== scheme.next.path) setMeta(meta, stop.key, hasMore ? url(to) : null);
    }
  }
  fillMeta(meta, metaShape?.properties ?? [], { total, size, page: Math.floor(from / Math.max(1, size)) + 1, hasMore, hasPrevious: from > 0, url, nextOffset: to, prevOffset: Math.max(0, from - size) });
  return { from, to, meta };
}
