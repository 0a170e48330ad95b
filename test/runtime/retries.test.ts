/** Retries (reads only, with backoff or Retry-After), per-attempt timeouts and the caller's abort signal. */
import { getEventListeners } from 'node:events';
import { describe, expect, test } from 'vitest';
import {
  AbortError,
  ApiError,
  ConnectionError,
  ConnectorClient,
  RateLimitError,
  ServerError,
  TimeoutError,
  type CallDescriptor,
} from '../../runtime/src/index.js';
import { SERVICE, TestClient, envelope, fakeFetch, json, options, recordingClock, rejection } from './helpers.js';

const get: CallDescriptor = { entity: 'customers', action: 'get' };
const create: CallDescriptor = { entity: 'customers', action: 'create' };
const failing = (status: number, headers: Record<string, string> = {}) => json({ message: 'nope' }, status, headers);

/** Answers `status` for the first `failures` calls, then a success. */
function flaky(failures: number, status = 503, headers: Record<string, string> = {}) {
  return fakeFetch((_, i) => (i < failures ? failing(status, headers) : envelope({ id: 'ok' })));
}

describe('retries of reads', () => {
  test('a read is retried up to maxRetries (default 2) and then succeeds', async () => {
    const { fetch, calls } = flaky(2);
    const { clock, delays } = recordingClock(0);
    await expect(new TestClient(options(fetch, { clock }), SERVICE).single(get, {})).resolves.toEqual({ id: 'ok' });
    expect(calls).toHaveLength(3);
    expect(delays).toEqual([375, 750]); // 500 * 2^n, jitter factor 0.75 at random() = 0
  });

  test('after maxRetries the last error is thrown', async () => {
    const { fetch, calls } = flaky(9);
    expect(await rejection(new TestClient(options(fetch), SERVICE).single(get, {}))).toBeInstanceOf(ServerError);
    expect(calls).toHaveLength(3);
  });

  test('backoff doubles from initialMs, is capped at maxMs and jittered within [75%, 100%]', async () => {
    for (const [random, expected] of [
      [0, [750, 1500, 2250, 2250]],
      [1, [1000, 2000, 3000, 3000]],
    ] as const) {
      const { fetch, calls } = flaky(9);
      const { clock, delays } = recordingClock(random);
      const client = new TestClient(options(fetch, { clock, maxRetries: 4, retryDelay: { initialMs: 1000, maxMs: 3000 } }), SERVICE);
      await rejection(client.single(get, {}));
      expect(calls).toHaveLength(5);
      expect(delays).toEqual(expected);
    }
  });

  test('Retry-After in seconds, as an HTTP date, and retry-after-ms are honoured (capped at 60s)', async () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    const cases: [Record<string, string>, number][] = [
      [{ 'retry-after': '2' }, 2000],
      [{ 'retry-after': new Date(now + 5000).toUTCString() }, 5000],
      [{ 'retry-after-ms': '150', 'retry-after': '9' }, 150],
      [{ 'retry-after': '3600' }, 60_000],
      [{ 'retry-after': new Date(now - 5000).toUTCString() }, 0],
    ];
    for (const [headers, expected] of cases) {
      const { fetch } = flaky(1, 429, headers);
      const { clock, delays } = recordingClock(0.5, now);
      await new TestClient(options(fetch, { clock }), SERVICE).single(get, {});
      expect(delays, JSON.stringify(headers)).toEqual([expected]);
    }
  });

  test.each([408, 429, 500, 502, 503, 504])('status %i is retried', async (status) => {
    const { fetch, calls } = flaky(1, status);
    await new TestClient(options(fetch), SERVICE).single(get, {});
    expect(calls).toHaveLength(2);
  });

  test.each([400, 401, 403, 404, 409, 422])('status %i is not retried', async (status) => {
    const { fetch, calls } = flaky(1, status);
    expect(await rejection(new TestClient(options(fetch), SERVICE).single(get, {}))).toBeInstanceOf(ApiError);
    expect(calls).toHaveLength(1);
  });

  test('a network failure (fetch throws) is a ConnectionError, retried for reads', async () => {
    const { fetch, calls } = fakeFetch(() => {
      throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') });
    });
    const error = await rejection(new TestClient(options(fetch), SERVICE).single(get, {}));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain('ECONNREFUSED');
    expect((error as ApiError).status).toBeUndefined();
    expect(calls).toHaveLength(3);
  });

  test('per-call maxRetries overrides the client default', async () => {
    const { fetch, calls } = flaky(9);
    await rejection(new TestClient(options(fetch, { maxRetries: 5 }), SERVICE).single(get, {}, { maxRetries: 0 }));
    expect(calls).toHaveLength(1);
  });

  test('a token function is called before every attempt', async () => {
    const { fetch, calls } = flaky(2);
    let n = 0;
    await new TestClient(options(fetch, { token: () => `tok_${++n}` }), SERVICE).single(get, {});
    expect(calls.map((c) => c.headers.get('authorization'))).toEqual(['Bearer tok_1', 'Bearer tok_2', 'Bearer tok_3']);
  });

  test('list pages and downloads are reads: retried', async () => {
    const { fetch, calls } = fakeFetch((_, i) => (i === 0 ? failing(502) : i === 1 ? envelope([], {}) : i === 2 ? failing(503) : new Response('x')));
    const client = new TestClient(options(fetch), SERVICE);
    await client.list({ entity: 'a', action: 'list' }, {}, null);
    await client.download({ entity: 'a', action: 'download' }, {});
    expect(calls).toHaveLength(4);
  });
});

