/** Uniform search of the mock: each filter rule of issue 4 and the score that orders keyword / fuzzy hits. */
import { describe, expect, test } from 'vitest';
import { SearchIndex, type SearchDocument, type SearchField } from '../../mock/search/index.js';

const FIELDS: SearchField[] = [
  { name: 'name', type: 'string' },
  { name: 'email', type: 'string' },
  { name: 'status', type: 'string', enum: ['active', 'past_due', 'canceled'] },
  { name: 'amount', type: 'integer' },
  { name: 'ratio', type: 'number' },
  { name: 'paid', type: 'boolean' },
  { name: 'tags', type: 'array' },
  { name: 'created', type: 'string' },
  { name: 'address', type: 'object' },
  { name: 'note', type: 'object|string' },
];

const DOCS: SearchDocument[] = [
  { id: 'c1', data: { name: 'Ada Lovelace', email: 'ada@example.com', status: 'active', amount: 500, ratio: 0.5, paid: true, tags: ['vip', 'eu'], created: '2024-01-05T10:00:00Z', address: { city: 'London', zip: 'N1' }, note: 'first customer' } },
  { id: 'c2', data: { name: 'Alan Turing', email: 'alan@example.org', status: 'past_due', amount: 1500, ratio: 1.25, paid: false, tags: ['eu'], created: '2024-02-10T08:30:00Z', address: { zip: 'M1', city: 'Manchester' }, note: { pinned: true } } },
  { id: 'c3', data: { name: 'Grace Hopper', email: 'GRACE@navy.mil', status: 'canceled', amount: null, ratio: 2, paid: true, tags: [], created: '2023-12-31T23:59:59Z', address: null } },
  { id: 'c4', data: { name: 'Katherine Johnson', email: 'kj@nasa.gov', status: 'active', amount: 20, tags: ['vip'], created: null, note: '100% real_deal' } },
  { id: 'c5', data: { name: 'ada lovelace jr', email: 'ada.jr@example.com', status: 'active', amount: 500, ratio: 0.75, paid: false, tags: ['vip', 'us', 'eu'], created: '2024-03-01T00:00:00Z' } },
];

const index = new SearchIndex(DOCS, FIELDS);
const ids = (filter?: unknown) => index.search({ query: filter === undefined ? {} : { filter } }).hits.map((h) => h.id);
const scored = (filter: unknown) => index.search({ query: { filter } }).hits.map((h) => [h.id, h.score]);

