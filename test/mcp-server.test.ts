/**
 * The generated MCP server, run as a user runs it (`connector-codegen mcp`, token in CONNECTOR_TOKEN) against the
 * mock (its own process, over HTTP, accepting only a token-shaped secret), and driven by the real MCP SDK client over
 * stdio and over Streamable HTTP. A counting proxy in front of the mock shows which calls reached the service. No
 * output of any process or tool ever holds the token. Every process listens on 127.0.0.1 and is killed at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generate } from '../generator/generate.js';
import { writeMiniSpec } from './helpers/mini-spec.js';
import { attempt, startProcess } from './helpers/registry.js';

const repo = path.resolve(import.meta.dirname, '..');
const cli = path.join(repo, 'bin/connector-codegen.js');
/** Shaped like a real token; it must never appear in any output. */
const TOKEN = 'sk_live_7Hq2mX9vTokenShaped4Zp';

let mock: ChildProcess;
let proxy: Server;
let proxyUrl: string;
/** Execute bodies that reached the service through the proxy. */
const calls: { entity: string; action: string; params?: Record<string, unknown> }[] = [];
/** Everything any process printed, and every tool result: checked for the token at the end. */
const outputs: string[] = [];
const children: ChildProcess[] = [];
const clients: Client[] = [];

type ToolResult = { content: { type: string; text: string }[]; structuredContent: Record<string, unknown>; isError?: boolean };

beforeAll(async () => {
  const started = await startProcess(process.execPath, [cli, 'mock', '--port', '0', '--token', TOKEN, '--quiet'], /listening on (http:\/\/\S+)/);
  mock = started.child;
  const target = new URL(started.match[1]!);
  // Forwards to the mock and records each execute body (reads of the server's own traffic, not of the mock's internals).
  proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      try {
        calls.push(JSON.parse(body.toString('utf8')));
      } catch {
        calls.push({ entity: '?', action: '?' });
      }
      const upstream = request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  for (const child of children) child.kill();
  mock?.kill();
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  // The last word: nothing anyone printed or answered carried the token.
  for (const text of outputs) expect(text).not.toContain(TOKEN);
});

const env = () => ({ ...process.env, CONNECTOR_TOKEN: TOKEN }) as Record<string, string>;

