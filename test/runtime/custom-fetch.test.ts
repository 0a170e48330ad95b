/**
 * Other fetches, for real: undici's fetch through a proxy (the README's recipe: `fetchOptions: { dispatcher: new
 * ProxyAgent(…) }`) and node-fetch, each against the mock over loopback HTTP; and what `fetchOptions` may and may
 * not change of a request.
 */
import { createServer, type Server } from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import nodeFetch from 'node-fetch';
import { fetch as undiciFetch, ProxyAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PaymentsClient } from '@connector-sdk/payments';
import { readSpec } from '../../generator/spec/read.js';
import { startMock, type MockServer } from '../../mock/server.js';
import { LimitError } from '../../runtime/src/index.js';
import { fakeFetch, json } from './helpers.js';

let mock: MockServer;
let proxy: Server;
let proxyUrl: string;
/** The CONNECT targets the proxy tunnelled to. */
const tunnels: string[] = [];

beforeAll(async () => {
  const { ir } = await readSpec(path.resolve(import.meta.dirname, '../../spec'));
  mock = await startMock({ ir, port: 0 });
  // A minimal forward proxy: CONNECT host:port opens a tunnel (what undici's ProxyAgent asks for).
  proxy = createServer((_, res) => res.writeHead(405).end());
  proxy.on('connect', (req, client, head) => {
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await mock.close();
});

const base = () => ({ baseUrl: mock.url, token: 'tok_proxy', sourceId: 'payments', logLevel: 'off' as const });

describe('undici through a proxy', () => {
  test("undici's fetch with fetchOptions.dispatcher = ProxyAgent reaches the service through the proxy", async () => {
    const dispatcher = new ProxyAgent(proxyUrl);
    try {
      const payments = new PaymentsClient({ ...base(), fetch: undiciFetch, fetchOptions: { dispatcher } });
      const page = await payments.customers.list({ limit: 3 });
      expect(page.records).toHaveLength(3);
      const { requestId } = await payments.customers.get({ id: page.records[0]!.id }).withResponse();
      expect(requestId).toMatch(/^req_mock_/);
      expect(tunnels).toContain(new URL(mock.url).host);
    } finally {
      await dispatcher.close();
    }
  });
});

describe('abort signals handed to fetch', () => {
  test('one signal serves at most 8 attempts: undici leaves a listener on it per request until GC, and Node warns past 10', async () => {
    const uses = new Map<AbortSignal, number>();
    const { fetch } = fakeFetch((request) => {
      uses.set(request.signal!, (uses.get(request.signal!) ?? 0) + 1);
      return json({ result: { id: 'cus_1' } });
    });
    const payments = new PaymentsClient({ ...base(), baseUrl: 'https://api.example.test', fetch });
    for (let i = 0; i < 200; i++) await payments.customers.get({ id: 'cus_1' });
    await Promise.all(Array.from({ length: 50 }, () => payments.customers.get({ id: 'cus_1' })));
    expect(Math.max(...uses.values())).toBeLessThanOrEqual(8);
    // Reused, though: far fewer signals than calls.
    expect(uses.size).toBeLessThan(100);
  });
});

describe('node-fetch', () => {
  test('works as the fetch: lists, pages with for-await, and limits a Node stream body', async () => {
    const payments = new PaymentsClient({ ...base(), fetch: nodeFetch });
    const records: unknown[] = [];
    for await (const customer of payments.customers.list({ limit: 2 }, { maxItems: 5 })) records.push(customer);
    expect(records).toHaveLength(5);
    const small = new PaymentsClient({ ...base(), fetch: nodeFetch, maxResponseBytes: 200 });
    const error = await small.customers.list({ limit: 10 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LimitError);
    expect(error).toMatchObject({ limit: 'maxResponseBytes', max: 200, status: 200 });
  });
});

describe('fetchOptions', () => {
  test('client and call fetchOptions reach fetch (the call wins); method, headers, body and signal stay the client\'s', async () => {
    const inits: Record<string, unknown>[] = [];
    const { fetch } = fakeFetch(() => json({ result: { id: 'cus_1' } }));
    const spy = (url: string, init: Record<string, unknown>) => {
      inits.push(init);
      return fetch(url, init as RequestInit);
    };
    const payments = new PaymentsClient({ ...base(), baseUrl: 'https://api.example.test', fetch: spy, fetchOptions: { cache: 'no-store', keepalive: true, method: 'GET', headers: { x: '1' }, body: 'evil' } as never });
    await payments.customers.get({ id: 'cus_1' }, { fetchOptions: { keepalive: false, priority: 'high' } });
    const [init] = inits;
    expect(init).toMatchObject({ cache: 'no-store', keepalive: false, priority: 'high', method: 'POST', body: JSON.stringify({ entity: 'customers', action: 'get', params: { id: 'cus_1' } }) });
    expect(init!['headers']).toMatchObject({ authorization: 'Bearer tok_proxy', 'content-type': 'application/json' });
    expect(init!['headers']).not.toHaveProperty('x');
    expect(init!['signal']).toBeInstanceOf(AbortSignal);
  });
});
