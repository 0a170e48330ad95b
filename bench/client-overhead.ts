/**
 * Client CPU per call: what the SDK adds to one execute call on top of the network, measured over a stub fetch
 * that answers at once (a fresh Response each time). Five programs in one run, interleaved batch by batch so drift
 * hits them alike: the bare get and the bare list (the stub fetch plus reading the JSON: the floor every client
 * pays), our get, our list (first page) and openapi-fetch making the same execute call as our get. Overhead =
 * program − its bare call, from medians of many batches; the ratio to openapi-fetch comes from the same run. Batches
 * are timed in process CPU time (batch()).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import createClient from 'openapi-fetch';
import type { PaymentsClient as PaymentsClientType } from '@connector-sdk/payments';
import { bundleProgram } from './bundle-size.js';
import { record as recordFigure } from './report.js';
import { median, printTable } from './stats.js';

/** The figure the issue sets: at most this many µs of client CPU per call, for get and list. */
export const OVERHEAD_TARGET_US = 8;

const batches = Number(process.env.BENCH_OVERHEAD_BATCHES ?? 41);
const callsPerBatch = Number(process.env.BENCH_OVERHEAD_CALLS ?? 2_000);

const BASE = 'https://api.example.test';
const EXECUTE = '/api/v1/connectors/sources/{source_id}/execute';
const record = { id: 'cus_1', object: 'customer', email: 'ada@example.com', name: 'Ada', created: 1_700_000_000, livemode: false };
const getBody = JSON.stringify({ result: record });
const listBody = JSON.stringify({ result: Array.from({ length: 10 }, (_, i) => ({ ...record, id: `cus_${i}` })), connector_metadata: { has_more: true } });
const headers = { 'content-type': 'application/json', 'x-request-id': 'req_bench' };

/** A fetch that answers every request at once with `body`; it reads nothing of the request. */
const stub = (body: string) => async (_input: unknown, _init?: unknown) => new Response(body, { status: 200, headers });

type Program = () => Promise<unknown>;

/**
 * The generated client as users run it: compiled JavaScript (esbuild, as `build` emits it), not the TypeScript
 * sources through tsx, whose helpers would add work of their own to every call.
 */
async function loadClient(): Promise<typeof PaymentsClientType> {
  const { code } = await bundleProgram("export { PaymentsClient } from '@connector-sdk/payments';", { minify: false });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'client-overhead-'));
  try {
    const file = path.join(dir, 'client.mjs');
    writeFileSync(file, code);
    return ((await import(pathToFileURL(file).href)) as { PaymentsClient: typeof PaymentsClientType }).PaymentsClient;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function programs(PaymentsClient: typeof PaymentsClientType): [string, Program][] {
  const getFetch = stub(getBody);
  const listFetch = stub(listBody);
  const options = { baseUrl: BASE, token: 'tok_bench', sourceId: 'src_1', logLevel: 'off' } as const;
  const ours = new PaymentsClient({ ...options, fetch: getFetch });
  const oursList = new PaymentsClient({ ...options, fetch: listFetch });
  // openapi-fetch with the paths untyped (types cost no CPU); it builds a Request and hands it to fetch.
  const peer = createClient<any>({ baseUrl: BASE, fetch: getFetch as typeof fetch, headers: { authorization: 'Bearer tok_bench' } });
  const url = `${BASE}${EXECUTE.replace('{source_id}', 'src_1')}`;
  /** The floor: the same POST and JSON read without any client (what every client must pay anyway). */
  const bare = (stubFetch: typeof getFetch, action: string, params: object) => async () => {
    const response = await stubFetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer tok_bench' }, body: JSON.stringify({ entity: 'customers', action, params }) });
    return response.json();
  };
  return [
    ['bare call: get', bare(getFetch, 'get', { id: 'cus_1' })],
    ['bare call: list', bare(listFetch, 'list', { limit: 10 })],
    ['ours: customers.get', () => ours.customers.get({ id: 'cus_1' })],
    ['ours: customers.list (first page)', () => oursList.customers.list({ limit: 10 }).then((page) => page)],
    ['openapi-fetch: POST execute (get)', () => peer.POST(EXECUTE, { params: { path: { source_id: 'src_1' } }, body: { entity: 'customers', action: 'get', params: { id: 'cus_1' } } })],
  ];
}

/**
 * CPU µs per call of one batch: process CPU time (user + system, GC threads included), not wall time, so time spent
 * waiting for a core on a busy machine does not count as the client's.
 */
async function batch(program: Program): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < callsPerBatch; i++) await program();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / callsPerBatch;
}

/** Medians per program; prints the table and returns our worst overhead and openapi-fetch's. */
export async function benchClientOverhead(): Promise<{ ours: number; peer: number }> {
  const list = programs(await loadClient());
  for (const [, program] of list) for (let i = 0; i < 3; i++) await batch(program); // warm-up: JIT and caches
  const samples = list.map(() => [] as number[]);
  for (let b = 0; b < batches; b++) for (const [i, [, program]] of list.entries()) samples[i]!.push(await batch(program));
  const medians = samples.map(median);
  // Each program against the floor of its own body: get and openapi-fetch's get against the bare get, list against the bare list.
  const floorOf = [undefined, undefined, 0, 1, 0];
  const overhead = medians.map((m, i) => (floorOf[i] === undefined ? undefined : m - medians[floorOf[i]!]!));
  console.log(`\nclient CPU per call over a stub fetch (median of ${batches} batches of ${callsPerBatch} calls, interleaved)`);
  printTable(
    ['program', 'µs/call', 'overhead µs'],
    list.map(([name], i) => [name, medians[i]!.toFixed(2), overhead[i] === undefined ? '—' : overhead[i]!.toFixed(2)]),
  );
  const [get, listed, peer] = [overhead[2]!, overhead[3]!, overhead[4]!];
  const ours = Math.max(get, listed);
  recordFigure({ id: 'client.overhead_us', label: 'client CPU overhead per call (worst of get, list)', value: ours, unit: 'µs', peer: { name: 'openapi-fetch', value: peer }, target: { on: 'value', op: '<=', limit: OVERHEAD_TARGET_US } });
  console.log(
    `overhead: get ${get.toFixed(2)} µs, list ${listed.toFixed(2)} µs vs openapi-fetch ${peer.toFixed(2)} µs (get ${(get / peer).toFixed(2)}x); target <= ${OVERHEAD_TARGET_US} µs: ${ours <= OVERHEAD_TARGET_US ? 'met' : 'MISSED'}`,
  );
  return { ours, peer };
}

if (import.meta.url === `file://${process.argv[1]}`) await benchClientOverhead();