describe('filters', () => {
  test('no filter matches every record, in id order', () => {
    expect(ids()).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
  });

  test('eq on a string is exact and case-sensitive', () => {
    expect(ids({ eq: { email: 'GRACE@navy.mil' } })).toEqual(['c3']);
    expect(ids({ eq: { email: 'grace@navy.mil' } })).toEqual([]);
  });

  test('eq on an array field holds when the array contains the operand', () => {
    expect(ids({ eq: { tags: 'vip' } })).toEqual(['c1', 'c4', 'c5']);
    expect(ids({ eq: { tags: 'us' } })).toEqual(['c5']);
  });

  test('eq on an object field is deep equality, whatever the key order', () => {
    expect(ids({ eq: { address: { zip: 'N1', city: 'London' } } })).toEqual(['c1']);
    expect(ids({ eq: { address: { city: 'London' } } })).toEqual([]);
    expect(ids({ eq: { note: { pinned: true } } })).toEqual(['c2']);
  });

  test('eq null matches null and missing values', () => {
    expect(ids({ eq: { amount: null } })).toEqual(['c3']);
    expect(ids({ eq: { ratio: null } })).toEqual(['c4']);
    expect(ids({ eq: { address: null } })).toEqual(['c3', 'c4', 'c5']);
  });

  test('numbers compare as numbers in eq (integer field)', () => {
    expect(ids({ eq: { amount: 500 } })).toEqual(['c1', 'c5']);
    expect(ids({ eq: { ratio: 2 } })).toEqual(['c3']);
  });

  test('neq is the negation of eq, so null and missing values differ from any value', () => {
    expect(ids({ neq: { status: 'active' } })).toEqual(['c2', 'c3']);
    expect(ids({ neq: { amount: 500 } })).toEqual(['c2', 'c3', 'c4']);
    expect(ids({ neq: { ratio: 0.5 } })).toEqual(['c2', 'c3', 'c4', 'c5']);
    expect(ids({ neq: { tags: 'vip' } })).toEqual(['c2', 'c3']);
  });

  test('an operator map naming several fields needs all of them to hold', () => {
    expect(ids({ eq: { status: 'active', amount: 500 } })).toEqual(['c1', 'c5']);
    expect(ids({ gt: { amount: 10, ratio: 0.6 } })).toEqual(['c2', 'c5']);
  });

  test('gt / gte / lt / lte compare numbers numerically; null and missing never hold', () => {
    expect(ids({ gt: { amount: 500 } })).toEqual(['c2']);
    expect(ids({ gte: { amount: 500 } })).toEqual(['c1', 'c2', 'c5']);
    expect(ids({ lt: { amount: 500 } })).toEqual(['c4']);
    expect(ids({ lte: { ratio: 1.25 } })).toEqual(['c1', 'c2', 'c5']);
    expect(ids({ lt: { ratio: 100 } })).toEqual(['c1', 'c2', 'c3', 'c5']);
  });

  test('strings compare by code unit, so ISO timestamps order by time', () => {
    expect(ids({ gt: { created: '2024-01-31' } })).toEqual(['c2', 'c5']);
    expect(ids({ lt: { created: '2024' } })).toEqual(['c3']);
    expect(ids({ gte: { created: '2024-01-05T10:00:00Z' } })).toEqual(['c1', 'c2', 'c5']);
    // Upper case sorts before lower case in code units.
    expect(ids({ gt: { name: 'Z' } })).toEqual(['c5']);
  });

  test('not of a comparison includes the null and missing values the comparison excludes', () => {
    expect(ids({ not: { gt: { created: '2000' } } })).toEqual(['c4']);
    expect(ids({ not: { gte: { amount: 0 } } })).toEqual(['c3']);
  });

  test('in holds when the value equals any element; on arrays when any element is shared', () => {
    expect(ids({ in: { status: ['past_due', 'canceled'] } })).toEqual(['c2', 'c3']);
    expect(ids({ in: { tags: ['us', 'nope'] } })).toEqual(['c5']);
    expect(ids({ in: { amount: [null, 20] } })).toEqual(['c3', 'c4']);
    expect(ids({ in: { amount: [] } })).toEqual([]);
  });

  test('like is case-insensitive SQL LIKE over the whole value', () => {
    expect(ids({ like: { email: '%@EXAMPLE.%' } })).toEqual(['c1', 'c2', 'c5']);
    expect(ids({ like: { email: '_da@%' } })).toEqual(['c1']);
    expect(ids({ like: { email: 'ada' } })).toEqual([]);
    expect(ids({ like: { name: 'ada%' } })).toEqual(['c1', 'c5']);
    expect(ids({ like: { name: '%' } })).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
  });

  test('like: a backslash makes % and _ literal; regex characters are plain; non-strings never match', () => {
    expect(ids({ like: { note: '100\\% real\\_deal' } })).toEqual(['c4']);
    expect(ids({ like: { note: '100\\%%' } })).toEqual(['c4']);
    expect(ids({ like: { note: '1_0\\%%' } })).toEqual(['c4']);
    expect(ids({ like: { note: '10\\_%' } })).toEqual([]);
    expect(ids({ like: { email: 'ada.jr@example.com' } })).toEqual(['c5']);
    expect(ids({ like: { email: 'ada_jr@example_com' } })).toEqual(['c5']);
    expect(ids({ like: { email: 'ada[.]jr%' } })).toEqual([]);
    expect(ids({ like: { note: '%pinned%' } })).toEqual([]);
  });

  test('keyword holds when any operand word is a whole word of the value, case-insensitive', () => {
    expect(ids({ keyword: { name: 'LOVELACE hopper' } })).toEqual(['c1', 'c3', 'c5']);
    expect(ids({ keyword: { email: 'example' } })).toEqual(['c1', 'c2', 'c5']);
    expect(ids({ keyword: { name: 'lovelac' } })).toEqual([]);
    expect(ids({ keyword: { note: 'real' } })).toEqual(['c4']);
  });

  test('fuzzy allows 0 edits up to 4 letters, 1 for 5-8, 2 beyond; order and case ignored', () => {
    expect(ids({ fuzzy: { name: 'ada' } })).toEqual(['c1', 'c5']);
    expect(ids({ fuzzy: { name: 'adx' } })).toEqual([]);
    expect(ids({ fuzzy: { name: 'tring' } })).toEqual(['c2']);
    expect(ids({ fuzzy: { name: 'LOVELASE' } })).toEqual(['c1', 'c5']);
    expect(ids({ fuzzy: { name: 'lovxlxce' } })).toEqual([]);
    expect(ids({ fuzzy: { name: 'catherrine' } })).toEqual(['c4']);
    expect(ids({ fuzzy: { name: 'katherin johnsen' } })).toEqual(['c4']);
    expect(ids({ fuzzy: { name: 'lovelace ada' } })).toEqual(['c1', 'c5']);
  });

  test('fuzzy needs every operand word to match', () => {
    expect(ids({ fuzzy: { name: 'ada hopper' } })).toEqual([]);
  });

  test('and, or and not combine filters and nest', () => {
    expect(ids({ and: [{ eq: { paid: true } }, { gt: { amount: 100 } }] })).toEqual(['c1']);
    expect(ids({ or: [{ eq: { status: 'canceled' } }, { lt: { amount: 100 } }] })).toEqual(['c3', 'c4']);
    expect(ids({ not: { eq: { paid: true } } })).toEqual(['c2', 'c4', 'c5']);
    expect(ids({ and: [{ or: [{ eq: { tags: 'us' } }, { eq: { tags: 'eu' } }] }, { not: { eq: { status: 'past_due' } } }] })).toEqual(['c1', 'c5']);
  });
});

