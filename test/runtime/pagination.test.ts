/**
 * Paging driven only by descriptors: every distinct scheme of the catalogue (connectors' pagination[] plus the
 * uniform search's) walked against a fake server that follows that scheme's rules; limits; loop protection.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { ApiError, PaginationError, nextFromUrl, type PagePromise, type PaginationDescriptor } from '../../runtime/src/index.js';
import { SERVICE, TestClient, collect, envelope, fakeFetch, json, options, rejection } from './helpers.js';

interface CatalogueScheme extends PaginationDescriptor {
  name: string;
}
const catalogue = JSON.parse(readFileSync(new URL('../../generated/catalogue.json', import.meta.url), 'utf8')) as {
  connectors: { id: string; pagination: CatalogueScheme[] }[];
  service: { search: { pagination: CatalogueScheme } };
};

/**
 * The runtime-relevant part of a scheme (names, descriptions and assumptions do not change behaviour), with the
 * URL reader where the next value is a URL, as generated clients give it.
 */
function behaviour({ style, param, sizeParam, next, stop }: CatalogueScheme): PaginationDescriptor {
  return { style, param, ...(sizeParam === undefined ? {} : { sizeParam }), next, stop, ...(next.queryParam ? { read: nextFromUrl } : {}) };
}

/** Each distinct scheme once, labelled with every place that uses it. */
function distinctSchemes(): { label: string; scheme: PaginationDescriptor; search: boolean }[] {
  const byShape = new Map<string, { label: string; scheme: PaginationDescriptor; search: boolean }>();
  const add = (where: string, raw: CatalogueScheme, search: boolean) => {
    const scheme = behaviour(raw);
    const key = JSON.stringify([scheme, search]);
    const known = byShape.get(key);
    if (known) known.label += `, ${where}`;
    else byShape.set(key, { label: where, scheme, search });
  };
  for (const connector of catalogue.connectors) for (const raw of connector.pagination) add(`${connector.id}/${raw.name}`, raw, false);
  add('service/search', catalogue.service.search.pagination, true);
  return [...byShape.values()];
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
  node[parts[parts.length - 1] as string] = value;
}

const TOTAL = 7;
const SIZE = 3;
const DATA = Array.from({ length: TOTAL }, (_, i) => ({ id: `rec_${i + 1}`, n: i + 1 }));

/** A server that pages DATA by the rules of `scheme`, the way the real upstream would. */
function schemeServer(scheme: PaginationDescriptor, search: boolean) {
  const metas: Record<string, unknown>[] = [];
  const start = (params: Record<string, unknown>): number => {
    const value = params[scheme.param];
    if (value === undefined) return 0;
    switch (scheme.next.from) {
      case 'meta':
        return Number(String(value).replace('tok_', ''));
      case 'last_record':
        return DATA.findIndex((r) => r.id === value) + 1;
      case 'page_number':
        return (Number(value) - (scheme.next.start ?? 1)) * SIZE;
      case 'offset':
        return Number(value);
    }
  };
  const { fetch, calls } = fakeFetch((request) => {
    const params = request.body.params ?? {};
    const from = start(params);
    const size = scheme.sizeParam === undefined ? SIZE : Number(params[scheme.sizeParam]);
    const records = DATA.slice(from, from + size);
    const more = from + size < TOTAL;
    const meta: Record<string, unknown> = { served_from: from };
    if (scheme.next.from === 'meta' && scheme.next.path) {
      const token = `tok_${from + size}`;
      const value = scheme.next.queryParam ? `https://upstream.test/export?x=1&${scheme.next.queryParam}=${token}` : token;
      setPath(meta, scheme.next.path, more ? value : null);
    }
    for (const { when, key } of scheme.stop) {
      if (key === undefined) continue;
      if (when === 'metaFalse') setPath(meta, key, more);
      if (when === 'metaTrue') setPath(meta, key, !more);
      if (when === 'metaMissing') setPath(meta, key, more ? 'https://upstream.test/next' : null);
      if (when === 'totalReached') setPath(meta, key, TOTAL);
    }
    metas.push(meta);
    return search ? envelope({ hits: records, ...meta, took_ms: 2 }) : envelope(records, meta);
  });
  return { fetch, calls, metas };
}

