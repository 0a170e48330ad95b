/**
 * Search cursors. A cursor is the position of the last hit of a page in the query's total order — its sort
 * values, score and id — plus a fingerprint of the query (fields, filter and sort), base64url-encoded JSON.
 * The next page holds the hits strictly after that position, so writes between pages neither repeat nor skip
 * records that stay put. A cursor of another query (or another entity's fields) is refused.
 */
import { createHash } from 'node:crypto';
import { SearchRequestError } from './errors.js';
import type { FilterNode, SortKey } from './request.js';
import { type SortValue, isPlainObject } from './values.js';

/** A position in a query's order. */
export interface CursorKey {
  values: SortValue[];
  score: number;
  id: string;
}

const VERSION = 1;

/** A short, stable digest of JSON data (16 base64url characters): equal data, whatever its key order, digests equal. */
export function shortDigest(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('base64url').slice(0, 16);
}

/** A short, stable digest of what a cursor must belong to. */
export function queryFingerprint(fieldsTag: string, filter: FilterNode | null, sort: readonly SortKey[]): string {
  return shortDigest({ fields: fieldsTag, filter, sort });
}

/** The cursor continuing after `key`. */
export function encodeCursor(fingerprint: string, key: CursorKey): string {
  return Buffer.from(JSON.stringify({ v: VERSION, q: fingerprint, k: [...key.values, key.score, key.id] })).toString('base64url');
}

/** Reads a cursor given to a query; throws a 422 (invalid_cursor) when it is malformed or not this query's. */
export function decodeCursor(cursor: string, fingerprint: string, sortLength: number): CursorKey {
  const refuse = (why: string): never => {
    throw new SearchRequestError([{ field: 'cursor', error_code: 'invalid_cursor', message: `${why}; pass next_cursor of the previous page unchanged` }]);
  };
  let payload: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
    payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return refuse('is not a cursor this service issued');
  }
  if (!isPlainObject(payload) || payload.v !== VERSION || typeof payload.q !== 'string' || !Array.isArray(payload.k)) return refuse('is not a cursor this service issued');
  if (payload.q !== fingerprint) return refuse('belongs to another query (a cursor continues the query, filter and sort, that returned it)');
  const k = payload.k as unknown[];
  const values = k.slice(0, sortLength);
  const [score, id] = k.slice(sortLength);
  const valid = k.length === sortLength + 2 && values.every(isSortValue) && typeof score === 'number' && Number.isFinite(score) && typeof id === 'string';
  if (!valid) return refuse('is not a cursor this service issued');
  return { values: values as SortValue[], score: score as number, id: id as string };
}

function isSortValue(v: unknown): v is SortValue {
  return v === null || typeof v === 'boolean' || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));
}

/** JSON with object keys sorted at every level, so equal queries print equal. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
