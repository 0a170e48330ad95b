/**
 * The mock's records: one store per entity that list, get, search, api_search, writes and downloads all read.
 *
 * Every source starts from the same base records, computed on demand from the spec and the seed by the fixture
 * models (generator/emitters/fixtures/model.ts) and shared, read-only, by all sources. A source's writes go to its
 * own overlay — created records, updated records, deleted keys — so a source costs nothing until it writes, and
 * 100,000 records per entity cost nothing until they are read. A list walks the base in the list's default order
 * (the model generates records in it) merged with the overlay; get finds a record from its key by arithmetic
 * (keys encode their index); search runs over the same records, through each entity's search data rule.
 */
import type { ConnectorIR, EntityIR, PropertyIR, SpecIR } from '../generator/ir.js';
import { ConnectorModel, getPath, type EntityModel } from '../generator/emitters/fixtures/model.js';
import { BudgetCache } from './cache.js';
import { SearchIndex, type DocumentSource, type SearchField } from './search/index.js';

/** Base records each entity keeps from recent reads. */
const RECENT_RECORDS = 2048;

/** A row of an entity's store: a base record's index (≥ 0), or a created record (−1 − its position). */
export type Row = number;

/** The base records of every entity, shared by all sources, with a bounded cache of what they cost to build. */
export class BaseData {
  readonly #models = new Map<string, ConnectorModel>();
  /** Recently read base records per entity (get and list pages read the same ones again). */
  readonly #recent = new WeakMap<EntityModel, Map<number, Record<string, unknown>>>();
  readonly cache: BudgetCache;

  /** `cacheFields`: how many record fields the caches may hold (a memory bound). */
  constructor(ir: SpecIR, options: { seed?: number; records?: number; cacheFields?: number } = {}) {
    for (const c of ir.connectors) this.#models.set(c.id, new ConnectorModel(c, { seed: options.seed ?? 1, ...(options.records ? { records: options.records } : {}) }));
    this.cache = new BudgetCache(options.cacheFields ?? 8_000_000);
  }

  /** The model of an entity's records. */
  model(connector: string, entity: string): EntityModel | undefined {
    return this.#models.get(connector)?.entity(entity);
  }

  /** Every base record of a model, built once and kept — or undefined when they would not fit the cache (read them one by one). */
  records(model: EntityModel): readonly Record<string, unknown>[] | undefined {
    const cost = model.count * Math.max(1, model.fields.length);
    if (cost > this.cache.budget) return undefined;
    return this.cache.get(`records:${model.owner.connector.id}/${model.entity.name}`, cost, () => Array.from({ length: model.count }, (_, i) => model.recordAt(i)));
  }

  /** One base record: from the built list when there is one, else from the recently read ones, else computed. */
  record(model: EntityModel, index: number): Record<string, unknown> {
    const built = this.cache.peek<Record<string, unknown>[]>(`records:${model.owner.connector.id}/${model.entity.name}`)?.[index];
    if (built) return built;
    let recent = this.#recent.get(model);
    if (!recent) this.#recent.set(model, (recent = new Map()));
    let record = recent.get(index);
    if (!record) {
      record = model.recordAt(index);
      recent.set(index, record);
      // Bounded per entity: the oldest read goes first.
      if (recent.size > RECENT_RECORDS) recent.delete(recent.keys().next().value!);
    }
    return record;
  }

  /**
   * Base record index by the text of one field's value (the first record holding a value wins): how an alternate key
   * (issueIdOrKey given an issue's key) finds its record. Built once per entity and field, on first use.
   */
  fieldIndex(model: EntityModel, path: string): ReadonlyMap<string, number> {
    return this.cache.get(`field:${model.owner.connector.id}/${model.entity.name}/${path}`, model.count, () => {
      const index = new Map<string, number>();
      for (let i = 0; i < model.count; i++) {
        const value = model.valueAt(i, path);
        if ((typeof value === 'string' || typeof value === 'number') && !index.has(String(value))) index.set(String(value), i);
      }
      return index;
    });
  }

