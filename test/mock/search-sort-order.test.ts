/**
 * Sorted search without a selective filter walks presorted orders (one field's sort index, or the whole order of
 * several sort keys) instead of sorting the matches. These tests pin that fast path to the naive full sort of
 * the reference (test/helpers/search-reference.ts): seeded records with many ties, missing and null values and
 * mixed kinds, asc / desc, one to three keys, with limits and cursor paging, before and after writes (a write
 * must drop the presorted orders, not serve stale ones).
 */
import { describe, expect, test } from 'vitest';
import { SearchIndex, type SearchDocument, type SearchField } from '../../mock/search/index.js';
import { Random } from '../../generator/emitters/fixtures/random.js';
import { referenceSearch } from '../helpers/search-reference.js';

/** A seeded stream of numbers in [0, 1) (tests must not depend on Math.random). */
function prng(seed: number): () => number {
  const random = new Random(seed);
  return () => random.next();
}

const FIELDS: SearchField[] = [
  { name: 'tier', type: 'string' },
  { name: 'amount', type: 'integer' },
  { name: 'active', type: 'boolean' },
  { name: 'updated', type: 'string' },
  { name: 'mixed', type: 'string|integer|boolean|object' },
];
const SORTABLE = ['tier', 'amount', 'active', 'updated', 'mixed'];

/** Records with few distinct values per field (many ties), some null, some missing. */
function makeDocument(random: () => number, id: string): SearchDocument {
  const int = (n: number) => Math.floor(random() * n);
  const data: Record<string, unknown> = {};
  if (random() > 0.1) data.tier = random() < 0.1 ? null : ['gold', 'silver', 'bronze', 'Gold'][int(4)];
  if (random() > 0.1) data.amount = random() < 0.1 ? null : int(6) * 10 - 20;
  if (random() > 0.1) data.active = random() < 0.1 ? null : random() < 0.5;
  if (random() > 0.2) data.updated = `2024-0${1 + int(3)}-0${1 + int(3)}`;
  const kind = int(6);
  if (kind === 0) data.mixed = int(3);
  else if (kind === 1) data.mixed = ['a', 'b', '10'][int(3)];
  else if (kind === 2) data.mixed = random() < 0.5;
  else if (kind === 3) data.mixed = { nested: int(2) };
  else if (kind === 4) data.mixed = null;
  return { id, data };
}

function randomSort(random: () => number): Record<string, string>[] {
  const keys = 1 + Math.floor(random() * 3);
  return Array.from({ length: keys }, () => ({ [SORTABLE[Math.floor(random() * SORTABLE.length)]!]: random() < 0.5 ? 'asc' : 'desc' }));
}

/** Filters that keep most records (so the walk, not the candidate sort, runs), a range on the first key included. */
function broadFilter(random: () => number, sort: Record<string, string>[]): Record<string, unknown> | undefined {
  const first = Object.keys(sort[0]!)[0]!;
  switch (Math.floor(random() * 5)) {
    case 0:
      return undefined;
    case 1:
      return first === 'amount' ? { gte: { amount: -10 } } : first === 'tier' || first === 'updated' ? { lt: { [first]: first === 'tier' ? 'h' : '2024-03' } } : undefined;
    case 2:
      return { neq: { tier: 'gold' } };
    case 3:
      return { and: [{ gt: { amount: -20 } }, { not: { eq: { active: false } } }] };
    default:
      return { in: { tier: ['silver', 'bronze', 'gold'] } };
  }
}

/** Every page of a query, cursor after cursor. */
function walk(index: SearchIndex, query: object, limit: number): string[] {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 10_000; pages++) {
    const page = index.search({ query, limit, ...(cursor ? { cursor } : {}) });
    ids.push(...page.hits.map((h) => h.id));
    cursor = page.next_cursor;
    if (!cursor) return ids;
  }
  throw new Error('paging did not end');
}

describe('presorted orders give the full sort', () => {
  test('first pages and cursor walks equal the reference, before and after writes', () => {
    const random = prng(16_2024);
    let docs = Array.from({ length: 600 }, (_, i) => makeDocument(random, `r${String(i).padStart(4, '0')}`));
    const index = new SearchIndex(docs, FIELDS);
    let multiKey = 0;
    for (let round = 0; round < 4; round++) {
      for (let q = 0; q < 40; q++) {
        const sort = randomSort(random);
        if (sort.length > 1) multiKey++;
        const filter = broadFilter(random, sort);
        const query = { ...(filter ? { filter } : {}), sort };
        const limit = 1 + Math.floor(random() * 120);
        const all = referenceSearch(docs, FIELDS, { query, limit: 1_000_000 }).ids;
        expect(index.search({ query, limit }).hits.map((h) => h.id), JSON.stringify({ query, limit })).toEqual(all.slice(0, limit));
        expect(walk(index, query, limit), JSON.stringify({ query, limit })).toEqual(all);
      }
      // Writes between rounds: changed values, new records, removed records.
      for (let w = 0; w < 60; w++) {
        const kind = Math.floor(random() * 3);
        if (kind === 0) {
          const gone = docs[Math.floor(random() * docs.length)]!.id;
          index.remove(gone);
          docs = docs.filter((d) => d.id !== gone);
        } else {
          const id = kind === 1 ? docs[Math.floor(random() * docs.length)]!.id : `n${round}_${w}`;
          const doc = makeDocument(random, id);
          index.upsert(doc);
          docs = [...docs.filter((d) => d.id !== id), doc];
        }
      }
    }
    expect(multiKey).toBeGreaterThan(60);
  });

  test('a cursor taken before a write continues in the new order after the last hit', () => {
    const random = prng(99);
    let docs = Array.from({ length: 300 }, (_, i) => makeDocument(random, `c${String(i).padStart(3, '0')}`));
    const index = new SearchIndex(docs, FIELDS);
    const query = { sort: [{ tier: 'desc' }, { amount: 'asc' }, { updated: 'desc' }] };
    const first = index.search({ query, limit: 50 });
    const last = first.hits[first.hits.length - 1]!.id;
    // Rewrite records other than the last hit (its position defines where the next page starts).
    for (let w = 0; w < 80; w++) {
      const id = docs[Math.floor(random() * docs.length)]!.id;
      if (id === last) continue;
      const doc = makeDocument(random, id);
      index.upsert(doc);
      docs = [...docs.filter((d) => d.id !== id), doc];
    }
    const order = referenceSearch(docs, FIELDS, { query, limit: 1_000_000 }).ids;
    const next = index.search({ query, limit: 1000, cursor: first.next_cursor });
    expect(next.hits.map((h) => h.id)).toEqual(order.slice(order.indexOf(last) + 1));
  });
});
