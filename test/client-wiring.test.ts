/**
 * Every generated client method (all 346 entity–action pairs) sends its own entity and action through the
 * runtime, to the execute path of the spec, and writes are tried once only. A recording fake fetch answers.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Catalogue } from '../generator/emitters/catalogue/describe.js';

const catalogue: Catalogue = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../generated/catalogue.json'), 'utf8'));
const camel = (s: string) => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const kebab = (s: string) => s.replace(/_/g, '-');

interface Recorded { url: string; body: { entity: string; action: string; params?: Record<string, unknown> } }

function fakeFetch(status: number, recorded: Recorded[]): typeof fetch {
  return async (input, init) => {
    recorded.push({ url: String(input), body: JSON.parse(String(init!.body)) });
    const body = JSON.parse(String(init!.body)) as Recorded['body'];
    const result = body.action === 'search' ? { hits: [], next_cursor: null, took_ms: 1 } : body.action === 'list' || body.action === 'api_search' ? [] : {};
    if (body.action === 'download') return new Response(new Uint8Array([1, 2, 3]), { status });
    return new Response(JSON.stringify({ result, connector_metadata: {} }), { status, headers: { 'content-type': 'application/json' } });
  };
}

/** A string of each value format the spec names. */
const FORMAT_EXAMPLES: Record<string, string> = { currency_lower_iso: 'usd', md5_of_lower_email: '0123456789abcdef0123456789abcdef', unix_time_string: '1712345678.000100', url: 'https://x.test/' };

/** Required params filled with values of their type (and format). */
function requiredParams(params: Catalogue['connectors'][number]['entities'][number]['actions'][number]['params']): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of params.filter((x) => x.required)) {
    out[p.name] = p.const ?? p.enum?.[0] ?? (p.format ? FORMAT_EXAMPLES[p.format] : undefined) ?? ({ integer: 1, number: 1, boolean: true, array: [], object: {} } as Record<string, unknown>)[p.type] ?? 'x';
  }
  return out;
}

describe.each(catalogue.connectors.map((c) => [c.id, c] as const))('%s client', async (_id, connector) => {
  const module = (await import(`@connector-sdk/${kebab(connector.id)}`)) as Record<string, new (o: object) => Record<string, Record<string, (p: object) => Promise<unknown>>>>;
  const Client = module[`${connector.id.split('_').map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}Client`]!;
  const pairs = connector.entities.flatMap((e) => e.actions.map((a) => ({ e, a })));

  test.each(pairs.map(({ e, a }) => [`${e.name} ${a.name}`, e, a] as const))('%s', async (_name, entity, action) => {
    const recorded: Recorded[] = [];
    const client = new Client({ baseUrl: 'http://svc.test', token: 'tok', sourceId: 'src/1', fetch: fakeFetch(503, recorded), maxRetries: 1, retryDelay: { initialMs: 1, maxMs: 1 } });
    const params = action.name === 'search' ? { query: {} } : requiredParams(action.params);
    const method = client[camel(entity.name)]![camel(action.name)]!;
    await expect(method(params)).rejects.toMatchObject({ status: 503, entity: entity.name, action: action.name });
    // Reads are retried (1 retry here); writes are tried once.
    expect(recorded).toHaveLength(action.kind === 'write' ? 1 : 2);
    expect(recorded[0]!.url).toBe('http://svc.test/api/v1/connectors/sources/src%2F1/execute');
    expect(recorded[0]!.body).toMatchObject({ entity: entity.name, action: action.name });
    // And a success resolves through the envelope.
    const ok: Recorded[] = [];
    const okClient = new Client({ baseUrl: 'http://svc.test', token: 'tok', sourceId: 's', fetch: fakeFetch(200, ok) });
    await expect(okClient[camel(entity.name)]![camel(action.name)]!(params)).resolves.toBeDefined();
    expect(ok).toHaveLength(1);
  });
});

test('the catalogue has all 346 pairs the wiring test runs', () => {
  expect(catalogue.connectors.reduce((n, c) => n + c.entities.reduce((m, e) => m + e.actions.length, 0), 0)).toBe(346);
});
