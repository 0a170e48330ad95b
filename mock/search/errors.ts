/** The one error the uniform search throws: a 422 listing every problem of the request. */

/** One problem: where (a path such as `query.filter.and[1].gt.created`), what, and a stable code. */
export interface SearchFieldError {
  field: string;
  message: string;
  /**
   * `required`, `unknown_param`, `invalid_type`, `invalid_value`, `invalid_cursor`, `invalid_filter`,
   * `unknown_operator`, `unsearchable_field`, `unsupported_operator`, `invalid_operand`, `invalid_sort`,
   * `unsortable_field`.
   */
  error_code: string;
}

/** A 422: the request names an unknown operator, an unsearchable field, or an operand of the wrong type. */
export class SearchRequestError extends Error {
  /** Every problem found, in the order the request was read. */
  readonly errors: SearchFieldError[];

  constructor(errors: SearchFieldError[]) {
    const first = errors[0];
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
    super(first ? `Invalid search params: ${first.field}: ${first.message}${more}` : 'Invalid search params');
    this.name = 'SearchRequestError';
    this.errors = errors;
  }
}