describe('writes are never retried', () => {
  test.each([503, 429, 408])('a write action with status %i: one attempt', async (status) => {
    const { fetch, calls } = flaky(1, status);
    expect(await rejection(new TestClient(options(fetch), SERVICE).single(create, {}))).toBeInstanceOf(ApiError);
    expect(calls).toHaveLength(1);
  });

  test('a write that fails with a network error or timeout: one attempt', async () => {
    const thrown = fakeFetch(() => Promise.reject(new TypeError('fetch failed')));
    expect(await rejection(new TestClient(options(thrown.fetch), SERVICE).single(create, {}))).toBeInstanceOf(ConnectionError);
    expect(thrown.calls).toHaveLength(1);
    const hung = fakeFetch(() => new Promise<Response>(() => {}));
    expect(await rejection(new TestClient(options(hung.fetch, { timeoutMs: 10 }), SERVICE).single(create, {}))).toBeInstanceOf(TimeoutError);
    expect(hung.calls).toHaveLength(1);
  });

  test('createSource: one attempt', async () => {
    const { fetch, calls } = flaky(1, 503);
    expect(await rejection(new ConnectorClient(options(fetch), SERVICE).createSource({ name: 'x' }))).toBeInstanceOf(ServerError);
    expect(calls).toHaveLength(1);
  });

  test('execute: read actions are retried, write and unknown actions are not', async () => {
    for (const [action, attempts] of [['list', 3], ['search', 3], ['update', 1], ['delete', 1], ['frobnicate', 1]] as const) {
      const { fetch, calls } = flaky(9);
      await rejection(new ConnectorClient(options(fetch), SERVICE).execute({ entity: 'a', action }));
      expect(calls, action).toHaveLength(attempts);
    }
  });
});

describe('timeouts', () => {
  test('an attempt that never answers times out; reads retry, then TimeoutError', async () => {
    const { fetch, calls } = fakeFetch(() => new Promise<Response>(() => {}));
    const error = await rejection(new TestClient(options(fetch, { timeoutMs: 20, maxRetries: 1 }), SERVICE).single(get, {}));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toContain('timed out after 20ms');
    expect(calls).toHaveLength(2);
  });

  test('the attempt signal passed to fetch is aborted on timeout; per-call timeoutMs wins', async () => {
    const { fetch, calls } = fakeFetch(
      (request) => new Promise<Response>((_, reject) => request.signal?.addEventListener('abort', () => reject(new Error('aborted by signal')))),
    );
    const started = Date.now();
    const error = await rejection(new TestClient(options(fetch, { timeoutMs: 60_000 }), SERVICE).single(get, {}, { timeoutMs: 15, maxRetries: 0 }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(calls[0]?.signal?.aborted).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('a body that stalls after the headers also times out', async () => {
    const stalled = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode('{"result":')) });
    const { fetch } = fakeFetch(() => new Response(stalled, { status: 200 }));
    expect(await rejection(new TestClient(options(fetch, { timeoutMs: 20, maxRetries: 0 }), SERVICE).single(get, {}))).toBeInstanceOf(TimeoutError);
  });
});

describe('abort', () => {
  test('an already aborted signal fails at once without a request', async () => {
    const { fetch, calls } = flaky(0);
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(new TestClient(options(fetch), SERVICE).single(get, {}, { signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortError);
    expect(calls).toHaveLength(0);
  });

  test('aborting during a request fails with AbortError at once, and is not retried', async () => {
    const { fetch, calls } = fakeFetch(() => new Promise<Response>(() => {}));
    const controller = new AbortController();
    const pending = new TestClient(options(fetch, { timeoutMs: 60_000 }), SERVICE).single(get, {}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    expect(await rejection(pending)).toBeInstanceOf(AbortError);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.signal?.aborted).toBe(true); // the abort reached fetch too
  });

  test('aborting during the sleep before a retry fails with AbortError and sends nothing more', async () => {
    const { fetch, calls } = flaky(9);
    const controller = new AbortController();
    const clock = { sleep: () => new Promise<void>(() => controller.abort()), random: () => 0.5, now: () => 0 };
    const error = await rejection(new TestClient(options(fetch, { clock }), SERVICE).single(get, {}, { signal: controller.signal }));
    expect(error).toBeInstanceOf(AbortError);
    expect(calls).toHaveLength(1);
  });

  test('a signal the caller reuses across calls keeps no listener of a finished call: success, HTTP error, timeout', async () => {
    // A fetch that honours its signal, as platform fetches do: the third kind of call hangs until its attempt times out.
    const { fetch } = fakeFetch((request, i) =>
      i % 3 === 0
        ? envelope({ id: 'cus_1' })
        : i % 3 === 1
          ? failing(404)
          : new Promise<Response>((_, reject) => request.signal!.addEventListener('abort', () => reject(request.signal!.reason))),
    );
    const controller = new AbortController();
    const client = new TestClient(options(fetch, { timeoutMs: 5, maxRetries: 0 }), SERVICE);
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) outcomes.push(await client.single(get, {}, { signal: controller.signal }).then(() => 'ok', (e: unknown) => (e as Error).name));
    expect(outcomes).toEqual(['ok', 'NotFoundError', 'TimeoutError', 'ok', 'NotFoundError', 'TimeoutError']);
    // Let the timed-out attempts' fetches settle (they reject on their aborted signals): their clean-up has run then.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  test('a 429 gives a RateLimitError carrying retryAfterMs once retries are exhausted', async () => {
    const { fetch } = flaky(9, 429, { 'retry-after': '7' });
    const error = await rejection(new TestClient(options(fetch), SERVICE).single(get, {}));
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(7000);
  });
});
