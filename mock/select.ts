/**
 * Which records a list or api_search returns, in which order, following the spec's rules: the param that carries a
 * query in one of the spec's query languages is planned by mock/query; a default filter leaves records out unless
 * its param is given; params with `matches` filter by their fields (exact, contains or prefix; case-sensitive or
 * not); interval params (`rangeOf` with `bound`s) keep records inside the interval, inclusive or exclusive as the
 * spec says; a flag with `excludes` leaves records out when true. Any other param selects nothing, even one named like a record field: the name alone does not say it
 * filters (crm `properties` names the properties to return, project_tracking `fields` the fields); a filter the
 * contract implies is stated in the spec as `matches`, with its assumption. Sorting params (`sortBy`) reorder the
 * result (mock/sort.ts). Works on rows, so records keep their keys
 * and base records are built only when a query language needs them whole.
 */
import type { ActionIR, BoundIR, MatchIR, PaginationIR, PropertyIR } from '../generator/ir.js';
import { invalidParams } from './errors.js';
import { timePosition } from './paging.js';
import { planQuery, QueryError, sortRecords, type QueryLanguage } from './query/index.js';
import { isoSeconds } from './query/values.js';
import { requestedSort } from './sort.js';
import type { EntityStore, Row } from './store.js';

/** The selected rows and the projection a query asked for. */
export interface Selection {
  /** Rows in result order; undefined: every row in list order (nothing filtered). */
  rows?: Row[];
  /** Fields to keep in each record, when the query names them. */
  project?: string[];
}

const same = (a: unknown, b: unknown) => a === b || ((typeof a === 'number' || typeof a === 'string') && (typeof b === 'number' || typeof b === 'string') && String(a) === String(b));

/** Whether a record value matches a param value under a `matches` rule. */
export function matchesValue(field: unknown, value: unknown, rule: Pick<MatchIR, 'mode' | 'caseSensitive'>): boolean {
  if (Array.isArray(field)) return field.some((f) => matchesValue(f, value, rule));
  if (typeof field !== 'string' && typeof field !== 'number' && typeof field !== 'boolean') return false;
  let a = String(field);
  let b = String(value);
  if (!rule.caseSensitive) {
    a = a.toLowerCase();
    b = b.toLowerCase();
  }
  return rule.mode === 'exact' ? a === b : rule.mode === 'prefix' ? a.startsWith(b) : a.includes(b);
}

/** A param value that is Unix seconds (a number, or its decimal text), or undefined. */
const unixSeconds = (value: unknown): number | undefined => (typeof value === 'number' ? value : typeof value === 'string' && /^\d+(\.\d+)?$/.test(value) ? Number(value) : undefined);

/** Whether a record value lies on the kept side of a bound (numbers numerically, strings by code unit). */
export function withinBound(field: unknown, bound: BoundIR, value: unknown, params: Record<string, unknown>): boolean {
  const inclusive = bound.inclusive || (bound.inclusiveParam !== undefined && params[bound.inclusiveParam] === true);
  let a: number | string;
  let b: number | string;
  if (typeof field === 'number' && (typeof value === 'number' || (typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value))))) {
    a = field;
    b = Number(value);
  } else if (typeof field === 'string') {
    const fieldTime = isoSeconds(field);
    const seconds = unixSeconds(value);
    if (fieldTime !== undefined && seconds !== undefined) {
      // An ISO date field bounded by Unix seconds (an incremental export's start_time): compared as times.
      [a, b] = [fieldTime, seconds];
    } else if (typeof value === 'string') {
      // Decimal time strings (Unix seconds with a fraction) compare as numbers, ISO date-times as times (any offset).
      const numeric = /^\d+(\.\d+)?$/;
      const valueTime = isoSeconds(value);
      [a, b] = numeric.test(field) && numeric.test(value) ? [Number(field), Number(value)] : fieldTime !== undefined && valueTime !== undefined ? [fieldTime, valueTime] : [field, value];
    } else return false;
  } else return false;
  if (a === b) return inclusive;
  return bound.side === 'lower' ? a > b : a < b;
}

