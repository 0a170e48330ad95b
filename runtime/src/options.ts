/**
 * The options a client is built with, and the per-call options every method takes. The JSDoc here is the
 * documentation: the generated READMEs' options tables are read from it (`@default` gives the default column).
 */

import type { Clock } from './retry.js';
import type { ResponseValidators } from './response-validation.js';
import type { ResponseValidation } from './validation.js';

/**
 * Any fetch: the platform's, undici's, node-fetch's or a test double. The runtime calls it with a URL string and
 * a plain init object, and reads only what {@link FetchResponse} lists. Declared as a method so that a fetch whose
 * own `RequestInit` type differs from the platform's is accepted without a cast.
 */
export type Fetch = { fetch(url: string, init: FetchInit): Promise<FetchResponse> }['fetch'];

/** What the runtime passes to fetch: the call's `fetchOptions`, then method, headers, body and signal. */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
  [option: string]: unknown;
}

/** The part of a fetch Response the runtime reads; a platform Response has it, and so do undici's and node-fetch's. */
export interface FetchResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: FetchHeaders;
  /** A web ReadableStream, or a Node stream (node-fetch); null or absent when there is no body. */
  readonly body?: unknown;
}

/** The part of a response's headers the runtime reads. */
export interface FetchHeaders {
  get(name: string): string | null;
  forEach(callback: (value: string, name: string) => void): void;
}

/** How much the client logs: each level includes those before it. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/** Where log lines go; `console`, pino and winston loggers fit. A missing method drops that level's lines. */
export interface Logger {
  error?(line: string): void;
  warn?(line: string): void;
  info?(line: string): void;
  debug?(line: string): void;
}

/** How a {@link ConnectorClient} reaches the service. */
export interface ClientOptions {
  /** Service address, e.g. "https://api.example.com" (a trailing slash is tolerated). */
  baseUrl: string;
  /** Bearer token, or a function returning one; the function is called before every attempt (tokens may rotate). If it throws, the call fails with `AuthenticationError`, its message cleared of anything token-shaped. */
  token: string | (() => string | Promise<string>);
  /** The source the execute calls address; only source creation works without it. */
  sourceId?: string;
  /**
   * The fetch to call: undici's (proxies, custom dispatchers), node-fetch's, or a test double.
   * @default globalThis.fetch
   */
  fetch?: Fetch;
  /** Extra fetch init fields for every request, e.g. undici's `dispatcher` (a proxy agent); method, headers, body and signal stay the client's. */
  fetchOptions?: FetchOptions;
  /**
   * Timeout of one attempt in milliseconds, the response body included (for downloads: until the headers).
   * @default 60_000
   */
  timeoutMs?: number;
  /**
   * Retries of a failed read (never of a write); at most 10, larger values count as 10.
   * @default 2
   */
  maxRetries?: number;
  /**
   * Exponential backoff bounds of retries in milliseconds, jittered; a server's Retry-After wins (capped at 60 s).
   * @default { initialMs: 500, maxMs: 8_000 }
   */
  retryDelay?: { initialMs?: number; maxMs?: number };
  /** Extra headers sent on every call (`Authorization` cannot be overridden). */
  headers?: Record<string, string>;
  /**
   * Largest response body read, in bytes, counted while it streams in; a larger one fails the call with `LimitError` (limit `maxResponseBytes`). Downloads are streamed to you and not limited.
   * @default 33_554_432 (32 MiB)
   */
  maxResponseBytes?: number;
  /**
   * Most pages one iteration of a list call fetches; reaching it with pages left fails with `LimitError` (limit `maxPages`). A call's own `maxPages` replaces it and ends the walk quietly instead.
   * @default 10_000
   */
  maxPages?: number;
  /**
   * What is logged: `error` (calls failed by the service or network), `warn` (+ retries, response-validation findings), `info` (+ every other attempt), `debug` (+ the param names of each attempt; never their values). Never the token.
   * @default the CONNECTOR_SDK_LOG environment variable where the platform has one, else 'warn'
   */
  logLevel?: LogLevel;
  /**
   * Receives the log lines; each names connector, entity, action, status, attempt, time and request id.
   * @default console
   */
  logger?: Logger;
  /** Time and randomness used for retry delays; replace them to test exact delays without waiting. */
  clock?: Partial<Clock>;
  /**
   * Check params against the spec before sending (a failure throws ParamValidationError).
   * @default true
   */
  validateParams?: boolean;
  /**
   * Check response records against the spec: 'off', 'warn' (a `warn` log line), 'strict' (ResponseValidationError). Needs `responseValidators`.
   * @default 'off'
   */
  validateResponses?: ResponseValidation;
  /** The record validators of the package's `/validators` entry (`import { responseValidators } from '<package>/validators'`). */
  responseValidators?: ResponseValidators;
}

/** Fetch init fields passed through (`dispatcher`, `cache`, `keepalive`, …): the platform's, plus any a custom fetch takes. */
export type FetchOptions = Omit<RequestInit, 'method' | 'headers' | 'body' | 'signal'> & Record<string, unknown>;

/** Per-call overrides. */
export interface RequestOptions {
  /** Aborts the call, including a pending retry delay; the call then fails with AbortError. */
  signal?: AbortSignal;
  /** Timeout of each attempt of this call. */
  timeoutMs?: number;
  /** Retries of this call (reads only; at most 10). */
  maxRetries?: number;
  /** Extra headers for this call; they win over the client's. */
  headers?: Record<string, string>;
  /** Extra fetch init fields for this call; they win over the client's. */
  fetchOptions?: FetchOptions;
  /** Largest response body of this call, in bytes. */
  maxResponseBytes?: number;
}

/** Per-call options of list-shaped calls: limits on how far iteration walks. */
export interface PageOptions extends RequestOptions {
  /** Stop iterating after this many items. */
  maxItems?: number;
  /** Stop after fetching this many pages (quietly; the client's `maxPages` fails instead). */
  maxPages?: number;
}
