/**
 * MCP server benchmark: tools/list latency (static mode for one connector, dynamic mode for all) over stdio and
 * Streamable HTTP, and the per-call overhead of a tool call through the server over the same call made with the
 * client alone — all against the mock on loopback, sequential requests, medians. The server runs as a user runs it
 * (`connector-codegen mcp`, in its own process).
 */
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { PaymentsClient } from '@connector-sdk/payments';
import { startMock } from '../mock/server.js';
import { readSpec } from '../generator/spec/read.js';
import { startProcess } from '../test/helpers/registry.js';
import { median, percentile, printTable } from './stats.js';

const repo = path.resolve(import.meta.dirname, '..');
const cli = path.join(repo, 'bin/connector-codegen.js');
const rounds = Number(process.env.BENCH_MCP_ROUNDS ?? 200);
const TOKEN = 'bench-token';

async function timeEach(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < 10; i++) await fn(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times;
}

const row = (label: string, times: number[]) => [label, median(times).toFixed(3), percentile(times, 95).toFixed(3)];

/** Prints the MCP table. */
export async function benchMcp(): Promise<void> {
  const { ir } = await readSpec(path.join(repo, 'spec'));
  const mock = await startMock({ ir, port: 0, token: TOKEN });
  const env = { ...process.env, CONNECTOR_TOKEN: TOKEN } as Record<string, string>;
  const stdio = async (args: string[]) => {
    const client = new Client({ name: 'bench', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--base-url', mock.url, ...args], env, cwd: repo, stderr: 'ignore' }));
    return client;
  };
  const staticClient = await stdio(['--source', 'payments', '--tools', 'static']);
  const dynamicClient = await stdio(['--source', '*']);
  const http = await startProcess(process.execPath, [cli, 'mcp', '--base-url', mock.url, '--source', 'payments', '--tools', 'static', '--transport', 'http', '--port', '0'], /listening on (http:\/\/\S+)/, env);
  const httpClient = new Client({ name: 'bench', version: '1' });
  await httpClient.connect(new StreamableHTTPClientTransport(new URL(http.match[1]!)));
  try {
    const payments = new PaymentsClient({ baseUrl: mock.url, token: TOKEN, sourceId: 'payments' });
    const { records } = await payments.customers.list({ limit: 1 });
    const id = records[0]!.id;
    const rows = [
      row('tools/list, static, 39 tools (stdio)', await timeEach(rounds, () => staticClient.listTools())),
      row('tools/list, dynamic, 3 tools for 346 (stdio)', await timeEach(rounds, () => dynamicClient.listTools())),
      row('tools/list, static, 39 tools (HTTP)', await timeEach(rounds, () => httpClient.listTools())),
    ];
    const alone = await timeEach(rounds, () => payments.customers.get({ id }));
    const viaStdio = await timeEach(rounds, () => staticClient.callTool({ name: 'payments_customers_get', arguments: { id } }));
    const viaHttp = await timeEach(rounds, () => httpClient.callTool({ name: 'payments_customers_get', arguments: { id } }));
    rows.push(row('customers get, client alone', alone), row('customers get, MCP tool call (stdio)', viaStdio), row('customers get, MCP tool call (HTTP)', viaHttp));
    console.log(`\nMCP server (sequential requests against the mock on loopback, ${rounds} rounds; ms)`);
    printTable(['operation', 'median ms', 'p95 ms'], rows);
    const overhead = (via: number[]) => `${(median(via) - median(alone)).toFixed(3)} ms (${(median(via) / median(alone)).toFixed(2)}x)`;
    console.log(`per-call overhead of the MCP server over the client alone: stdio ${overhead(viaStdio)}, HTTP ${overhead(viaHttp)}`);
  } finally {
    await Promise.all([staticClient.close(), dynamicClient.close(), httpClient.close()]);
    http.child.kill();
    await mock.close();
  }
}

