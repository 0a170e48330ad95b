/**
 * Which records a list or api_search returns, in which order: the param that carries a query in one of the spec's
 * query languages is planned by mock/query; other params whose name is a field of the records filter by it
 * (equality, any-of for arrays, gt/gte/lt/lte objects as ranges). Works on indexes so records keep their keys.
 */
import { entityFields } from '../generator/emitters/fixtures/dataset.js';
import type { ActionIR, ConnectorIR, PaginationIR } from '../generator/ir.js';
import { invalidParams } from './errors.js';
import { planQuery, QueryError, sortRecords, type QueryLanguage } from './query/index.js';
import type { EntityStore } from './store.js';

/** The selected records (indexes into the store) and the projection a query asked for. */
export interface Selection {
  /** Indexes into `store.records`, in result order. */
  indexes: number[];
  /** Fields to keep in each record, when the query names them. */
  project?: string[];
}

const RANGE_KEYS = ['gt', 'gte', 'lt', 'lte'] as const;

function isRange(value: unknown): value is Partial<Record<(typeof RANGE_KEYS)[number], number | string>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length > 0 && Object.keys(value).every((k) => (RANGE_KEYS as readonly string[]).includes(k));
}

function inRange(field: unknown, range: Partial<Record<(typeof RANGE_KEYS)[number], number | string>>): boolean {
  if (typeof field !== 'number' && typeof field !== 'string') return false;
  const ok = (bound: number | string | undefined, test: (a: number | string, b: number | string) => boolean) => bound === undefined || (typeof bound === typeof field && test(field, bound));
  return ok(range.gt, (a, b) => a > b) && ok(range.gte, (a, b) => a >= b) && ok(range.lt, (a, b) => a < b) && ok(range.lte, (a, b) => a <= b);
}

const same = (a: unknown, b: unknown) => a === b || ((typeof a === 'number' || typeof a === 'string') && (typeof b === 'number' || typeof b === 'string') && String(a) === String(b));

/** Selects the records a list-shaped action returns for `params`. */
export function selectRecords(connector: ConnectorIR, store: EntityStore, action: ActionIR, scheme: PaginationIR | undefined, params: Record<string, unknown>): Selection {
  let indexes = store.records.map((_, i) => i);
  let project: string[] | undefined;
  const skip = new Set([scheme?.param, scheme?.sizeParam, 'ending_before'].filter(Boolean));
  // filter_groups requests are the whole params object (query, sorts, properties alone are requests too).
  const queryParam = action.params.find((p) => p.queryLanguage && (p.queryLanguage === 'filter_groups' || params[p.name] !== undefined));
  if (queryParam) {
    try {
      const plan = planQuery(queryParam.queryLanguage as QueryLanguage, params, queryParam.name);
      indexes = indexes.filter((i) => plan.matches(store.records[i]!));
      if (plan.sort?.length) {
        const at = new Map(indexes.map((i) => [store.records[i]!, i]));
        indexes = sortRecords(indexes.map((i) => store.records[i]!), plan.sort).map((r) => at.get(r)!);
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
  const fields = new Set(entityFields(connector, store.entity).map((f) => f.name));
  for (const [name, value] of Object.entries(params)) {
    if (skip.has(name) || value === undefined || !fields.has(name)) continue;
    if (isRange(value)) indexes = indexes.filter((i) => inRange(store.records[i]![name], value));
    else if (Array.isArray(value)) indexes = indexes.filter((i) => {
      const field = store.records[i]![name];
      return Array.isArray(field) ? field.some((f) => value.some((v) => same(f, v))) : value.some((v) => same(field, v));
    });
    else if (typeof value !== 'object') indexes = indexes.filter((i) => same(store.records[i]![name], value));
  }
  return { indexes, ...(project ? { project } : {}) };
}
