/**
 * Sends one request with everything around it: auth header, per-attempt timeout, the caller's abort signal,
 * retries with backoff (reads only), a counted response body and one log line per attempt. Knows HTTP, not
 * connectors. Small and lean on purpose: it is in every bundle that makes a call, and on every call's path.
 */

import {
  AbortError,
  ApiError,
  AuthenticationError,
  ConnectionError,
  LimitError,
  TimeoutError,
  BY_STATUS,
  ServerError,
  isRecord,
  type ApiErrorInit,
} from './errors.js';
import type { ClientOptions, FetchResponse, LogLevel, RequestOptions } from './options.js';
import { addSecret, redact, redactDeep, redactHeaders, redactTokenShaped } from './redact.js';
import { retryAfterMs, retryDelay, systemClock } from './retry.js';

/** The environment variable that sets the log level where the platform has environment variables (`logLevel` wins). */
export const LOG_LEVEL_ENV = 'CONNECTOR_SDK_LOG';
/** The most retries a call makes, whatever `maxRetries` says: beyond it a client would hammer a failing service. */
export const MAX_RETRIES = 10;
/** Default of `maxResponseBytes`: 32 MiB. */
export const DEFAULT_MAX_RESPONSE_BYTES = 33_554_432;

/** Attempts one abort controller serves (see `idle` below). */
const CONTROLLER_USES = 8;

/** Log levels in order; a line is written when its level's index is at most the client's. */
const LEVELS: readonly LogLevel[] = ['off', 'error', 'warn', 'info', 'debug'];

/** A successful exchange. */
export interface Exchange {
  status: number;
  /** Response headers, lower-cased, credentials removed. */
  headers: Record<string, string>;
  /** Parsed JSON body, always an object (the envelope); undefined when empty or streamed. */
  json: Record<string, unknown> | undefined;
  /** The body as read; undefined when streamed. */
  text: string | undefined;
  /** The response; its body is unread only when the spec asked for a stream. */
  response: Response;
  /** The service's request id (the ServiceDescriptor's `requestIdHeader`), if the response has one. */
  requestId: string | undefined;
}

/** The HTTP layer shared by every call of one client. */
export interface Transport {
  /**
   * POSTs `body` as JSON to `path` (below the base URL, already expanded) and returns the first 2xx exchange or
   * throws an {@link ApiError}. Only a `retryable` call (a read) is retried: a retried create could create twice.
   * With `stream` the 2xx body is handed back unread (downloads, Accept any) instead of parsed as JSON. `entity`
   * and `action` name the call in errors and logs (both undefined for source creation).
   */
  send(
    path: string,
    body: unknown,
    retryable: boolean,
    options?: RequestOptions,
    stream?: boolean,
    entity?: string,
    action?: string,
  ): Promise<Exchange>;
  /** Writes `line` at `level` (1 error … 4 debug) when the client's level includes it. */
  log(level: number, line: string): void;
}

/** An abort controller and how many attempts it served. */
type Pooled = AbortController & { uses?: number };

/**
 * The transport of one client. Defaults are read from the options where used, so a fetch installed after
 * construction (or a test stub) is still picked up. `connector` starts every log line.
 */
