/**
 * The agent tools of every package's `/tools` entry: names the tool APIs accept, unique across a server and pinned
 * (renaming one breaks every agent configured with it); input schemas ajv compiles (draft 2020-12, strict) that
 * accept the examples the docs show and refuse what the spec forbids; descriptions within the tool APIs' limits; and
 * runTool's output guard, projection and continuation on each paging scheme.
 */
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, test } from 'vitest';
import { tools as paymentsTools } from '@connector-sdk/payments/tools';
import { tools as crmTools } from '@connector-sdk/crm/tools';
import { tools as liveChatTools } from '@connector-sdk/live-chat/tools';
import { tools as fileTools } from '@connector-sdk/file-storage/tools';
import { agentInputSchema, runTool, type ToolDefinition } from '../runtime/src/index.js';
import { exampleArguments, toolDefinitions, type ToolData } from '../generator/emitters/tools/definitions.js';
import { paramsSchemaWithGroups } from '../generator/emitters/validators/json-schema.js';
import { MAX_DESCRIPTION } from '../generator/emitters/tools/describe.js';
import { sharedLiterals } from '../generator/emitters/tools/shared-literals.js';
import { printDoc } from '../generator/emitters/ts/doc.js';
import { literal } from '../generator/emitters/ts/syntax.js';
import type { SpecIR } from '../generator/ir.js';
import { readSpec } from '../generator/spec/read.js';
import { codeBlocks, markdownFiles } from './helpers/generated-markdown.js';

let ir: SpecIR;
let all: ToolData[];
beforeAll(async () => {
  ir = (await readSpec(path.resolve(import.meta.dirname, '../spec'))).ir;
  all = ir.connectors.flatMap((c) => toolDefinitions(ir, c));
});

describe('names', () => {
  test('one tool per pair: 1–64 characters of [a-zA-Z0-9_-], unique across every connector', () => {
    const pairs = ir.connectors.reduce((n, c) => n + c.entities.reduce((m, e) => m + e.actions.length, 0), 0);
    expect(all).toHaveLength(pairs);
    expect(pairs).toBe(346);
    for (const t of all) expect(t.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
    expect(new Set(all.map((t) => t.name)).size).toBe(all.length);
  });

  test('are pinned: the same spec gives the same names, regeneration after regeneration', () => {
    const names = new Set(all.map((t) => t.name));
    for (const name of ['payments_customers_list', 'payments_customers_search', 'payments_payment_intents_api_search', 'crm_contacts_get', 'issue_tracking_issues_list', 'file_storage_files_download', 'call_recording_stats_activity_scorecards_search']) {
      expect(names.has(name), name).toBe(true);
    }
    // The generated /tools entries hold exactly the names the generator computes now.
    expect(paymentsTools.map((t) => t.name)).toEqual(all.filter((t) => t.connector === 'payments').map((t) => t.name));
  });
});

describe('input schemas', () => {
  // Strict, except that union types ("type": ["string", "null"]) are plain JSON Schema.
  const ajv = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true });

  test('every schema (and its agent form with _fields) compiles under strict ajv and accepts its example', () => {
    for (const t of all) {
      const validate = ajv.compile(t.inputSchema);
      const examples = t.inputSchema['examples'] as unknown[];
      expect(examples, t.name).toHaveLength(1);
      expect(validate(examples[0]), `${t.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      const agent = ajv.compile(agentInputSchema(t));
      expect(agent(examples[0]), t.name).toBe(true);
    }
  });

  test('every example is a call the service accepts: param groups met too (the validators hold them, the tool schemas do not)', () => {
    for (const connector of ir.connectors) {
      for (const entity of connector.entities) {
        for (const action of entity.actions.filter((a) => a.name !== 'search')) {
          const validate = ajv.compile(paramsSchemaWithGroups(action));
          expect(validate(exampleArguments(entity, action)), `${connector.id} ${entity.name} ${action.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
        }
      }
    }
    const tasks = all.find((t) => t.name === 'work_management_tasks_list')!;
    expect(tasks.inputSchema['examples']).toEqual([{ project: '<project>' }]);
  });

  test('the search grammar follows the entity: its fields, operators by type, one operator per filter, nesting', () => {
    const search = all.find((t) => t.name === 'payments_customers_search')!;
    const validate = ajv.compile(search.inputSchema);
    expect(validate({ query: { filter: { and: [{ gt: { created: 1 } }, { not: { like: { email: '%@example.com' } } }] }, sort: [{ created: 'desc' }] }, fields: ['email'], limit: 5 })).toBe(true);
    expect(validate({ query: { filter: { eq: { colour: 'red' } } } })).toBe(false); // not a searchable field
    expect(validate({ query: { filter: { eq: { email: 'a' }, neq: { email: 'b' } } } })).toBe(false); // two operators
    expect(validate({ query: { sort: [{ colour: 'asc' }] } })).toBe(false);
    expect(validate({ query: {}, fields: ['colour'] })).toBe(false);
    expect(validate({})).toBe(false); // query is required
  });

  test('params keep the spec’s constraints: bounds, enums, required, closed objects', () => {
    const list = ajv.compile(all.find((t) => t.name === 'payments_payouts_list')!.inputSchema);
    expect(list({ limit: 100, status: 'paid' })).toBe(true);
    expect(list({ limit: 101 })).toBe(false);
    expect(list({ status: 'lost' })).toBe(false);
    expect(list({ colour: 'blue' })).toBe(false);
    expect(ajv.compile(all.find((t) => t.name === 'payments_customers_get')!.inputSchema)({})).toBe(false);
  });

  test('the examples the agent docs show are valid arguments of their tools', () => {
    const page = markdownFiles().get('docs/agents.md')!;
    const byName = new Map(all.map((t) => [t.name, t]));
    const rows = [...page.matchAll(/^\| `([a-z0-9_]+)` \|[^|]*\|[^|]*\| `(\{.*\})` \|$/gm)];
    expect(rows.length).toBe(all.length);
    for (const [, name, example] of rows) expect(ajv.validate(byName.get(name!)!.inputSchema, JSON.parse(example!)), name).toBe(true);
    for (const { code, line } of codeBlocks(page, 'json')) expect(() => JSON.parse(code), `agents.md:${line}`).not.toThrow();
  });
});