/** Whether the scheme can tell the last non-empty page is the last; otherwise one extra (empty) page is fetched. */
function detectsLastPage(scheme: PaginationDescriptor): boolean {
  return scheme.stop.some(({ when }) => when !== 'emptyPage' && !(when === 'nextMissing' && scheme.next.from !== 'meta'));
}

describe('every pagination scheme of the catalogue', () => {
  // Plus one scheme that only an empty page ends: it costs one extra request.
  const emptyPageOnly: PaginationDescriptor = { style: 'page', param: 'p', sizeParam: 'n', next: { from: 'page_number', start: 0 }, stop: [{ when: 'emptyPage' }] };
  const schemes = [...distinctSchemes(), { label: 'synthetic/empty_page_only', scheme: emptyPageOnly, search: false }];

  test('the catalogue has schemes of every next-value source and every style', () => {
    expect(new Set(schemes.map((s) => s.scheme.next.from))).toEqual(new Set(['meta', 'last_record', 'page_number', 'offset']));
    expect(new Set(schemes.map((s) => s.scheme.style))).toEqual(new Set(['cursor', 'page', 'offset', 'token', 'link', 'since_id']));
  });

  test.each(schemes)('$label: yields all 7 records of pages of 3 in order, then stops', async ({ scheme, search }) => {
    const server = schemeServer(scheme, search);
    const client = new TestClient(options(server.fetch), search ? { ...SERVICE, search: scheme } : SERVICE);
    const original = { ...(scheme.sizeParam ? { [scheme.sizeParam]: SIZE } : {}), keep: 'me' };
    const call = { entity: 'things', action: search ? 'search' : 'list' } as const;
    // Typed loosely: the list page ({ records, meta }) and the search page (the hit object) differ.
    const walk = (): PagePromise<unknown, unknown> => (search ? client.search(call, original) : client.list(call, original, scheme));

    const items = await collect(walk());
    expect(items).toEqual(DATA);
    const expectedRequests = detectsLastPage(scheme) ? 3 : 4;
    expect(server.calls).toHaveLength(expectedRequests);
    // Each request is the original params with only the paging param set.
    expect(server.calls[0]?.body.params).toEqual(original);
    for (const request of server.calls.slice(1)) {
      const { [scheme.param]: value, ...rest } = request.body.params ?? {};
      expect(rest).toEqual(original);
      expect(value).toBeDefined();
    }

    // .pages() exposes each page's meta (for search: the hit object itself).
    const pages = await collect(walk().pages());
    expect(pages).toHaveLength(expectedRequests);
    const first = pages[0] as Record<string, unknown>;
    if (search) expect(first).toMatchObject({ ...server.metas[0], took_ms: 2 });
    else expect(first['meta']).toEqual(server.metas[0]);

    // Awaiting performs exactly one request and gives the first page.
    server.calls.length = 0;
    const firstPage = (await walk()) as Record<string, unknown>;
    expect(server.calls).toHaveLength(1);
    expect(search ? firstPage['hits'] : firstPage['records']).toEqual(DATA.slice(0, SIZE));
  });
});

const CURSOR: PaginationDescriptor = { style: 'cursor', param: 'cursor', sizeParam: 'limit', next: { from: 'meta', path: 'next_cursor' }, stop: [{ when: 'nextMissing' }] };
const list = { entity: 'things', action: 'list' } as const;

/** A cursor server over DATA with pages of 3. */
function cursorServer() {
  return fakeFetch((request) => {
    const from = Number(String(request.body.params?.['cursor'] ?? 'c0').slice(1));
    return envelope(DATA.slice(from, from + SIZE), { next_cursor: from + SIZE < TOTAL ? `c${from + SIZE}` : null });
  });
}

