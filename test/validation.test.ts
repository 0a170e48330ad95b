/** Params and responses checked with the validators compiled at generation time (ajv standalone, ESM). */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { transformSync } from 'esbuild';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { FileStorageClient } from '@connector-sdk/file-storage';
import { ParamValidationError, PaymentsClient, ResponseValidationError } from '@connector-sdk/payments';
import { responseValidators } from '@connector-sdk/payments/validators';
import { describeIssues } from '@connector-sdk/runtime';
import { TeamMessagingClient } from '@connector-sdk/team-messaging';

function recordingFetch(result: unknown = []) {
  const calls: string[] = [];
  const fetch = (async (_url: string, init: RequestInit) => {
    calls.push(String(init.body));
    return new Response(JSON.stringify({ result, connector_metadata: { has_more: false } }), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { calls, fetch };
}

const base = { baseUrl: 'http://svc.test', token: 't', sourceId: 's' };

async function problemsOf(call: () => Promise<unknown>) {
  const error = await call().then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ParamValidationError);
  return (error as ParamValidationError).problems;
}

describe('problem messages of a compiled validator (the MCP server, the mock, response validation)', () => {
  test('a value nested too deep to print is named by its type, not a RangeError', () => {
    const email = JSON.parse(`${'['.repeat(20_000)}1${']'.repeat(20_000)}`) as unknown;
    const issue = { keyword: 'type', instancePath: '/email', params: { type: 'string' }, message: 'must be string' };
    expect(describeIssues([issue], 'param', { email }).map((p) => p.message)).toEqual(["param 'email' must be string (type string), got object"]);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeIssues([issue], 'param', { email: cyclic })[0]!.message).toMatch(/got object$/);
  });
});

describe('params are checked before anything is sent', () => {
  test('payments limit 101 > maximum 100 names the param, the constraint and the value', async () => {
    const { calls, fetch } = recordingFetch();
    const payments = new PaymentsClient({ ...base, fetch });
    const error = (await payments.customers.list({ limit: 101 }).then(() => undefined, (e: unknown) => e)) as ParamValidationError | undefined;
    expect(error).toBeInstanceOf(ParamValidationError);
    expect(error!.message).toBe("customers list: invalid params: param 'limit' must be <= 100 (maximum 100), got 101");
    expect(error!.problems).toEqual([{ path: 'limit', constraint: 'maximum 100', value: 101, message: "param 'limit' must be <= 100 (maximum 100), got 101" }]);
    // Iterating rejects the same way; nothing was sent either time.
    await expect(async () => { for await (const _ of payments.customers.list({ limit: 101 })) void _; }).rejects.toBeInstanceOf(ParamValidationError);
    expect(calls).toEqual([]);
  });

  test('unknown, missing, wrong-type, enum and nested problems are all reported', async () => {
    const { calls, fetch } = recordingFetch();
    const payments = new PaymentsClient({ ...base, fetch });
    const untyped = payments as unknown as { payouts: { list(p: object): Promise<unknown> }; customers: { get(p: object): Promise<unknown> } };
    expect(await problemsOf(() => untyped.payouts.list({ status: 'lost', colour: 'blue', created: { gt: 'yesterday' } }))).toEqual([
      expect.objectContaining({ path: 'colour', constraint: 'unknown' }),
      expect.objectContaining({ path: 'created.gt', constraint: 'type integer', value: 'yesterday' }),
      expect.objectContaining({ path: 'status', constraint: 'enum pending, paid, failed, canceled', value: 'lost' }),
    ]);
    expect(await problemsOf(() => untyped.customers.get({}))).toEqual([expect.objectContaining({ path: 'id', constraint: 'required', message: "missing required param 'id'" })]);
    expect(calls).toEqual([]);
  });

  test('separated lists, patterns and lengths from the spec', async () => {
    const { fetch } = recordingFetch();
    const files = new FileStorageClient({ ...base, fetch }) as unknown as { files: { list(p: object): Promise<unknown> } };
    expect((await problemsOf(() => files.files.list({ spaces: 'drive,photos' })))[0]).toMatchObject({ path: 'spaces', value: 'drive,photos' });
    await expect(files.files.list({ spaces: 'drive,appDataFolder' })).resolves.toBeDefined();
    const slack = new TeamMessagingClient({ ...base, fetch });
    expect((await problemsOf(() => slack.channels.create({ name: 'General Chat' })))[0]).toMatchObject({ path: 'name', constraint: expect.stringMatching(/^pattern/) });
    expect((await problemsOf(() => slack.channels.create({ name: 'x'.repeat(81) })))[0]).toMatchObject({ path: 'name', constraint: 'maxLength 80' });
    await expect(slack.channels.create({ name: 'general-chat' })).resolves.toBeDefined();
  });

  test('validateParams: false sends anything', async () => {
    const { calls, fetch } = recordingFetch();
    await new PaymentsClient({ ...base, fetch, validateParams: false }).customers.list({ limit: 101 });
    expect(calls).toHaveLength(1);
  });
});

describe('validateResponses', () => {
  const badCustomer = { id: 'cus_1', object: 'customer', email: 42 };

  test("'strict' fails the call naming the record and field; 'off' (default) passes it through", async () => {
    const strict = new PaymentsClient({ ...base, fetch: recordingFetch([badCustomer]).fetch, validateResponses: 'strict', responseValidators });
    const error = await strict.customers.list().then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).problems).toContainEqual(expect.objectContaining({ path: '[0].email', value: 42 }));
    expect((error as ResponseValidationError).problems).toContainEqual(expect.objectContaining({ path: '[0].balance', constraint: 'required' }));
    const off = new PaymentsClient({ ...base, fetch: recordingFetch([badCustomer]).fetch });
    expect((await off.customers.list()).records).toEqual([badCustomer]);
  });

  test('checking responses without the validators entry is refused at construction, saying what to import', () => {
    expect(() => new PaymentsClient({ ...base, validateResponses: 'strict' })).toThrow(/responseValidators.*\/validators/);
  });

  test("'warn' logs one line and returns the records", async () => {
    const lines: string[] = [];
    const client = new PaymentsClient({ ...base, fetch: recordingFetch(badCustomer).fetch, validateResponses: 'warn', responseValidators, logger: { debug() {}, warn: (l) => lines.push(l) } });
    expect(await client.customers.get({ id: 'cus_1' })).toEqual(badCustomer);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^customers get: response does not match the contract: .*field 'email' must be string,null/);
  });
});

