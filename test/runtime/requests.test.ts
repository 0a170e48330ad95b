/** What goes over the wire: URL, method, headers and body of every action kind, source creation and the envelope. */
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { ConnectorClient, type CallDescriptor } from '../../runtime/src/index.js';
import { BASE, EXECUTE_URL, SERVICE, TOKEN, TestClient, envelope, fakeFetch, json, options, rejection } from './helpers.js';

const read = (entity: string, action: string): CallDescriptor => ({ entity, action });
const write = (entity: string, action: string): CallDescriptor => ({ entity, action });

describe('execute requests', () => {
  const cases: { action: string; accept: string; run: (c: TestClient) => Promise<unknown> }[] = [
    { action: 'list', accept: 'application/json', run: (c) => c.list(read('customers', 'list'), { limit: 3 }, SERVICE.search).then((p) => p) },
    { action: 'get', accept: 'application/json', run: (c) => c.single(read('customers', 'get'), { id: 'cus_1' }) },
    { action: 'create', accept: 'application/json', run: (c) => c.single(write('customers', 'create'), { email: 'a@b.c' }) },
    { action: 'update', accept: 'application/json', run: (c) => c.single(write('customers', 'update'), { id: 'cus_1', name: 'N' }) },
    { action: 'delete', accept: 'application/json', run: (c) => c.single(write('customers', 'delete'), { id: 'cus_1' }) },
    { action: 'api_search', accept: 'application/json', run: (c) => c.list(read('customers', 'api_search'), { query: "email:'a'" }, null).then((p) => p) },
    { action: 'search', accept: 'application/json', run: (c) => c.search(read('customers', 'search'), { query: { filter: { eq: { email: 'a' } } } }).then((p) => p) },
    { action: 'download', accept: '*/*', run: (c) => c.download(read('files', 'download'), { fileId: 'f1' }) },
  ];

  test.each(cases)('$action: POST to the execute path with auth, JSON headers and { entity, action, params }', async ({ action, accept, run }) => {
    const { fetch, calls } = fakeFetch(() =>
      action === 'download' ? new Response('bytes') : envelope(action === 'search' ? { hits: [], next_cursor: null, took_ms: 1 } : [], { next_cursor: null }),
    );
    await run(new TestClient(options(fetch), SERVICE));
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.url).toBe(EXECUTE_URL);
    expect(call?.method).toBe('POST');
    expect(call?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(call?.headers.get('content-type')).toBe('application/json');
    expect(call?.headers.get('accept')).toBe(accept);
    expect(call?.body.entity).toBe(action === 'download' ? 'files' : 'customers');
    expect(call?.body.action).toBe(action);
    expect(Object.keys(call?.body ?? {})).toEqual(['entity', 'action', 'params']);
  });

  test('params is omitted when the call has none; callSingle returns the envelope records value', async () => {
    const { fetch, calls } = fakeFetch(() => envelope({ object: 'balance', available: [] }));
    const client = new TestClient(options(fetch), SERVICE);
    await expect(client.single(read('balance', 'get'))).resolves.toEqual({ object: 'balance', available: [] });
    expect(calls[0]?.body).toEqual({ entity: 'balance', action: 'get' });
  });

  test('execute (untyped) sends any entity/action/params and returns records, meta, status and headers', async () => {
    const { fetch, calls } = fakeFetch(() => json({ result: [{ id: 1 }], connector_metadata: { has_more: false } }, 200, { 'x-request-id': 'req_9' }));
    const client = new ConnectorClient(options(fetch), SERVICE);
    const response = await client.execute({ entity: 'anything', action: 'list', params: { a: 1 } });
    expect(calls[0]?.body).toEqual({ entity: 'anything', action: 'list', params: { a: 1 } });
    expect(response).toMatchObject({ records: [{ id: 1 }], meta: { has_more: false }, status: 200 });
    expect(response.headers['x-request-id']).toBe('req_9');
  });

  test('a trailing slash on baseUrl is tolerated; an async token function is resolved for the header', async () => {
    const { fetch, calls } = fakeFetch(() => envelope({}));
    const client = new TestClient(options(fetch, { baseUrl: `${BASE}//`, token: async () => TOKEN }), SERVICE);
    await client.single(read('a', 'get'), {});
    expect(calls[0]?.url).toBe(EXECUTE_URL);
    expect(calls[0]?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
  });

  test('client headers and per-call headers are sent (per-call wins); Authorization cannot be overridden', async () => {
    const { fetch, calls } = fakeFetch(() => envelope({}));
    const client = new TestClient(options(fetch, { headers: { 'x-team': 'client', 'x-trace': 'client', Authorization: 'Bearer other' } }), SERVICE);
    await client.single(read('a', 'get'), {}, { headers: { 'X-Trace': 'call' } });
    expect(calls[0]?.headers.get('x-team')).toBe('client');
    expect(calls[0]?.headers.get('x-trace')).toBe('call');
    expect(calls[0]?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
  });
});

describe('source id', () => {
  test('is percent-encoded into the path', async () => {
    const { fetch, calls } = fakeFetch(() => envelope({}));
    await new TestClient(options(fetch, { sourceId: 'src/a b?#%' }), SERVICE).single(read('a', 'get'), {});
    expect(calls[0]?.url).toBe(`${BASE}/api/v1/connectors/sources/src%2Fa%20b%3F%23%25/execute`);
  });

  test.each(['', '.', '..'])('%j is rejected with a TypeError before any request', (sourceId) => {
    const { fetch, calls } = fakeFetch(() => envelope({}));
    expect(() => new TestClient(options(fetch, { sourceId }), SERVICE)).toThrow(TypeError);
    expect(calls).toHaveLength(0);
  });

  test('without a source id, execute calls fail with a TypeError and send nothing, createSource still works', async () => {
    const { fetch, calls } = fakeFetch(() => envelope({ id: 'src_new' }));
    const client = new TestClient(options(fetch, { sourceId: undefined }), SERVICE);
    expect(await rejection(client.single(read('a', 'get'), {}))).toBeInstanceOf(TypeError);
    expect(await rejection(client.list(read('a', 'list'), {}, null))).toBeInstanceOf(TypeError);
    expect(calls).toHaveLength(0);
    await expect(client.createSource({ name: 'n' })).resolves.toEqual({ id: 'src_new' });
  });
});

describe('token', () => {
  test('an empty token is refused when the client is made, not at the first call as a 401; a function is not called then', () => {
    const { fetch, calls } = fakeFetch(() => envelope([]));
    expect(() => new TestClient({ ...options(fetch), token: '' }, SERVICE)).toThrow(/empty token/);
    let asked = 0;
    expect(() => new TestClient({ ...options(fetch), token: () => String(++asked) }, SERVICE)).not.toThrow();
    expect(asked).toBe(0);
    expect(calls).toHaveLength(0);
  });
});

describe('createSource', () => {
  test('POSTs the body to the sources path and returns the created source', async () => {
    const { fetch, calls } = fakeFetch(() => envelope({ id: 'src_9', name: 'Billing' }));
    const client = new ConnectorClient(options(fetch), SERVICE);
    const body = { workspace_id: 'ws_1', source_template_id: 'issue_tracking', auth_config: { api_key: '<API_KEY>' }, name: 'Billing' };
    await expect(client.createSource(body)).resolves.toEqual({ id: 'src_9', name: 'Billing' });
    expect(calls[0]?.url).toBe(`${BASE}/api/v1/integrations/sources`);
    expect(calls[0]?.method).toBe('POST');
    expect(calls[0]?.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(calls[0]?.headers.get('content-type')).toBe('application/json');
    expect(calls[0]?.body).toEqual(body);
  });
});

describe('service descriptor', () => {
  test('paths and envelope keys come from the descriptor, not from constants', async () => {
    const custom = { ...SERVICE, executePath: '/v9/src/{source_id}/run', envelope: { records: 'data', meta: 'paging' } };
    const { fetch, calls } = fakeFetch(() => json({ data: [{ id: 'a' }], paging: { cursor: 'n' }, result: 'ignored' }));
    const client = new TestClient(options(fetch), custom);
    const page = await client.list(read('x', 'list'), {}, null);
    expect(page).toEqual({ records: [{ id: 'a' }], meta: { cursor: 'n' } });
    expect(calls[0]?.url).toBe(`${BASE}/v9/src/src_1/run`);
    await expect(client.execute({ entity: 'x', action: 'get' })).resolves.toMatchObject({ records: [{ id: 'a' }], meta: { cursor: 'n' } });
  });

  test('a list whose records value is not an array fails with ApiError naming the key', async () => {
    const { fetch } = fakeFetch(() => envelope({ id: 'not a list' }));
    const error = await rejection(new TestClient(options(fetch), SERVICE).list(read('x', 'list'), {}, null));
    expect((error as Error).message).toContain("expected an array of records in 'result'");
    expect((error as Error).name).toBe('ApiError');
  });
});

describe('response bodies', () => {
  // Multi-byte characters (2, 3 and 4 bytes in UTF-8) in a body that arrives cut at every byte: each character is split.
  const body = JSON.stringify({ result: [{ id: 'cus_é', name: 'Zoë 日本 🎉' }], connector_metadata: { note: '€' } });
  const bytes = new TextEncoder().encode(body);
  const pieces = () => Array.from(bytes, (byte) => new Uint8Array([byte]));

  test.each([
    ['a web stream', () => new Response(new ReadableStream({ start: (c) => (pieces().forEach((p) => c.enqueue(p)), c.close()) }))],
    ['a Node stream (node-fetch)', () => ({ ok: true, status: 200, statusText: 'OK', headers: new Headers(), body: Readable.from(pieces()) })],
  ])('a body in many chunks, characters split between them, reads as sent: %s', async (_, respond) => {
    const client = new TestClient({ ...options(fakeFetch(() => json({})).fetch), fetch: async () => respond() as Response }, SERVICE);
    expect(await client.list(read('customers', 'list'), {}, null)).toEqual({ records: [{ id: 'cus_é', name: 'Zoë 日本 🎉' }], meta: { note: '€' } });
  });

  test('a body in one chunk reads as sent; asResponse gives the same text back', async () => {
    const { fetch } = fakeFetch(() => new Response(body));
    const call = new TestClient(options(fetch), SERVICE).single(read('customers', 'get'), { id: 'cus_é' });
    expect(await call).toEqual([{ id: 'cus_é', name: 'Zoë 日本 🎉' }]);
    expect(await (await call.asResponse()).text()).toBe(body);
  });
});

describe('resource table', () => {
  /** A client as generated code builds one: entities and their methods as data. */
  const tableClient = (fetch: ReturnType<typeof fakeFetch>['fetch']) =>
    new ConnectorClient(options(fetch), SERVICE, 'test', {
      paymentIntents: {
        get: {},
        apiSearch: { paging: SERVICE.search },
        list: { result: 'list' },
        byName: { entity: 'payment__intents', action: 'find by name' },
      },
    }) as unknown as { paymentIntents: Record<string, (params?: object) => Promise<unknown>> };

  test('entity and action are the snake_case of property and method names unless a method names them', async () => {
    const { fetch, calls } = fakeFetch(() => envelope([]));
    const { paymentIntents } = tableClient(fetch);
    await paymentIntents['get']!({ id: 'pi_1' });
    await paymentIntents['apiSearch']!({ query: 'q' });
    await paymentIntents['byName']!();
    expect(calls.map((c) => [c.body.entity, c.body.action])).toEqual([
      ['payment_intents', 'get'],
      ['payment_intents', 'api_search'],
      ['payment__intents', 'find by name'],
    ]);
  });

  test('a method with paging (or result list) reads pages of records, any other one record', async () => {
    const { fetch } = fakeFetch(() => envelope([{ id: 'a' }], { next_cursor: null }));
    const { paymentIntents } = tableClient(fetch);
    expect(await paymentIntents['get']!()).toEqual([{ id: 'a' }]);
    expect(await paymentIntents['apiSearch']!()).toEqual({ records: [{ id: 'a' }], meta: { next_cursor: null } });
    expect(await paymentIntents['list']!()).toEqual({ records: [{ id: 'a' }], meta: { next_cursor: null } });
  });
});
