/**
 * Sends one request with everything around it: auth header, per-attempt timeout, the caller's abort signal,
 * retries with backoff (reads only) and one log line per attempt. Knows HTTP, not connectors.
 */

import { AbortError, ApiError, ConnectionError, TimeoutError, errorForResponse } from './errors.js';
import type { ClientOptions, RequestOptions } from './options.js';
import { Secrets } from './redact.js';
import { MAX_RETRY_AFTER_MS, backoffMs, isRetryableStatus, retryAfterMs, sleepUnlessAborted, systemClock, type Clock } from './retry.js';

/** One request the client wants sent. */
export interface RequestSpec {
  /** Path below the base URL, already expanded. */
  path: string;
  /** JSON request body. */
  body: unknown;
  /** Accept header value. */
  accept: string;
  /** Reads may be retried; writes never are (a retried create could create twice). */
  retryable: boolean;
  /** Hand the 2xx body back unread (downloads) instead of parsing it as JSON. */
  stream: boolean;
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

/** The HTTP layer shared by every call of one client. */
export class Transport {
  readonly #baseUrl: string;
  readonly #token: ClientOptions['token'];
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;
  readonly #maxRetries: number;
  readonly #initialMs: number;
  readonly #maxMs: number;
  readonly #headers: Record<string, string>;
  readonly #logger: ClientOptions['logger'];
  readonly #clock: Clock;

  /** Resolves the client options' defaults once. */
  constructor(options: ClientOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#token = options.token;
    // Bound lazily so a fetch installed after construction (or a test stub) is still picked up.
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#timeoutMs = options.timeoutMs ?? 60_000;
    this.#maxRetries = options.maxRetries ?? 2;
    this.#initialMs = options.retryDelay?.initialMs ?? 500;
    this.#maxMs = options.retryDelay?.maxMs ?? 8_000;
    this.#headers = options.headers ?? {};
    this.#logger = options.logger;
    this.#clock = { ...systemClock, ...options.clock };
  }