/** A client of a server started over stdio with `args` (after `connector-codegen mcp`). */
async function stdioClient(args: string[]): Promise<Client> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--base-url', proxyUrl, ...args], env: env(), cwd: repo, stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => outputs.push(chunk.toString()));
  const client = new Client({ name: 'mcp-server-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/** A client of a server started with `--transport http` on a free loopback port. */
async function httpClient(args: string[]): Promise<{ client: Client; url: string }> {
  const { child, match } = await startProcess(process.execPath, [cli, 'mcp', '--base-url', proxyUrl, '--transport', 'http', '--port', '0', ...args], /listening on (http:\/\/\S+)/, env());
  children.push(child);
  child.stdout?.on('data', (chunk: Buffer) => outputs.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => outputs.push(chunk.toString()));
  const client = new Client({ name: 'mcp-server-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(match[1]!)));
  clients.push(client);
  return { client, url: match[1]! };
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  outputs.push(JSON.stringify(result));
  return result;
}

describe('static mode over stdio (payments)', () => {
  let client: Client;
  beforeAll(async () => {
    client = await stdioClient(['--source', 'payments', '--connectors', 'payments', '--tools', 'static']);
  }, 60_000);

  test('tools/list: one tool per pair, stable names, annotations from the spec, schemas with _fields', async () => {
    const { tools } = await client.listTools();
    outputs.push(JSON.stringify(tools));
    expect(tools).toHaveLength(39);
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ['payments_customers_list', 'payments_customers_get', 'payments_customers_search', 'payments_customers_create', 'payments_customers_delete']) expect(byName.has(name), name).toBe(true);
    expect(byName.get('payments_customers_list')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(byName.get('payments_customers_delete')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('payments_customers_create')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(Object.keys(byName.get('payments_customers_list')!.inputSchema.properties!)).toContain('_fields');
    expect(byName.get('payments_customers_search')!.description).toMatch(/Searchable fields and their operators/);
  });

  test('a list call, then its continuation by the returned next arguments', async () => {
    const first = await call(client, 'payments_customers_list', { limit: 3 });
    expect(first.isError).toBeFalsy();
    const records = first.structuredContent['records'] as { id: string }[];
    expect(records).toHaveLength(3);
    const next = first.structuredContent['next'] as Record<string, unknown>;
    expect(next).toEqual({ limit: 3, starting_after: records[2]!.id });
    expect(first.content[0]!.text).toContain(`More: call payments_customers_list with ${JSON.stringify(next)}`);
    const second = await call(client, 'payments_customers_list', next);
    const more = second.structuredContent['records'] as { id: string }[];
    expect(more).toHaveLength(3);
    expect(more.map((r) => r.id)).not.toContain(records[0]!.id);
    expect(calls.at(-1)).toMatchObject({ entity: 'customers', action: 'list', params: { limit: 3, starting_after: records[2]!.id } });
  });

  test('a search with a filter, and a get', async () => {
    const page = await call(client, 'payments_customers_list', { limit: 1, _fields: ['id', 'email'] });
    const [customer] = page.structuredContent['records'] as { id: string; email: string }[];
    expect(Object.keys(customer!).sort()).toEqual(['email', 'id']);
    const found = await call(client, 'payments_customers_search', { query: { filter: { eq: { email: customer!.email } } } });
    expect(found.isError).toBeFalsy();
    expect((found.structuredContent['hits'] as { id: string }[]).map((h) => h.id)).toContain(customer!.id);
    expect(calls.at(-1)).toMatchObject({ entity: 'customers', action: 'search', params: { query: { filter: { eq: { email: customer!.email } } } } });
    const got = await call(client, 'payments_customers_get', { id: customer!.id });
    expect((got.structuredContent['record'] as { id: string }).id).toBe(customer!.id);
  });

  test('a write goes through in static mode', async () => {
    const created = await call(client, 'payments_customers_create', { email: 'agent@example.com', name: 'Made by an agent' });
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent['record']).toMatchObject({ email: 'agent@example.com' });
    expect(calls.at(-1)).toMatchObject({ entity: 'customers', action: 'create' });
  });

  test('an invalid argument is a located tool error, and nothing is sent', async () => {
    const before = calls.length;
    const result = await call(client, 'payments_customers_list', { limit: 1000, colour: 'red' });
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain("param 'limit' must be <= 100");
    expect(result.content[0]!.text).toContain("unknown param 'colour'");
    expect(result.content[0]!.text).toContain('No request was sent.');
    const badFilter = await call(client, 'payments_customers_search', { query: { filter: { eq: { not_a_field: 1 } } } });
    expect(badFilter.isError).toBe(true);
    expect(badFilter.content[0]!.text).toContain("'not_a_field' (in query.filter.eq.not_a_field) is not a searchable field of customers");
    // An operator the field does not take is named as such, with the ones it does (not as an unknown param).
    const badOperator = await call(client, 'payments_customers_search', { query: { filter: { not: { fuzzy: { balance: 1 } } } } });
    expect(badOperator.isError).toBe(true);
    expect(badOperator.content[0]!.text).toMatch(/search operator 'fuzzy' does not apply to field 'balance' \(in query\.filter\.not\.fuzzy\.balance\); 'balance' takes: eq, gt, gte, in, lt, lte, neq/);
    // Nested past what the schema check can follow (ajv recurses): a tool error too, not a protocol error.
    let filter: Record<string, unknown> = { eq: { email: 'a' } };
    for (let i = 0; i < 500; i++) filter = { not: filter };
    const deep = await call(client, 'payments_customers_search', { query: { filter }, limit: 1 });
    expect(deep.isError).toBe(true);
    expect(deep.content[0]!.text).toContain('the arguments nest deeper than 60 levels: no request was sent');
    expect(calls.length).toBe(before);
  });

  test("an API error is a tool error with the service's message", async () => {
    const result = await call(client, 'payments_customers_get', { id: 'cus_does_not_exist' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent['error']).toMatchObject({ status: 404 });
    expect(result.content[0]!.text).toMatch(/^Error from payments_customers_get: 404 /);
  });
});

describe('read-only mode and the output guard', () => {
  test('write tools are not listed, and a call to one is refused without reaching the service', async () => {
    const client = await stdioClient(['--source', 'payments', '--read-only', '--tools', 'static']);
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    expect(tools.map((t) => t.name)).not.toContain('payments_customers_create');
    const before = calls.length;
    const refused = await call(client, 'payments_customers_create', { email: 'x@example.com' });
    expect(refused.isError).toBe(true);
    expect(refused.content[0]!.text).toContain('writes, and this server runs read-only');
    expect(calls.length).toBe(before);
  }, 60_000);

  test('a large page is cut to --max-chars, says so, and next continues after the last record shown', async () => {
    const client = await stdioClient(['--source', 'payments', '--tools', 'static', '--max-chars', '3000']);
    const result = await call(client, 'payments_customers_list', { limit: 20 });
    const records = result.structuredContent['records'] as { id: string }[];
    expect(records.length).toBeGreaterThan(0);
    expect(records.length).toBeLessThan(20);
    expect(JSON.stringify(result.structuredContent).length).toBeLessThanOrEqual(3000);
    expect(result.structuredContent['truncated']).toMatchObject({ shown: records.length, of: 20 });
    expect(result.structuredContent['next']).toEqual({ limit: 20, starting_after: records.at(-1)!.id });
    expect(result.content[0]!.text).toContain('Truncated:');
  }, 60_000);
});

describe('dynamic mode over stdio (every connector)', () => {
  test('three tools reach every pair: list, describe, execute', async () => {
    const client = await stdioClient(['--source', '*']);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['list_actions', 'describe_action', 'execute_action']);
    const listed = await call(client, 'list_actions', { connector: 'crm', kind: 'read' });
    const actions = listed.structuredContent['actions'] as { name: string; kind: string }[];
    expect(actions.length).toBeGreaterThan(5);
    expect(actions.every((a) => a.name.startsWith('crm_') && a.kind === 'read')).toBe(true);
    const all = await call(client, 'list_actions', {});
    expect(all.structuredContent['count']).toBe(346);
    // Cut to --max-chars (default 20000), the header and the "N more" line included.
    expect(all.content[0]!.text.length).toBeLessThanOrEqual(20_000);
    expect(all.content[0]!.text).toMatch(/\n\d+ more: narrow with connector, entity, kind or query\.$/);
    const described = await call(client, 'describe_action', { name: 'payments_customers_list' });
    expect(described.structuredContent['inputSchema']).toMatchObject({ type: 'object' });
    const executed = await call(client, 'execute_action', { name: 'payments_customers_list', arguments: { limit: 2 } });
    expect(executed.structuredContent['records']).toHaveLength(2);
    const invalid = await call(client, 'execute_action', { name: 'payments_customers_list', arguments: { limit: 0 } });
    expect(invalid.isError).toBe(true);
    // The dynamic tools' own arguments: a misspelt kind is an error, not an empty list.
    const misspelt = await call(client, 'list_actions', { kind: 'reads' });
    expect(misspelt.isError).toBe(true);
    expect(misspelt.structuredContent['error']).toMatchObject({ message: expect.stringMatching(/^invalid arguments of list_actions: param 'kind' must be equal to one of the allowed values \(enum read, write\), got "reads"\. Nothing was run\.$/) });
    const unnamed = await call(client, 'describe_action', {});
    expect(unnamed.structuredContent['error']).toMatchObject({ message: "invalid arguments of describe_action: missing required param 'name'. Nothing was run." });
    const stray = await call(client, 'execute_action', { name: 'payments_customers_list', limit: 2 });
    expect(stray.structuredContent['error']).toMatchObject({ message: "invalid arguments of execute_action: unknown param 'limit'. Nothing was run." });
  }, 60_000);
});

describe('stdio input that ends', () => {
  test('requests sent before the input closed are all answered, then the server exits', async () => {
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'pipe', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'payments_customers_list', arguments: { limit: 1 } } },
    ];
    const child = spawn(process.execPath, [cli, 'mcp', '--base-url', proxyUrl, '--source', 'payments', '--connectors', 'payments', '--tools', 'static'], { cwd: repo, env: env() });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stdin.end(lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    outputs.push(stdout);
    expect(code).toBe(0);
    const answers = stdout.trim().split('\n').map((l) => JSON.parse(l) as { id: number; result?: { isError?: boolean } });
    expect(answers.map((a) => a.id)).toEqual([1, 3]);
    expect(answers[1]!.result?.isError).not.toBe(true);
  }, 60_000);
});

describe('an output outside the repository', () => {
  test("the server bundles the output's own runtime copy (the paths map points at the repository's sources)", async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'codegen-mcp-out-'));
    await generate({ specDir: await writeMiniSpec(), outDir: out, cacheDir: path.join(out, '.cache-of-test') });
    const client = await stdioClient(['--source', 'shop=src_1', '--tools', 'static', '--out', out]);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await rm(out, { recursive: true, force: true });
  }, 60_000);
});

