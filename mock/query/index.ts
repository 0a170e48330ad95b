/**
 * Query-language evaluators of the mock service's api_search (and of the file-storage list `q`). The spec
 * declares a language on the param that carries the query (param-level `queryLanguage`); the mock plans the
 * query once per request with {@link planQuery} and runs the plan over its fixture records.
 *
 * Each language implements a documented subset of its upstream syntax (see the JSDoc of each language's file);
 * anything outside it throws a {@link QueryError} the mock answers with 422. Nothing in a query is ever evaluated
 * as code, and only own properties of records are read, so `__proto__`-style keys are inert.
 */
import { planCodeSearch } from './code-search.js';
import { planDriveQuery } from './drive-query.js';
import { planFilterGroups } from './filter-groups.js';
import { planJql } from './jql.js';
import { planSearchQuery } from './search-query.js';

export { QueryError, type QueryErrorCode } from './error.js';
export { projectRecord, runPlan, sortRecords, type SortKey } from './apply.js';
export { readPath } from './values.js';

/** Query languages the spec can declare on a param (param-level `queryLanguage`). Generic names, not connectors. */
export type QueryLanguage = 'search_query' | 'filter_groups' | 'jql' | 'code_search' | 'drive_query';

/** Every {@link QueryLanguage}, for validating the spec's `queryLanguage` values. */
export const QUERY_LANGUAGES: readonly QueryLanguage[] = [
  'code_search',
  'drive_query',
  'filter_groups',
  'jql',
  'search_query',
];

/** A planned query: a record test plus the order and projection the query asks for. */
export interface QueryPlan {
  /** Whether a record matches. Records are plain JSON objects (fixtures). */
  matches(record: Record<string, unknown>): boolean;
  /** Sort keys the query asks for (JQL ORDER BY, filterGroups sorts), applied in order; undefined = keep order. */
  sort?: { path: string; direction: 'asc' | 'desc' }[];
  /** Fields to keep in each returned record (filterGroups `properties`), undefined = all. */
  project?: string[];
}

/**
 * Plans a query. `params` are the action's params; `paramName` names the param that carries the query
 * (for filter_groups: the whole params object is the request: filterGroups, sorts, query, properties).
 * Throws {@link QueryError} for a query outside the language's subset; a plain Error for an unknown language
 * (a spec bug, not user input).
 */
export function planQuery(language: QueryLanguage, params: Record<string, unknown>, paramName: string): QueryPlan {
  switch (language) {
    case 'filter_groups':
      return planFilterGroups(params);
    case 'search_query':
      return planSearchQuery(params, paramName);
    case 'jql':
      return planJql(params, paramName);
    case 'code_search':
      return planCodeSearch(params, paramName);
    case 'drive_query':
      return planDriveQuery(params, paramName);
    default:
      throw new Error(
        `unknown query language ${JSON.stringify(language)}; expected one of ${QUERY_LANGUAGES.join(', ')}`,
      );
  }
}
