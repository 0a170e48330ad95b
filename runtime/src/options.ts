/** The options a client is built with, and the per-call options every method takes. */

import type { Clock } from './retry.js';
import type { ResponseValidators } from './response-validation.js';
import type { ResponseValidation } from './validation.js';

/** How a {@link ConnectorClient} reaches the service. */
export interface ClientOptions {
  /** Service address, e.g. "https://api.example.com" (a trailing slash is tolerated). */
  baseUrl: string;
  /** Bearer token, or a function returning one; the function is called before every attempt (tokens may rotate). */
  token: string | (() => string | Promise<string>);
  /** The source the execute calls address; only source creation works without it. */
  sourceId?: string;
  /** fetch implementation; defaults to globalThis.fetch. */
  fetch?: typeof fetch;
  /** Timeout of one attempt in milliseconds; default 60_000. */
  timeoutMs?: number;
  /** Retries of a failed read (never of a write); default 2. */
  maxRetries?: number;
  /** Exponential backoff bounds in milliseconds; defaults 500 and 8_000. */
  retryDelay?: { initialMs?: number; maxMs?: number };
  /** Extra headers sent on every call. */
  headers?: Record<string, string>;
  /** Receives one line per attempt (method, path, status, attempt, ms); never headers, never the token. */
  logger?: { debug(line: string): void; warn(line: string): void };
  /** Time and randomness used for retry delays; replace them to test exact delays without waiting. */
  clock?: Partial<Clock>;
  /** Check params against the spec before sending (a failure throws ParamValidationError); default true. */
  validateParams?: boolean;
  /**
   * Check response records against the spec: 'off' (default), 'warn' (logger.warn, else console.warn), 'strict'
   * (ResponseValidationError). Needs `responseValidators`.
   */
  validateResponses?: ResponseValidation;
  /** The record validators of the package's `/validators` entry (`import { responseValidators } from '<package>/validators'`). */
  responseValidators?: ResponseValidators;
}

/** Per-call overrides. */
export interface RequestOptions {
  /** Aborts the call, including a pending retry delay; the call then fails with AbortError. */
  signal?: AbortSignal;
  /** Timeout of each attempt of this call. */
  timeoutMs?: number;
  /** Retries of this call (reads only). */
  maxRetries?: number;
  /** Extra headers for this call; they win over the client's. */
  headers?: Record<string, string>;
}

/** Per-call options of list-shaped calls: limits on how far iteration walks. */
export interface PageOptions extends RequestOptions {
  /** Stop iterating after this many items. */
  maxItems?: number;
  /** Stop after fetching this many pages. */
  maxPages?: number;
}