export function createTransport(options: ClientOptions, requestIdHeader = '', connector = ''): Transport {
  const clock = { ...systemClock, ...options.clock };
  const base = options.baseUrl.replace(/\/+$/, '');
  const idHeader = requestIdHeader.toLowerCase();
  // Read where it exists (Node, Deno, Bun); browsers have no process, and bundlers see no `process.env` to replace.
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[LOG_LEVEL_ENV];
  const level = LEVELS.indexOf(options.logLevel ?? (env?.toLowerCase() as LogLevel));
  const logLevel = level < 0 ? 2 : level;
  /**
   * Abort controllers of attempts that ended unaborted, reused a few times since creating one costs more than the
   * rest of a call. Only a few: fetch implementations (undici) leave a listener on the signal until garbage
   * collection, and more than ten would draw Node's MaxListenersExceededWarning.
   */
  const idle: Pooled[] = [];

  const log = (at: number, line: string) => {
    if (at <= logLevel) (options.logger ?? console)[LEVELS[at] as 'warn']?.(line);
  };

  async function send(
    path: string,
    body: unknown,
    retryable: boolean,
    call: RequestOptions = {},
    stream?: boolean,
    entity?: string,
    action?: string,
  ): Promise<Exchange> {
    const { token } = options;
    const { signal } = call;
    const max = call.maxResponseBytes ?? options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    const retries = retryable ? Math.min(call.maxRetries ?? options.maxRetries ?? 2, MAX_RETRIES) : 0;
    const label = entity ? `${entity} ${action}` : 'createSource';
    const secrets: string[] = [];
    /** An error of this call: its message names the call; message and body are scrubbed of the token. */
    const fail = (Class: typeof ApiError, message: string, init?: ApiErrorInit) =>
      new Class(redact(`${message} (${label})`, secrets), {
        entity,
        action,
        ...init,
        body: redactDeep(init?.body, secrets),
      });
    const aborted = () => fail(AbortError, 'Request aborted');
    const json = JSON.stringify(body);
    for (let attempt = 0; ; attempt++) {
      if (signal?.aborted) throw aborted();
      let resolved: string;
      try {
        resolved = typeof token === 'function' ? await token() : token;
      } catch (error) {
        // Whatever a token source throws may quote a credential it holds (a refresh token, a key): scrub, keep no cause.
        throw fail(
          AuthenticationError,
          `The token function failed: ${redactTokenShaped(redact(String(error), secrets))}`,
        );
      }
      addSecret(secrets, resolved);
      // The platform's error would quote the header value, i.e. the token.
      if (/[^\t\x20-\x7e\x80-\xff]/.test(resolved))
        throw new TypeError('The token contains characters not allowed in an HTTP header');
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: stream ? '*/*' : 'application/json',
      };
      // Client headers, then call headers, each replacing what came before (names are case-insensitive).
      for (const extra of [options.headers, call.headers])
        for (const name in extra) headers[name.toLowerCase()] = extra[name]!;
      headers['authorization'] = `Bearer ${resolved}`;
      const timeoutMs = call.timeoutMs ?? options.timeoutMs ?? 60_000;
      const controller: Pooled = idle.pop() ?? new AbortController();
      const started = clock.now();
      let exchange: Exchange | undefined;
      let failure: ApiError | undefined;
      try {
        // One attempt: fetch plus (unless streaming a 2xx) reading the body, under the attempt's timeout. The timer
        // and the caller's signal reject at once, so a fetch that ignores its signal cannot hang a call.
        const [response, text] = await new Promise<[FetchResponse, string | null | undefined]>((resolve, reject) => {
          let streaming = false;
          /** Ends the attempt: by the timer (`true`) or the caller's signal (an event). */
          const stop = (timedOut: unknown) => {
            reject(timedOut === true ? fail(TimeoutError, `Request timed out after ${timeoutMs}ms`) : aborted());
            controller.abort();
          };
          const timer = setTimeout(stop, timeoutMs, true);
          signal?.addEventListener('abort', stop);
          (async () => {
            // try/finally, not .finally(): that costs every call two more promises and their ticks.
            try {
              const response = await (options.fetch ?? fetch)(base + path, {
                ...options.fetchOptions,
                ...call.fetchOptions,
                method: 'POST',
                headers,
                body: json,
                signal: controller.signal,
              });
              // A streamed 2xx: the caller's signal keeps cancelling the body; the timeout covered only the wait for headers.
              streaming = !!stream && response.ok;
              return [response, streaming ? undefined : await readText(response, max)] as [
                FetchResponse,
                string | null | undefined,
              ];
            } finally {
              // The attempt's timer ends; unless a body still streams, so does its link to the caller's signal.
              clearTimeout(timer);
              if (!streaming) {
                signal?.removeEventListener('abort', stop);
                if (!controller.signal.aborted && (controller.uses = (controller.uses ?? 0) + 1) < CONTROLLER_USES)
                  idle.push(controller);
              }
            }
          })().then(resolve, (error: unknown) => {
            // The cause is kept only when it cannot carry the token.
            const cause = (error as Error)?.cause as Error | undefined;
            const reason = `${(error as Error)?.message ?? error}${cause ? `: ${cause.message ?? cause}` : ''}`;
            const full = `${(error as Error)?.stack}${reason}`;
            reject(
              fail(ConnectionError, `Connection error: ${reason}`, {
                cause: redact(full, secrets) === full ? error : undefined,
              }),
            );
          });
        });
        const { status } = response;
        const scrubbed = redactHeaders(response.headers, secrets);
        const init = { status, headers: scrubbed, requestId: scrubbed[idHeader] };
        if (text === null)
          throw new LimitError('maxResponseBytes', max, `The ${status} response body`, { entity, action, ...init });
        // JSON when it parses, else the text itself; undefined when empty or streamed.
        let parsed: unknown = text || undefined;
        try {
          parsed = JSON.parse(text!);
        } catch {}
        if (response.ok) {
          // A 2xx body other than a JSON object (the envelope) is a protocol error (not retried: the server did answer).
          if (text && !isRecord(parsed))
            throw fail(ApiError, `${status} response: expected a JSON object`, { ...init, body: text });
          // Field by field: a spread here costs every call more than the rest of this block.
          exchange = {
            status,
            headers: scrubbed,
            json: parsed as Record<string, unknown> | undefined,
            text: text!,
            response: response as Response,
            requestId: init.requestId,
          };
        } else {
          const message = (parsed as { message?: unknown })?.message;
          failure = fail(
            BY_STATUS[status] ?? (status >= 500 ? ServerError : ApiError),
            `${status} ${(typeof message === 'string' && message) || response.statusText || 'HTTP error'}`,
            { ...init, body: parsed, retryAfterMs: retryAfterMs(response.headers, clock.now()) },
          );
        }
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        failure = error;
      }
      const delay =
        failure && attempt < retries ? retryDelay(failure, attempt, options.retryDelay, clock.random()) : undefined;
      const retry = delay !== undefined;
      // Successes are info; retries warn; a call the service or network failed is an error; a 4xx answer or the caller's abort is the caller's to handle.
      const at = !failure
        ? 3
        : retry
          ? 2
          : failure instanceof AbortError || ((failure.status! / 100) | 0) === 4
            ? 3
            : 1;
      if (at <= logLevel) {
        const { status = failure!.name, requestId } = exchange ?? failure!;
        const params = logLevel > 3 && (body as { params?: object }).params;
        log(
          at,
          redact(
            `${connector && `${connector} `}${label} ${status} attempt ${attempt + 1}/${retries + 1} ${clock.now() - started}ms${requestId ? ` request-id ${requestId}` : ''}${params ? ` params ${Object.keys(params)}` : ''}${retry ? `; retrying in ${delay}ms` : ''}`,
            secrets,
          ),
        );
      }
      if (exchange) return exchange;
      if (!retry) throw failure;
      // The wait before the next attempt ends early, with an AbortError, when the caller's signal fires.
      await new Promise((resolve, reject) => {
        const stop = () => reject(aborted());
        signal?.addEventListener('abort', stop);
        clock
          .sleep(delay!)
          .then(resolve, reject)
          .finally(() => signal?.removeEventListener('abort', stop));
      });
    }
  }

  return { send, log };
}

