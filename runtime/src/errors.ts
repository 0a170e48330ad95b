/**
 * The errors a call can fail with. Every failed call throws an {@link ApiError} subclass chosen by HTTP status or
 * by how the attempt failed; the bearer token never appears in any of its fields.
 */

/** What an {@link ApiError} carries besides its message (all optional: connection failures have no response). */
export interface ApiErrorInit {
  status?: number | undefined;
  code?: string | undefined;
  body?: unknown;
  entity?: string | undefined;
  action?: string | undefined;
  headers?: Record<string, string>;
  retryAfterMs?: number | undefined;
  requestId?: string | undefined;
  cause?: unknown;
}

/** Base of every error a sent call fails with (params are checked before sending: ParamValidationError; PaginationError ends a walk). The bearer token never appears in any of it. */
export class ApiError extends Error {
  /** HTTP status; undefined for connection failures, timeouts and aborts. */
  declare readonly status: number | undefined;
  /** The first `errors[].error_code` of the response body, if any. */
  declare readonly code: string | undefined;
  /** The parsed error body (token scrubbed); the raw text when it is not JSON; undefined when empty. */
  declare readonly body: unknown;
  /** The body's `errors` entries (which param or field failed and why); empty when the body has none. */
  declare readonly fieldErrors: FieldError[];
  /** Entity of the execute call; undefined for source creation. */
  declare readonly entity: string | undefined;
  /** Action of the execute call; undefined for source creation. */
  declare readonly action: string | undefined;
  /** Response headers, lower-cased, without authorization and cookie headers; empty without a response. */
  declare readonly headers: Record<string, string>;
  /** The service's id of the failed request (its request-id response header), to quote when reporting a problem; undefined without a response. */
  declare readonly requestId: string | undefined;
  /** How long the server asked to wait before trying again (`Retry-After` or `retry-after-ms`), if it said (429 and 503 answers usually do). */
  declare readonly retryAfterMs: number | undefined;

  /** Builds an error; the caller has already scrubbed `message`, `body` and `headers`. Names are literal so minifiers keep them. */
  constructor(message: string, init: ApiErrorInit = {}) {
    // Error reads only `cause` from the init.
    super(message, init);
    const errors = (init.body as { errors?: unknown })?.errors;
    const fieldErrors = Array.isArray(errors) ? (errors.filter(isRecord) as FieldError[]) : [];
    Object.assign(this, init, {
      name: 'ApiError',
      headers: init.headers ?? {},
      fieldErrors,
      code: init.code ?? fieldErrors.find((e) => typeof e.error_code === 'string')?.error_code,
    });
  }
}

/** 401 or 403: the token is missing or invalid, or may not access this source; also when the token function throws (its message cleared of token-shaped values). */
export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
}

/** 404: unknown source or record. */
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}

/** One entry of an error body's `errors` array. */
export interface FieldError {
  field?: string;
  message?: string;
  error_code?: string;
}

/** 400 or 422: a malformed request or invalid params; `fieldErrors` says which. */
export class InvalidRequestError extends ApiError {
  override name = 'InvalidRequestError';
}

/** 429: too many requests; `retryAfterMs` says how long the server asked to wait. */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
}

/** 5xx: a server or upstream failure (a read is retried first). */
export class ServerError extends ApiError {
  override name = 'ServerError';
}

/** The request never got a response: fetch itself threw (DNS, refused connection, reset, …); a read is retried first. */
export class ConnectionError extends ApiError {
  override name = 'ConnectionError';
}

/** An attempt took longer than `timeoutMs` and was cancelled (a read is retried first). */
export class TimeoutError extends ApiError {
  override name = 'TimeoutError';
}

/** The caller's AbortSignal fired; never retried. */
export class AbortError extends ApiError {
  override name = 'AbortError';
}

/** A safety limit ended the call: `limit` names the option that sets it, `max` its value. Raise the option if the data is really that large. */
export class LimitError extends ApiError {
  override name = 'LimitError';
  /** The option whose limit was reached: `maxResponseBytes` (a response body) or `maxPages` (an iteration). */
  declare readonly limit: 'maxResponseBytes' | 'maxPages';
  /** The limit's value: bytes or pages. */
  declare readonly max: number;

  /** Builds the error; the message says which limit was reached and how to raise it. */
  constructor(limit: 'maxResponseBytes' | 'maxPages', max: number, what: string, init?: ApiErrorInit) {
    super(`${what} exceeds ${limit} (${max}); raise the ${limit} option if that is expected`, {
      ...init,
      limit,
      max,
    } as ApiErrorInit);
  }
}

/** Paging cannot go on safely, e.g. the server repeated a cursor (following it would loop forever). */
export class PaginationError extends Error {
  override name = 'PaginationError';
}

/** Error classes by HTTP status (the transport makes any other 5xx a {@link ServerError}, any other status a plain {@link ApiError}). */
export const BY_STATUS: Record<number, typeof ApiError> = {
  400: InvalidRequestError,
  401: AuthenticationError,
  403: AuthenticationError,
  404: NotFoundError,
  422: InvalidRequestError,
  429: RateLimitError,
};

/** A non-null, non-array object. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && !Array.isArray(value);
