/**
 * Errors the mock answers with, in the spec's error body (service.yaml assumptions.errorBody):
 * `{ "message": string, "errors": [{ "field", "message", "error_code" }] }`.
 */

/** One field-level problem of an error body. */
export interface FieldProblem {
  /** Path of the offending field (`params.limit`, `query.filter.gt.created`). */
  field: string;
  /** What is wrong with it. */
  message: string;
  /** Stable machine-readable code. */
  error_code: string;
}

/** An HTTP error answer: status, message and field problems. */
export class HttpError extends Error {
  /** HTTP status (4xx). */
  readonly status: number;
  /** Field problems (may be empty). */
  readonly errors: FieldProblem[];
  /** Extra response headers (e.g. Content-Range on 416). */
  readonly headers: Record<string, string>;
  constructor(status: number, message: string, errors: FieldProblem[] = [], headers: Record<string, string> = {}) {
    super(message);
    this.status = status;
    this.errors = errors;
    this.headers = headers;
  }
  /** The response body. */
  body(): { message: string; errors: FieldProblem[] } {
    return { message: this.message, errors: this.errors };
  }
}

/** 400: the request is malformed. */
export const badRequest = (message: string, errors: FieldProblem[] = []) => new HttpError(400, message, errors);
/** 422: the params break the spec's constraints. */
export const invalidParams = (message: string, errors: FieldProblem[]) => new HttpError(422, message, errors);