/**
 * The body as text, counted as it streams in: past `max` bytes the read is cancelled (the connection with it) and
 * null returned, so an endless or huge body costs at most `max` bytes of memory. Reads web streams and, from
 * fetches such as node-fetch, Node streams.
 */
async function readText(response: FetchResponse, max: number): Promise<string | null> {
  type Reader = Partial<ReadableStreamDefaultReader<Uint8Array> & AsyncIterator<Uint8Array>>;
  const body = response.body as { getReader?(): Reader; [Symbol.asyncIterator]?(): Reader } | null | undefined;
  if (!body) return '';
  // Web streams through a reader (not every browser can iterate them); Node streams (node-fetch) by iteration.
  const reader = body.getReader?.() ?? body[Symbol.asyncIterator]!();
  const decoder = new TextDecoder();
  let text = '';
  // Each chunk is decoded when the next arrives, the last without `stream`: a body of one chunk (most) takes the
  // platform's fast path (Node's TextDecoder leaves it for good once asked to stream).
  let last: Uint8Array | undefined;
  // A declared length over the limit fails before reading anything.
  for (let size = Number(response.headers.get('content-length')) > max ? Infinity : 0; size <= max;) {
    const { done, value } = await (reader.read?.() ?? reader.next!());
    if (done) return text + decoder.decode(last);
    if (last) text += decoder.decode(last, { stream: true });
    size += value.byteLength;
    last = value;
  }
  void (reader.cancel?.() ?? reader.return?.())?.catch(() => {});
  return null;
}
