/**
 * Mock benchmark: requests per second for get and list on loopback, with autocannon (the load generator) in this
 * process and the mock in its own (as a user runs it, logging included), median of several runs.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { median, printTable } from './stats.js';

const repo = path.resolve(import.meta.dirname, '..');
const runs = Number(process.env.BENCH_MOCK_RUNS ?? 3);
const seconds = Number(process.env.BENCH_MOCK_SECONDS ?? 5);

/** Starts `connector-codegen mock` in its own process on a free loopback port. */
export async function startMockProcess(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, [path.join(repo, 'bin/connector-codegen.js'), 'mock', '--port', '0'], { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) {
        // From here on the request log is discarded (as if redirected to a file), but still written.
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`mock exited with ${code}`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

async function load(url: string, body: unknown): Promise<{ rps: number; p50: number; p99: number; errors: number }> {
  const result = await autocannon({
    url: `${url}/api/v1/connectors/sources/payments/execute`,
    method: 'POST',
    headers: { authorization: 'Bearer bench', 'content-type': 'application/json' },
    body: JSON.stringify(body),
    connections: 16,
    pipelining: 1,
    duration: seconds,
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

export async function benchMock(): Promise<void> {
  const mock = await startMockProcess();
  try {
    const first = await fetch(`${mock.url}/api/v1/connectors/sources/payments/execute`, {
      method: 'POST',
      headers: { authorization: 'Bearer bench', 'content-type': 'application/json' },
      body: JSON.stringify({ entity: 'customers', action: 'list', params: { limit: 1 } }),
    });
    const id = ((await first.json()) as { result: { id: string }[] }).result[0]!.id;
    const cases = [
      { name: 'get (payments customers get)', body: { entity: 'customers', action: 'get', params: { id } }, target: '≥ 10000' },
      { name: 'list (payments customers list, 10 per page)', body: { entity: 'customers', action: 'list', params: { limit: 10 } }, target: '' },
    ];
    const rows: string[][] = [];
    for (const c of cases) {
      await load(mock.url, c.body); // warm-up
      const results = [];
      for (let i = 0; i < runs; i++) results.push(await load(mock.url, c.body));
      if (results.some((r) => r.errors > 0)) throw new Error(`${c.name}: non-2xx answers or errors during the run`);
      rows.push([c.name, median(results.map((r) => r.rps)).toFixed(0), results.map((r) => r.rps.toFixed(0)).join(' / '), median(results.map((r) => r.p50)).toFixed(1), median(results.map((r) => r.p99)).toFixed(1), c.target]);
    }
    console.log(`\nmock on loopback (autocannon: 16 connections, ${seconds} s per run, ${runs} runs; mock in its own process, logging)`);
    printTable(['case', 'median req/s', 'runs req/s', 'p50 ms', 'p99 ms', 'target'], rows);
  } finally {
    mock.stop();
  }
}
