/**
 * Safe limits where a server misbehaves: each has a default, an option and a typed error naming it. An endless or
 * huge body is cut off at maxResponseBytes (counted while streaming; the read is cancelled), endless fresh cursors
 * end at maxPages, an absurd maxRetries is clamped, and a throwing token function fails as AuthenticationError
 * without repeating any token-shaped value it was given.
 */
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import {
  AuthenticationError,
  DEFAULT_MAX_RESPONSE_BYTES,
  LimitError,
  MAX_RETRIES,
  ServerError,
  type CallDescriptor,
  type PaginationDescriptor,
} from '../../runtime/src/index.js';
import { SERVICE, TestClient, TOKEN, collect, envelope, fakeFetch, json, options, rejection } from './helpers.js';

const get: CallDescriptor = { entity: 'customers', action: 'get' };
const list: CallDescriptor = { entity: 'customers', action: 'list' };
const CHUNK = new Uint8Array(64 * 1024).fill(0x20);

/** A body that never ends: 64 KiB of spaces per pull, counting what was pulled and whether it was cancelled. */
function endlessBody() {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulled += CHUNK.byteLength;
      controller.enqueue(CHUNK);
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

describe('maxResponseBytes', () => {
  test('an endless body fails with LimitError once past the limit; the read is cancelled and the call not retried', async () => {
    const bodies: ReturnType<typeof endlessBody>[] = [];
    const { fetch, calls } = fakeFetch(() => {
      const body = endlessBody();
      bodies.push(body);
      return new Response(body.stream, { status: 200, headers: { 'x-request-id': 'req_big' } });
    });
    const max = 1024 * 1024;
    const error = await rejection(new TestClient(options(fetch, { maxResponseBytes: max }), { ...SERVICE, requestIdHeader: 'x-request-id' }).single(get, {}));
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ limit: 'maxResponseBytes', max, status: 200, requestId: 'req_big' });
    expect((error as Error).message).toMatch(/exceeds maxResponseBytes \(1048576\); raise the maxResponseBytes option/);
    expect(calls).toHaveLength(1);
    expect(bodies[0]!.state.cancelled).toBe(true);
    // Memory stays bounded: the stream's queue adds at most a few chunks beyond the limit.
    expect(bodies[0]!.state.pulled).toBeLessThanOrEqual(max + 4 * CHUNK.byteLength);
  });

  test('the default limit is 32 MiB: a 40 MiB list body fails, a 1 MiB one is read', async () => {
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(32 * 1024 * 1024);
    const sized = (bytes: number) => {
      let sent = 0;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent >= bytes) return controller.close();
          sent += CHUNK.byteLength;
          controller.enqueue(CHUNK);
        },
      });
    };
    const huge = fakeFetch(() => new Response(sized(40 * 1024 * 1024)));
    expect(await rejection(new TestClient(options(huge.fetch), SERVICE).list(list, {}, null))).toMatchObject({ limit: 'maxResponseBytes', max: DEFAULT_MAX_RESPONSE_BYTES });
    // Whitespace around a JSON body: 1 MiB of it parses.
    const fine = fakeFetch(() => new Response(new Blob(['{"result":[]}', CHUNK.slice(0, 1024 * 1024 - 13)]).stream()));
    expect(await new TestClient(options(fine.fetch), SERVICE).list(list, {}, null)).toEqual({ records: [], meta: undefined });
  });

  test('a declared Content-Length over the limit fails before the body is read', async () => {
    const body = endlessBody();
    const { fetch } = fakeFetch(() => new Response(body.stream, { headers: { 'content-length': String(300 * 1024 * 1024) } }));
    expect(await rejection(new TestClient(options(fetch), SERVICE).single(get, {}))).toBeInstanceOf(LimitError);
    expect(body.state.pulled).toBeLessThanOrEqual(2 * CHUNK.byteLength);
    expect(body.state.cancelled).toBe(true);
  });

  test('error bodies are limited too, and the per-call option wins over the client one', async () => {
    const { fetch } = fakeFetch(() => new Response(endlessBody().stream, { status: 500 }));
    const error = await rejection(new TestClient(options(fetch, { maxResponseBytes: 10 ** 9 }), SERVICE).single(get, {}, { maxResponseBytes: 1000 }));
    expect(error).toMatchObject({ limit: 'maxResponseBytes', max: 1000, status: 500 });
  });

  test('a Node stream body (node-fetch) is counted and destroyed the same way', async () => {
    let destroyed = false;
    const stream = Readable.from(
      (function* () {
        for (;;) yield Buffer.from(CHUNK);
      })(),
    ).on('close', () => (destroyed = true));
    const nodeFetchLike = async () => ({ ok: true, status: 200, statusText: 'OK', headers: new Headers(), body: stream });
    const client = new TestClient({ ...options(fakeFetch(() => json({})).fetch), fetch: nodeFetchLike, maxResponseBytes: 256 * 1024 }, SERVICE);
    expect(await rejection(client.single(get, {}))).toMatchObject({ limit: 'maxResponseBytes' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(destroyed).toBe(true);
  });
});