describe('walk limits and early exits', () => {
  test('maxItems stops iteration after that many items and fetches no further page', async () => {
    const { fetch, calls } = cursorServer();
    const items = await collect(new TestClient(options(fetch), SERVICE).list(list, {}, CURSOR, { maxItems: 5 }));
    expect(items).toEqual(DATA.slice(0, 5));
    expect(calls).toHaveLength(2);
  });

  test('maxPages stops after that many pages, for items and for pages()', async () => {
    const { fetch, calls } = cursorServer();
    const client = new TestClient(options(fetch), SERVICE);
    expect(await collect(client.list(list, {}, CURSOR, { maxPages: 2 }))).toEqual(DATA.slice(0, 6));
    expect(await collect(client.list(list, {}, CURSOR, { maxPages: 2 }).pages())).toHaveLength(2);
    expect(calls).toHaveLength(4);
  });

  test('breaking out of for-await stops cleanly without fetching more', async () => {
    const { fetch, calls } = cursorServer();
    const seen: unknown[] = [];
    for await (const item of new TestClient(options(fetch), SERVICE).list(list, {}, CURSOR)) {
      seen.push(item);
      if (seen.length === 2) break;
    }
    expect(seen).toEqual(DATA.slice(0, 2));
    expect(calls).toHaveLength(1);
  });

  test('pagination null means one page, whatever the meta says', async () => {
    const { fetch, calls } = cursorServer();
    expect(await collect(new TestClient(options(fetch), SERVICE).list(list, {}, null))).toEqual(DATA.slice(0, 3));
    expect(calls).toHaveLength(1);
  });

  test('the first page is requested when the method is called, once: awaiting twice and iterating reuse it', async () => {
    const { fetch, calls } = cursorServer();
    const pending = new TestClient(options(fetch), SERVICE).list(list, {}, CURSOR);
    await Promise.resolve();
    expect(calls).toHaveLength(1); // a promise: the request is under way before anyone awaits it
    const first = await pending;
    expect(await pending).toBe(first);
    expect(await collect(pending)).toEqual(DATA);
    expect(calls).toHaveLength(3); // page 1 once, then pages 2 and 3
    // A second walk starts from the same first page and fetches the later pages again.
    expect(await collect(pending.pages())).toHaveLength(3);
    expect(calls).toHaveLength(5);
  });

  test('shortPage uses params[sizeParam], else defaultSize, else the first page length', async () => {
    const scheme: PaginationDescriptor = { style: 'page', param: 'page', sizeParam: 'per_page', next: { from: 'page_number' }, stop: [{ when: 'shortPage' }] };
    const server = () =>
      fakeFetch((request) => {
        const page = Number(request.body.params?.['page'] ?? 1);
        return envelope(DATA.slice((page - 1) * SIZE, page * SIZE), {});
      });
    for (const variant of [{ params: { per_page: SIZE }, scheme }, { params: {}, scheme: { ...scheme, defaultSize: SIZE } }, { params: {}, scheme }]) {
      const { fetch, calls } = server();
      expect(await collect(new TestClient(options(fetch), SERVICE).list(list, variant.params, variant.scheme))).toEqual(DATA);
      expect(calls).toHaveLength(3);
    }
  });

  test('totalReached counts from the offset used for the page; a missing total does not stop', async () => {
    const scheme: PaginationDescriptor = { style: 'offset', param: 'offset', next: { from: 'offset' }, stop: [{ when: 'totalReached', key: 'total' }, { when: 'emptyPage' }] };
    const { fetch, calls } = fakeFetch((request) => {
      const from = Number(request.body.params?.['offset'] ?? 0);
      return envelope(DATA.slice(from, from + SIZE), from === 0 ? {} : { total: TOTAL });
    });
    expect(await collect(new TestClient(options(fetch), SERVICE).list(list, undefined, scheme))).toEqual(DATA);
    expect(calls.map((c) => c.body.params)).toEqual([undefined, { offset: 3 }, { offset: 6 }]);
  });
});

describe('loop protection', () => {
  test('a repeated cursor throws PaginationError naming the param and the value', async () => {
    const { fetch, calls } = fakeFetch(() => envelope([{ id: 1 }], { next_cursor: 'stuck' }));
    const error = await rejection(collect(new TestClient(options(fetch), SERVICE).list(list, {}, CURSOR)));
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as Error).message).toContain('cursor="stuck"');
    expect(calls).toHaveLength(2);
  });

  test('a next value equal to the cursor the caller started from is caught at once', async () => {
    const { fetch, calls } = fakeFetch(() => envelope([{ id: 1 }], { next_cursor: 'c3' }));
    const error = await rejection(collect(new TestClient(options(fetch), SERVICE).list(list, { cursor: 'c3' }, CURSOR).pages()));
    expect(error).toBeInstanceOf(PaginationError);
    expect(calls).toHaveLength(1);
  });

  test('a search result without a hits array fails with ApiError', async () => {
    const { fetch } = fakeFetch(() => json({ result: { next_cursor: null } }));
    const error = await rejection(new TestClient(options(fetch), SERVICE).search({ entity: 't', action: 'search' }, { query: {} }));
    expect(error).toBeInstanceOf(ApiError);
  });
});
