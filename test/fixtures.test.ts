/** Fixtures: deterministic, realistic, consistent, and valid against the spec's record validators. */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildFixtures, type ConnectorFixtures } from '../generator/emitters/fixtures/dataset.js';
import type { SpecIR } from '../generator/ir.js';
import { readSpec } from '../generator/spec/read.js';
import { stableJson } from '../generator/lib/stable-json.js';

let ir: SpecIR;
let fixtures: ConnectorFixtures[];
beforeAll(async () => {
  ir = (await readSpec(path.resolve(import.meta.dirname, '../spec'))).ir;
  fixtures = buildFixtures(ir);
});

const entityOf = (connector: string, entity: string) => fixtures.find((c) => c.connector === connector)!.entities.find((e) => e.entity === entity)!;

describe('fixtures', () => {
  test('every record validates against the validator of every record shape its entity returns', async () => {
    let checked = 0;
    const failures: string[] = [];
    for (const connector of ir.connectors) {
      const validators = (await import(`../generated/${connector.id}/src/validators.ts`)) as Record<string, ((d: unknown) => boolean) & { errors?: unknown }>;
      for (const entity of connector.entities) {
        const data = entityOf(connector.id, entity.name);
        const shapes = new Set(entity.actions.filter((a) => a.result.shape === 'list' || (a.result.shape === 'single' && a.name !== 'delete')).map((a) => a.result.record));
        for (const shape of shapes) {
          const validate = validators[`record_${shape}`];
          if (!validate) continue; // the contract shows none of its fields
          data.records.forEach((record, i) => {
            checked++;
            if (!validate(record)) failures.push(`${connector.id}/${entity.name}[${i}] as ${shape}: ${JSON.stringify(validate.errors)}`);
          });
        }
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(2000); // the records of every entity whose record shape the contract shows
  });

  test('the same spec and seed give byte-identical fixtures; another seed gives others', () => {
    expect(stableJson(buildFixtures(ir))).toBe(stableJson(fixtures));
    expect(stableJson(buildFixtures(ir, { seed: 2 }))).not.toBe(stableJson(fixtures));
  });

  test('at least three pages per listable entity at its default page size', () => {
    expect(entityOf('payments', 'customers').records.length).toBeGreaterThan(3 * 10);
    for (const connector of ir.connectors) {
      for (const entity of connector.entities.filter((e) => e.actions.some((a) => a.name === 'list'))) {
        expect(entityOf(connector.id, entity.name).records.length, `${connector.id}/${entity.name}`).toBeGreaterThanOrEqual(3 * 10);
      }
    }
  });

  test('identifiers are shaped per connector and unique', () => {
    const customers = entityOf('payments', 'customers');
    expect(customers.keyPath).toBe('id');
    for (const id of customers.keys) expect(id).toMatch(/^cus_[0-9A-Za-z]{14}$/);
    expect(new Set(customers.keys).size).toBe(customers.keys.length);
    expect(entityOf('recruiting', 'candidates').keys.every((k) => Number.isInteger(k))).toBe(true);
    expect(entityOf('crm', 'contacts').keys.every((k) => typeof k === 'string' && /^\d+$/.test(k))).toBe(true);
    // A record without an id field keeps its key outside the record (the contract lists no such field).
    const balance = entityOf('payments', 'balance');
    expect(balance.keyPath).toBeUndefined();
    expect(balance.records[0]).not.toHaveProperty('id');
  });

  test('values look real: emails, timestamps as the record types them, enums and literals honoured, some nulls', () => {
    const customers = entityOf('payments', 'customers').records;
    expect(customers.every((c) => c['object'] === 'customer')).toBe(true);
    expect(customers.filter((c) => typeof c['email'] === 'string').every((c) => /^[a-z.-]+@example\.(com|org|net)$/.test(c['email'] as string))).toBe(true);
    expect(customers.some((c) => c['email'] === null)).toBe(true);
    expect(customers.every((c) => Number.isInteger(c['created']) && (c['created'] as number) > 1_700_000_000)).toBe(true);
    expect(entityOf('payments', 'charges').records.every((c) => ['succeeded', 'pending', 'failed'].includes(c['status'] as string))).toBe(true);
    expect(entityOf('recruiting', 'candidates').records.every((c) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/.test(c['created_at'] as string))).toBe(true);
  });

  test('cross-references point at existing records', () => {
    const customerIds = new Set(entityOf('payments', 'customers').keys);
    const charges = entityOf('payments', 'charges').records.filter((c) => c['customer'] !== null);
    expect(charges.length).toBeGreaterThan(0);
    for (const c of charges) expect(customerIds.has(c['customer'] as string)).toBe(true);
    const candidates = new Set(entityOf('recruiting', 'candidates').keys);
    for (const o of entityOf('recruiting', 'offers').records) expect(candidates.has(o['candidate_id'] as number)).toBe(true);
  });

  test('entities with search carry a search document per record, typed by the searchable fields', () => {
    const customers = entityOf('payments', 'customers');
    const fields = ir.connectors.find((c) => c.id === 'payments')!.entities.find((e) => e.name === 'customers')!.searchable!.properties;
    expect(customers.searchDocuments).toHaveLength(customers.records.length);
    const doc = customers.searchDocuments![0]!;
    expect(Object.keys(doc.data).sort()).toEqual(fields.map((f) => f.name).sort());
    expect(typeof doc.data['account_balance']).toBe('number');
    expect(doc.id).toBe(customers.keys[0]);
  });

  test('a searchable field with allowed values holds one of them, in the search document and in the record', () => {
    let checked = 0;
    for (const connector of ir.connectors) {
      for (const entity of connector.entities) {
        const data = entityOf(connector.id, entity.name);
        for (const field of entity.searchable?.properties.filter((f) => f.enum && !f.derive) ?? []) {
          data.searchDocuments!.forEach((doc, i) => {
            const value = doc.data[field.name];
            // Hit data is null where the record holds none (the OpenAPI hit schema allows it); otherwise an allowed value.
            if (value !== null) expect(field.enum, `${connector.id} ${entity.name} ${field.name}`).toContain(value);
            if (Object.hasOwn(data.records[i]!, field.name)) expect(data.records[i]![field.name]).toBe(value);
            if (value !== null) checked++;
          });
        }
      }
    }
    expect(checked).toBeGreaterThan(0);
    // payments customers: tax_exempt is only none, exempt or reverse — and the records hold every one of them.
    const taxExempt = new Set(entityOf('payments', 'customers').records.map((r) => r['tax_exempt']).filter((v) => v !== null));
    expect([...taxExempt].sort()).toEqual(['exempt', 'none', 'reverse']);
  });

  test('the rules of the spec hold by construction: ordering, invariants, formats, derived keys', () => {
    // Payments lists are newest first.
    for (const name of ['customers', 'charges', 'products', 'payouts', 'invoices', 'refunds', 'subscriptions']) {
      const created = entityOf('payments', name).records.map((r) => r['created'] as number);
      expect(created.every((c, i) => i === 0 || created[i - 1]! > c), name).toBe(true);
    }
    // refunded ⇔ fully refunded; never refunded beyond the amount; platform-only fields null.
    const charges = entityOf('payments', 'charges').records;
    for (const c of charges) {
      expect(c['refunded']).toBe(c['amount_refunded'] === c['amount']);
      expect(c['amount_refunded'] as number).toBeLessThanOrEqual(c['amount'] as number);
      for (const f of ['application', 'application_fee', 'destination', 'on_behalf_of', 'transfer_data', 'transfer_group']) expect(c[f]).toBeNull();
    }
    expect(charges.some((c) => c['refunded'] === true) && charges.some((c) => c['refunded'] === false && (c['amount_refunded'] as number) > 0)).toBe(true);
    for (const c of charges) expect(c['currency']).toMatch(/^[a-z]{3}$/);
    // A list member's id is the MD5 of its lowercase email, the subscriber_hash get takes.
    for (const m of entityOf('email_marketing', 'list_members').records) {
      expect(m['id']).toBe(createHash('md5').update(String(m['email_address']).toLowerCase()).digest('hex'));
    }
    // Messages are keyed by a Unix-time ts, newest first.
    const ts = entityOf('team_messaging', 'channel_messages').records.map((m) => m['ts'] as string);
    expect(ts.every((t) => /^\d{10}\.\d{6}$/.test(t))).toBe(true);
    expect(ts.every((t, i) => i === 0 || Number(ts[i - 1]) > Number(t))).toBe(true);
    // The default filter has something to leave out.
    expect(entityOf('payments', 'subscriptions').records.some((r) => r['status'] === 'canceled')).toBe(true);
  });

  test('search data is the record value on shared fields and the derive rule elsewhere', () => {
    const customers = entityOf('payments', 'customers');
    customers.records.forEach((record, i) => {
      const data = customers.searchDocuments![i]!.data;
      for (const f of ['name', 'delinquent', 'next_invoice_sequence', 'email', 'balance']) expect(data[f]).toEqual(record[f] ?? null);
      expect(data['account_balance']).toBe(record['balance']);
      expect(data['default_card']).toEqual(record['default_source']);
      expect(data['updated']).toBe(record['created']);
      expect(data['is_deleted']).toBe(false);
      expect(data['cards']).toBeNull();
    });
  });

  test('write-only entities that take their records from another list none of their own', () => {
    expect(entityOf('team_messaging', 'messages')).toEqual({ entity: 'messages', recordsFrom: 'channel_messages', keys: [], records: [] });
    expect(entityOf('issue_tracking', 'issues').keyPath).toBe('data.id');
    for (const [i, r] of entityOf('issue_tracking', 'issues').records.entries()) expect((r['data'] as { id: string }).id).toBe(entityOf('issue_tracking', 'issues').keys[i]);
  });
});