describe('maxPages', () => {
  const endless: PaginationDescriptor = { param: 'cursor', next: { from: 'meta', path: 'next' }, stop: [{ when: 'nextMissing' }] };
  /** A server that always has another page, each with a fresh cursor: the repeated-cursor guard never fires. */
  const freshCursors = () => fakeFetch((_, i) => envelope([{ n: i }], { next: `c${i + 1}` }));

  test("endless fresh cursors end with LimitError at the client's maxPages", async () => {
    const { fetch, calls } = freshCursors();
    const client = new TestClient(options(fetch, { maxPages: 25 }), SERVICE);
    const error = await rejection(collect(client.list(list, {}, endless)));
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ limit: 'maxPages', max: 25 });
    expect((error as Error).message).toMatch(/raise the maxPages option/);
    expect(calls).toHaveLength(25);
    expect(await rejection(collect(client.list(list, {}, endless).pages()))).toBeInstanceOf(LimitError);
  });

  test('without any option the walk ends at 10,000 pages', async () => {
    const { fetch, calls } = freshCursors();
    expect(await rejection(collect(new TestClient(options(fetch), SERVICE).list(list, {}, endless).pages()))).toMatchObject({ limit: 'maxPages', max: 10_000 });
    expect(calls).toHaveLength(10_000);
  }, 60_000);

  test("a call's own maxPages ends the walk quietly, even above the client's limit", async () => {
    const { fetch, calls } = freshCursors();
    const client = new TestClient(options(fetch, { maxPages: 5 }), SERVICE);
    expect(await collect(client.list(list, {}, endless, { maxPages: 8 }))).toHaveLength(8);
    expect(calls).toHaveLength(8);
  });

  test('a walk whose last page is the limit page ends normally', async () => {
    const { fetch } = fakeFetch((request) => envelope([{ id: 1 }], { next: request.body.params?.['cursor'] ? null : 'c2' }));
    expect(await collect(new TestClient(options(fetch, { maxPages: 2 }), SERVICE).list(list, {}, endless))).toHaveLength(2);
  });
});

describe('maxRetries', () => {
  test(`an absurd maxRetries is clamped to ${MAX_RETRIES}, on the client and per call`, async () => {
    expect(MAX_RETRIES).toBe(10);
    for (const [clientRetries, callRetries] of [[1e9, undefined], [2, Infinity]] as const) {
      const { fetch, calls } = fakeFetch(() => json({ message: 'down' }, 503));
      const error = await rejection(new TestClient(options(fetch, { maxRetries: clientRetries }), SERVICE).single(get, {}, { maxRetries: callRetries }));
      expect(error).toBeInstanceOf(ServerError);
      expect(calls).toHaveLength(MAX_RETRIES + 1);
    }
  });
});

describe('a token function that throws', () => {
  const secrets = ['1//0gAbCdEfGhIjKlMnOpQrStUvWxYz-0123456789', 'sk_live_51HxYzABCDEFghijKLMN', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl'];
  /** Everything an error exposes, cause chain included. */
  const everything = (error: unknown): string => {
    const parts: string[] = [];
    for (let e = error as (Error & { cause?: unknown }) | undefined; e; e = e.cause as typeof e) parts.push(String(e), e.message, String(e.stack), JSON.stringify(e));
    return parts.join('\n');
  };

  test.each([
    ['throws', () => { throw new Error(`refresh failed with refresh_token=${secrets[0]} (key ${secrets[1]}, last token ${secrets[2]})`); }],
    ['rejects', async () => { throw new TypeError(`cannot refresh ${secrets[0]}`, { cause: new Error(`upstream said ${secrets[1]}`) }); }],
  ])('a token function that %s fails the call with AuthenticationError without token-shaped values', async (_, token) => {
    const { fetch, calls } = fakeFetch(() => json({}));
    const error = await rejection(new TestClient(options(fetch, { token }), SERVICE).single(get, {}));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).toMatch(/^The token function failed: (Type)?Error: .*\[REDACTED\]/);
    const text = everything(error);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect((error as Error).cause).toBeUndefined();
    expect(calls).toHaveLength(0);
  });

  test('a token it returned before is scrubbed from a later failure by value, whatever its shape', async () => {
    let n = 0;
    const token = () => {
      if (n++ === 0) return TOKEN;
      throw new Error(`could not rotate ${TOKEN}`);
    };
    const { fetch } = fakeFetch(() => json({}, 503));
    const error = await rejection(new TestClient(options(fetch, { token, maxRetries: 1 }), SERVICE).single(get, {}));
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(everything(error)).not.toContain(TOKEN);
  });

  test('ordinary words and numbers of the message survive', async () => {
    const { fetch } = fakeFetch(() => json({}));
    const token = () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:8443 (auth.example.com)'));
    expect(((await rejection(new TestClient(options(fetch, { token }), SERVICE).single(get, {}))) as Error).message).toBe(
      'The token function failed: Error: connect ECONNREFUSED 127.0.0.1:8443 (auth.example.com) (customers get)',
    );
  });
});
