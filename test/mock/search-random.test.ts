/**
 * Uniform search of the mock against the naive reference (test/helpers/search-reference.ts): seeded random
 * records and filters (every operator, and / or / not nesting, sorts, limits), before and after writes, must
 * give the same hits in the same order with the same scores, and cursor pages must join up to the same list.
 */
import { describe, expect, test } from 'vitest';
import { SearchIndex, type SearchDocument, type SearchField } from '../../mock/search/index.js';
import { referenceSearch } from '../helpers/search-reference.js';

/** mulberry32: a small seeded PRNG (tests must not depend on Math.random). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIELDS: SearchField[] = [
  { name: 'name', type: 'string' },
  { name: 'email', type: 'string' },
  { name: 'currency', type: 'string', enum: ['usd', 'eur', 'gbp', 'jpy'] },
  { name: 'amount', type: 'integer' },
  { name: 'ratio', type: 'number' },
  { name: 'active', type: 'boolean' },
  { name: 'tags', type: 'array' },
  { name: 'created', type: 'integer' },
  { name: 'updated', type: 'string' },
  { name: 'meta', type: 'object' },
  { name: 'note', type: 'object|string' },
];
const FIRST = ['Ada', 'Alan', 'Grace', 'Linus', 'Barbara', 'Edsger', 'Margaret', 'Dennis', 'Frances', 'Ken'];
const LAST = ['Lovelace', 'Turing', 'Hopper', 'Torvalds', 'Liskov', 'Dijkstra', 'Hamilton', 'Ritchie', 'Allen', 'Thompson'];
const NOTES = ['Paid in full', 'late payment, call back', 'VIP customer', 'refund_requested 100%', 'Übergröße bestellt'];
const TAGS = ['a', 'b', 'c', 'd', 'e'];

class Gen {
  constructor(readonly random: () => number) {}
  int(n: number): number {
    return Math.floor(this.random() * n);
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }
  chance(p: number): boolean {
    return this.random() < p;
  }
  /** A word with up to `edits` random substitutions, insertions or deletions. */
  typo(word: string, edits: number): string {
    let w = word;
    for (let e = 0; e < edits; e++) {
      const i = this.int(w.length);
      const c = this.pick('abcdefghijklmnopqrstuvwxyz'.split(''));
      const kind = this.int(3);
      w = kind === 0 ? w.slice(0, i) + c + w.slice(i + 1) : kind === 1 ? w.slice(0, i) + c + w.slice(i) : w.slice(0, i) + w.slice(i + 1);
    }
    return w || word;
  }
}

function makeDocument(g: Gen, id: string): SearchDocument {
  const first = g.pick(FIRST);
  const last = g.pick(LAST);
  const data: Record<string, unknown> = {
    name: g.chance(0.2) ? `${g.typo(first, 1)} ${last}` : g.chance(0.2) ? `${first} ${last}-${g.pick(LAST)}` : `${first} ${last}`,
    email: `${first.toLowerCase()}.${last.toLowerCase()}${g.int(5)}@${g.pick(['example.com', 'Mail.org'])}`,
    currency: g.pick(['usd', 'eur', 'gbp', 'jpy']),
    created: 1_700_000_000 + g.int(40) * 3600,
    tags: Array.from({ length: g.int(4) }, () => g.pick(TAGS)),
  };
  if (!g.chance(0.05)) data.amount = g.chance(0.1) ? null : g.int(20) * 50;
  if (!g.chance(0.1)) data.ratio = g.int(12) / 4;
  data.active = g.chance(0.1) ? null : g.chance(0.5);
  data.updated = g.chance(0.15) ? null : `2024-0${1 + g.int(9)}-${String(1 + g.int(28)).padStart(2, '0')}T00:00:00Z`;
  data.meta = g.chance(0.2) ? null : { plan: g.pick(['free', 'pro']), seats: 1 + g.int(3) };
  if (!g.chance(0.3)) data.note = g.chance(0.2) ? { flagged: g.chance(0.5) } : g.pick(NOTES);
  return { id, data };
}

/** Random valid filters whose operands come from the records, so most of them match something. */
class FilterGen {
  constructor(
    private readonly g: Gen,
    private readonly docs: () => SearchDocument[],
  ) {}

  private value(field: string): unknown {
    for (let tries = 0; tries < 20; tries++) {
      const v = this.g.pick(this.docs()).data[field];
      if (v !== undefined) return v;
    }
    return null;
  }

  private stringOf(field: string): string {
    for (let tries = 0; tries < 20; tries++) {
      const v = this.value(field);
      if (typeof v === 'string') return v;
    }
    return 'Ada';
  }

