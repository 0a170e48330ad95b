/**
 * Mock scale benchmark: start-up time (process spawn to "listening") and resident memory of `connector-codegen mock
 * --records N` at 1k, 10k and 100k records per entity, each size in its own process as a user runs it, median of
 * several runs; then, on the same process, the first (cold) and a warm answer on a 100k entity — a page, a get by
 * key, a filtered list (a full scan) and a uniform search — and the memory after them.
 * Targets (issue 11): 100k records listen within 10 s and under 1 GB.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { median, printTable } from './stats.js';

const repo = path.resolve(import.meta.dirname, '..');
const runs = Number(process.env.BENCH_SCALE_RUNS ?? 3);
const sizes = (process.env.BENCH_SCALE_SIZES ?? '1000,10000,100000').split(',').map(Number);

/** Resident memory of a process in MB (Linux /proc; elsewhere `ps`). */
function rssMb(pid: number): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
    return kb / 1024;
  } catch {
    return NaN;
  }
}

interface Started {
  url: string;
  pid: number;
  ms: number;
  stop: () => Promise<void>;
}

async function start(records: number): Promise<Started> {
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(repo, 'bin/connector-codegen.js'), 'mock', '--port', '0', '--quiet', '--records', String(records)], { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(text);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`mock exited with ${code}`)));
  });
  const ms = performance.now() - started;
  return { url, pid: child.pid!, ms, stop: () => new Promise((resolve) => (child.once('exit', () => resolve()), child.kill('SIGTERM'))) };
}

async function timed(url: string, body: unknown): Promise<{ ms: number; json: { result: unknown } }> {
  const t = performance.now();
  const response = await fetch(`${url}/api/v1/connectors/sources/payments/execute`, { method: 'POST', headers: { authorization: 'Bearer bench', 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await response.json()) as { result: unknown };
  if (!response.ok) throw new Error(`${JSON.stringify(body)}: ${response.status} ${JSON.stringify(json)}`);
  return { ms: performance.now() - t, json };
}

export async function benchMockScale(): Promise<void> {
  const rows: string[][] = [];
  const work: string[][] = [];
  for (const records of sizes) {
    const times: number[] = [];
    const memory: number[] = [];
    for (let i = 0; i < runs; i++) {
      const mock = await start(records);
      times.push(mock.ms);
      memory.push(rssMb(mock.pid));
      if (i === 0 && records === sizes[sizes.length - 1]) {
        // First touch of the largest size: each call cold, then warm.
        const page = await timed(mock.url, { entity: 'customers', action: 'list', params: { limit: 100 } });
        const id = (page.json.result as { id: string }[])[50]!.id;
        const email = (page.json.result as { email: string | null }[]).find((c) => c.email)!.email;
        const cases: [string, unknown][] = [
          ['list, one page of 100', { entity: 'customers', action: 'list', params: { limit: 100 } }],
          ['get by key', { entity: 'customers', action: 'get', params: { id } }],
          ['list filtered by email (full scan)', { entity: 'customers', action: 'list', params: { email, limit: 10 } }],
          ['api_search query (full scan, whole records)', { entity: 'customers', action: 'api_search', params: { query: `email:"${email}"`, limit: 10 } }],
          ['search: eq on a field', { entity: 'customers', action: 'search', params: { query: { filter: { eq: { email } } }, limit: 10 } }],
          ['search: range with a sort', { entity: 'charges', action: 'search', params: { query: { filter: { gte: { amount: 250_000 } }, sort: [{ created: 'desc' }] }, limit: 100 } }],
        ];
        for (const [name, body] of cases) {
          const cold = await timed(mock.url, body);
          const warm = await timed(mock.url, body);
          work.push([name, cold.ms.toFixed(1), warm.ms.toFixed(1)]);
        }
        work.push(['memory after these (MB)', rssMb(mock.pid).toFixed(0), '']);
      }
      await mock.stop();
    }
    rows.push([String(records), median(times).toFixed(0), times.map((t) => t.toFixed(0)).join(' / '), median(memory).toFixed(0), records === 100_000 ? '≤ 10000 ms, ≤ 1024 MB' : '']);
  }
  console.log(`\nmock start-up by records per entity (${runs} runs each, new process per run; spawn to "listening"; RSS at that moment)`);
  printTable(['records', 'median ms', 'runs ms', 'RSS MB', 'target'], rows);
  console.log(`\nfirst calls at ${sizes[sizes.length - 1]} records per entity (payments; cold = first call, which builds what the call needs)`);
  printTable(['call', 'cold ms', 'warm ms'], work);
}

// Run alone: tsx bench/mock-scale.ts
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) await benchMockScale();
