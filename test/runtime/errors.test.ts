/** Status → error class, the error fields, and the token: absent from every error and log line. */
import { describe, expect, test } from 'vitest';
import {
  AbortError,
  ApiError,
  AuthenticationError,
  ConnectionError,
  ConnectorClient,
  InvalidRequestError,
  NotFoundError,
  RateLimitError,
  ServerError,
  TimeoutError,
  type CallDescriptor,
} from '../../runtime/src/index.js';
import { SERVICE, TOKEN, TestClient, fakeFetch, json, options, rejection } from './helpers.js';

const get: CallDescriptor = { entity: 'customers', action: 'get' };
const noRetry = { maxRetries: 0 };

describe('status mapping', () => {
  test.each([
    [400, InvalidRequestError],
    [422, InvalidRequestError],
    [401, AuthenticationError],
    [403, AuthenticationError],
    [404, NotFoundError],
    [429, RateLimitError],
    [500, ServerError],
    [503, ServerError],
    [409, ApiError],
    [418, ApiError],
  ] as const)('%i → %o', async (status, errorClass) => {
    const { fetch } = fakeFetch(() => json({ message: 'boom' }, status));
    const error = (await rejection(new TestClient(options(fetch, noRetry), SERVICE).single(get, { id: 'c' }))) as ApiError;
    expect(error.constructor).toBe(errorClass);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.name).toBe(errorClass.name);
    expect(error.status).toBe(status);
    expect(error.message).toBe(`${status} boom (customers get)`);
    expect(error).toMatchObject({ entity: 'customers', action: 'get', body: { message: 'boom' } });
  });

  test('422 carries fieldErrors and the first error_code', async () => {
    const errors = [
      { field: 'email', message: 'invalid email', error_code: 'invalid_format' },
      { field: 'limit', message: 'too large', error_code: 'out_of_range' },
    ];
    const { fetch } = fakeFetch(() => json({ message: 'Invalid params', errors }, 422));
    const error = (await rejection(new TestClient(options(fetch), SERVICE).single(get, {}))) as InvalidRequestError;
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.fieldErrors).toEqual(errors);
    expect(error.code).toBe('invalid_format');
  });

  test('429 carries retryAfterMs; without the header it is undefined', async () => {
    const withHeader = fakeFetch(() => json({}, 429, { 'Retry-After': '3' }));
    expect(((await rejection(new TestClient(options(withHeader.fetch, noRetry), SERVICE).single(get, {}))) as RateLimitError).retryAfterMs).toBe(3000);
    const without = fakeFetch(() => json({}, 429));
    expect(((await rejection(new TestClient(options(without.fetch, noRetry), SERVICE).single(get, {}))) as RateLimitError).retryAfterMs).toBeUndefined();
  });

  test('without body.message the statusText is used; a non-JSON body is kept as text', async () => {
    const { fetch } = fakeFetch(() => new Response('upstream exploded', { status: 502, statusText: 'Bad Gateway' }));
    const error = (await rejection(new TestClient(options(fetch, noRetry), SERVICE).single(get, {}))) as ApiError;
    expect(error.message).toBe('502 Bad Gateway (customers get)');
    expect(error.body).toBe('upstream exploded');
    expect(error.code).toBeUndefined();
  });

  test('createSource errors have no entity or action', async () => {
    const { fetch } = fakeFetch(() => json({ message: 'Workspace unknown' }, 404));
    const error = (await rejection(new ConnectorClient(options(fetch), SERVICE).createSource({ workspace_id: 'w' }))) as ApiError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe('404 Workspace unknown (createSource)');
    expect(error.entity).toBeUndefined();
    expect(error.action).toBeUndefined();
  });

  test('error headers are lower-cased and never include authorization or set-cookie', async () => {
    const { fetch } = fakeFetch(() => json({}, 404, { 'X-Request-Id': 'req_1', Authorization: 'Bearer x', 'Set-Cookie': 'session=abc' }));
    const error = (await rejection(new TestClient(options(fetch), SERVICE).single(get, {}))) as ApiError;
    expect(error.headers['x-request-id']).toBe('req_1');
    expect(error.headers).not.toHaveProperty('authorization');
    expect(error.headers).not.toHaveProperty('set-cookie');
  });

  test('a 2xx body that is not JSON is an ApiError, not retried', async () => {
    const { fetch, calls } = fakeFetch(() => new Response('<html>', { status: 200 }));
    const error = (await rejection(new TestClient(options(fetch), SERVICE).single(get, {}))) as ApiError;
    expect(error.constructor).toBe(ApiError);
    expect(error.status).toBe(200);
    expect(calls).toHaveLength(1);
  });
});

