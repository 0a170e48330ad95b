/**
 * The one error every query evaluator throws for a query it cannot run. The mock answers it with 422 and the
 * spec's error body `{ message, errors: [{ field, message, error_code }] }`.
 */

/**
 * Why a query was refused:
 * - `query_syntax`: malformed text (unexpected character or token, unterminated string, unbalanced parentheses,
 *   missing operand);
 * - `query_unsupported`: a construct the upstream language has but this mock's subset does not (JQL functions,
 *   history operators, Drive `has`, code-search boolean operators, mixing AND with OR in a payments query);
 * - `unknown_operator`: an operator the language does not have, or one that does not apply to the field;
 * - `invalid_value`: a value of the wrong type or shape (a non-number after `>`, a bad date, a missing `values`);
 * - `limit_exceeded`: a documented limit (more than 6 filter groups, a query over its length or clause limit).
 */
export type QueryErrorCode =
  'query_syntax' | 'query_unsupported' | 'unknown_operator' | 'invalid_value' | 'limit_exceeded';

/** A 422 the mock returns for a query it cannot run: unsupported syntax, unknown operator, bad value. */
export class QueryError extends Error {
  /** The param at fault: the query param's name, or a path into a structured request (`filterGroups[0].filters[1].operator`). */
  readonly field: string;
  /** 0-based offset (UTF-16 code units) of the construct in the query text; undefined for structured requests. */
  readonly position: number | undefined;
  /** Machine-readable reason (see {@link QueryErrorCode}). */
  readonly error_code: QueryErrorCode;

  /** `detail` says what is wrong; the message appends the position when there is one. */
  constructor(detail: string, init: { field: string; code: QueryErrorCode; position?: number | undefined }) {
    super(init.position === undefined ? detail : `${detail} at position ${init.position}`);
    this.name = 'QueryError';
    this.field = init.field;
    this.position = init.position;
    this.error_code = init.code;
  }
}
