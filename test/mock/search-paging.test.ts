/** Uniform search of the mock: sort, cursor paging, limit, fields narrowing, writes, and inferred fields. */
import { describe, expect, test } from 'vitest';
import { SearchIndex, type SearchDocument, type SearchField, type SearchResponse } from '../../mock/search/index.js';

const FIELDS: SearchField[] = [
  { name: 'name', type: 'string' },
  { name: 'amount', type: 'integer' },
  { name: 'group', type: 'string' },
  { name: 'active', type: 'boolean' },
  { name: 'tags', type: 'array' },
];

/** 25 records: amount repeats every 7 and is null every 5th; group cycles a, b, c; ids r01..r25. */
function records(n = 25): SearchDocument[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `r${String(i + 1).padStart(2, '0')}`,
    data: { name: `Record ${i + 1}`, amount: (i + 1) % 5 === 0 ? null : ((i * 3) % 7) * 10, group: 'abc'[i % 3], active: i % 2 === 0, tags: [`t${i % 4}`], hidden: 'not searchable' },
  }));
}

/** Every hit of a query, walking the pages with next_cursor. */
function walk(index: SearchIndex, params: { query: object; limit?: number; fields?: string[] }): { ids: string[]; pages: SearchResponse[] } {
  const pages: SearchResponse[] = [];
  let cursor: string | null = null;
  do {
    const page = index.search({ ...params, ...(cursor ? { cursor } : {}) });
    pages.push(page);
    cursor = page.next_cursor;
  } while (cursor !== null && pages.length < 100);
  return { ids: pages.flatMap((p) => p.hits.map((h) => h.id)), pages };
}

describe('sort', () => {
  const index = new SearchIndex(records(), FIELDS);
  const values = (sort: unknown, field: string) => index.search({ query: { sort } }).hits.map((h) => h.data[field] ?? null);

  test('asc and desc both put nulls last', () => {
    const asc = values([{ amount: 'asc' }], 'amount');
    const desc = values([{ amount: 'desc' }], 'amount');
    expect(asc.slice(-5)).toEqual([null, null, null, null, null]);
    expect(desc.slice(-5)).toEqual([null, null, null, null, null]);
    expect(asc.slice(0, 20)).toEqual([...asc.slice(0, 20)].sort((a, b) => (a as number) - (b as number)));
    expect(desc.slice(0, 20)).toEqual([...desc.slice(0, 20)].sort((a, b) => (b as number) - (a as number)));
  });

  test('ties fall to the next sort key, then to id ascending', () => {
    const hits = index.search({ query: { sort: [{ group: 'desc' }, { amount: 'asc' }] } }).hits;
    const keys = hits.map((h) => [h.data.group, h.data.amount ?? null, h.id]);
    const expected = [...keys].sort((x, y) => {
      if (x[0] !== y[0]) return (x[0] as string) < (y[0] as string) ? 1 : -1;
      if (x[1] !== y[1]) return x[1] === null ? 1 : y[1] === null ? -1 : (x[1] as number) - (y[1] as number);
      return (x[2] as string) < (y[2] as string) ? -1 : 1;
    });
    expect(keys).toEqual(expected);
    expect(keys.slice(0, 3)).toEqual([
      ['c', 10, 'r06'],
      ['c', 20, 'r18'],
      ['c', 30, 'r09'],
    ]);
  });

  test('booleans sort false before true, ties by id', () => {
    expect(index.search({ query: { sort: [{ active: 'asc' }] }, limit: 3 }).hits.map((h) => h.id)).toEqual(['r02', 'r04', 'r06']);
    expect(index.search({ query: { sort: [{ active: 'desc' }] }, limit: 3 }).hits.map((h) => h.id)).toEqual(['r01', 'r03', 'r05']);
  });

  test('a sort combines with a range on the sort field and with other filters', () => {
    const hits = index.search({ query: { filter: { and: [{ gte: { amount: 20 } }, { lt: { amount: 50 } }, { eq: { group: 'a' } }] }, sort: [{ amount: 'desc' }] } }).hits;
    expect(hits.map((h) => [h.id, h.data.amount])).toEqual([
      ['r07', 40],
      ['r16', 30],
      ['r04', 20],
    ]);
  });
});