describe('the generated /tools files', () => {
  test('hold exactly the definitions the generator computes: sharing sub-schemas changes nothing at run time', async () => {
    for (const connector of ir.connectors) {
      const { tools } = (await import(`../generated/${connector.id}/src/tools.ts`)) as { tools: ToolDefinition[] };
      const data = tools.map(({ call, ...rest }) => (expect(typeof call).toBe('function'), rest));
      // JSON round trip: the same JSON text, key order included (what a tool API receives).
      expect(JSON.parse(JSON.stringify(data)), connector.id).toEqual(JSON.parse(JSON.stringify(all.filter((t) => t.connector === connector.id))));
      expect(data.map((t) => JSON.stringify(t)), connector.id).toEqual(all.filter((t) => t.connector === connector.id).map((t) => JSON.stringify(t)));
    }
  });

  test('write a repeated sub-schema once, as a const that each use refers to', () => {
    const interval = { type: 'object', properties: { gt: { type: 'integer' }, lt: { type: 'integer' } }, description: 'Date interval on the creation time.' };
    const params = (extra: object) => ({ type: 'object', properties: { created: structuredClone(interval), ...extra } });
    const roots = [
      { label: 'a_list', noun: 'Schema', prefix: 'a_list', value: params({ limit: { type: 'integer' } }) },
      { label: 'b_list', noun: 'Schema', prefix: 'b_list', value: params({ cursor: { type: 'string' } }) },
      { label: 'c_list', noun: 'Schema', prefix: 'c_list', value: params({}) },
    ];
    const literals = sharedLiterals(roots);
    expect(literals.shared.map((s) => [s.name, s.uses])).toEqual([['createdSchema', ['a_list', 'b_list', 'c_list']]]);
    const declarations = literals.shared.map((s) => `const ${s.name} = ${printDoc(literal(literals.definition(s)))};`).join('\n');
    const printed = roots.map((r) => printDoc(literal(literals.literal(r.value))));
    expect(printed.join('\n')).not.toContain('Date interval');
    expect(printed[0]).toContain('created: createdSchema');
    // Evaluated, the printed code gives back the values.
    const values = new Function(`${declarations}\nreturn [${printed.join(', ')}];`)() as unknown[];
    expect(values).toEqual(roots.map((r) => r.value));
  });

  test('a value printed once stays where it is; a value inside a shared one is not shared again', () => {
    const big = { type: 'object', properties: { name: { type: 'string', description: 'The name of the thing, as the service spells it.' } } };
    const literals = sharedLiterals([
      { label: 'x', noun: 'Schema', prefix: 'x', value: { properties: { a: structuredClone(big) } } },
      { label: 'y', noun: 'Schema', prefix: 'y', value: { properties: { a: structuredClone(big), c: { type: 'integer' } } } },
      { label: 'z', noun: 'Schema', prefix: 'z', value: { properties: { b: { type: 'string', description: 'Only here, and long enough to be worth a name if it were repeated.' } } } },
    ]);
    expect(literals.shared.map((s) => s.name)).toEqual(['aSchema']);
  });
});