/** Selects the records a list-shaped action returns for `params`. */
export function selectRecords(store: EntityStore, action: ActionIR, scheme: PaginationIR | undefined, params: Record<string, unknown>): Selection {
  let rows: Row[] | undefined;
  const current = () => (rows ??= Array.from(store.rows()));
  const keep = (test: (row: Row) => boolean) => {
    rows = current().filter(test);
  };
  let project: string[] | undefined;
  // A paging param that is an interval bound (an export's start_time) is a position in time: it filters like one.
  const timed = timePosition(action, scheme) !== undefined;
  const skip = new Set([timed ? undefined : scheme?.param, scheme?.sizeParam, scheme?.previousParam].filter((x): x is string => x !== undefined));
  // filter_groups requests are the whole params object (query, sorts, properties alone are requests too).
  const queryParam = action.params.find((p) => p.queryLanguage && (p.queryLanguage === 'filter_groups' || params[p.name] !== undefined));
  if (queryParam) {
    try {
      const plan = planQuery(queryParam.queryLanguage as QueryLanguage, params, queryParam.name);
      // Records in list order, as current() before any other filter; too many to keep: built one at a time.
      const records = store.allRecords();
      const all = current();
      rows = all.filter((row, position) => plan.matches(records ? records[position]! : store.recordOf(row)));
      if (plan.sort?.length) {
        const byRecord = new Map(current().map((row) => [store.recordOf(row), row]));
        rows = sortRecords([...byRecord.keys()], plan.sort).map((r) => byRecord.get(r)!);
      }
      project = plan.project;
    } catch (error) {
      if (!(error instanceof QueryError)) throw error;
      throw invalidParams(`invalid ${queryParam.name}: ${error.message}`, [{ field: `params.${error.field || queryParam.name}`, message: error.message, error_code: error.error_code }]);
    }
    // The other params of a query-language request belong to the query itself.
    for (const p of action.params) if (p.queryLanguage === 'filter_groups' || p.name === queryParam.name) skip.add(p.name);
    if (queryParam.queryLanguage === 'filter_groups') for (const name of ['sorts', 'query', 'properties', 'after', 'limit']) skip.add(name);
  }
  const filter = action.defaultFilter;
  // Lifted by its param given, unless given as false (includeDeleted: false keeps the default).
  const lifted = filter?.unlessParam !== undefined && params[filter.unlessParam] !== undefined && params[filter.unlessParam] !== false;
  if (filter && !lifted) {
    keep((row) => !filter.exclude.some((v) => same(store.valueOf(row, filter.field), v)));
  }
  for (const p of action.params) {
    const value = params[p.name];
    if (skip.has(p.name) || value === undefined) continue;
    for (const test of paramTests(p, value, params)) keep((row) => test(store, row));
  }
  // Sorting params (sortBy) reorder what is kept; ties keep the list's order.
  const sort = requestedSort(action, params);
  if (sort.length) {
    const byRecord = new Map(current().map((row) => [store.recordOf(row), row]));
    rows = sortRecords([...byRecord.keys()], sort).map((r) => byRecord.get(r)!);
  }
  return { ...(rows ? { rows } : {}), ...(project ? { project } : {}) };
}

type RowTest = (store: EntityStore, row: Row) => boolean;

/**
 * The values a matching param gives: an array's items, a separator param's entries (`typeKey=business,software`),
 * else the value itself. A record is kept when it matches any of them; none (an empty list) filters nothing.
 */
export function matchValues(p: Pick<PropertyIR, 'separator'>, value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (p.separator !== undefined && typeof value === 'string') return value.split(p.separator).map((entry) => entry.trim()).filter((entry) => entry !== '');
  return [value];
}

/**
 * The tests a given param puts on records: those of its rules (`matches`, `rangeOf` and `bound`); none without. The
 * members of an object param (calls_extensive `filter`) test on their own: a bound on the object's `rangeOf`, a
 * `matches` on its fields.
 */
function paramTests(p: PropertyIR, value: unknown, params: Record<string, unknown>, range = p.rangeOf): RowTest[] {
  if (p.excludes) {
    // A flag: true leaves out the records holding an excluded value (a missing field counts as null); false, nothing.
    const { field, values } = p.excludes;
    return value === true ? [(store, row) => !values.some((v) => same(store.valueOf(row, field) ?? null, v))] : [];
  }
  if (p.matches) {
    const rule = p.matches;
    const values = matchValues(p, value);
    if (values.length === 0) return []; // an empty list (states: []) asks for no filter, not for no records
    return [(store, row) => rule.fields.some((f) => values.some((one) => matchesValue(store.valueOf(row, f), one, rule)))];
  }
  if (p.bound && range) {
    const { bound } = p;
    return [(store, row) => withinBound(store.valueOf(row, range), bound, value, params)];
  }
  if (p.properties && value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const members = value as Record<string, unknown>;
    return p.properties.filter((inner) => members[inner.name] !== undefined).flatMap((inner) => paramTests(inner, members[inner.name], params, inner.rangeOf ?? p.rangeOf));
  }
  return [];
}
