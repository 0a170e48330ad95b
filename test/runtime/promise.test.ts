/**
 * What every call returns: a real Promise (single, list, download, execute, createSource) with `.withResponse()`
 * and `.asResponse()`, and the service's request id on responses and on errors.
 */
import { describe, expect, test } from 'vitest';
import { APIPromise, ApiError, ConnectionError, ConnectorClient, NotFoundError, PagePromise, type CallDescriptor, type PaginationDescriptor } from '../../runtime/src/index.js';
import { SERVICE, TestClient, TOKEN, collect, envelope, fakeFetch, json, options, rejection } from './helpers.js';

const get: CallDescriptor = { entity: 'customers', action: 'get' };
const list: CallDescriptor = { entity: 'customers', action: 'list' };
/** The real spec's request-id header (spec/service.yaml), in another case to show names are case-insensitive. */
const service = { ...SERVICE, requestIdHeader: 'X-Request-Id' };
const withId = (response: Response, id: string) => {
  response.headers.set('x-request-id', id);
  return response;
};

describe('calls return real promises', () => {
  test('single and list calls are Promises: instanceof, Promise.race / all / resolve, then / catch / finally', async () => {
    const { fetch } = fakeFetch((request) => (request.body.action === 'get' ? envelope({ id: 'cus_1' }) : envelope([{ id: 'cus_1' }], { has_more: false })));
    const client = new TestClient(options(fetch), service);
    const one = client.single(get, { id: 'cus_1' });
    const page = client.list(list, {}, null);
    expect(one).toBeInstanceOf(Promise);
    expect(one).toBeInstanceOf(APIPromise);
    expect(page).toBeInstanceOf(Promise);
    expect(page).toBeInstanceOf(PagePromise);
    expect(await Promise.race([one])).toEqual({ id: 'cus_1' });
    expect(await Promise.all([one, page])).toEqual([{ id: 'cus_1' }, { records: [{ id: 'cus_1' }], meta: { has_more: false } }]);
    expect(await Promise.resolve(page)).toEqual({ records: [{ id: 'cus_1' }], meta: { has_more: false } });
    expect(await one.then((c) => (c as { id: string }).id)).toBe('cus_1');
    let finished = false;
    const after = one.finally(() => (finished = true));
    expect(after).not.toBeInstanceOf(APIPromise); // derived promises are plain ones
    expect(await after).toEqual({ id: 'cus_1' });
    expect(finished).toBe(true);
  });

  test('a failing call rejects through await, catch and withResponse, and leaves no unhandled rejection behind', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { fetch } = fakeFetch(() => json({ message: 'no such customer' }, 404));
      const call = new TestClient(options(fetch), service).single(get, { id: 'cus_x' });
      expect(await call.catch((e: unknown) => e)).toBeInstanceOf(NotFoundError);
      expect(await rejection(call)).toBeInstanceOf(NotFoundError);
      expect(await rejection(call.withResponse())).toBeInstanceOf(NotFoundError);
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  test('a list walk asked for no items still sees the failure of the first page it requested', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { fetch } = fakeFetch(() => json({}, 404));
      const client = new TestClient(options(fetch), service);
      expect(await rejection(collect(client.list(list, {}, null, { maxItems: 0 })))).toBeInstanceOf(NotFoundError);
      expect(await rejection(collect(client.list(list, {}, null, { maxPages: 0 }).pages()))).toBeInstanceOf(NotFoundError);
      const ok = fakeFetch(() => envelope([{ id: 1 }]));
      expect(await collect(new TestClient(options(ok.fetch), service).list(list, {}, null, { maxItems: 0 }))).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  test('execute, createSource and downloads are APIPromises too', async () => {
    const { fetch } = fakeFetch((request) => (request.url.endsWith('/sources') ? json({ result: { id: 'src_2' } }, 201) : request.body.action === 'download' ? new Response('bytes') : envelope([])));
    const client = new TestClient(options(fetch), service);
    const executed = client.execute({ entity: 'customers', action: 'list' });
    const created = client.createSource({ name: 'x' });
    const downloaded = client.download({ entity: 'files', action: 'download' });
    for (const call of [executed, created, downloaded]) expect(call).toBeInstanceOf(APIPromise);
    expect((await executed).records).toEqual([]);
    expect((await created).id).toBe('src_2');
    expect(await new Response((await downloaded).body).text()).toBe('bytes');
  });
});

describe('withResponse and asResponse', () => {
  test('withResponse gives the data, the response and the request id; awaiting still gives the data', async () => {
    const { fetch } = fakeFetch(() => withId(envelope({ id: 'cus_1' }), 'req_abc'));
    const call = new TestClient(options(fetch), service).single(get, { id: 'cus_1' });
    const { data, response, requestId } = await call.withResponse();
    expect(data).toEqual({ id: 'cus_1' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('req_abc');
    expect(requestId).toBe('req_abc');
    expect(await call).toEqual({ id: 'cus_1' });
  });

  test('asResponse gives the raw response, its body readable again; list calls give the first page', async () => {
    const { fetch, calls } = fakeFetch((request) => {
      const cursor = request.body.params?.['cursor'];
      return withId(envelope([{ id: cursor ? 'b' : 'a' }], { next_cursor: cursor ? null : 'c2' }), cursor ? 'req_2' : 'req_1');
    });
    const cursorPaging: PaginationDescriptor = { param: 'cursor', next: { from: 'meta', path: 'next_cursor' }, stop: [{ when: 'nextMissing' }] };
    const pages = new TestClient(options(fetch), service).list(list, {}, cursorPaging);
    const raw = await pages.asResponse();
    expect(raw.headers.get('x-request-id')).toBe('req_1');
    expect(await raw.json()).toEqual({ result: [{ id: 'a' }], connector_metadata: { next_cursor: 'c2' } });
    expect((await pages.withResponse()).requestId).toBe('req_1');
    expect(await collect(pages)).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(calls).toHaveLength(2);
  });

  test('without a requestIdHeader in the service descriptor there is no request id', async () => {
    const { fetch } = fakeFetch(() => withId(envelope({ id: 'cus_1' }), 'req_abc'));
    expect((await new TestClient(options(fetch), SERVICE).single(get, {}).withResponse()).requestId).toBeUndefined();
  });
});

describe('request ids on errors', () => {
  test('every error with a response carries its request id; connection errors have none', async () => {
    const notFound = fakeFetch(() => withId(json({ message: 'gone' }, 404), 'req_404'));
    const error = (await rejection(new TestClient(options(notFound.fetch), service).single(get, {}))) as ApiError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.requestId).toBe('req_404');

    const retried = fakeFetch(() => withId(json({}, 503), 'req_503'));
    const failed = (await rejection(new TestClient(options(retried.fetch, { maxRetries: 1 }), service).single(get, {}))) as ApiError;
    expect(failed.requestId).toBe('req_503');
    expect(retried.calls).toHaveLength(2);

    const malformed = fakeFetch(() => withId(new Response('<html>', { status: 200 }), 'req_html'));
    expect(((await rejection(new TestClient(options(malformed.fetch), service).single(get, {}))) as ApiError).requestId).toBe('req_html');

    const down = fakeFetch(() => Promise.reject(new TypeError('fetch failed')));
    const connection = (await rejection(new TestClient(options(down.fetch, { maxRetries: 0 }), service).single(get, {}))) as ApiError;
    expect(connection).toBeInstanceOf(ConnectionError);
    expect(connection.requestId).toBeUndefined();
  });

  test('a request id that echoes the token is scrubbed like every other header', async () => {
    const { fetch } = fakeFetch(() => withId(json({}, 404), `req_${TOKEN}`));
    const error = (await rejection(new ConnectorClient(options(fetch), service).createSource({}))) as ApiError;
    expect(error.requestId).toBe('req_[REDACTED]');
  });
});