describe('cursor paging', () => {
  const index = new SearchIndex(records(), FIELDS);

  test('walks several pages without repeats or gaps; next_cursor is null on the last page', () => {
    const all = index.search({ query: { sort: [{ amount: 'desc' }] } }).hits.map((h) => h.id);
    const { ids, pages } = walk(index, { query: { sort: [{ amount: 'desc' }] }, limit: 10 });
    expect(pages.map((p) => p.hits.length)).toEqual([10, 10, 5]);
    expect(pages.map((p) => p.next_cursor === null)).toEqual([false, false, true]);
    expect(ids).toEqual(all);
  });

  test('pages of every plan (id order, sort walk, scored) join up to the single-page answer', () => {
    const queries = [
      {},
      { filter: { eq: { group: 'b' } } },
      { filter: { neq: { group: 'b' } }, sort: [{ group: 'asc' }, { amount: 'desc' }] },
      { filter: { lt: { amount: 40 } }, sort: [{ amount: 'asc' }] },
      { filter: { keyword: { name: 'record 7 12' } } },
      { filter: { or: [{ keyword: { name: 'record' } }, { eq: { tags: 't1' } }] }, sort: [{ active: 'asc' }] },
    ];
    for (const query of queries) {
      const all = index.search({ query }).hits.map((h) => h.id);
      for (const limit of [1, 2, 7]) expect(walk(index, { query, limit }).ids, JSON.stringify({ query, limit })).toEqual(all);
    }
  });

  test('a page that ends exactly at the last hit has no next cursor', () => {
    const page = index.search({ query: { filter: { eq: { group: 'a' } } }, limit: 9 });
    expect(page.hits).toHaveLength(9);
    expect(page.next_cursor).toBeNull();
  });

  test('limit defaults to 1000', () => {
    const big = new SearchIndex(records(1500), FIELDS);
    const first = big.search({ query: {} });
    expect(first.hits).toHaveLength(1000);
    const second = big.search({ query: {}, cursor: first.next_cursor });
    expect(second.hits).toHaveLength(500);
    expect(second.next_cursor).toBeNull();
  });

  test('a cursor keeps its place when records are written between pages', () => {
    const live = new SearchIndex(records(), FIELDS);
    const query = { sort: [{ name: 'asc' }] };
    const first = live.search({ query, limit: 5 });
    expect(first.hits.map((h) => h.data.name)).toEqual(['Record 1', 'Record 10', 'Record 11', 'Record 12', 'Record 13']);
    live.remove('r01');
    live.upsert({ id: 'r99', data: { name: 'Record 14a' } });
    live.upsert({ id: 'r00', data: { name: 'Record 0' } });
    expect(live.search({ query, limit: 3, cursor: first.next_cursor }).hits.map((h) => h.data.name)).toEqual(['Record 14', 'Record 14a', 'Record 15']);
  });
});

describe('hit data', () => {
  const index = new SearchIndex(records(3), FIELDS);

  test('holds the searchable fields only, with the id and score beside it', () => {
    expect(index.search({ query: {}, limit: 1 }).hits[0]).toEqual({ id: 'r01', score: 1, data: { name: 'Record 1', amount: 0, group: 'a', active: true, tags: ['t0'] } });
  });

  test('fields keeps only the named fields, in the order named', () => {
    const hit = index.search({ query: {}, limit: 1, fields: ['tags', 'name'] }).hits[0]!;
    expect(Object.keys(hit.data)).toEqual(['tags', 'name']);
    expect(index.search({ query: {}, limit: 1, fields: [] }).hits[0]!.data).toEqual({});
  });

  test('fields takes paths into object fields (address.city): the hit holds that part only', () => {
    const withAddress: SearchField[] = [...FIELDS, { name: 'address', type: 'object' }];
    const index = new SearchIndex([{ id: 'x', data: { name: 'n', address: { city: 'Oslo', line1: 'Main St 1' } } }], withAddress);
    expect(index.search({ query: {}, fields: ['address.city'] }).hits[0]!.data).toEqual({ address: { city: 'Oslo' } });
    expect(index.search({ query: {}, fields: ['address.zip', 'name'] }).hits[0]!.data).toEqual({ name: 'n' });
    expect(() => index.search({ query: {}, fields: ['name.first'] })).toThrow(/"name" is not an object field/);
    expect(() => index.search({ query: {}, fields: ['secret.x'] })).toThrow(/"secret" is not a searchable field/);
    // A `__proto__` key in the data is data: a path through it never reaches a prototype.
    const hostile = new SearchIndex([{ id: 'h', data: JSON.parse('{"address":{"__proto__":{"polluted":1}}}') }], withAddress);
    const hit = hostile.search({ query: {}, fields: ['address.__proto__.polluted'] }).hits[0]!;
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(JSON.stringify(hit.data)).toBe('{"address":{"__proto__":{"polluted":1}}}');
  });

  test('a field the record lacks is left out', () => {
    const sparse = new SearchIndex([{ id: 'x', data: { name: 'only a name' } }], FIELDS);
    expect(sparse.search({ query: {}, fields: ['name', 'amount'] }).hits[0]!.data).toEqual({ name: 'only a name' });
  });

  test('took_ms is a measured, non-negative number', () => {
    const { took_ms } = index.search({ query: {} });
    expect(typeof took_ms).toBe('number');
    expect(took_ms).toBeGreaterThanOrEqual(0);
  });
});

