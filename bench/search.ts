/**
 * Search benchmark: latency of the mock's uniform search (mock/search) over 100,000 deterministic records of
 * one entity, in process (no HTTP). Each query runs once cold (that run builds the indexes it needs), then
 * WARMUP times, then RUNS timed times; the table shows the cold time and p50 / p95 of the timed runs.
 * Targets: p50 ≤ 15 ms for the eq filter and for the range filter with a sort (issue 4, default limit 1000);
 * p50 ≤ 10 ms for a sort without a filter (issue 16; the worst of the three such queries is recorded).
 * Then side by side, interleaved run by run (BENCH_SEARCH_PEER_RUNS rounds): the same records and the same
 * sort-without-filter and eq queries through a naive scan (test/helpers/search-reference.ts: filter, full sort)
 * and Orama (@orama/orama, an in-memory search engine; it sorts by one property, so the single-key sort).
 */
import { Random } from '../generator/emitters/fixtures/random.js';
import { SearchIndex, type SearchDocument, type SearchField } from '../mock/search/index.js';
import { create, insertMultiple, search as oramaSearch } from '@orama/orama';
import { referenceSearch } from '../test/helpers/search-reference.js';
import { record } from './report.js';
import { median, percentile, printTable } from './stats.js';

const RECORDS = Number(process.env.BENCH_SEARCH_RECORDS ?? 100_000);
const RUNS = Number(process.env.BENCH_SEARCH_RUNS ?? 200);
const WARMUP = 20;
const PEER_RUNS = Number(process.env.BENCH_SEARCH_PEER_RUNS ?? 15);

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

/** `count` customer-like records: ids cus_…, unix-second timestamps, emails, names, enums, amounts, tags. */
export function benchDocuments(count: number, seed = 42): SearchDocument[] {
  const stream = new Random(seed);
  const random = () => stream.next();
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
  ['no filter, sort (created desc)', { query: { sort: [{ created: 'desc' }] } }],
  ['no filter, sort (amount asc)', { query: { sort: [{ amount: 'asc' }] } }],
  ['no filter, 2-key sort', { query: { sort: [{ currency: 'asc' }, { amount: 'desc' }] } }],
];

/** Runs the search benchmark and prints its tables. */
export async function benchSearch(): Promise<void> {
  let started = performance.now();
  const documents = benchDocuments(RECORDS);
  const index = new SearchIndex(documents, FIELDS);
  console.log(`\nsearch: ${RECORDS.toLocaleString('en-US')} records of one entity, limit 1000 (default), ${RUNS} timed runs after ${WARMUP} warm-up`);
  console.log(`load ${(performance.now() - started).toFixed(0)} ms`);
  const rows: string[][] = [];
  const sortP50: number[] = [];
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
    if (label.startsWith('no filter')) sortP50.push(median(times));
  }
  printTable(['query', 'hits', 'cold ms', 'p50 ms', 'p95 ms'], rows);
  record({ id: 'search.sort_without_filter.p50_ms', label: `search sort without filter p50 (${RECORDS / 1000}k, worst of ${sortP50.length})`, value: Math.max(...sortP50), unit: 'ms', target: { on: 'value', op: '<=', limit: 10 } });
  await benchSearchPeers(index, documents);
}

/** Ours, a naive scan and Orama on the same records and queries, interleaved; p50 per engine. */
async function benchSearchPeers(index: SearchIndex, documents: SearchDocument[]): Promise<void> {
  const started = performance.now();
  const db = create({ schema: { amount: 'number', created: 'number', currency: 'enum', email: 'string', livemode: 'boolean', name: 'string', tags: 'enum[]' } as const });
  // Orama takes no nulls: a null amount is left out (it then sorts last, as ours does).
  await insertMultiple(db, documents.map((d) => ({ id: d.id, ...Object.fromEntries(Object.entries(d.data).filter(([, v]) => v !== null)) })) as never[], 1000);
  console.log(`
search vs peers (same ${RECORDS.toLocaleString('en-US')} records, limit 1000, ${PEER_RUNS} interleaved rounds; Orama load ${(performance.now() - started).toFixed(0)} ms)`);
  const cases: { label: string; params: object; orama: object }[] = [
    { label: 'sort without filter (created desc)', params: { query: { sort: [{ created: 'desc' }] } }, orama: { term: '', sortBy: { property: 'created', order: 'DESC' }, limit: 1000 } },
    { label: 'eq (currency)', params: { query: { filter: { eq: { currency: 'eur' } } } }, orama: { term: '', where: { currency: { eq: 'eur' } }, limit: 1000 } },
  ];
  const rows: string[][] = [];
  for (const c of cases) {
    const engines: [string, () => unknown][] = [
      ['ours', () => index.search(c.params)],
      ['naive scan', () => referenceSearch(documents, FIELDS, c.params)],
      ['orama', () => oramaSearch(db, c.orama as never)],
    ];
    const times = engines.map(() => [] as number[]);
    for (const [, run] of engines) await run(); // warm-up
    for (let r = 0; r < PEER_RUNS; r++) {
      for (const [i, [, run]] of engines.entries()) {
        const t = performance.now();
        await run();
        times[i]!.push(performance.now() - t);
      }
    }
    const [ours, naive, orama] = times.map(median) as [number, number, number];
    rows.push([c.label, ours.toFixed(2), naive.toFixed(2), orama.toFixed(2), `${(ours / naive).toFixed(3)}×`, `${(ours / orama).toFixed(3)}×`]);
    const key = c.label.startsWith('eq') ? 'eq' : 'sort_without_filter';
    record({ id: `search.${key}.vs_naive`, label: `search ${c.label} vs naive scan`, value: ours, unit: 'ms', peer: { name: 'naive scan', value: naive } });
    record({ id: `search.${key}.vs_orama`, label: `search ${c.label} vs Orama`, value: ours, unit: 'ms', peer: { name: 'Orama', value: orama } });
  }
  printTable(['query', 'ours p50 ms', 'naive p50 ms', 'Orama p50 ms', 'vs naive', 'vs Orama'], rows);
}