  /** The search index over the base records, shared by every source that has not written to the entity. */
  searchIndex(model: EntityModel): SearchIndex {
    const fields = model.entity.searchable?.properties ?? [];
    return this.cache.get(`search:${model.owner.connector.id}/${model.entity.name}`, model.count * Math.max(2, Math.min(fields.length, 8)), () =>
      new SearchIndex(
        {
          size: model.count,
          id: (i) => String(model.keyAt(i)),
          value: (i, field) => searchValue(model, field, () => model.valueAt(i, field), (p) => model.searchValueAt(i, p)),
          data: (i) => model.searchData(this.record(model, i))!,
        },
        searchFields(model.entity),
      ),
    );
  }
}

/** The searchable fields as the search engine takes them (null: not shown, inferred from the data). */
function searchFields(entity: EntityIR): SearchField[] | null {
  const known = entity.searchable?.properties ?? [];
  return known.length === 0 ? null : known.map((p) => ({ name: p.name, type: p.types.join('|'), ...(p.enum ? { enum: p.enum } : {}) }));
}

/** One search value: a declared field's rule, or (fields not shown) the record's scalar or array value. */
function searchValue(model: EntityModel, field: string, own: () => unknown, declared: (p: PropertyIR) => unknown): unknown {
  const props = model.entity.searchable?.properties ?? [];
  if (props.length === 0) {
    const value = own();
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? null : value;
  }
  const prop = props.find((p) => p.name === field);
  return prop ? declared(prop) : null;
}

/** One entity's records in one source: the shared base plus this source's writes. */
export class EntityStore {
  /** The model the records come from. */
  readonly model: EntityModel;
  readonly #base: BaseData;
  readonly #updated = new Map<number, Record<string, unknown>>();
  readonly #deleted = new Set<number>();
  #created: { key: string | number; record: Record<string, unknown> }[] = [];
  readonly #createdAt = new Map<string, number>();
  /** Key of the parent record (a parent rule) of each created record that was created under one, by the record's key. */
  readonly #parentOfCreated = new Map<string, string>();
  #rows: Int32Array | undefined;
  #search: SearchIndex | undefined;
  /** Keys this store has issued (newKey): a create's key never repeats one, even after deletes. */
  #issued = 0;
  /** Keys of deleted records: never issued again (a deleted record stays gone; its id names no other record). */
  readonly #retired = new Set<string>();
  #serial = 0;

  constructor(base: BaseData, model: EntityModel) {
    this.#base = base;
    this.model = model;
  }

  /** Whether this source has written to the entity. */
  get written(): boolean {
    return this.#created.length > 0 || this.#updated.size > 0 || this.#deleted.size > 0;
  }

  /** Number of records. */
  get size(): number {
    return this.written ? this.#order().length : this.model.count;
  }

  /** The row at a list position. */
  rowAt(position: number): Row {
    return this.written ? this.#order()[position]! : position;
  }

  /** The list position of a row (-1 when it is not listed). */
  positionOf(row: Row): number {
    if (!this.written) return row >= 0 && row < this.model.count ? row : -1;
    return this.#order().indexOf(row);
  }

  /** Every row, in list order. */
  rows(): Int32Array {
    return this.written ? this.#order() : Int32Array.from({ length: this.model.count }, (_, i) => i);
  }

  /** The key of a row. */
  keyOf(row: Row): string | number {
    return row >= 0 ? this.model.keyAt(row) : this.#created[-1 - row]!.key;
  }

  /** The stored record of a row (do not change it: put a changed copy). */
  recordOf(row: Row): Record<string, unknown> {
    if (row < 0) return this.#created[-1 - row]!.record;
    return this.#updated.get(row) ?? this.#base.record(this.model, row);
  }