describe('score', () => {
  test('is 1 for every hit of a filter without keyword or fuzzy', () => {
    expect(scored({ or: [{ eq: { paid: true } }, { like: { name: '%a%' } }] }).every(([, s]) => s === 1)).toBe(true);
  });

  test('keyword scores the share of operand words found and orders hits by it', () => {
    expect(scored({ keyword: { name: 'ada lovelace jr' } })).toEqual([
      ['c5', 1],
      ['c1', 0.666667],
    ]);
  });

  test('fuzzy loses 0.1 per edit per word (averaged over the words) and exact matches rank first', () => {
    const people = new SearchIndex(
      [
        { id: 'a', data: { name: 'Jane Smyth' } },
        { id: 'b', data: { name: 'John Smith' } },
        { id: 'c', data: { name: 'Jon Smith' } },
      ],
      [{ name: 'name', type: 'string' }],
    );
    const hits = (filter: unknown) => people.search({ query: { filter } }).hits.map((h) => [h.id, h.score]);
    expect(hits({ fuzzy: { name: 'smith' } })).toEqual([
      ['b', 1],
      ['c', 1],
      ['a', 0.9],
    ]);
    expect(hits({ fuzzy: { name: 'smith johnn' } })).toEqual([['b', 0.95]]);
  });

  test('and averages its scored children; or takes the best child that holds', () => {
    expect(scored({ and: [{ keyword: { name: 'ada jr' } }, { fuzzy: { email: 'exampl' } }, { eq: { status: 'active' } }] })).toEqual([
      ['c5', 0.95], // (1 + 0.9) / 2; eq has no score
      ['c1', 0.7], // (0.5 + 0.9) / 2
    ]);
    expect(scored({ or: [{ keyword: { name: 'ada jr' } }, { keyword: { name: 'lovelace' } }] })).toEqual([
      ['c1', 1],
      ['c5', 1],
    ]);
    expect(scored({ or: [{ keyword: { name: 'ada jr' } }, { eq: { amount: 1500 } }] })).toEqual([
      ['c2', 1],
      ['c5', 1],
      ['c1', 0.5],
    ]);
  });
});