test('every generated validators module loads as plain ESM (no require) in Node', () => {
  const generated = path.resolve(import.meta.dirname, '../generated');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'validators-esm-'));
  const ids = readdirSync(generated, { withFileTypes: true }).filter((d) => d.isDirectory() && existsSync(path.join(generated, d.name, 'src/validators.ts'))).map((d) => d.name);
  expect(ids).toHaveLength(15);
  // Its types stripped (each export is typed as the runtime's Validator), as tsc or a bundler would.
  for (const id of ids) writeFileSync(path.join(dir, `${id}.mjs`), transformSync(readFileSync(path.join(generated, id, 'src/validators.ts'), 'utf8'), { loader: 'ts', format: 'esm' }).code);
  // The one import of a validators module: the runtime's createResponseValidators (a stand-in here).
  const runtime = path.join(dir, 'node_modules/@connector-sdk/runtime');
  mkdirSync(runtime, { recursive: true });
  writeFileSync(path.join(runtime, 'package.json'), JSON.stringify({ name: '@connector-sdk/runtime', type: 'module', exports: './index.js' }));
  writeFileSync(path.join(runtime, 'index.js'), 'export const createResponseValidators = (calls) => ({ calls });\n');
  const script = `for (const id of ${JSON.stringify(ids)}) { const m = await import('./' + id + '.mjs'); if (typeof m.params_search !== 'function' || !m.responseValidators.calls) throw new Error(id); } console.log('ok');`;
  expect(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8' }).trim()).toBe('ok');
});
