/**
 * JSON values as the uniform search compares them: validation of operands, deep equality, and the total order
 * used by `sort` (nulls last).
 */
import { isPlainObject } from '../../generator/lib/plain-object.js';

/** How deep an operand or a filter may nest; deeper input gets a 422 instead of exhausting the stack. */
export const MAX_DEPTH = 64;

/** Keys that must never reach a property lookup as a field name (they would reach a prototype). */
const INERT_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Whether `name` is a key the search treats as unknown, whatever the data or the field list say. */
export function isInertKey(name: string): boolean {
  return INERT_KEYS.has(name);
}

/** A plain object (generator/lib/plain-object.ts, which the spec reader shares): the search's importers take it from here. */
export { isPlainObject };

/** Whether `value` is JSON (null, boolean, finite number, string, array, plain object) nested at most MAX_DEPTH deep. */
export function isJsonValue(value: unknown, depth = 0): boolean {
  if (depth > MAX_DEPTH) return false;
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every((v) => isJsonValue(v, depth + 1));
  if (isPlainObject(value)) return Object.keys(value).every((k) => isJsonValue(value[k], depth + 1));
  return false;
}

/** Deep equality of JSON values: arrays element-wise in order, objects by own keys in any order. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const keys = Object.keys(ao);
  if (keys.length !== Object.keys(bo).length) return false;
  for (const k of keys) if (!Object.hasOwn(bo, k) || !jsonEqual(ao[k], bo[k])) return false;
  return true;
}

/** A value `sort` can order; anything else (null, missing, objects, arrays) sorts as null, i.e. last. */
export type SortValue = boolean | number | string | null;

/** The sortable form of a stored value. */
export function toSortValue(value: unknown): SortValue {
  return typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string' ? value : null;
}

/** Kinds in sort order: booleans (false first), then numbers, then strings; nulls come after all of them. */
export function kindRank(value: boolean | number | string): number {
  return typeof value === 'boolean' ? 0 : typeof value === 'number' ? 1 : 2;
}

/** Ascending order of two non-null sort values: by kind, then numerically or by UTF-16 code unit. */
export function compareNonNull(a: boolean | number | string, b: boolean | number | string): number {
  const ka = kindRank(a);
  const kb = kindRank(b);
  if (ka !== kb) return ka - kb;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Order of two sort values in a direction; nulls last in both directions. */
export function compareSortValues(a: SortValue, b: SortValue, descending: boolean): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  const c = compareNonNull(a, b);
  return descending ? -c : c;
}

/** UTF-16 code unit order of two strings (ids). */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