describe('writes', () => {
  test('upsert adds and replaces records; remove deletes them; indexes follow', () => {
    const index = new SearchIndex(records(10), FIELDS);
    const ids = (filter: unknown, sort?: unknown) => index.search({ query: { filter, ...(sort ? { sort } : {}) } }).hits.map((h) => h.id);
    // Build the equality, sort and word indexes before writing.
    expect(ids({ eq: { group: 'b' } })).toEqual(['r02', 'r05', 'r08']);
    expect(ids({ gte: { amount: 50 } }, [{ amount: 'desc' }])).toEqual(['r03']);
    expect(ids({ keyword: { name: 'renamed' } })).toEqual([]);

    index.upsert({ id: 'r05', data: { name: 'Renamed', amount: 70, group: 'c' } });
    index.upsert({ id: 'r11', data: { name: 'new', amount: 55, group: 'b' } });
    index.remove('r03');
    index.remove('nope');

    expect(ids({ eq: { group: 'b' } })).toEqual(['r02', 'r08', 'r11']);
    expect(ids({ gte: { amount: 50 } }, [{ amount: 'desc' }])).toEqual(['r05', 'r11']);
    expect(ids({ keyword: { name: 'renamed' } })).toEqual(['r05']);
    expect(index.search({ query: {} }).hits).toHaveLength(10);
  });

  test('the index keeps its own copy of each record', () => {
    const data: Record<string, unknown> = { name: 'before' };
    const index = new SearchIndex([{ id: 'a', data }], FIELDS);
    data.name = 'after';
    expect(index.search({ query: { filter: { eq: { name: 'before' } } } }).hits.map((h) => h.id)).toEqual(['a']);
  });
});

describe('fields not shown by the contract (fields === null)', () => {
  const index = new SearchIndex(
    [
      { id: 'a', data: { title: 'Alpha', size: 3, labels: ['x'], meta: { k: 1 }, blank: null } },
      { id: 'b', data: { title: 'Beta', size: 1.5 } },
    ],
    null,
  );
  const errors = (params: unknown) => {
    try {
      index.search(params);
    } catch (e) {
      return (e as { errors: { field: string; error_code: string }[] }).errors.map((x) => [x.field, x.error_code]);
    }
    return [];
  };

  test('any field present in the data is searchable, typed by its values', () => {
    expect(index.search({ query: { filter: { gt: { size: 2 } } } }).hits.map((h) => h.id)).toEqual(['a']);
    expect(index.search({ query: { filter: { like: { title: 'b%' } } } }).hits.map((h) => h.id)).toEqual(['b']);
    expect(index.search({ query: { filter: { eq: { blank: 'anything' } } } }).hits).toEqual([]);
    expect(errors({ query: { filter: { gt: { title: 2 } } } })).toEqual([['query.filter.gt.title', 'invalid_operand']]);
    expect(errors({ query: { filter: { like: { labels: 'x' } } } })).toEqual([['query.filter.like.labels', 'unsupported_operator']]);
    expect(errors({ query: { filter: { eq: { color: 'red' } } } })).toEqual([['query.filter.eq.color', 'unsearchable_field']]);
  });

  test('hit data is the whole record; a field written later becomes searchable', () => {
    expect(index.search({ query: {}, limit: 1 }).hits[0]!.data).toEqual({ title: 'Alpha', size: 3, labels: ['x'], meta: { k: 1 }, blank: null });
    index.upsert({ id: 'c', data: { title: 'Gamma', color: 'red' } });
    expect(index.search({ query: { filter: { eq: { color: 'red' } } } }).hits.map((h) => h.id)).toEqual(['c']);
  });
});