  private leaf(): Record<string, unknown> {
    const g = this.g;
    const op = g.pick(['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'like', 'fuzzy', 'keyword', 'multi']);
    switch (op) {
      case 'eq':
      case 'neq': {
        const field = g.pick(['name', 'currency', 'amount', 'ratio', 'active', 'tags', 'created', 'meta', 'note', 'updated']);
        let v = this.value(field);
        if (Array.isArray(v)) v = v.length ? g.pick(v) : g.pick(TAGS);
        if (field === 'note' && v === null && g.chance(0.5)) v = { flagged: true };
        return { [op]: { [field]: g.chance(0.05) ? null : v } };
      }
      case 'gt':
      case 'gte':
      case 'lt':
      case 'lte': {
        const field = g.pick(['name', 'email', 'currency', 'amount', 'ratio', 'created', 'updated', 'note']);
        let v = this.value(field);
        if (typeof v !== 'number' && typeof v !== 'string') v = field === 'amount' || field === 'created' ? 500 : field === 'ratio' ? 1.5 : 'M';
        return { [op]: { [field]: v } };
      }
      case 'in': {
        const field = g.pick(['currency', 'amount', 'tags', 'active', 'note', 'created']);
        const values = Array.from({ length: g.int(4) }, () => {
          const v = this.value(field);
          if (Array.isArray(v)) return v.length ? g.pick(v) : g.pick(TAGS);
          return field === 'note' && typeof v !== 'string' ? null : v;
        });
        return { in: { [field]: values } };
      }
      case 'like': {
        const field = g.pick(['name', 'email', 'note', 'updated']);
        const chars = [...this.stringOf(field)];
        const start = g.int(chars.length);
        const end = start + g.int(chars.length - start + 1);
        let pattern = chars
          .slice(start, end)
          .map((c) => (g.chance(0.15) ? '_' : g.chance(0.3) ? c.toUpperCase() : c === '%' || c === '_' ? `\\${c}` : c))
          .join('');
        if (start > 0 || g.chance(0.3)) pattern = `%${pattern}`;
        if (end < chars.length || g.chance(0.3)) pattern += '%';
        return { like: { [field]: pattern } };
      }
      case 'keyword':
      case 'fuzzy': {
        const field = g.pick(['name', 'name', 'email', 'note']);
        const words = this.stringOf(field)
          .split(/[^\p{L}\p{Nd}]+/u)
          .filter(Boolean);
        const chosen = Array.from({ length: 1 + g.int(2) }, () => g.pick(words.length ? words : ['ada']));
        if (g.chance(0.3)) chosen.push(g.pick([...FIRST, ...LAST]));
        const text = chosen.map((w) => (op === 'fuzzy' ? g.typo(w, g.int(3)) : g.chance(0.3) ? w.toUpperCase() : w)).join(g.pick([' ', ', ', '-']));
        return { [op]: { [field]: text } };
      }
      default:
        return { eq: { currency: this.value('currency'), active: this.value('active') } };
    }
  }

  filter(depth = 0): Record<string, unknown> {
    const g = this.g;
    const roll = depth >= 3 ? 1 : g.random();
    if (roll < 0.15) return { and: Array.from({ length: 1 + g.int(3) }, () => this.filter(depth + 1)) };
    if (roll < 0.3) return { or: Array.from({ length: 1 + g.int(3) }, () => this.filter(depth + 1)) };
    if (roll < 0.4) return { not: this.filter(depth + 1) };
    return this.leaf();
  }

  query(): { filter?: Record<string, unknown>; sort?: Record<string, string>[] } {
    const g = this.g;
    const sortable = ['name', 'currency', 'amount', 'ratio', 'active', 'created', 'updated', 'note'];
    return {
      ...(g.chance(0.9) ? { filter: this.filter() } : {}),
      ...(g.chance(0.5) ? { sort: Array.from({ length: 1 + g.int(2) }, () => ({ [g.pick(sortable)]: g.pick(['asc', 'desc']) })) } : {}),
    };
  }
}

describe('engine equals the reference', () => {
  test('on random records and filters, before and after writes', () => {
    const g = new Gen(prng(20240501));
    let docs = Array.from({ length: 400 }, (_, i) => makeDocument(g, `doc_${String(i).padStart(4, '0')}`));
    const index = new SearchIndex(docs, FIELDS);
    const filters = new FilterGen(g, () => docs);
    let compared = 0;
    let nonEmpty = 0;

    for (let round = 0; round < 4; round++) {
      for (let q = 0; q < 300; q++) {
        const query = filters.query();
        const limit = g.chance(0.5) ? undefined : 1 + g.int(60);
        const params = { query, ...(limit ? { limit } : {}) };
        const got = index.search(params).hits;
        const want = referenceSearch(docs, FIELDS, params);
        expect(got.map((h) => h.id), JSON.stringify(params)).toEqual(want.ids);
        expect(got.map((h) => h.score), JSON.stringify(params)).toEqual(want.scores);
        compared++;
        if (want.ids.length) nonEmpty++;
      }
      // Writes: replace some records, add some, remove some.
      for (let w = 0; w < 40; w++) {
        const kind = g.int(3);
        if (kind === 0 && docs.length) {
          const gone = g.pick(docs).id;
          index.remove(gone);
          docs = docs.filter((d) => d.id !== gone);
        } else {
          const id = kind === 1 && docs.length ? g.pick(docs).id : `doc_new_${round}_${w}`;
          const doc = makeDocument(g, id);
          index.upsert(doc);
          docs = [...docs.filter((d) => d.id !== id), doc];
        }
      }
    }
    expect(compared).toBe(1200);
    // The generator is only useful if most filters match something.
    expect(nonEmpty).toBeGreaterThan(compared / 2);
  });

  test('cursor pages join up to the reference order', () => {
    const g = new Gen(prng(7));
    const docs = Array.from({ length: 250 }, (_, i) => makeDocument(g, `d${i}`));
    const index = new SearchIndex(docs, FIELDS);
    const filters = new FilterGen(g, () => docs);
    for (let q = 0; q < 60; q++) {
      const query = filters.query();
      const limit = 1 + g.int(25);
      const walked: string[] = [];
      let cursor: string | null = null;
      for (let pages = 0; pages < 300; pages++) {
        const page = index.search({ query, limit, ...(cursor ? { cursor } : {}) });
        walked.push(...page.hits.map((h) => h.id));
        expect(page.hits.length === limit || page.next_cursor === null).toBe(true);
        cursor = page.next_cursor;
        if (!cursor) break;
      }
      expect(walked, JSON.stringify(query)).toEqual(referenceSearch(docs, FIELDS, { query, limit: 1_000_000 }).ids);
    }
  });
});