  /** POSTs the spec, retrying reads, and returns the first 2xx exchange or throws an {@link ApiError}. */
  async send(spec: RequestSpec): Promise<Exchange> {
    const signal = spec.options?.signal;
    const maxRetries = spec.retryable ? (spec.options?.maxRetries ?? this.#maxRetries) : 0;
    const timeoutMs = spec.options?.timeoutMs ?? this.#timeoutMs;
    const ctx: CallContext = {
      label: spec.entity === undefined ? 'createSource' : `${spec.entity} ${spec.action}`,
      entity: spec.entity,
      action: spec.action,
      secrets: new Secrets(),
    };
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw aborted(ctx);
      const token = typeof this.#token === 'function' ? await this.#token() : this.#token;
      ctx.secrets.add(token);
      const started = this.#clock.now();
      let failure: ApiError;
      let serverWait: number | undefined;
      try {
        const { response, text } = await this.#attempt(spec, this.#requestHeaders(spec, token), timeoutMs, ctx);
        const headers = ctx.secrets.headers(response.headers);
        if (response.ok) {
          const json = parseSuccess(response, text, headers, ctx);
          this.#log('debug', spec, `${response.status}`, attempt, maxRetries, started, ctx);
          return { status: response.status, headers, json, response };
        }
        serverWait = retryAfterMs(response.headers, this.#clock.now());
        const body = ctx.secrets.deep(parseBody(text));
        const init = { body, headers, entity: ctx.entity, action: ctx.action, retryAfterMs: serverWait };
        failure = errorForResponse(response.status, ctx.secrets.text(response.statusText), ctx.label, init);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        failure = error;
      }
      const retry = attempt < maxRetries && isRetryable(failure);
      const delay = retry ? this.#delay(attempt, serverWait) : 0;
      this.#log('warn', spec, `${failure.status ?? failure.name}`, attempt, maxRetries, started, ctx, retry ? `; retrying in ${delay}ms` : '');
      if (!retry) throw failure;
      if (!(await sleepUnlessAborted(this.#clock, delay, signal))) throw aborted(ctx);
    }
  }

  /** One attempt: fetch plus (unless streaming a 2xx) reading the body, all under the attempt's timeout. */
  async #attempt(spec: RequestSpec, headers: Headers, timeoutMs: number, ctx: CallContext): Promise<{ response: Response; text: string | undefined }> {
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
      const response = await untilAborted(this.#fetch(`${this.#baseUrl}${spec.path}`, init), controller.signal);
      if (spec.stream && response.ok) {
        // The caller's signal keeps cancelling the body stream; the timeout covered only the wait for headers.
        streaming = true;
        return { response, text: undefined };
      }
      return { response, text: await untilAborted(response.text(), controller.signal) };
    } catch (error) {
      if (signal?.aborted) throw aborted(ctx);
      if (timedOut) throw new TimeoutError(`Request timed out after ${timeoutMs}ms (${ctx.label})`, { entity: ctx.entity, action: ctx.action });
      throw connectionError(error, ctx);
    } finally {
      clearTimeout(timer);
      if (!streaming) signal?.removeEventListener('abort', forwardAbort);
    }
  }

  /** Request headers: JSON defaults, then client headers, then call headers; Authorization always last. */
  #requestHeaders(spec: RequestSpec, token: string): Headers {
    const headers = new Headers({ 'content-type': 'application/json', accept: spec.accept });
    for (const [name, value] of Object.entries({ ...this.#headers, ...spec.options?.headers })) headers.set(name, value);
    try {
      headers.set('authorization', `Bearer ${token}`);
    } catch {
      // The platform's message would quote the header value, i.e. the token.
      throw new TypeError('The token contains characters that are not allowed in an HTTP header');
    }
    return headers;
  }

  /** Delay before retry number `attempt`: the server's wish (capped) if it stated one, else jittered backoff. */
  #delay(attempt: number, serverWait: number | undefined): number {
    if (serverWait !== undefined) return Math.min(serverWait, MAX_RETRY_AFTER_MS);
    return backoffMs(attempt, this.#initialMs, this.#maxMs, this.#clock.random());
  }

  /** One line per attempt: method, path, status (or error), attempt, elapsed ms. Never headers or the token. */
  #log(level: 'debug' | 'warn', spec: RequestSpec, outcome: string, attempt: number, maxRetries: number, started: number, ctx: CallContext, suffix = ''): void {
    if (!this.#logger) return;
    const line = `POST ${spec.path} ${outcome} attempt ${attempt + 1}/${maxRetries + 1} ${this.#clock.now() - started}ms${suffix}`;
    this.#logger[level](ctx.secrets.text(line));
  }
}

/** Connection failures, timeouts and retryable statuses are worth another attempt; aborts never are. */
function isRetryable(error: ApiError): boolean {
  if (error instanceof AbortError) return false;
  if (error instanceof ConnectionError || error instanceof TimeoutError) return true;
  return error.status !== undefined && isRetryableStatus(error.status);
}

/** The error for the caller's signal having fired. */
function aborted(ctx: CallContext): AbortError {
  return new AbortError(`Request aborted (${ctx.label})`, { entity: ctx.entity, action: ctx.action });
}

/** The error for fetch throwing; the cause is kept only when it cannot carry the token. */
function connectionError(error: unknown, ctx: CallContext): ConnectionError {
  const inner = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
  const reason = error instanceof Error ? `${error.message}${inner}` : String(error);
  const scrubbed = ctx.secrets.text(reason);
  const safe = error instanceof Error && ctx.secrets.text(`${error.stack ?? ''}${reason}`) === `${error.stack ?? ''}${reason}`;
  return new ConnectionError(`Connection error: ${scrubbed} (${ctx.label})`, { entity: ctx.entity, action: ctx.action, cause: safe ? error : undefined });
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

/** An error body: JSON when it parses, else the raw text, undefined when empty. */
function parseBody(text: string | undefined): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A 2xx JSON body; a body that is not JSON is a protocol error (not retried: the server did answer). */
function parseSuccess(response: Response, text: string | undefined, headers: Record<string, string>, ctx: CallContext): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const init = { status: response.status, headers, body: ctx.secrets.text(text), entity: ctx.entity, action: ctx.action };
    throw new ApiError(`${response.status} response is not valid JSON (${ctx.label})`, init);
  }
}
