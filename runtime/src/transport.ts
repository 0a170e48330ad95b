/**
 * Sends one request with everything around it: auth header, per-attempt timeout, the caller's abort signal,
 * retries with backoff (reads only) and one log line per attempt. Knows HTTP, not connectors. Small on purpose:
 * it is in every bundle that makes a call.
 */

import { AbortError, ApiError, ConnectionError, TimeoutError, errorForResponse } from './errors.js';
import type { ClientOptions, RequestOptions } from './options.js';
import { Secrets } from './redact.js';
import {
  MAX_RETRY_AFTER_MS,
  backoffMs,
  isRetryableStatus,
  retryAfterMs,
  sleepUnlessAborted,
  systemClock,
  type Clock,
} from './retry.js';

/** One request the client wants sent. */
export interface RequestSpec {
  /** Path below the base URL, already expanded. */
  path: string;
  /** JSON request body. */
  body: unknown;
  /** Reads may be retried; writes never are (a retried create could create twice). */
  retryable: boolean;
  /** Hand the 2xx body back unread (downloads, Accept any) instead of parsing it as JSON. */
  stream?: boolean;
  /** For errors and logs; both undefined for source creation. */
  entity?: string;
  action?: string;
  options?: RequestOptions | undefined;
}

/** A successful exchange. */
export interface Exchange {
  status: number;
  /** Response headers, lower-cased, credentials removed. */
  headers: Record<string, string>;
  /** Parsed JSON body; undefined when empty or streamed. */
  json: unknown;
  /** The response; its body is unread only when the spec asked for a stream. */
  response: Response;
}

/** What identifies a call in errors and log lines. */
interface CallContext {
  label: string;
  entity: string | undefined;
  action: string | undefined;
  secrets: Secrets;
}

/** The HTTP layer shared by every call of one client. Defaults are read from the options where used. */
export class Transport {
  readonly #options: ClientOptions;
  readonly #clock: Clock;

  /** Keeps the client options; a fetch installed after construction (or a test stub) is still picked up. */
  constructor(options: ClientOptions) {
    this.#options = options;
    this.#clock = { ...systemClock, ...options.clock };
  }

