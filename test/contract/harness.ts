/**
 * What the generated contract tests (generated/contract-tests/*.test.ts) call: a client of a fresh source of the
 * mock (one per test file, so writes never leak between files), a fetch that counts requests, the fixtures the
 * mock serves, and small reference evaluations to compare results with.
 */
import { expect, inject } from 'vitest';
import { FALLBACK_PAGE_SIZE } from '../../generator/emitters/fixtures/dataset.js';
import type { KeyType } from '../../generator/emitters/contract-tests/requests.js';
import { referenceSearch, type ReferenceField } from '../helpers/search-reference.js';
import { Fixtures } from './fixtures.js';
import { at, selects, sharedDifferences, type ListRules } from './rules.js';

const TOKEN = 'contract-test-token';

/** How a test reads an entity's records back. */
interface Readers {
  /** Gets one record by key (entities with get). */
  read?: (key: unknown) => Promise<unknown>;
  /** Walks every record (entities with list). */
  list?: () => AsyncIterable<unknown>;
}

/** Values of `params` found in `record` (top level, or inside a nested object the record keeps them in). */
function found(record: Record<string, unknown>, key: string): unknown[] {
  const out: unknown[] = [];
  if (Object.hasOwn(record, key)) out.push(record[key]);
  for (const v of Object.values(record)) if (v && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, key)) out.push((v as Record<string, unknown>)[key]);
  return out;
}

/** How many params name something the record holds. */
function matched(record: Record<string, unknown>, params: Record<string, unknown>): number {
  return Object.keys(params).filter((k) => found(record, k).length > 0).length;
}

/** Every param that names something in the record holds the value sent. */
function holdsAll(record: Record<string, unknown>, params: Record<string, unknown>): boolean {
  return Object.entries(params).every(([k, v]) => {
    const values = found(record, k);
    return values.length === 0 || values.some((x) => JSON.stringify(x) === JSON.stringify(v));
  });
}

/** A generated client class. */
type ClientClass<C> = new (options: { baseUrl: string; token: string; sourceId?: string; fetch?: typeof fetch }) => C & {
  createSource(body: object): Promise<{ id: string }>;
};

/** The contract-test context of one connector. */
export class ContractHarness<C> extends Fixtures {
  /** Requests sent through this harness's clients. */
  requests = 0;
  readonly #Client: ClientClass<C>;
  #client: C | undefined;
  /** Keys of records created through this harness, per entity. */
  readonly #created = new Map<string, unknown[]>();

  constructor(connector: string, Client: ClientClass<C>) {
    super(connector);
    this.#Client = Client;
  }

  /** A fetch that counts what it sends. */
  readonly fetch: typeof fetch = (input, init) => {
    this.requests++;
    return fetch(input, init);
  };

  /** A client of a fresh source of this connector (created once per file through the real createSource). */
  async client(authConfig: Record<string, unknown>): Promise<C> {
    if (!this.#client) {
      const baseUrl = inject('mockUrl');
      const admin = new this.#Client({ baseUrl, token: TOKEN, fetch: this.fetch });
      const source = await admin.createSource({ workspace_id: 'contract-tests', source_template_id: this.fixtures.connector, name: 'contract tests', auth_config: authConfig });
      this.#client = new this.#Client({ baseUrl, token: TOKEN, sourceId: source.id, fetch: this.fetch });
    }
    return this.#client;
  }

  /** Page size the mock uses where a request sets none and the spec gives no default. */
  readonly pageSize = FALLBACK_PAGE_SIZE;

  /** Key of the entity's i-th fixture record; write-only entities (no fixtures) give the key this file created last. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override key(entity: string, i = 0, type: KeyType = 'string'): any {
    const key = super.key(entity, i, type) ?? this.#created.get(entity)?.at(-1);
    return key === undefined ? undefined : type === 'string' ? String(key) : Number(key);
  }

  /** The i-th fixture record as a closed result shape lists it (`fields`), or whole (null). */
  asShape(entity: string, i: number, fields: string[] | null): Record<string, unknown> {
    const record = this.entity(entity).records[i]!;
    return fields ? Object.fromEntries(fields.filter((f) => Object.hasOwn(record, f)).map((f) => [f, record[f]])) : record;
  }