  /** One value (dotted path) of a row's record, without building a base record. */
  valueOf(row: Row, path: string): unknown {
    if (row >= 0 && !this.#updated.has(row)) return this.model.valueAt(row, path);
    return getPath(this.recordOf(row), path);
  }

  /** The row of the record with this key (numbers and their text are the same key), or undefined. */
  find(key: unknown): Row | undefined {
    if (key === undefined || key === null || typeof key === 'object') return undefined;
    const created = this.#createdAt.get(String(key));
    if (created !== undefined) return -1 - created;
    const index = this.model.indexOfKey(key);
    return index >= 0 && !this.#deleted.has(index) ? index : undefined;
  }

  /**
   * The row of a record whose field `path` holds `value` (compared as text), or undefined: created records first, then
   * updated ones (their value may have changed), then the base records.
   */
  findBy(path: string, value: unknown): Row | undefined {
    if (typeof value !== 'string' && typeof value !== 'number') return undefined;
    const text = String(value);
    const holds = (record: Record<string, unknown>) => {
      const v = getPath(record, path);
      return (typeof v === 'string' || typeof v === 'number') && String(v) === text;
    };
    const created = this.#created.findIndex((c) => holds(c.record));
    if (created >= 0) return -1 - created;
    for (const [row, record] of this.#updated) if (holds(record)) return row;
    const index = this.#base.fieldIndex(this.model, path).get(text);
    return index !== undefined && !this.#deleted.has(index) && !this.#updated.has(index) ? index : undefined;
  }

  /**
   * The row of a record whose fields hold every value of `pairs` (field path, value; compared as text) and that `also`
   * accepts, or undefined. A pair on the key path is a key lookup; otherwise rows are scanned, values read without
   * building base records.
   */
  findWhere(pairs: readonly (readonly [path: string, value: unknown])[], also: (row: Row) => boolean = () => true): Row | undefined {
    const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);
    if (pairs.some(([, v]) => text(v) === undefined)) return undefined;
    const holds = (row: Row) => pairs.every(([path, v]) => text(this.valueOf(row, path)) === text(v)) && also(row);
    const byKey = pairs.find(([path]) => path === this.model.keyPath);
    if (byKey) {
      const row = this.find(byKey[1]);
      return row !== undefined && holds(row) ? row : undefined;
    }
    const rows = this.rows();
    for (let i = 0; i < rows.length; i++) if (holds(rows[i]!)) return rows[i]!;
    return undefined;
  }

  /** The key (as text) of the parent record a row belongs to (a parent rule), or undefined when it belongs to none. */
  parentKeyOf(row: Row): string | undefined {
    if (row < 0) return this.#parentOfCreated.get(String(this.keyOf(row)));
    const parent = this.model.parentModel;
    const index = this.model.parentAt(row);
    return parent && index >= 0 ? String(parent.keyAt(index)) : undefined;
  }

  /** Records that the record with key `key` (created by this source) belongs to the parent record with key `parentKey`. */
  setParent(key: string | number, parentKey: string): void {
    this.#parentOfCreated.set(String(key), parentKey);
  }

  /** Every record in list order, when the base records fit the cache (else undefined: read rows one by one). */
  allRecords(): readonly Record<string, unknown>[] | undefined {
    const base = this.#base.records(this.model);
    if (!base || !this.written) return base;
    return Array.from(this.#order(), (row) => this.recordOf(row));
  }

  /** A template for a new record: the model's next record (rules, references and formats honoured). */
  template(): Record<string, unknown> {
    return this.model.recordAt(this.model.count + this.#serial++);
  }

  /** A key for a new record: the next number for numeric keys, else a fresh string from `make`; never a key issued before or a deleted record's. */
  newKey(make: (serial: number, attempt: number) => string): string | number {
    // The serial counts every key issued, so deletes never bring an earlier one back.
    const serial = this.model.count + this.#issued++;
    const free = (key: string | number) => this.find(key) === undefined && !this.#retired.has(String(key));
    if (this.model.numericKeys) {
      let n = serial;
      while (!free(1000 + n * 17)) n++;
      return 1000 + n * 17;
    }
    for (let attempt = 0; ; attempt++) {
      const key = make(serial, attempt);
      if (free(key)) return key;
    }
  }

  /** Adds or replaces the record with this key. */
  put(key: string | number, record: Record<string, unknown>): void {
    const row = this.find(key);
    if (row === undefined) {
      this.#createdAt.set(String(key), this.#created.length);
      this.#created.push({ key, record });
    } else if (row < 0) this.#created[-1 - row] = { key, record };
    else this.#updated.set(row, record);
    this.#changed();
  }

  /** Removes a record; true when it existed. */
  remove(key: unknown): boolean {
    const row = this.find(key);
    if (row === undefined) return false;
    this.#retired.add(String(key));
    if (row >= 0) {
      this.#deleted.add(row);
      this.#updated.delete(row);
    } else {
      this.#parentOfCreated.delete(String(key));
      this.#created.splice(-1 - row, 1);
      this.#createdAt.clear();
      this.#created.forEach((c, i) => this.#createdAt.set(String(c.key), i));
    }
    this.#changed();
    return true;
  }

  /** The search index over this source's records. */
  search(): SearchIndex | undefined {
    if (!this.model.entity.searchable) return undefined;
    if (!this.written) return this.#base.searchIndex(this.model);
    if (!this.#search) {
      const order = this.#order();
      const source: DocumentSource = {
        size: order.length,
        id: (i) => String(this.keyOf(order[i]!)),
        value: (i, field) => {
          const row = order[i]!;
          if (row >= 0 && !this.#updated.has(row)) return searchValue(this.model, field, () => this.model.valueAt(row, field), (p) => this.model.searchValueAt(row, p));
          const data = this.model.searchData(this.recordOf(row))!;
          return Object.hasOwn(data, field) ? data[field] : null;
        },
        data: (i) => this.model.searchData(this.recordOf(order[i]!))!,
      };
      this.#search = new SearchIndex(source, searchFields(this.model.entity));
    }
    return this.#search;
  }

  #changed(): void {
    this.#rows = undefined;
    this.#search = undefined;
  }

  /** List order: base records (not deleted) and created ones, sorted by the list's default ordering when it has one. */
  #order(): Int32Array {
    if (this.#rows) return this.#rows;
    const rows: number[] = [];
    for (let i = 0; i < this.model.count; i++) if (!this.#deleted.has(i)) rows.push(i);
    for (let k = 0; k < this.#created.length; k++) rows.push(-1 - k);
    const ordering = this.model.ordering;
    if (ordering) {
      const values = new Map<number, unknown>(rows.map((r) => [r, this.valueOf(r, ordering.field)]));
      const sign = ordering.direction === 'desc' ? -1 : 1;
      const position = (r: number) => (r >= 0 ? r : this.model.count - 1 - r);
      rows.sort((a, b) => {
        const va = values.get(a);
        const vb = values.get(b);
        if (va === vb || va === null || va === undefined || vb === null || vb === undefined) {
          if (va !== vb && (va === null || va === undefined)) return 1;
          if (va !== vb && (vb === null || vb === undefined)) return -1;
          return position(a) - position(b);
        }
        return (va < vb ? -1 : 1) * sign;
      });
    }
    return (this.#rows = Int32Array.from(rows));
  }
}

/** The data of one source: its connector and one store per entity (built on first use). */
export class SourceData {
  /** Source id. */
  readonly id: string;
  /** The connector the source is of. */
  readonly connector: ConnectorIR;
  readonly #base: BaseData;
  readonly #stores = new Map<string, EntityStore>();

  constructor(id: string, connector: ConnectorIR, base: BaseData) {
    this.id = id;
    this.connector = connector;
    this.#base = base;
  }

  /**
   * An entity and the store of its records (an entity with recordsFrom shares the store of that entity); undefined
   * for an unknown entity (a Map lookup, so `__proto__` is just a name).
   */
  entity(name: string): { entity: EntityIR; store: EntityStore } | undefined {
    const entity = this.connector.entities.find((e) => e.name === name);
    const model = entity && this.#base.model(this.connector.id, name);
    if (!entity || !model) return undefined;
    const owner = model.entity.name;
    let store = this.#stores.get(owner);
    if (!store) this.#stores.set(owner, (store = new EntityStore(this.#base, model)));
    return { entity, store };
  }
}
