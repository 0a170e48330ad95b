/**
 * Running a {@link QueryPlan} over records: filter, then sort by the plan's keys, then project. The mock pages
 * the result itself. Paths are dot-separated own properties (`properties.email`, `fields.status.name`).
 */
import type { QueryPlan } from './index.js';
import { asDate, asNumber, isObject, isScalar, labelsOf, own, readPath, readSegments, setPath } from './values.js';

/** One sort key of a plan. */
export type SortKey = NonNullable<QueryPlan['sort']>[number];

/** The scalar a value sorts by: itself, an object's first label (`name`, `key`, `value`, …), an array's first element's. */
function sortScalar(value: unknown): unknown {
  const first = Array.isArray(value) ? value[0] : value;
  return isObject(first) ? labelsOf(first)[0] : first;
}

/** A sort value read once per record: its number, date and text forms (missing: null, absent or not a scalar). */
interface SortReading {
  missing: boolean;
  number: number | undefined;
  date: number | undefined;
  text: string;
}

function readSortValue(value: unknown): SortReading {
  const scalar = sortScalar(value);
  if (!isScalar(scalar)) return { missing: true, number: undefined, date: undefined, text: '' };
  const number = asNumber(scalar);
  return { missing: false, number, date: number === undefined ? asDate(scalar) : undefined, text: String(scalar) };
}

/** The order {@link compareValues} gives, from precomputed readings. */
function compareReadings(a: SortReading, b: SortReading): number {
  if (a.number !== undefined && b.number !== undefined) return Math.sign(a.number - b.number);
  if (a.date !== undefined && b.date !== undefined) return Math.sign(a.date - b.date);
  return a.text < b.text ? -1 : a.text > b.text ? 1 : 0;
}

/**
 * A sorted copy of `records`: keys applied in order, numbers numerically, ISO dates chronologically, other
 * values by code unit; missing and null values last in either direction; ties keep their input order.
 */
export function sortRecords<R>(records: readonly R[], sort: readonly SortKey[] | undefined): R[] {
  if (!sort || sort.length === 0) return [...records];
  const paths = sort.map((key) => key.path.split('.'));
  const keyed = records.map((record, index) => ({
    record,
    index,
    keys: paths.map((segments) => readSortValue(readSegments(record, segments))),
  }));
  keyed.sort((a, b) => {
    for (let i = 0; i < sort.length; i++) {
      const x = a.keys[i]!,
        y = b.keys[i]!;
      if (x.missing || y.missing) {
        if (x.missing !== y.missing) return x.missing ? 1 : -1;
        continue;
      }
      const order = compareReadings(x, y);
      if (order !== 0) return sort[i]!.direction === 'desc' ? -order : order;
    }
    return a.index - b.index;
  });
  return keyed.map((entry) => entry.record);
}

/**
 * A copy of `record` with only the given paths (those it has); `undefined` paths keep the record whole.
 * Values are shared with the input, not cloned.
 */
export function projectRecord(
  record: Record<string, unknown>,
  paths: readonly string[] | undefined,
): Record<string, unknown> {
  if (!paths) return record;
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const value = readPath(record, path);
    if (value !== undefined) setPath(out, path.split('.'), value);
    else {
      // An object the record holds stays, empty, when none of the paths asked for inside it has a value.
      const top = path.split('.')[0]!;
      if (top !== path && isObject(own(record, top)) && !Object.hasOwn(out, top)) out[top] = {};
    }
  }
  return out;
}

/** The records a plan selects, in its order, projected: what an api_search page is cut from. */
export function runPlan(records: readonly Record<string, unknown>[], plan: QueryPlan): Record<string, unknown>[] {
  const sorted = sortRecords(
    records.filter((record) => plan.matches(record)),
    plan.sort,
  );
  return plan.project ? sorted.map((record) => projectRecord(record, plan.project)) : sorted;
}