  /**
   * A write is visible to later reads: read the record back by key (get) or find it in the list, and check every
   * param that names something in the record holds the value sent. An entity the contract gives no read checks
   * the write's own answer.
   */
  async readBack(entity: string, readers: Readers, params: Record<string, unknown>, created?: Record<string, unknown>, index?: number): Promise<void> {
    const { keyPath } = this.entity(entity);
    const key = index !== undefined ? this.key(entity, index) : keyPath && created ? at(created, keyPath) : undefined;
    if (index === undefined && key !== undefined) this.#created.set(entity, [...(this.#created.get(entity) ?? []), key]);
    let record: Record<string, unknown> | undefined;
    if (readers.read && key !== undefined) record = (await readers.read(key)) as Record<string, unknown>;
    else if (readers.list) {
      for await (const r of readers.list()) if (matched(r as Record<string, unknown>, params) > 0 && holdsAll(r as Record<string, unknown>, params)) record = r as Record<string, unknown>;
    } else record = created;
    expect(record, `${entity}: the written record can be read back`).toBeDefined();
    // Where the contract shows neither params nor fields, existence is all a reader can check.
    if (Object.keys(params).length > 0) expect(matched(record!, params), `${entity}: the record shows at least one value written`).toBeGreaterThan(0);
    expect(holdsAll(record!, params), `${entity}: every written value that names a field reads back: ${JSON.stringify(params)} → ${JSON.stringify(record)}`).toBe(true);
  }

  /** After a delete: get answers 404 and the list no longer holds the key. */
  async expectGone(entity: string, readers: Readers, index: number): Promise<void> {
    const key = this.entity(entity).keys[index]!;
    if (readers.read) await expect(readers.read(key)).rejects.toMatchObject({ status: 404 });
    if (readers.list) {
      const seen: string[] = [];
      for await (const r of readers.list()) seen.push(this.keyOf(entity, r as Record<string, unknown>));
      expect(seen).not.toContain(String(key));
    }
  }

