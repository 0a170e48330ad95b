/**
 * Sends one request with everything around it: auth header, per-attempt timeout, the caller's abort signal,
 * retries with backoff (reads only), a counted response body and one log line per attempt. Knows HTTP, not
 * connectors. Small and lean on purpose: it is in every bundle that makes a call, and on every call's path.
 */

import { AbortError, ApiError, AuthenticationError, ConnectionError, LimitError, TimeoutError, errorForResponse, type ApiErrorInit } from './errors.js';
import type { ClientOptions, FetchResponse, LogLevel, RequestOptions } from './options.js';
import { Secrets, redactTokenShaped } from './redact.js';
import { MAX_RETRY_AFTER_MS, backoffMs, isRetryableStatus, retryAfterMs, sleepUnlessAborted, systemClock, type Clock } from './retry.js';

/** The environment variable that sets the log level where the platform has environment variables (`logLevel` wins). */
export const LOG_LEVEL_ENV = 'CONNECTOR_SDK_LOG';
/** The most retries a call makes, whatever `maxRetries` says: beyond it a client would hammer a failing service. */
export const MAX_RETRIES = 10;
/** Default of `maxResponseBytes`: 32 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 33_554_432;

/** Attempts one abort controller serves (see Transport's #idle). */
const CONTROLLER_USES = 8;

/** Log levels in order; a line is written when its level's index is at most the client's. */
const LEVELS: readonly LogLevel[] = ['off', 'error', 'warn', 'info', 'debug'];

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
  /** The body as read; undefined when streamed. */
  text: string | undefined;
  /** The response; its body is unread only when the spec asked for a stream. */
  response: Response;
  /** The service's request id (the ServiceDescriptor's `requestIdHeader`), if the response has one. */
  requestId: string | undefined;
}

/** What identifies a call in errors and log lines. */
interface CallContext {
  label: string;
  init: ApiErrorInit;
  secrets: Secrets;
}

/** The HTTP layer shared by every call of one client. Defaults are read from the options where used. */
export class Transport {
  readonly #options: ClientOptions;
  readonly #clock: Clock;
  readonly #url: string;
  readonly #requestIdHeader: string;
  readonly #connector: string;
  readonly #level: number;
  /**
   * Abort controllers of attempts that ended unaborted, reused a few times since creating one costs more than the
   * rest of a call. Only a few: fetch implementations (undici) leave a listener on the signal until garbage
   * collection, and more than ten would draw Node's MaxListenersExceededWarning.
   */
  readonly #idle: (AbortController & { uses?: number })[] = [];

  /** Keeps the client options; a fetch installed after construction (or a test stub) is still picked up. */
  constructor(options: ClientOptions, requestIdHeader = '', connector = '') {
    this.#options = options;
    this.#clock = { ...systemClock, ...options.clock };
    this.#url = options.baseUrl.replace(/\/+$/, '');
    this.#requestIdHeader = requestIdHeader.toLowerCase();
    this.#connector = connector && `${connector} `;
    // Read where it exists (Node, Deno, Bun); browsers have no process, and bundlers see no `process.env` to replace.
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[LOG_LEVEL_ENV];
    const level = LEVELS.indexOf(options.logLevel ?? (env?.toLowerCase() as LogLevel));
    this.#level = level < 0 ? 2 : level;
  }

