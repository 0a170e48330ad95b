/** The real spec/: it validates, its catalogue has the contract's totals, and gaps stay visible. */
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildCatalogue, type Catalogue } from '../generator/emitters/catalogue/describe.js';
import { readSpec } from '../generator/spec/read.js';
import { stableJson } from '../generator/lib/stable-json.js';
import { reversedSpecCopy } from './helpers/spec-copy.js';

const specDir = path.resolve(import.meta.dirname, '../spec');
let catalogue: Catalogue;

beforeAll(async () => {
  const { ir, warnings } = await readSpec(specDir);
  expect(warnings, 'the spec has no warnings').toEqual([]);
  catalogue = buildCatalogue(ir);
});

describe('catalogue of the real spec', () => {
  test('lists 15 connectors, 172 entities and 346 entity-action pairs', () => {
    expect(catalogue.connectors.map((c) => c.id)).toEqual([
      'payments', 'crm', 'issue_tracking', 'code_hosting', 'call_recording', 'recruiting', 'email_marketing', 'team_messaging',
      'project_tracking', 'customer_messaging', 'live_chat', 'support_desk', 'advertising', 'file_storage', 'work_management',
    ]);
    expect(catalogue.totals).toMatchObject({ connectors: 15, entities: 172, pairs: 346 });
  });

  test('the service part carries both endpoints and the envelope keys from the assumptions', () => {
    expect(catalogue.service).toMatchObject({
      executePath: '/api/v1/connectors/sources/{source_id}/execute',
      executeMethod: 'POST',
      sourcesPath: '/api/v1/integrations/sources',
      envelope: { records: 'result', meta: 'connector_metadata' },
    });
    expect(catalogue.service.search.operators.map((o) => o.name).sort()).toEqual(
      ['and', 'eq', 'fuzzy', 'gt', 'gte', 'in', 'keyword', 'like', 'lt', 'lte', 'neq', 'not', 'or'],
    );
    expect(catalogue.service.search.params.find((p) => p.name === 'limit')).toMatchObject({ type: 'integer', default: 1000 });
  });

  test('writes exist exactly where seed 000 item 6 allows them', () => {
    const writes = catalogue.connectors.flatMap((c) =>
      c.entities.flatMap((e) => e.actions.filter((a) => a.kind === 'write').map((a) => `${c.id}/${e.name}/${a.name}`)),
    );
    expect(writes.sort()).toEqual(catalogue.service.writeActions);
    expect(writes).toHaveLength(18);
  });

  test('every list-like action with known params says how it pages, and every scheme is one the runtime knows', () => {
    for (const c of catalogue.connectors) {
      const schemes = new Set(c.pagination.map((p) => p.name));
      for (const e of c.entities) {
        for (const a of e.actions.filter((x) => x.name === 'list' || x.name === 'api_search')) {
          const where = `${c.id} ${e.name} ${a.name}`;
          if (a.params.length === 0 && a.paramsUnspecified) expect(a.pagination, where).toBe('unspecified');
          else expect(a.pagination === 'none' || schemes.has(a.pagination), where).toBe(true);
        }
      }
    }
  });

  test('gaps stay visible: every unspecified record, meta and param list carries the seed words', () => {
    let gaps = 0;
    for (const c of catalogue.connectors) {
      for (const e of c.entities) {
        for (const a of e.actions) {
          const r = a.result as { unspecified: boolean; unspecifiedReason?: string; fields: unknown[]; record?: string };
          if (r.unspecified && (a.result.shape === 'list' || a.result.shape === 'single')) {
            gaps++;
            expect(r.unspecifiedReason ?? (r.record === undefined ? 'no record' : ''), `${c.id} ${e.name} ${a.name}`).not.toBe('');
          }
          if (a.paramsUnspecified) expect(a.paramsUnspecifiedReason, `${c.id} ${e.name} ${a.name}`).toMatch(/\S/);
        }
      }
    }
    expect(gaps).toBeGreaterThan(50);
  });

  test('limits of the Limits table reach their params', () => {
    const payments = catalogue.connectors.find((c) => c.id === 'payments')!;
    const limit = payments.entities.find((e) => e.name === 'customers')!.actions.find((a) => a.name === 'list')!.params.find((p) => p.name === 'limit');
    expect(limit).toMatchObject({ minimum: 1, maximum: 100, default: 10 });
    const applied = catalogue.service.limits.filter((l) => l.expect);
    for (const l of applied) expect(l.appliesTo.length, l.where).toBeGreaterThan(0);
  });

  test('auth_config of issue tracking, customer messaging and advertising; region_url required with an unshown default', () => {
    const auth = Object.fromEntries(catalogue.connectors.map((c) => [c.id, c.auth]));
    expect(auth.issue_tracking!.fields.map((f) => f.name)).toEqual(['api_key']);
    expect(auth.customer_messaging!.fields.map((f) => f.name)).toEqual(['access_token']);
    expect(auth.advertising!.fields.map((f) => [f.name, f.required])).toEqual([['client_id', true], ['client_secret', true], ['refresh_token', true]]);
    expect(auth.advertising!.variables[0]).toMatchObject({ name: 'region_url', required: true, defaultUnspecified: expect.stringMatching(/omitted/) });
    expect(auth.payments!.method).toBe('unspecified');
  });
});

describe('determinism', () => {
  test('the catalogue does not depend on key order in the spec', async () => {
    const dir = await reversedSpecCopy();
    const reordered = buildCatalogue((await readSpec(dir)).ir);
    // Byte-compare the serialized catalogues (file paths differ between the two directories by design).
    const bytes = (c: Catalogue) => stableJson(JSON.parse(JSON.stringify(c, (k, v) => (k === 'file' || k === 'at' ? undefined : v))));
    expect(bytes(reordered)).toBe(bytes(catalogue));
    // Connector order comes from service.yaml's list, which is a sequence (not reversed): contract order.
    expect(reordered.connectors[0]!.id).toBe('payments');
  });
});
