/**
 * In-memory data of the mock: one dataset per source, built from the fixtures. Records are found by key through a
 * map, so a get is O(1); writes keep the key map and the search index current.
 */
import { entityFields, identifyingParam, type EntityFixtures } from '../generator/emitters/fixtures/dataset.js';
import type { ConnectorIR, EntityIR } from '../generator/ir.js';
import { SearchIndex, type SearchField } from './search/index.js';

/** One entity's records in one source. */
export class EntityStore {
  /** Entity of the spec. */
  readonly entity: EntityIR;
  /** Field holding the key inside records (absent: keys live only here). */
  readonly keyField: string | undefined;
  /** Get's identifying param, when the contract shows it. */
  readonly keyParam: string | undefined;
  /** Records in list order. */
  readonly records: Record<string, unknown>[];
  /** Keys, parallel to records. */
  readonly keys: (string | number)[];
  readonly #position = new Map<string, number>();
  readonly #searchDocuments: { id: string; data: Record<string, unknown> }[] | undefined;
  #search: SearchIndex | undefined;
  #nextNumericKey: number;
  readonly #numericKeys: boolean;

  /** `numericKeys`: the key field is an integer (new records get the next number). */
  constructor(entity: EntityIR, data: EntityFixtures, numericKeys: boolean) {
    this.#numericKeys = numericKeys;
    this.entity = entity;
    this.keyField = data.keyField;
    this.keyParam = data.keyParam;
    // Deep copies: every source owns its data, so writes to one never show in another.
    this.records = structuredClone(data.records);
    this.keys = [...data.keys];
    this.#searchDocuments = data.searchDocuments && structuredClone(data.searchDocuments);
    this.keys.forEach((k, i) => this.#position.set(String(k), i));
    this.#nextNumericKey = Math.max(1000, ...this.keys.filter((k): k is number => typeof k === 'number')) + 17;
  }

  /** Index of the record with this key (compared as text: params may carry numbers as strings), or -1. */
  indexOf(key: unknown): number {
    return key === undefined || key === null || typeof key === 'object' ? -1 : (this.#position.get(String(key)) ?? -1);
  }

  /** A key for a new record: the next number for numeric keys, else a fresh string from `makeString`. */
  newKey(makeString: () => string): string | number {
    if (this.#numericKeys) return this.#nextNumericKey++;
    let key = makeString();
    while (this.#position.has(key)) key = makeString();
    return key;
  }

  /** Adds or replaces a record. */
  put(key: string | number, record: Record<string, unknown>, searchData?: Record<string, unknown>): void {
    const at = this.indexOf(key);
    if (at >= 0) this.records[at] = record;
    else {
      this.#position.set(String(key), this.records.length);
      this.records.push(record);
      this.keys.push(key);
    }
    if (searchData) this.search()?.upsert({ id: String(key), data: searchData });
  }

  /** Removes a record; true when it existed. */
  remove(key: unknown): boolean {
    const at = this.indexOf(key);
    if (at < 0) return false;
    const [removed] = this.keys.splice(at, 1);
    this.records.splice(at, 1);
    this.#position.clear();
    this.keys.forEach((k, i) => this.#position.set(String(k), i));
    this.search()?.remove(String(removed));
    return true;
  }

  /** The search index (built on first use), for entities with the search action. */
  search(): SearchIndex | undefined {
    if (!this.entity.searchable) return undefined;
    if (!this.#search) {
      const known = this.entity.searchable.properties;
      const fields: SearchField[] | null = known.length === 0 ? null : known.map((p) => ({ name: p.name, type: p.types.join('|'), ...(p.enum ? { enum: p.enum } : {}) }));
      this.#search = new SearchIndex(this.#searchDocuments ?? [], fields);
    }
    return this.#search;
  }
}

/** The data of one source: its connector and one store per entity. */
export class SourceData {
  /** Source id. */
  readonly id: string;
  /** The connector the source is of. */
  readonly connector: ConnectorIR;
  readonly #entities = new Map<string, EntityStore>();
  constructor(id: string, connector: ConnectorIR, fixtures: EntityFixtures[]) {
    this.id = id;
    this.connector = connector;
    for (const entity of connector.entities) {
      const data = fixtures.find((f) => f.entity === entity.name)!;
      const keyType = entityFields(connector, entity).find((f) => f.name === data.keyField)?.types[0] ?? identifyingParam(entity)?.types[0];
      this.#entities.set(entity.name, new EntityStore(entity, data, keyType === 'integer' || keyType === 'number' || typeof data.keys[0] === 'number'));
    }
  }
  /** The store of an entity (undefined for an unknown entity; a Map lookup, so `__proto__` is just a name). */
  entity(name: string): EntityStore | undefined {
    return this.#entities.get(name);
  }
}