  /** Writes `line` at `level` (1 error … 4 debug) when the client's level includes it; secrets are scrubbed first. */
  log(level: number, line: string, secrets?: Secrets): void {
    if (level <= this.#level) (this.#options.logger ?? console)[LEVELS[level] as 'warn']?.(secrets ? secrets.text(line) : line);
  }

  /** POSTs the spec, retrying reads, and returns the first 2xx exchange or throws an {@link ApiError}. */
  async send(spec: RequestSpec): Promise<Exchange> {
    const { options = {}, entity, action } = spec;
    const { token, retryDelay = {}, maxRetries = 2, maxResponseBytes = DEFAULT_MAX_RESPONSE_BYTES } = this.#options;
    const { signal, maxResponseBytes: max = maxResponseBytes } = options;
    const retries = spec.retryable ? Math.min(options.maxRetries ?? maxRetries, MAX_RETRIES) : 0;
    const ctx: CallContext = { label: entity === undefined ? 'createSource' : `${entity} ${action}`, init: { entity, action }, secrets: new Secrets() };
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw aborted(ctx);
      let resolved: string;
      try {
        resolved = typeof token === 'function' ? await token() : token;
      } catch (error) {
        // Whatever a token source throws may quote a credential it holds (a refresh token, a key): scrub, keep no cause.
        throw new AuthenticationError(`The token function failed: ${redactTokenShaped(ctx.secrets.text(String(error)))} (${ctx.label})`, ctx.init);
      }
      ctx.secrets.add(resolved);
      const started = this.#clock.now();
      let exchange: Exchange | undefined;
      let failure: ApiError | undefined;
      let serverWait: number | undefined;
      try {
        const { response, text } = await this.#attempt(spec, resolved, ctx, max);
        const headers = ctx.secrets.headers(response.headers);
        const { status } = response;
        // Built field by field: spreading ctx.init here cost more than the rest of this function.
        const init: ApiErrorInit = { entity, action, status, headers, requestId: headers[this.#requestIdHeader] };
        if (text === null) throw new LimitError('maxResponseBytes', max, `The ${status} response body`, init);
        const json = parseBody(text);
        if (response.ok) {
          // A 2xx body that is not JSON is a protocol error (not retried: the server did answer).
          if (json === text && text) throw new ApiError(`${status} response: expected JSON (${ctx.label})`, { ...init, body: ctx.secrets.text(text) });
          exchange = { status, headers, json, text: text!, response: response as Response, requestId: init.requestId };
        } else {
          serverWait = retryAfterMs(response.headers, this.#clock.now());
          failure = errorForResponse(status, ctx.secrets.text(response.statusText), ctx.label, { ...init, body: ctx.secrets.deep(json), retryAfterMs: serverWait });
        }
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        failure = error;
      }
      const retry = !!failure && attempt < retries && isRetryable(failure);
      const delay = !retry ? 0 : serverWait !== undefined ? Math.min(serverWait, MAX_RETRY_AFTER_MS) : backoffMs(attempt, retryDelay.initialMs ?? 500, retryDelay.maxMs ?? 8_000, this.#clock.random());
      // Successes are info; retries warn; a call the service or network failed is an error; a 4xx answer or the caller's abort is the caller's to handle.
      const level = !failure ? 3 : retry ? 2 : failure instanceof AbortError || ((failure.status ?? 0) / 100 | 0) === 4 ? 3 : 1;
      if (level <= this.#level) {
        const params = this.#level > 3 && (spec.body as { params?: object }).params;
        const { status = failure!.name, requestId } = exchange ?? failure!;
        this.log(
          level,
          `${this.#connector}${ctx.label} ${status} attempt ${attempt + 1}/${retries + 1} ${this.#clock.now() - started}ms${requestId ? ` request-id ${requestId}` : ''}${params ? ` params ${Object.keys(params)}` : ''}${retry ? `; retrying in ${delay}ms` : ''}`,
          ctx.secrets,
        );
      }
      if (exchange) return exchange;
      if (!retry) throw failure;
      if (!(await sleepUnlessAborted(this.#clock, delay, signal))) throw aborted(ctx);
    }
  }

  /**
   * One attempt: fetch plus (unless streaming a 2xx) reading the body, all under the attempt's timeout. The timer
   * and the caller's signal reject at once, so a fetch that ignores its signal cannot hang a call.
   */
  #attempt(spec: RequestSpec, token: string, ctx: CallContext, max: number): Promise<{ response: FetchResponse; text: string | null | undefined }> {
    const options = spec.options ?? {};
    const timeoutMs = options.timeoutMs ?? this.#options.timeoutMs ?? 60_000;
    // The platform's error would quote the header value, i.e. the token.
    if (/[^\t\x20-\x7e\x80-\xff]/.test(token)) throw new TypeError('The token contains characters not allowed in an HTTP header');
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: spec.stream ? '*/*' : 'application/json' };
    // Client headers, then call headers, each replacing what came before (names are case-insensitive).
    for (const extra of [this.#options.headers, options.headers]) for (const name in extra) headers[name.toLowerCase()] = extra[name]!;
    headers['authorization'] = `Bearer ${token}`;
    const body = JSON.stringify(spec.body);
    const fetchImpl = this.#options.fetch ?? fetch;
    const signal = options.signal;
    const controller: AbortController & { uses?: number } = this.#idle.pop() ?? new AbortController();
    return new Promise((resolve, reject) => {
      let streaming = false;
      const stop = (timedOut?: boolean) => {
        reject(timedOut ? new TimeoutError(`Request timed out after ${timeoutMs}ms (${ctx.label})`, ctx.init) : aborted(ctx));
        controller.abort();
      };
      const onAbort = () => stop();
      const timer = setTimeout(stop, timeoutMs, true);
      signal?.addEventListener('abort', onAbort);
      /** Ends the attempt's timer and, unless a body still streams, its link to the caller's signal; passes `value` on. */
      const done = <T>(value: T): T => {
        clearTimeout(timer);
        if (!streaming) {
          signal?.removeEventListener('abort', onAbort);
          if (!controller.signal.aborted && (controller.uses = (controller.uses ?? 0) + 1) < CONTROLLER_USES) this.#idle.push(controller);
        }
        return value;
      };
      (async () => {
        const response = await fetchImpl(this.#url + spec.path, { ...this.#options.fetchOptions, ...options.fetchOptions, method: 'POST', headers, body, signal: controller.signal });
        // A streamed 2xx: the caller's signal keeps cancelling the body; the timeout covered only the wait for headers.
        streaming = !!spec.stream && response.ok;
        return { response, text: streaming ? undefined : await readText(response, max) };
      })().then(
        (result) => resolve(done(result)),
        (error: unknown) => reject(done(connectionError(error, ctx))),
      );
    });
  }
}

/**
 * The body as text, counted as it streams in: past `max` bytes the read is cancelled (the connection with it) and
 * null returned, so an endless or huge body costs at most `max` bytes of memory. Reads web streams and, from
 * fetches such as node-fetch, Node streams.
 */
async function readText(response: FetchResponse, max: number): Promise<string | null> {
  const body = response.body as { getReader?(): ReadableStreamDefaultReader<Uint8Array>; [Symbol.asyncIterator]?(): AsyncIterator<Uint8Array> } | null | undefined;
  if (!body) return '';
  // Web streams through a reader (not every browser can iterate them); Node streams (node-fetch) by iteration.
  const reader = body.getReader ? body.getReader() : body[Symbol.asyncIterator]!();
  const decoder = new TextDecoder();
  let text = '';
  // A declared length over the limit fails before reading anything.
  let size = Number(response.headers.get('content-length')) > max ? Infinity : 0;
  for (;;) {
    if (size > max) {
      void ('cancel' in reader ? reader.cancel() : reader.return?.())?.catch(() => {});
      return null;
    }
    const { done, value } = await ('read' in reader ? reader.read() : reader.next());
    if (done) return text + decoder.decode();
    size += value.byteLength;
    text += decoder.decode(value, { stream: true });
  }
}

/** Connection failures, timeouts and retryable statuses are worth another attempt; aborts never are. */
function isRetryable(error: ApiError): boolean {
  return error instanceof ConnectionError || error instanceof TimeoutError || isRetryableStatus(error.status ?? 0);
}

/** The error for the caller's signal having fired. */
function aborted(ctx: CallContext): AbortError {
  return new AbortError(`Request aborted (${ctx.label})`, ctx.init);
}

/** The error for fetch throwing; the cause is kept only when it cannot carry the token. */
function connectionError(error: unknown, ctx: CallContext): ConnectionError {
  const cause = (error as Error)?.cause as Error | undefined;
  const reason = `${(error as Error)?.message ?? error}${cause ? `: ${cause.message ?? cause}` : ''}`;
  const full = `${(error as Error)?.stack}${reason}`;
  return new ConnectionError(`Connection error: ${ctx.secrets.text(reason)} (${ctx.label})`, { ...ctx.init, cause: ctx.secrets.text(full) === full ? error : undefined });
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