describe('descriptions', () => {
  test('say what the tool reads or writes, how to page, and stay within the tool APIs’ limit', () => {
    for (const t of all) {
      expect(t.description.length, t.name).toBeLessThanOrEqual(MAX_DESCRIPTION);
      expect(t.description, t.name).toMatch(t.kind === 'read' ? /Read-only\.$/ : /^.*WRITE: /);
      if (t.paging) expect(t.description, t.name).toContain("call again with the result's 'next'");
    }
    const search = all.find((t) => t.name === 'payments_customers_search')!.description;
    expect(search).toContain('email');
    expect(search).toMatch(/like/);
    expect(all.find((t) => t.name === 'payments_customers_delete')!.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
  });
});

/** A client stand-in whose methods return what the service would. */
function fakeClient(answers: Record<string, (params: Record<string, unknown>) => unknown>): unknown {
  return new Proxy({}, { get: (_, entity) => new Proxy({}, { get: (__, method) => (params: Record<string, unknown>) => Promise.resolve(answers[`${String(entity)}.${String(method)}`]!(params)) }) });
}

describe('runTool', () => {
  const customers = Array.from({ length: 10 }, (_, i) => ({ id: `cus_${i}`, email: `c${i}@example.com`, address: { city: 'Oslo', line1: 'x'.repeat(200) } }));
  const crmList = crmTools.find((t) => t.name === 'crm_contacts_list')! as ToolDefinition<unknown>;
  const paymentsList = paymentsTools.find((t) => t.name === 'payments_customers_list')! as ToolDefinition<unknown>;

  test('_fields keeps dotted paths; paging still reads the unprojected records', async () => {
    const client = fakeClient({ 'customers.list': () => ({ records: customers.slice(0, 2), meta: { has_more: true } }) });
    const outcome = await runTool(paymentsList, client, { limit: 2, _fields: ['email', 'address.city'] });
    expect(outcome.structured['records']).toEqual([{ email: 'c0@example.com', address: { city: 'Oslo' } }, { email: 'c1@example.com', address: { city: 'Oslo' } }]);
    expect(outcome.structured['next']).toEqual({ limit: 2, _fields: ['email', 'address.city'], starting_after: 'cus_1' });
  });

  test('_fields that no record holds are named (a misspelt name would leave the records empty, silently)', async () => {
    const client = fakeClient({ 'customers.list': () => ({ records: customers.slice(0, 2), meta: { has_more: false } }) });
    const outcome = await runTool(paymentsList, client, { _fields: ['email', 'emial', 'address.town'] });
    expect(outcome.structured['absent_fields']).toEqual(['emial', 'address.town']);
    expect(outcome.text).toContain("No record holds emial, address.town (_fields): check the names against the tool's description.");
    const fine = await runTool(paymentsList, client, { _fields: ['email'] });
    expect(fine.structured['absent_fields']).toBeUndefined();
  });

  test('a server cursor cannot resume mid-page: the cut says to ask for fewer, and next is the following page', async () => {
    const client = fakeClient({ 'contacts.list': () => ({ records: customers, meta: { next_cursor: 'page-2' } }) });
    const outcome = await runTool(crmList, client, { limit: 10 }, { maxChars: 1200 });
    const truncated = outcome.structured['truncated'] as { shown: number; of: number; reason: string };
    expect(truncated.of).toBe(10);
    expect(truncated.shown).toBeLessThan(10);
    expect(truncated.reason).toContain('smaller limit or _fields');
    expect(JSON.stringify(outcome.structured).length).toBeLessThanOrEqual(1200);
    expect(outcome.structured['next']).toEqual({ limit: 10, after: 'page-2' });
  });

  test('a get whose answer holds no record is an error, not a found empty record', async () => {
    const get = paymentsTools.find((t) => t.name === 'payments_customers_get')! as ToolDefinition<unknown>;
    for (const answer of [null, 'a string', [1, 2]]) {
      const outcome = await runTool(get, fakeClient({ 'customers.get': () => answer }), { id: 'cus_1' });
      expect(outcome.ok, JSON.stringify(answer)).toBe(false);
      expect((outcome.structured['error'] as { message: string }).message).toBe(`response: expected a record, got ${JSON.stringify(answer)}`);
    }
    expect((await runTool(get, fakeClient({ 'customers.get': () => ({ id: 'cus_1' }) }), { id: 'cus_1' })).ok).toBe(true);
  });

  describe('a download is bounded by maxChars as sent', () => {
    const download = (bytes: Uint8Array, contentType: string) => ({ contentType, filename: 'f', contentLength: bytes.length, body: (async function* () { yield bytes; })() });
    const tool = (fileTools as readonly ToolDefinition<unknown>[]).find((t) => t.name === 'file_storage_files_download')!;
    const run = (bytes: Uint8Array, contentType: string, maxChars: number) => runTool(tool, fakeClient({ 'files.download': () => download(bytes, contentType) }), { fileId: 'f1', alt: 'media' }, { maxChars });
    const file = (o: { structured: Record<string, unknown> }) => o.structured['file'] as { encoding: string; content: string };

    test('binary: base64 of at most maxChars characters', async () => {
      const outcome = await run(new Uint8Array(100_000).map((_, i) => (i * 7 + 128) % 256), 'application/octet-stream', 1000);
      expect(file(outcome).encoding).toBe('base64');
      expect(file(outcome).content.length).toBeLessThanOrEqual(1000);
      expect(outcome.structured['truncated']).toBeDefined();
    });

    test('text with quotes: the escaped text is at most maxChars', async () => {
      const outcome = await run(new TextEncoder().encode('line "quoted"\n'.repeat(8000)), 'text/plain', 1000);
      expect(file(outcome).encoding).toBe('utf8');
      expect(JSON.stringify(file(outcome).content).length - 2).toBeLessThanOrEqual(1000);
      expect(file(outcome).content.startsWith('line "quoted"\n')).toBe(true);
    });

    test('a cut inside a multi-byte character drops its first bytes: still text', async () => {
      const outcome = await run(new TextEncoder().encode('€'.repeat(10_000)), 'text/plain; charset=utf-8', 1000);
      expect(file(outcome).encoding).toBe('utf8');
      expect(file(outcome).content).toBe('€'.repeat(333));
    });
  });

  test('the last page has next null; a failure is an outcome, not a throw', async () => {
    const last = await runTool(paymentsList, fakeClient({ 'customers.list': () => ({ records: customers.slice(0, 1), meta: { has_more: false } }) }), {});
    expect(last.structured['next']).toBeNull();
    expect(last.text).toContain('Last page.');
    const failed = await runTool(paymentsList, fakeClient({ 'customers.list': () => Promise.reject(new TypeError('boom')) }), {});
    expect(failed).toMatchObject({ ok: false, structured: { error: { message: 'TypeError: boom' } } });
  });

  test('a next page given as a URL: next carries the param read out of it, as the declared type', async () => {
    const chats = liveChatTools.find((t) => t.name === 'live_chat_chats_list')! as ToolDefinition<unknown>;
    const page = { records: [{ id: 'c1' }], meta: { next_page: 'https://x.example/api/v2/chats?start_time=1700000100&per_page=1' } };
    const outcome = await runTool(chats, fakeClient({ 'chats.list': () => page }), { start_time: 1700000000 });
    expect(outcome.structured['next']).toEqual({ start_time: 1700000100 });
  });

  test('a cut page that resumes after the last record shown is not taken for a short last page', async () => {
    const agents = liveChatTools.find((t) => t.name === 'live_chat_agents_list')! as ToolDefinition<unknown>;
    const client = fakeClient({ 'agents.list': () => ({ records: customers.map((c, i) => ({ ...c, id: i + 1 })), meta: {} }) });
    const outcome = await runTool(agents, client, { limit: 10 }, { maxChars: 1200 });
    const truncated = outcome.structured['truncated'] as { shown: number };
    expect(truncated.shown).toBeGreaterThan(0);
    expect(outcome.structured['next']).toEqual({ limit: 10, since_id: truncated.shown });
  });

  test('a server that hands back the cursor it was given gets no next: following it would loop', async () => {
    const client = fakeClient({ 'contacts.list': () => ({ records: customers.slice(0, 1), meta: { next_cursor: 'same' } }) });
    const outcome = await runTool(crmList, client, { after: 'same' });
    expect(outcome.structured['next']).toBeNull();
  });
});
