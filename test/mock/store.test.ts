/**
 * One record store: every action reads the same records. In process over the whole spec: the mock's lists equal the
 * committed fixtures, get equals list, search data equals the record on every shared field (and follows the derive
 * rule elsewhere), keys read back, sources write to their own overlay, and a large store costs nothing until read.
 */
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildFixtures, type ConnectorFixtures } from '../../generator/emitters/fixtures/dataset.js';
import { ConnectorModel, getPath } from '../../generator/emitters/fixtures/model.js';
import type { SpecIR } from '../../generator/ir.js';
import { readSpec } from '../../generator/spec/read.js';
import { BaseData, SourceData } from '../../mock/store.js';

let ir: SpecIR;
let fixtures: ConnectorFixtures[];
beforeAll(async () => {
  ir = (await readSpec(path.resolve(import.meta.dirname, '../../spec'))).ir;
  fixtures = buildFixtures(ir);
});

const connector = (id: string) => ir.connectors.find((c) => c.id === id)!;
const data = (id: string, entity: string) => fixtures.find((f) => f.connector === id)!.entities.find((e) => e.entity === entity)!;

describe('one store per entity', () => {
  test('the store holds exactly the fixtures, in list order, and each key finds its own record', () => {
    const base = new BaseData(ir);
    let checked = 0;
    for (const c of ir.connectors) {
      const source = new SourceData(c.id, c, base);
      for (const data of fixtures.find((f) => f.connector === c.id)!.entities) {
        if (data.recordsFrom) continue;
        const { store } = source.entity(data.entity)!;
        expect(store.size, `${c.id}/${data.entity}`).toBe(data.records.length);
        for (let i = 0; i < store.size; i++) {
          const row = store.rowAt(i);
          expect(store.recordOf(row)).toEqual(data.records[i]);
          expect(store.keyOf(row)).toBe(data.keys[i]);
          expect(store.find(data.keys[i])).toBe(row);
          expect(store.find(String(data.keys[i]))).toBe(row); // numbers and their text are the same key
          checked++;
        }
        expect(store.find('no-such-key')).toBeUndefined();
      }
    }
    expect(checked).toBeGreaterThan(3000);
  });

  test('search data holds the record value of every field the record and the searchable list share', () => {
    const base = new BaseData(ir);
    const mismatches: string[] = [];
    let compared = 0;
    for (const c of ir.connectors) {
      const source = new SourceData(c.id, c, base);
      for (const entity of c.entities.filter((e) => e.searchable)) {
        const { store } = source.entity(entity.name)!;
        const response = store.search()!.search({ query: {}, limit: 100_000 });
        expect(response.hits).toHaveLength(store.size);
        for (const hit of response.hits) {
          const record = store.recordOf(store.find(hit.id)!);
          for (const [field, value] of Object.entries(hit.data)) {
            const p = entity.searchable!.properties.find((x) => x.name === field);
            const expected = p?.derive ? (p.derive.from !== undefined ? (getPath(record, p.derive.from) ?? null) : p.derive.value) : (record[field] ?? null);
            compared++;
            if (JSON.stringify(value) !== JSON.stringify(expected)) mismatches.push(`${c.id}/${entity.name}/${hit.id}.${field}: search ${JSON.stringify(value)}, record ${JSON.stringify(expected)}`);
          }
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThan(5000);
  });

  test('the issue reproductions: customers search matches get, currency filters count the same records', () => {
    const base = new BaseData(ir);
    const { store } = new SourceData('payments', connector('payments'), base).entity('customers')!;
    const records = Array.from(store.rows(), (r) => store.recordOf(r));
    const listed = records.filter((r) => ['cad', 'eur'].includes(r['currency'] as string)).length;
    const hits = store.search()!.search({ query: { filter: { in: { currency: ['cad', 'eur'] } } }, limit: 1000 }).hits;
    expect(hits).toHaveLength(listed);
    for (const hit of hits) for (const f of ['name', 'delinquent', 'next_invoice_sequence']) expect(hit.data[f]).toEqual(store.recordOf(store.find(hit.id)!)[f] ?? null);
  });

  test('writes go to the writing source only; a write shows in list, get and search of that source', () => {
    const base = new BaseData(ir);
    const a = new SourceData('a', connector('payments'), base).entity('customers')!.store;
    const b = new SourceData('b', connector('payments'), base).entity('customers')!.store;
    const key = a.keyOf(a.rowAt(3));
    a.put(key, { ...a.recordOf(a.rowAt(3)), name: 'Renamed' });
    a.remove(a.keyOf(a.rowAt(5)));
    expect(a.recordOf(a.find(key)!)['name']).toBe('Renamed');
    expect(b.recordOf(b.find(key)!)['name']).not.toBe('Renamed');
    expect(a.size).toBe(b.size - 1);
    expect(a.search()!.search({ query: { filter: { eq: { id: key } } } }).hits[0]!.data['name']).toBe('Renamed');
    expect(b.search()!.search({ query: { filter: { eq: { id: key } } } }).hits[0]!.data['name']).not.toBe('Renamed');
  });

  test('a created record sorts where the list ordering puts it', () => {
    const base = new BaseData(ir);
    const { store } = new SourceData('p', connector('payments'), base).entity('customers')!;
    const newest = store.recordOf(store.rowAt(0))['created'] as number;
    store.put('cus_new', { ...store.template(), id: 'cus_new', created: newest + 1 });
    expect(store.keyOf(store.rowAt(0))).toBe('cus_new');
    store.put('cus_old', { ...store.template(), id: 'cus_old', created: 1 });
    expect(store.keyOf(store.rowAt(store.size - 1))).toBe('cus_old');
  });

  test('alternate keys: every record is found by its value of the field, and writes move what finds it', () => {
    const base = new BaseData(ir);
    let checked = 0;
    for (const c of ir.connectors) {
      for (const entity of c.entities) {
        for (const action of entity.actions.filter((a) => a.alternateKeys)) {
          const { store } = new SourceData(c.id, c, base).entity(entity.name)!;
          for (const field of action.alternateKeys!.fields) {
            for (let i = 0; i < store.size; i++) {
              const row = store.rowAt(i);
              expect(store.findBy(field, getPath(store.recordOf(row), field))).toBe(row);
              checked++;
            }
            expect(store.findBy(field, 'no-such-value')).toBeUndefined();
            const row = store.rowAt(1);
            const old = getPath(store.recordOf(row), field);
            store.put(store.keyOf(row), { ...store.recordOf(row), [field]: 'RENAMED-1' });
            expect(store.findBy(field, 'RENAMED-1')).toBe(row);
            expect(store.findBy(field, old)).toBeUndefined();
            store.put('created-1', { ...store.template(), [field]: 'NEW-1' });
            expect(store.keyOf(store.findBy(field, 'NEW-1')!)).toBe('created-1');
            store.remove(store.keyOf(store.rowAt(0)));
            expect(store.findBy(field, getPath(data(c.id, entity.name).records[0]!, field))).toBeUndefined();
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(10);
  });

  test('parent rules: each record belongs to the parent the fixtures name, created records to theirs, and parents are found by their fields', () => {
    const base = new BaseData(ir);
    let checked = 0;
    for (const c of ir.connectors) {
      for (const entity of c.entities.filter((e) => e.parent)) {
        const source = new SourceData(c.id, c, base);
        const { store } = source.entity(entity.name)!;
        const parents = source.entity(entity.parent!.entity)!.store;
        const owners = data(c.id, entity.name).parents!;
        expect(owners, `${c.id}/${entity.name}: the fixtures name a parent of each record`).toHaveLength(store.size);
        for (let i = 0; i < store.size; i++) {
          expect(store.parentKeyOf(i), `${c.id}/${entity.name} ${i}`).toBe(String(parents.keyOf(owners[i]!)));
          checked++;
        }
        // Every parent record is found by the values of its fields the rule's params give; a made-up one is not.
        for (let p = 0; p < Math.min(parents.size, 5); p++) {
          const pairs = entity.parent!.params.map((x) => [x.field, getPath(parents.recordOf(p), x.field)] as const);
          expect(parents.findWhere(pairs)).toBe(p);
        }
        expect(parents.findWhere(entity.parent!.params.map((x) => [x.field, 'no-such-parent'] as const))).toBeUndefined();
        store.put('created-under-2', store.template());
        store.setParent('created-under-2', String(parents.keyOf(2)));
        expect(store.parentKeyOf(store.find('created-under-2')!)).toBe(String(parents.keyOf(2)));
        store.remove('created-under-2');
        store.put('created-under-2', store.template());
        expect(store.parentKeyOf(store.find('created-under-2')!), 'a removed record takes its parent with it').toBeUndefined();
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  test('an entity with recordsFrom shares the store of that entity', () => {
    const source = new SourceData('t', connector('team_messaging'), new BaseData(ir));
    expect(source.entity('messages')!.store).toBe(source.entity('channel_messages')!.store);
    expect(source.entity('messages')!.entity.name).toBe('messages');
  });
});

describe('scale', () => {
  test('100,000 records per entity: nothing is built until read; a record is found by its key without an index', () => {
    const base = new BaseData(ir, { records: 100_000 });
    const source = new SourceData('payments', connector('payments'), base);
    const { store } = source.entity('charges')!;
    expect(store.size).toBe(100_000);
    expect(base.cache.spent).toBe(0);
    const key = store.keyOf(store.rowAt(87_654));
    expect(store.find(key)).toBe(87_654);
    expect(store.recordOf(87_654)['id']).toBe(key);
    expect(base.cache.spent).toBe(0);
  });

  test('keys of every id format read back to their index; other strings do not', () => {
    for (const c of ir.connectors) {
      const models = new ConnectorModel(c, { records: 50_000 });
      for (const e of c.entities) {
        const model = models.entity(e.name)!;
        if (model.count < 2) continue;
        for (const i of [0, 1, 12_345, model.count - 1].filter((n) => n < model.count)) expect(model.indexOfKey(model.keyAt(i)), `${c.id}/${e.name}[${i}]`).toBe(i);
        expect(model.indexOfKey('zz-not-a-key')).toBe(-1);
      }
    }
  });
});
