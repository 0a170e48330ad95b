/**
 * Mock vs Prism: the same execute request (payments customers get) through our mock and through Prism's mock
 * server (`prism mock generated/openapi/payments.json`, the tool users reach for to mock an OpenAPI document),
 * each in its own process on loopback, one request at a time, interleaved request by request; latency p50 / p95.
 * Prism answers from the document's examples; ours runs the contract (fixtures, params, rules). Knob:
 * BENCH_PRISM_REQUESTS (default 300).
 */
import path from 'node:path';
import { startPrismMock } from '../test/helpers/prism.js';
import { startMockProcess } from './mock.js';
import { keepSection, record } from './report.js';
import { median, percentile, printTable } from './stats.js';

const repo = path.resolve(import.meta.dirname, '..');
const requests = Number(process.env.BENCH_PRISM_REQUESTS ?? 300);
const EXECUTE = '/api/v1/connectors/sources/payments/execute';

async function post(base: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${base}${EXECUTE}`, { method: 'POST', headers: { authorization: 'Bearer bench', 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

export async function benchPrism(): Promise<void> {
  const [mock, prism] = await Promise.all([startMockProcess(), startPrismMock(path.join(repo, 'generated/openapi/payments.json'), 120_000)]);
  try {
    const listed = await post(mock.url, { entity: 'customers', action: 'list', params: { limit: 1 } });
    const id = (listed.json as { result: { id: string }[] }).result[0]!.id;
    const body = { entity: 'customers', action: 'get', params: { id } };
    const servers: [string, string][] = [
      ['connector-codegen mock', mock.url],
      ['Prism 5 mock', prism.url],
    ];
    for (const [name, url] of servers) {
      const { status } = await post(url, body);
      if (status !== 200) throw new Error(`${name} answered ${status} to the benchmark request; the comparison needs a 200 from both`);
      for (let i = 0; i < 20; i++) await post(url, body); // warm-up
    }
    const times = servers.map(() => [] as number[]);
    for (let r = 0; r < requests; r++) {
      for (const [i, [, url]] of servers.entries()) {
        const t = performance.now();
        await post(url, body);
        times[i]!.push(performance.now() - t);
      }
    }
    console.log(`\nmock vs Prism: POST execute (payments customers get), ${requests} sequential requests each, interleaved; both on loopback in their own process`);
    printTable(['server', 'p50 ms', 'p95 ms'], servers.map(([name], i) => [name, median(times[i]!).toFixed(2), percentile(times[i]!, 95).toFixed(2)]));
    record({ id: 'mock.get.p50_vs_prism', label: 'mock get latency p50 vs Prism mock', value: median(times[0]!), unit: 'ms', peer: { name: 'Prism', value: median(times[1]!) } });
    keepSection('prism', Object.fromEntries(servers.map(([name], i) => [name, { p50Ms: median(times[i]!), p95Ms: percentile(times[i]!, 95) }])));
  } finally {
    mock.stop();
    await prism.stop();
  }
}
