/** When to retry a failed read and how long to wait first. */
import { AbortError, type ApiError } from './errors.js';
import type { FetchHeaders } from './options.js';

/** Time and randomness behind retry delays; injectable so tests can assert exact delays without waiting. */
export interface Clock {
  /** Resolves after `ms` milliseconds. */
  sleep(ms: number): Promise<void>;
  /** A number in [0, 1) (jitter). */
  random(): number;
  /** Milliseconds since the epoch (to read Retry-After dates). */
  now(): number;
}

/** The real clock. */
export const systemClock: Clock = {
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  // Neither reads `this`.
  random: Math.random,
  now: Date.now,
};

/** Longest wait a server's Retry-After may impose; beyond it the client would look hung. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * How long to wait before the attempt after `failure` (attempt number `attempt`, 0-based), or undefined when the
 * failure is final. Connection failures, timeouts, 408, 429 and 5xx are worth another attempt; aborts and other
 * statuses never are. The server's Retry-After wins (capped at {@link MAX_RETRY_AFTER_MS}); else exponential
 * backoff, initialMs * 2^attempt capped at maxMs, jittered to [75%, 100%] by `random` (in [0, 1)).
 */
export function retryDelay(
  failure: ApiError,
  attempt: number,
  { initialMs = 500, maxMs = 8_000 } = {},
  random: number,
): number | undefined {
  const { status, retryAfterMs: wait } = failure;
  if (status ? status === 408 || status === 429 || status >= 500 : !(failure instanceof AbortError)) {
    return wait !== undefined
      ? Math.min(wait, MAX_RETRY_AFTER_MS)
      : Math.round(Math.min(initialMs * 2 ** attempt, maxMs) * (0.75 + 0.25 * random));
  }
}

/**
 * The wait a response asks for: retry-after-ms, else Retry-After as seconds or as an HTTP date.
 * Undefined when neither header is present or readable.
 */
export function retryAfterMs(headers: FetchHeaders, now: number): number | undefined {
  const ms = Number(headers.get('retry-after-ms') || NaN);
  const value = headers.get('retry-after')?.trim() ?? '';
  const seconds = Number(value || NaN);
  // NaN (nothing readable) fails every test.
  const wait = ms >= 0 && ms < Infinity ? ms : seconds >= 0 ? seconds * 1000 : Math.max(0, Date.parse(value) - now);
  return wait >= 0 ? wait : undefined;
}