  /** POSTs the spec, retrying reads, and returns the first 2xx exchange or throws an {@link ApiError}. */
  async send(spec: RequestSpec): Promise<Exchange> {
    const { options = {} } = spec;
    const { token, retryDelay } = this.#options;
    const signal = options.signal;
    const maxRetries = spec.retryable ? (options.maxRetries ?? this.#options.maxRetries ?? 2) : 0;
    const ctx: CallContext = {
      label: spec.entity === undefined ? 'createSource' : `${spec.entity} ${spec.action}`,
      entity: spec.entity,
      action: spec.action,
      secrets: new Secrets(),
    };
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw aborted(ctx);
      const resolved = typeof token === 'function' ? await token() : token;
      ctx.secrets.add(resolved);
      const started = this.#clock.now();
      let failure: ApiError;
      let serverWait: number | undefined;
      try {
        const { response, text } = await this.#attempt(
          spec,
          resolved,
          options.timeoutMs ?? this.#options.timeoutMs ?? 60_000,
          ctx,
        );
        const headers = ctx.secrets.headers(response.headers);
        const json = parseBody(text);
        if (response.ok) {
          // A 2xx body that is not JSON is a protocol error (not retried: the server did answer).
          if (json === text && text)
            throw new ApiError(`${response.status} response is not valid JSON (${ctx.label})`, {
              entity: ctx.entity,
              action: ctx.action,
              status: response.status,
              headers,
              body: ctx.secrets.text(text),
            });
          this.#log('debug', spec, response.status, attempt, maxRetries, started, ctx);
          return { status: response.status, headers, json, response };
        }
        serverWait = retryAfterMs(response.headers, this.#clock.now());
        const init = {
          entity: ctx.entity,
          action: ctx.action,
          body: ctx.secrets.deep(json),
          headers,
          retryAfterMs: serverWait,
        };
        failure = errorForResponse(response.status, ctx.secrets.text(response.statusText), ctx.label, init);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        failure = error;
      }
      const retry = attempt < maxRetries && isRetryable(failure);
      const delay = !retry
        ? 0
        : serverWait !== undefined
          ? Math.min(serverWait, MAX_RETRY_AFTER_MS)
          : backoffMs(attempt, retryDelay?.initialMs ?? 500, retryDelay?.maxMs ?? 8_000, this.#clock.random());
      this.#log(
        'warn',
        spec,
        failure.status ?? failure.name,
        attempt,
        maxRetries,
        started,
        ctx,
        retry ? `; retrying in ${delay}ms` : '',
      );
      if (!retry) throw failure;
      if (!(await sleepUnlessAborted(this.#clock, delay, signal))) throw aborted(ctx);
    }
  }

  /** One attempt: fetch plus (unless streaming a 2xx) reading the body, all under the attempt's timeout. */
  async #attempt(
    spec: RequestSpec,
    token: string,
    timeoutMs: number,
    ctx: CallContext,
  ): Promise<{ response: Response; text: string | undefined }> {
    const headers = new Headers({
      'content-type': 'application/json',
      accept: spec.stream ? '*/*' : 'application/json',
    });
    // Client headers, then call headers, each replacing what came before (names are case-insensitive).
    for (const [name, value] of Object.entries({ ...this.#options.headers, ...spec.options?.headers }))
      headers.set(name, value);
    try {
      headers.set('authorization', `Bearer ${token}`);
    } catch {
      // The platform's message would quote the header value, i.e. the token.
      throw new TypeError('The token contains characters not allowed in an HTTP header');
    }
    const signal = spec.options?.signal;
    const controller = new AbortController();
    const forwardAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', forwardAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    let streaming = false;
    try {
      const init: RequestInit = { method: 'POST', headers, body: JSON.stringify(spec.body), signal: controller.signal };
      const fetchImpl = this.#options.fetch ?? fetch;
      const response = await untilAborted(
        fetchImpl(`${this.#options.baseUrl.replace(/\/+$/, '')}${spec.path}`, init),
        controller.signal,
      );
      // A streamed 2xx: the caller's signal keeps cancelling the body; the timeout covered only the wait for headers.
      streaming = !!spec.stream && response.ok;
      return { response, text: streaming ? undefined : await untilAborted(response.text(), controller.signal) };
    } catch (error) {
      if (signal?.aborted) throw aborted(ctx);
      if (timedOut)
        throw new TimeoutError(`Request timed out after ${timeoutMs}ms (${ctx.label})`, {
          entity: ctx.entity,
          action: ctx.action,
        });
      throw connectionError(error, ctx);
    } finally {
      clearTimeout(timer);
      if (!streaming) signal?.removeEventListener('abort', forwardAbort);
    }
  }

  /** One line per attempt: method, path, status (or error), attempt, elapsed ms. Never headers or the token. */
  #log(
    level: 'debug' | 'warn',
    spec: RequestSpec,
    outcome: string | number,
    attempt: number,
    maxRetries: number,
    started: number,
    ctx: CallContext,
    suffix = '',
  ): void {
    this.#options.logger?.[level](
      ctx.secrets.text(
        `POST ${spec.path} ${outcome} attempt ${attempt + 1}/${maxRetries + 1} ${this.#clock.now() - started}ms${suffix}`,
      ),
    );
  }
}

/** Connection failures, timeouts and retryable statuses are worth another attempt; aborts never are. */
function isRetryable(error: ApiError): boolean {
  if (error instanceof AbortError) return false;
  return (
    error instanceof ConnectionError ||
    error instanceof TimeoutError ||
    (error.status !== undefined && isRetryableStatus(error.status))
  );
}

/** The error for the caller's signal having fired. */
function aborted(ctx: CallContext): AbortError {
  return new AbortError(`Request aborted (${ctx.label})`, { entity: ctx.entity, action: ctx.action });
}

/** The error for fetch throwing; the cause is kept only when it cannot carry the token. */
function connectionError(error: unknown, ctx: CallContext): ConnectionError {
  const reason =
    error instanceof Error
      ? `${error.message}${error.cause instanceof Error ? `: ${error.cause.message}` : ''}`
      : String(error);
  const full = `${(error as Error | undefined)?.stack ?? ''}${reason}`;
  const safe = error instanceof Error && ctx.secrets.text(full) === full;
  return new ConnectionError(`Connection error: ${ctx.secrets.text(reason)} (${ctx.label})`, {
    entity: ctx.entity,
    action: ctx.action,
    cause: safe ? error : undefined,
  });
}

/** `promise`, but rejecting as soon as `signal` fires (a fetch that ignores its signal cannot hang a call). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** A body: JSON when it parses, else the raw text itself, undefined when empty. */
function parseBody(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
