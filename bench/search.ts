/**
 * Search benchmark: latency of the mock's uniform search (mock/search) over 100,000 deterministic records of
 * one entity, in process (no HTTP). Each query runs once cold (that run builds the indexes it needs), then
 * WARMUP times, then RUNS timed times; the table shows the cold time and p50 / p95 of the timed runs.
 * Targets (issue 4): p50 ≤ 15 ms for the eq filter and for the range filter with a sort (default limit 1000).
 */
import { SearchIndex, type SearchDocument, type SearchField } from '../mock/search/index.js';
import { median, percentile, printTable } from './stats.js';

const RECORDS = Number(process.env.BENCH_SEARCH_RECORDS ?? 100_000);
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 200);
const WARMUP = 20;

const FIELDS: SearchField[] = [
  { name: 'amount', type: 'integer' },
  { name: 'created', type: 'integer' },
  { name: 'currency', type: 'string', enum: ['usd', 'eur', 'gbp', 'jpy', 'chf'] },
  { name: 'email', type: 'string' },
  { name: 'livemode', type: 'boolean' },
  { name: 'name', type: 'string' },
  { name: 'tags', type: 'array' },
];

const FIRST = ['James', 'Mary', 'John', 'Patricia', 'Robert', 'Jennifer', 'Michael', 'Linda', 'William', 'Elizabeth', 'David', 'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Charles', 'Karen', 'Christopher', 'Nancy', 'Daniel', 'Lisa', 'Matthew', 'Margaret', 'Anthony', 'Betty', 'Mark', 'Sandra'];
const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson'];
const DOMAINS = ['example.com', 'mail.test', 'corp.example', 'inbox.example.org'];
const TAGS = ['vip', 'trial', 'churn-risk', 'enterprise', 'newsletter', 'beta', 'partner', 'reseller'];
const CREATED_FROM = 1_600_000_000;
const CREATED_SPAN = 4 * 365 * 24 * 3600;

/** mulberry32: a small seeded PRNG, so every run searches the same records. */
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

/** `count` customer-like records: ids cus_…, unix-second timestamps, emails, names, enums, amounts, tags. */
export function benchDocuments(count: number, seed = 42): SearchDocument[] {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  return Array.from({ length: count }, (_, i) => {
    const first = pick(FIRST);
    const last = pick(LAST);
    return {
      id: `cus_${i.toString(36).padStart(6, '0')}${Math.floor(random() * 1e6).toString(36)}`,
      data: {
        amount: random() < 0.05 ? null : Math.floor(random() * 100_000),
        created: CREATED_FROM + Math.floor(random() * CREATED_SPAN),
        currency: pick(FIELDS[2]!.enum!),
        email: `${first.toLowerCase()}.${last.toLowerCase()}${Math.floor(random() * 1000)}@${pick(DOMAINS)}`,
        livemode: random() < 0.7,
        name: `${first} ${last}`,
        tags: Array.from({ length: Math.floor(random() * 3) }, () => pick(TAGS)),
      },
    };
  });
}

/** The queries measured, by label. */
const QUERIES: [label: string, params: unknown][] = [
  ['eq (currency)', { query: { filter: { eq: { currency: 'eur' } } } }],
  ['range + sort (created)', { query: { filter: { gte: { created: CREATED_FROM + CREATED_SPAN / 2 } }, sort: [{ created: 'desc' }] } }],
  ['fuzzy (name, 2 typos)', { query: { filter: { fuzzy: { name: 'Margret Tomas' } } } }],
  ['keyword (name)', { query: { filter: { keyword: { name: 'smith johnson' } } } }],
  ['eq + range, sort other', { query: { filter: { and: [{ eq: { tags: 'vip' } }, { lt: { amount: 50_000 } }] }, sort: [{ created: 'asc' }] } }],
  ['like (email)', { query: { filter: { like: { email: 'mary.%@example.com' } } } }],
  ['no filter, 2-key sort', { query: { sort: [{ currency: 'asc' }, { amount: 'desc' }] } }],
];

/** Runs the search benchmark and prints its table. */
export function benchSearch(): void {
  let started = performance.now();
  const index = new SearchIndex(benchDocuments(RECORDS), FIELDS);
  console.log(`\nsearch: ${RECORDS.toLocaleString('en-US')} records of one entity, limit 1000 (default), ${RUNS} timed runs after ${WARMUP} warm-up`);
  console.log(`load ${(performance.now() - started).toFixed(0)} ms`);
  const rows: string[][] = [];
  for (const [label, params] of QUERIES) {
    started = performance.now();
    const { hits, next_cursor } = index.search(params);
    const cold = performance.now() - started;
    for (let i = 0; i < WARMUP; i++) index.search(params);
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      started = performance.now();
      index.search(params);
      times.push(performance.now() - started);
    }
    rows.push([label, `${hits.length}${next_cursor ? '+' : ''}`, cold.toFixed(1), median(times).toFixed(2), percentile(times, 95).toFixed(2)]);
  }
  printTable(['query', 'hits', 'cold ms', 'p50 ms', 'p95 ms'], rows);
}