  /** Search params to check: an eq on a text field, a range with a sort on an ordered field, and a keyword query. */
  searchQueries(entity: string, fields: ReferenceField[] | null): Record<string, unknown>[] {
    const docs = this.entity(entity).searchDocuments ?? [];
    const names = fields?.map((f) => f.name) ?? Object.keys(docs[0]?.data ?? {});
    const valueOf = (name: string) => docs.map((d) => d.data[name]).find((v) => v !== null && v !== undefined);
    const text = names.find((n) => typeof valueOf(n) === 'string' && !/["\\]/.test(valueOf(n) as string));
    const ordered = names.find((n) => typeof valueOf(n) === 'number') ?? text;
    const queries: Record<string, unknown>[] = [{ query: {} }];
    if (text) {
      queries.push({ query: { filter: { eq: { [text]: valueOf(text) } } } });
      const word = String(valueOf(text)).split(/[^A-Za-z0-9]+/).find(Boolean);
      if (word) queries.push({ query: { filter: { keyword: { [text]: word } } } });
    }
    if (ordered) {
      const values = docs.map((d) => d.data[ordered]).filter((v) => typeof v === typeof valueOf(ordered)).sort();
      queries.push({ query: { filter: { gte: { [ordered]: values[Math.floor(values.length / 2)] } }, sort: [{ [ordered]: 'desc' }] } });
    }
    return queries;
  }

  /** Keys of the fixture records a list with `params` returns, by the reference reading of the list's rules. */
  expectedKeys(entity: string, params: Record<string, unknown>, rules: ListRules = {}): string[] {
    const data = this.entity(entity);
    const inParent = this.#inParent(entity, params, rules);
    return data.records
      .map((r, i) => ({ r, i, key: data.keyPath ? String(data.keys[i]) : JSON.stringify(r) }))
      .filter(({ r, i }) => inParent(i) && selects(r, params, rules))
      .map(({ key }) => key);
  }

  /**
   * Indexes of the fixture records a list with `params` holds: within the parent record they name (a parent rule), past
   * the default filter, selected by the params' rules.
   */
  indexesOwned(entity: string, params: Record<string, unknown>, rules: ListRules = {}): number[] {
    const inParent = this.#inParent(entity, params, rules);
    return this.entity(entity).records.flatMap((r, i) => (inParent(i) && selects(r, params, rules) ? [i] : []));
  }

  /**
   * A field of the parent record that owns the fixture record with key `key`: `chain` names the parent entity, then its
   * parent, up to the record read (the fixtures say which record owns each one).
   */
  parentField(entity: string, key: unknown, chain: string[], field: string): any {
    const data = this.entity(entity);
    let index = data.keys.findIndex((k) => String(k) === String(key));
    let owned = data;
    for (const name of chain) {
      index = owned.parents?.[index] ?? -1;
      owned = this.entity(name);
    }
    expect(index, `${entity} ${String(key)} has a parent record in the fixtures`).toBeGreaterThanOrEqual(0);
    return at(owned.records[index], field);
  }

  /**
   * Under a parent rule: whether fixture record i belongs to a parent record the params name (the parent's fixture
   * records whose fields hold the params' values; the fixtures say which parent owns each record).
   */
  #inParent(entity: string, params: Record<string, unknown>, rules: ListRules): (i: number) => boolean {
    if (!rules.parent) return () => true;
    const { parent } = rules;
    const named = new Set<number>();
    this.entity(parent.entity).records.forEach((r, i) => {
      if (Object.entries(parent.params).every(([param, field]) => String(at(r, field)) === String(params[param]))) named.add(i);
    });
    const owners = this.entity(entity).parents ?? [];
    return (i) => named.has(owners[i]!);
  }

  /**
   * Keys of the fixture records whose `field` (a dotted path) holds `value`: what a query matching it there returns
   * (within the action's default filter, from `rules`).
   */
  keysWhere(entity: string, field: string, value: unknown, rules: ListRules = {}): string[] {
    const match = { params: { [field]: { matches: { fields: [field], mode: 'exact' as const, caseSensitive: true } } } };
    return this.expectedKeys(entity, { [field]: value }, { ...(rules.defaultFilter ? { defaultFilter: rules.defaultFilter } : {}), ...match });
  }

  /** Fixture records a list with `params` returns, by the same reference reading. */
  expectedRecords(entity: string, params: Record<string, unknown>, rules: ListRules = {}): Record<string, unknown>[] {
    const inParent = this.#inParent(entity, params, rules);
    return this.entity(entity).records.filter((r, i) => inParent(i) && selects(r, params, rules));
  }

  /** Every record of a list call (all pages). */
  async all(call: AsyncIterable<unknown>): Promise<Record<string, unknown>[]> {
    const out: Record<string, unknown>[] = [];
    for await (const r of call) out.push(r as Record<string, unknown>);
    return out;
  }

  /** Two records agree on every field they share (list vs get, search data vs the record), but those in `except`. */
  expectSameShared(a: Record<string, unknown>, b: Record<string, unknown>, what: string, except: readonly string[] = []): void {
    const compared = Object.fromEntries(Object.entries(a).filter(([k]) => !except.includes(k)));
    expect(sharedDifferences(compared, b), what).toEqual([]);
    expect(Object.keys(a).some((k) => Object.hasOwn(b, k)), `${what}: the two share fields`).toBe(true);
  }

  /** Reads a record the way readBack does (get by key, else found in the list by key). */
  async readRecord(entity: string, readers: Readers, key: unknown): Promise<Record<string, unknown> | undefined> {
    if (readers.read) return (await readers.read(key)) as Record<string, unknown>;
    if (readers.list) for await (const r of readers.list()) if (this.keyOf(entity, r as Record<string, unknown>) === String(key)) return r as Record<string, unknown>;
    return undefined;
  }

  /** After a partial update: every value the update did not name reads back as before. */
  expectUnchanged(before: Record<string, unknown>, after: Record<string, unknown>, params: Record<string, unknown>): void {
    const named = new Set(Object.keys(params));
    const leaves = (r: Record<string, unknown>) =>
      Object.entries(r).flatMap(([k, v]) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.entries(v).map(([k2, v2]) => [`${k}.${k2}`, k2, v2] as const) : [[k, k, v] as const]));
    const kept = leaves(before).filter(([, name]) => !named.has(name));
    expect(kept.length, 'the record has values the update did not name').toBeGreaterThan(0);
    for (const [path, , value] of kept) expect(at(after, path), `${path} keeps its value after a partial update`).toEqual(value);
  }

  /** The uniform search's expected hit ids, by the independent reference evaluation over the fixtures. */
  expectedSearch(entity: string, fields: ReferenceField[] | null, params: unknown): string[] {
    return referenceSearch(this.entity(entity).searchDocuments ?? [], fields, params).ids;
  }

  /** Walks a list call with the real iterator; returns the records' keys, and checks pages came with their meta. */
  async walk(call: AsyncIterable<Record<string, unknown>> & { pages(): AsyncIterable<{ records?: unknown[]; hits?: unknown[] }> }, keyOf: (r: Record<string, unknown>) => unknown): Promise<{ keys: string[]; pages: number }> {
    const keys: string[] = [];
    for await (const record of call) keys.push(String(keyOf(record)));
    let pages = 0;
    for await (const page of call.pages()) {
      pages++;
      expect(Array.isArray(page.records ?? page.hits)).toBe(true);
    }
    return { keys, pages };
  }
}