describe('the token never leaks', () => {
  /** Everything observable about an error, as one string. */
  const everything = (error: unknown): string => {
    const e = error as ApiError;
    return [e.message, e.stack, String(e), JSON.stringify(e), JSON.stringify(e.body), JSON.stringify(e.headers), e.cause ? String((e.cause as Error).stack) : ''].join('\n');
  };

  /** A server that echoes the token everywhere it can: message, nested body strings, keys, headers. */
  const echo = (status: number) =>
    json(
      {
        message: `Token ${TOKEN} is not valid`,
        errors: [{ field: 'authorization', message: `Bearer ${TOKEN}`, error_code: `bad_${TOKEN}` }],
        debug: { request: { headers: { authorization: `Bearer ${TOKEN}` }, echo: [TOKEN, { deep: `x${TOKEN}x` }] }, [TOKEN]: 'as a key' },
        url: `https://x.test/?t=${encodeURIComponent(TOKEN)}`,
      },
      status,
      { 'x-echo': `Bearer ${TOKEN}`, 'www-authenticate': `Bearer realm="${TOKEN}"`, 'set-cookie': `t=${TOKEN}` },
    );

  test.each([400, 401, 403, 404, 422, 429, 500, 418])('status %i with the token echoed back', async (status) => {
    const lines: string[] = [];
    const logger = { error: (l: string) => lines.push(l), warn: (l: string) => lines.push(l), info: (l: string) => lines.push(l), debug: (l: string) => lines.push(l) };
    const { fetch } = fakeFetch(() => echo(status));
    const error = await rejection(new TestClient(options(fetch, { logger, logLevel: 'debug', maxRetries: 1 }), { ...SERVICE, requestIdHeader: 'x-echo' }).single(get, {}));
    expect(lines.length).toBeGreaterThan(0);
    const text = everything(error);
    expect(text).not.toContain(TOKEN);
    expect(text).toContain('[REDACTED]');
    expect(lines.join('\n')).not.toContain(TOKEN);
    if (error instanceof InvalidRequestError) expect(JSON.stringify(error.fieldErrors)).not.toContain(TOKEN);
    expect((error as ApiError).code ?? '').not.toContain(TOKEN);
  });

  test('the same holds for createSource, a token function, and a network error that quotes the token', async () => {
    const viaFunction = fakeFetch(() => echo(401));
    const e1 = await rejection(new ConnectorClient(options(viaFunction.fetch, { token: async () => TOKEN }), SERVICE).createSource({}));
    expect(everything(e1)).not.toContain(TOKEN);

    const thrown = fakeFetch(() => Promise.reject(new Error(`socket hang up while sending Bearer ${TOKEN}`)));
    const e2 = await rejection(new TestClient(options(thrown.fetch, noRetry), SERVICE).single(get, {}));
    expect(e2).toBeInstanceOf(ConnectionError);
    expect(everything(e2)).not.toContain(TOKEN);
    expect((e2 as Error).cause).toBeUndefined(); // the cause quoted the token, so it is dropped
  });

  test('timeout and abort errors carry no token either', async () => {
    const hung = fakeFetch(() => new Promise<Response>(() => {}));
    const e1 = await rejection(new TestClient(options(hung.fetch, { timeoutMs: 5, maxRetries: 0 }), SERVICE).single(get, {}));
    expect(e1).toBeInstanceOf(TimeoutError);
    const controller = new AbortController();
    controller.abort();
    const e2 = await rejection(new TestClient(options(hung.fetch), SERVICE).single(get, {}, { signal: controller.signal }));
    expect(e2).toBeInstanceOf(AbortError);
    expect(everything(e1) + everything(e2)).not.toContain(TOKEN);
  });

  test('a token with characters invalid in a header fails without quoting it', async () => {
    const { fetch } = fakeFetch(() => json({}));
    const bad = `${TOKEN}\nInjected: 1`;
    const error = await rejection(new TestClient(options(fetch, { token: bad }), SERVICE).single(get, {}));
    expect(error).toBeInstanceOf(TypeError);
    expect(String((error as Error).stack)).not.toContain(TOKEN);
  });
});

describe('logger', () => {
  test('one line per attempt naming connector, entity, action, status, attempt, ms and request id; retries warn, successes are info', async () => {
    const lines: [string, string][] = [];
    const logger = Object.fromEntries(['error', 'warn', 'info', 'debug'].map((level) => [level, (line: string) => lines.push([level, line])]));
    const { fetch } = fakeFetch((_, i) => (i === 0 ? json({ message: TOKEN }, 503, { 'x-request-id': 'req_1' }) : json({ result: { id: 1 } }, 200, { 'x-request-id': 'req_2' })));
    const service = { ...SERVICE, requestIdHeader: 'X-Request-Id' };
    await new TestClient(options(fetch, { logger, logLevel: 'info' }), service, 'payments').single(get, { id: 'cus_1' });
    expect(lines).toEqual([
      ['warn', expect.stringMatching(/^payments customers get 503 attempt 1\/3 \d+ms request-id req_1; retrying in \d+ms$/)],
      ['info', expect.stringMatching(/^payments customers get 200 attempt 2\/3 \d+ms request-id req_2$/)],
    ]);
    expect(lines.join('\n')).not.toMatch(/tok_|authorization|bearer|cus_1/i);
  });
});

describe('short test tokens', () => {
  test('a token under 8 characters is left in place: messages and logs stay readable', async () => {
    for (const token of ['any', 't', 'test']) {
      const lines: string[] = [];
      const logger = { error: (l: string) => lines.push(l), warn: (l: string) => lines.push(l), info: (l: string) => lines.push(l), debug: (l: string) => lines.push(l) };
      const { fetch } = fakeFetch(() => json({ message: 'no company record with id "c"; the latest test token is any', errors: [{ field: 'id', message: 'not found', error_code: 'not_found' }] }, 404));
      const error = (await rejection(new TestClient(options(fetch, { token, logger, logLevel: 'debug', maxRetries: 0 }), SERVICE).single(get, { id: 'c' }))) as ApiError;
      expect(error.message, token).toBe('404 no company record with id "c"; the latest test token is any (customers get)');
      expect(error.fieldErrors[0]?.message).toBe('not found');
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.join('\n')).not.toContain('[REDACTED]');
    }
  });

  test('from 8 characters on, a token is scrubbed wherever it appears, inside a word too', async () => {
    const { fetch } = fakeFetch(() => json({ message: 'no record for token x12345678x' }, 404));
    const error = (await rejection(new TestClient(options(fetch, { token: '12345678', maxRetries: 0 }), SERVICE).single(get, { id: 'c' }))) as ApiError;
    expect(error.message).toBe('404 no record for token x[REDACTED]x (customers get)');
  });
});
