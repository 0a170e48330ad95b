/**
 * The errors a call can fail with. Every failed call throws an {@link ApiError} subclass chosen by HTTP status or
 * by how the attempt failed; the bearer token never appears in any of its fields.
 */

/** What an {@link ApiError} carries besides its message (all optional: connection failures have no response). */
export interface ApiErrorInit {
  status?: number;
  code?: string;
  body?: unknown;
  entity?: string;
  action?: string;
  headers?: Record<string, string>;
  retryAfterMs?: number;
  cause?: unknown;
}

/** Base of every error the SDK throws for a failed call. The bearer token never appears in any of it. */
export class ApiError extends Error {
  /** HTTP status; undefined for connection failures, timeouts and aborts. */
  declare readonly status: number | undefined;
  /** The first `errors[].error_code` of the response body, if any. */
  declare readonly code: string | undefined;
  /** The parsed error body (token scrubbed); the raw text when it is not JSON; undefined when empty. */
  declare readonly body: unknown;
  /** Entity of the execute call; undefined for source creation. */
  declare readonly entity: string | undefined;
  /** Action of the execute call; undefined for source creation. */
  declare readonly action: string | undefined;
  /** Response headers, lower-cased, without authorization and cookie headers. */
  declare readonly headers: Record<string, string>;

  /** Builds an error; the caller has already scrubbed `message`, `body` and `headers`. Names are literal so minifiers keep them. */
  constructor(message: string, init: ApiErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.body = init.body;
    this.entity = init.entity;
    this.action = init.action;
    this.headers = init.headers ?? {};
  }
}

/** 401 or 403: the token is missing or invalid, or may not access this source. */
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

/** 400 or 422: a malformed request or invalid params. */
export class InvalidRequestError extends ApiError {
  override name = 'InvalidRequestError';
  /** The body's `errors` entries (which param failed and why); empty when the body has none. */
  declare readonly fieldErrors: FieldError[];

  /** Builds the error and lifts `errors` out of the body. */
  constructor(message: string, init: ApiErrorInit = {}) {
    super(message, init);
    this.fieldErrors = errorEntries(init.body);
  }
}

/** 429: too many requests. */
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  /** How long the server asked to wait (Retry-After or retry-after-ms), if it said. */
  declare readonly retryAfterMs: number | undefined;

  /** Builds the error with the server's requested wait. */
  constructor(message: string, init: ApiErrorInit = {}) {
    super(message, init);
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** 5xx: a server or upstream failure. */
export class ServerError extends ApiError {
  override name = 'ServerError';
}

/** The request never got a response: fetch itself threw (DNS, refused connection, reset, ...). */
export class ConnectionError extends ApiError {
  override name = 'ConnectionError';
}

/** An attempt took longer than its timeout and was cancelled. */
export class TimeoutError extends ApiError {
  override name = 'TimeoutError';
}

/** The caller's AbortSignal fired; never retried. */
export class AbortError extends ApiError {
  override name = 'AbortError';
}

/** Paging cannot go on safely, e.g. the server repeated a cursor (following it would loop forever). */
export class PaginationError extends Error {
  override name = 'PaginationError';
}

/** The `errors` array of an error body `{ message, errors: [{ field, message, error_code }] }`, or []. */
export function errorEntries(body: unknown): FieldError[] {
  const errors = isRecord(body) ? body['errors'] : undefined;
  return Array.isArray(errors) ? (errors.filter(isRecord) as FieldError[]) : [];
}

/**
 * The error for a non-2xx response. Message: "<status> <body.message or statusText> (<entity> <action>)".
 * Any status without a class of its own maps to plain {@link ApiError}.
 */
export function errorForResponse(status: number, statusText: string, label: string, init: ApiErrorInit): ApiError {
  const bodyMessage = isRecord(init.body) && typeof init.body['message'] === 'string' ? init.body['message'] : '';
  const message = `${status} ${bodyMessage || statusText || 'HTTP error'} (${label})`;
  const code = errorEntries(init.body).find((e) => typeof e.error_code === 'string')?.error_code;
  const full = { ...init, status, code };
  if (status === 400 || status === 422) return new InvalidRequestError(message, full);
  if (status === 401 || status === 403) return new AuthenticationError(message, full);
  if (status === 404) return new NotFoundError(message, full);
  if (status === 429) return new RateLimitError(message, full);
  if (status >= 500) return new ServerError(message, full);
  return new ApiError(message, full);
}

/** A non-null, non-array object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