describe('Streamable HTTP', () => {
  test('static mode: tools/list and a call', async () => {
    const { client } = await httpClient(['--source', 'payments', '--connectors', 'payments', '--tools', 'static']);
    expect((await client.listTools()).tools).toHaveLength(39);
    const page = await call(client, 'payments_customers_list', { limit: 2 });
    expect(page.structuredContent['records']).toHaveLength(2);
  }, 60_000);

  test('dynamic mode (auto, more than 50 tools): tools/list, and a foreign Host header is refused', async () => {
    const { client, url } = await httpClient(['--source', '*']);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['list_actions', 'describe_action', 'execute_action']);
    const executed = await call(client, 'execute_action', { name: 'crm_contacts_list', arguments: {} });
    expect(executed.isError).toBeFalsy();
    const post = (headers: Record<string, string>, body = '{}') =>
      new Promise<{ status: number; text: string }>((resolve, reject) => {
        const target = new URL(url);
        const req = request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.on('error', reject);
        req.end(body);
      });
    expect((await post({ host: 'evil.example' })).status).toBe(403);
    // A page of another origin (a browser names it) is refused too; one served from this machine is not.
    const list = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const foreign = await post({ origin: 'https://evil.example' }, list);
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.text).error.message).toBe('origin "https://evil.example" is not allowed');
    expect((await post({ origin: 'null' }, list)).status).toBe(403);
    expect((await post({ origin: 'http://localhost:5173' }, list)).status).toBe(200);
    // A body that is no JSON is a JSON-RPC parse error.
    expect(JSON.parse((await post({}, '{"jsonrpc":')).text)).toMatchObject({ error: { code: -32700 } });
  }, 60_000);
});

