/**
 * The request id end to end: the mock names every response with the spec's request-id header (an assumption in
 * spec/service.yaml), and a generated client reports it on `.withResponse()` and on errors, over real HTTP.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { NotFoundError, PaymentsClient } from '@connector-sdk/payments';
import { readSpec } from '../../generator/spec/read.js';
import { startMock, type MockServer } from '../../mock/server.js';

let mock: MockServer;
let header: string;
beforeAll(async () => {
  const { ir } = await readSpec(path.resolve(import.meta.dirname, '../../spec'));
  header = ir.service.requestIdHeader!;
  mock = await startMock({ ir, port: 0 });
});
afterAll(() => mock.close());

describe('request ids from the mock', () => {
  test('every response carries a distinct one: success, error body, unknown route', async () => {
    const post = (p: string, body: unknown) => fetch(`${mock.url}${p}`, { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const responses = await Promise.all([
      post('/api/v1/connectors/sources/payments/execute', { entity: 'customers', action: 'list' }),
      post('/api/v1/connectors/sources/nope/execute', { entity: 'customers', action: 'list' }),
      post('/nowhere', {}),
    ]);
    const ids = responses.map((r) => r.headers.get(header));
    expect(header).toBe('x-request-id');
    for (const id of ids) expect(id).toMatch(/^req_mock_\d+$/);
    expect(new Set(ids).size).toBe(3);
  });

  test('a generated client reports it on withResponse() and on errors', async () => {
    const payments = new PaymentsClient({ baseUrl: mock.url, token: 't', sourceId: 'payments', logLevel: 'off' });
    const { data, requestId, response } = await payments.customers.list({ limit: 2 }).withResponse();
    expect(data.records).toHaveLength(2);
    expect(requestId).toMatch(/^req_mock_\d+$/);
    expect(response.headers.get(header)).toBe(requestId);
    const error = await payments.customers.get({ id: 'cus_missing' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).requestId).toMatch(/^req_mock_\d+$/);
    expect((error as NotFoundError).requestId).not.toBe(requestId);
  });
});
