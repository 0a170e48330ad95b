/**
 * The fixtures the mock serves (generated/fixtures/<id>.json), read the way requests need them: keys and fields of
 * fixture records (entities with recordsFrom read their owner's), a record to write a matching query about, and the
 * values of a planned request (generator/emitters/contract-tests/requests.ts). The contract tests' harness and the
 * OpenAPI proxy test use it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ConnectorFixtures, EntityFixtures } from '../../generator/emitters/fixtures/dataset.js';
import { QUERY_LANGUAGES, type KeyType, type ParamSource, type RequestParams } from '../../generator/emitters/contract-tests/requests.js';
import type { PropertyIR } from '../../generator/ir.js';
import { at, selects, type ListRules } from './rules.js';

const root = path.resolve(import.meta.dirname, '../..');

/** A fixture record's string field a query can match on exactly. */
export interface Sample {
  /** Field name. */
  field: string;
  /** Its value in the record. */
  value: string;
  /** The record's index among the entity's fixtures. */
  index: number;
}

/** The fixtures of one connector. */
export class Fixtures {
  protected readonly fixtures: ConnectorFixtures;

  constructor(connector: string) {
    this.fixtures = JSON.parse(readFileSync(path.join(root, 'generated/fixtures', `${connector}.json`), 'utf8'));
  }

  /** Fixtures of an entity (of the entity it takes its records from, when it has recordsFrom). */
  entity(name: string): EntityFixtures {
    const own = this.fixtures.entities.find((e) => e.entity === name)!;
    return own.recordsFrom ? this.fixtures.entities.find((e) => e.entity === own.recordsFrom)! : own;
  }

  /** Key of the entity's i-th fixture record, as the param type wants it (typed `any`: it fills typed params). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  key(entity: string, i = 0, type: KeyType = 'string'): any {
    const key = this.entity(entity).keys[i];
    return key === undefined ? undefined : type === 'string' ? String(key) : Number(key);
  }

  /** A field (dotted path) of the entity's i-th fixture record (params that name record fields take a value that exists). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  field(entity: string, i: number, path: string): any {
    return at(this.entity(entity).records[i]!, path);
  }

  /** How a record of an answer is compared: by its key, else whole. */
  keyOf(entity: string, record: Record<string, unknown>): string {
    const { keyPath } = this.entity(entity);
    return keyPath ? String(at(record, keyPath)) : JSON.stringify(record);
  }

  /**
   * A field of the entity's first record whose value is a non-empty string (for queries that must match), among the
   * records `rules` keep (an api_search's default filter leaves archived ones out).
   */
  sampleString(entity: string, fields: readonly string[], rules: ListRules = {}): Sample | undefined {
    const records = this.entity(entity).records;
    for (const field of fields) {
      const index = records.findIndex((r) => selects(r, {}, rules) && typeof r[field] === 'string' && (r[field] as string).trim() !== '' && !/['"\\]/.test(r[field] as string));
      if (index >= 0) return { field, value: records[index]![field] as string, index };
    }
    return undefined;
  }

  /** A query in `language` that matches the sample's record. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query(language: NonNullable<PropertyIR['queryLanguage']>, sample: Sample): any {
    return QUERY_LANGUAGES[language].write(sample.field, sample.value);
  }

  /** The value of a planned param. */
  resolve(source: ParamSource): unknown {
    switch (source.from) {
      case 'literal':
        return source.value;
      case 'key':
        return this.key(source.entity, source.index, source.type);
      case 'field':
        return this.field(source.entity, source.index, source.field);
    }
  }

  /** The params object of a planned request. */
  params(planned: RequestParams): Record<string, unknown> {
    return Object.fromEntries(planned.map(([name, source]) => [name, this.resolve(source)]));
  }
}