describe('a service that does not answer', () => {
  let hung: Server;
  let hungUrl: string;
  /** Requests the hung service received, and whether the server has hung up on each. */
  const received: { closed: boolean }[] = [];
  beforeAll(async () => {
    hung = createServer((req) => {
      const entry = { closed: false };
      received.push(entry);
      req.socket.on('close', () => (entry.closed = true));
    });
    await new Promise<void>((resolve) => hung.listen(0, '127.0.0.1', resolve));
    hungUrl = `http://127.0.0.1:${(hung.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    hung.closeAllConnections();
    await new Promise<void>((resolve) => hung.close(() => resolve()));
  });
  const waitFor = async (what: () => boolean, ms = 10_000) => {
    for (const deadline = Date.now() + ms; !what(); await new Promise((r) => setTimeout(r, 50))) if (Date.now() > deadline) throw new Error('timed out');
  };
  const start = async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', '--base-url', hungUrl, '--source', 'payments', '--connectors', 'payments'], env: env(), cwd: repo, stderr: 'pipe' });
    transport.stderr?.on('data', (chunk: Buffer) => outputs.push(chunk.toString()));
    const client = new Client({ name: 'mcp-server-test', version: '1.0.0' });
    await client.connect(transport);
    clients.push(client);
    return { client, transport };
  };

  test("a call the host cancels stops waiting on the service (the request's connection is dropped)", async () => {
    const { client } = await start();
    const cancel = new AbortController();
    const seen = received.length;
    const pending = client.callTool({ name: 'payments_customers_list', arguments: { limit: 1 } }, undefined, { signal: cancel.signal });
    await waitFor(() => received.length > seen);
    cancel.abort();
    await expect(pending).rejects.toThrow();
    await waitFor(() => received[seen]!.closed);
    expect(received.length).toBe(seen + 1); // not retried after the cancel
  }, 60_000);

  test('SIGTERM stops the server at once, a call still waiting on the service or not', async () => {
    const { client, transport } = await start();
    const seen = received.length;
    void client.callTool({ name: 'payments_customers_list', arguments: { limit: 1 } }).catch(() => undefined);
    await waitFor(() => received.length > seen);
    const child = transport.pid!;
    process.kill(child, 'SIGTERM');
    await waitFor(() => {
      try {
        process.kill(child, 0);
        return false;
      } catch {
        return true; // gone
      }
    });
  }, 60_000);
});

describe('configuration', () => {
  test('--token is refused without echoing it; a missing token or source says what to set', async () => {
    const refused = await attempt(process.execPath, [cli, 'mcp', '--base-url', proxyUrl, '--source', '*', '--token', TOKEN], repo, env());
    outputs.push(refused.stdout, refused.stderr);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('set CONNECTOR_TOKEN instead');
    const { CONNECTOR_TOKEN: _, ...without } = env();
    const missing = await attempt(process.execPath, [cli, 'mcp', '--base-url', proxyUrl, '--source', '*'], repo, without);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('set CONNECTOR_TOKEN');
    const unmapped = await attempt(process.execPath, [cli, 'mcp', '--base-url', proxyUrl, '--source', 'nope=1'], repo, env());
    outputs.push(unmapped.stderr);
    expect(unmapped.code).toBe(2);
    expect(unmapped.stderr).toContain("unknown connector 'nope'");
  }, 60_000);

  test('a test token (shorter than the secret minimum) is left in messages, as clients leave it; a real one is cut', async () => {
    const short = await attempt(process.execPath, [cli, 'mcp', '--base-url', 'notaurl', '--source', '*'], repo, { ...env(), CONNECTOR_TOKEN: 't' });
    expect(short.code).toBe(2);
    expect(short.stderr).toBe('connector-codegen mcp: --base-url is not a URL: "notaurl"\n');
    const real = await attempt(process.execPath, [cli, 'mcp', '--base-url', `notaurl/${TOKEN}`, '--source', '*'], repo, env());
    expect(real.stderr).toBe('connector-codegen mcp: --base-url is not a URL: "notaurl/[REDACTED]"\n');
  }, 60_000);

  test('a --base-url that fetch cannot use is refused at start: another scheme, or a user name and password', async () => {
    const ftp = await attempt(process.execPath, [cli, 'mcp', '--base-url', 'ftp://127.0.0.1/', '--source', '*'], repo, env());
    expect(ftp).toMatchObject({ code: 2, stderr: 'connector-codegen mcp: --base-url must be an http or https URL, not ftp:\n' });
    const credentials = await attempt(process.execPath, [cli, 'mcp', '--base-url', 'http://user:hunter22@127.0.0.1:1/', '--source', '*'], repo, env());
    expect(credentials.code).toBe(2);
    expect(credentials.stderr).toContain('--base-url must not hold a user name or password');
    expect(credentials.stderr).not.toContain('hunter22');
  }, 60_000);
});
