/**
 * The OpenAPI 3.1 export, one document per connector (generated/openapi/<id>.json) plus an index: the CLI prints
 * and writes them; each validates (@readme/openapi-parser) and has the service's real paths; its execute body is
 * exactly the connector's entity–action pairs with their params; its schemas accept right bodies and reject wrong
 * ones (ajv, draft 2020-12); responses use the envelope and the error body; and a real tool, openapi-typescript,
 * turns every document into types that compile and discriminate bodies. (test/openapi-prism.test.ts routes real
 * traffic through them.)
 */
import { execFile } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { compileErrors, validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { beforeAll, describe, expect, test } from 'vitest';
import type { SpecIR } from '../generator/ir.js';
import { readSpec } from '../generator/spec/read.js';

const repo = path.resolve(import.meta.dirname, '..');
const bin = path.join(repo, 'bin/connector-codegen.js');
const exportDir = path.join(repo, 'generated/openapi');
const run = promisify(execFile);

type Schema = { [key: string]: unknown };
interface Doc {
  info: { title: string; description: string };
  paths: Record<string, { post: Schema & { requestBody: { content: Record<string, { schema: Schema }> }; responses: Record<string, Schema> } }>;
  components: { schemas: Record<string, Schema>; responses: Record<string, Schema>; securitySchemes: Record<string, Schema> };
  security: Record<string, string[]>[];
}
interface Index {
  documents: { connector: string; title: string; file: string; package: string; entities: number; pairs: number }[];
}

let ir: SpecIR;
const texts = new Map<string, string>();
const docs = new Map<string, Doc>();
beforeAll(async () => {
  ir = (await readSpec(path.join(repo, 'spec'))).ir;
  for (const c of ir.connectors) {
    texts.set(c.id, readFileSync(path.join(exportDir, `${c.id}.json`), 'utf8'));
    docs.set(c.id, JSON.parse(texts.get(c.id)!) as Doc);
  }
});

const schemaAt = (doc: Doc, ref: unknown) => doc.components.schemas[String((ref as { $ref: string }).$ref).replace('#/components/schemas/', '')]!;
const execute = (doc: Doc) => doc.paths[ir.service.execute.path]!.post;

describe('connector-codegen openapi', () => {
  const cli = (...args: string[]) => run(process.execPath, [bin, 'openapi', '--spec', path.join(repo, 'spec'), ...args], { maxBuffer: 64 * 1024 * 1024 });

  test('--connector prints that document and --out FILE writes it; no option prints the index; --out DIR writes the export', async () => {
    expect((await cli('--connector', 'payments')).stdout).toBe(texts.get('payments'));
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'openapi-'));
    await cli('--connector', 'crm', '--out', path.join(tmp, 'nested/crm.json'));
    expect(readFileSync(path.join(tmp, 'nested/crm.json'), 'utf8')).toBe(texts.get('crm'));
    expect((await cli()).stdout).toBe(readFileSync(path.join(exportDir, 'index.json'), 'utf8'));
    await cli('--out', path.join(tmp, 'all'));
    expect(readdirSync(path.join(tmp, 'all')).sort()).toEqual(readdirSync(exportDir).sort());
    for (const file of readdirSync(exportDir)) expect(readFileSync(path.join(tmp, 'all', file), 'utf8'), file).toBe(readFileSync(path.join(exportDir, file), 'utf8'));
  }, 60_000);

  test('--out FILE writes through a link, into a FIFO as the shell does, and a write that fails leaves no temporary file', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'openapi-targets-'));
    writeFileSync(path.join(tmp, 'real.json'), 'old');
    symlinkSync('real.json', path.join(tmp, 'link.json'));
    await cli('--connector', 'crm', '--out', path.join(tmp, 'link.json'));
    expect(lstatSync(path.join(tmp, 'link.json')).isSymbolicLink()).toBe(true);
    expect(readFileSync(path.join(tmp, 'real.json'), 'utf8')).toBe(texts.get('crm'));
    // A FIFO stays one, and its reader gets the document.
    const fifo = path.join(tmp, 'pipe.json');
    await run('mkfifo', [fifo]);
    const reader = run('cat', [fifo], { maxBuffer: 64 * 1024 * 1024 });
    await cli('--connector', 'crm', '--out', fifo);
    expect((await reader).stdout).toBe(texts.get('crm'));
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    if (existsSync('/dev/full')) {
      const failed = await cli('--connector', 'crm', '--out', '/dev/full').then(() => undefined, (e: { code: number; stderr: string }) => e);
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toBe('connector-codegen openapi: cannot write /dev/full: no space left on the device (ENOSPC)\n');
      expect(lstatSync('/dev/full').isCharacterDevice()).toBe(true);
    }
    expect(readdirSync(tmp).sort()).toEqual(['link.json', 'pipe.json', 'real.json']);
  }, 60_000);

  test('an unknown connector is a usage error (exit 2, with a did-you-mean); --out of the wrong kind is an error with exit code 1', async () => {
    await expect(cli('--connector', 'nope')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("unknown connector 'nope' (connectors: payments, crm") });
    await expect(cli('--connector', 'paymets')).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining("unknown connector 'paymets'; did you mean 'payments'?") });
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'openapi-'));
    await expect(cli('--connector', 'crm', '--out', tmp)).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('is a directory') });
    writeFileSync(path.join(tmp, 'file.json'), '{}');
    await expect(cli('--out', path.join(tmp, 'file.json'))).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('is a file') });
  }, 60_000);
});

describe('the index', () => {
  test('lists one document per connector, with its title, package and counts', () => {
    const index = JSON.parse(readFileSync(path.join(exportDir, 'index.json'), 'utf8')) as Index;
    expect(index.documents.map((d) => d.connector)).toEqual(ir.connectors.map((c) => c.id));
    for (const d of index.documents) {
      expect(docs.get(d.connector)!.info.title).toContain(d.title);
      expect(d.file).toBe(`${d.connector}.json`);
    }
    expect(index.documents.reduce((n, d) => n + d.pairs, 0)).toBe(346);
    expect(readdirSync(exportDir).sort()).toEqual(['index.json', ...index.documents.map((d) => d.file)].sort());
  });
});

describe('each document', () => {
  test('is a valid OpenAPI 3.1 document (@readme/openapi-parser)', async () => {
    for (const [id, doc] of docs) {
      const result = await validate(structuredClone(doc) as never);
      expect(result.valid ? '' : compileErrors(result), id).toBe('');
      expect(result.warnings, id).toEqual([]);
    }
  }, 120_000);

  test('has the real paths, so it routes: source creation and execute, one operation each', () => {
    for (const [id, doc] of docs) {
      expect(Object.keys(doc.paths).sort(), id).toEqual([ir.service.createSource.path, ir.service.execute.path].sort());
      expect(Object.values(doc.paths).map((p) => Object.keys(p)), id).toEqual([['post'], ['post']]);
      expect(execute(doc)['tags']).toEqual([id]);
    }
  });

  test("its execute body is a union over exactly the connector's entity–action pairs, discriminated, with each pair's params", () => {
    let pairs = 0;
    for (const c of ir.connectors) {
      const doc = docs.get(c.id)!;
      const body = schemaAt(doc, execute(doc).requestBody.content['application/json']!.schema);
      expect(body['discriminator']).toMatchObject({ propertyName: 'entity' });
      const found: string[] = [];
      for (const entityRef of body['oneOf'] as Schema[]) {
        const entity = schemaAt(doc, entityRef);
        expect(entity['discriminator']).toMatchObject({ propertyName: 'action' });
        for (const pairRef of entity['oneOf'] as Schema[]) {
          const pair = schemaAt(doc, pairRef) as { properties: Record<string, Schema>; required: string[]; 'x-response': string };
          const e = String(pair.properties['entity']!['const']);
          const a = String(pair.properties['action']!['const']);
          found.push(`${e} ${a}`);
          const action = c.entities.find((x) => x.name === e)!.actions.find((x) => x.name === a)!;
          const params = schemaAt(doc, pair.properties['params']) as { properties?: Record<string, unknown> };
          if (a !== 'search') expect(Object.keys(params.properties ?? {}).sort(), `${c.id} ${e} ${a}`).toEqual(action.params.map((p) => p.name).sort());
          if (action.params.some((p) => p.required)) expect(pair.required).toContain('params');
          // Each variant names its response, which a response itself cannot say.
          if (action.result.shape === 'binary') expect(pair['x-response']).toMatch(/^bytes/);
          else expect(doc.components.schemas[pair['x-response'].replace('#/components/schemas/', '')], `${c.id} ${e} ${a}`).toBeDefined();
        }
      }
      expect(found.sort()).toEqual(c.entities.flatMap((e) => e.actions.map((a) => `${e.name} ${a.name}`)).sort());
      pairs += found.length;
    }
    expect(pairs).toBe(346);
  });

  test('responses: results in the envelope, bytes for downloads (206 for ranges), the error statuses with the error body', () => {
    const { records, meta } = ir.service.envelope;
    const statuses = Object.keys(ir.service.errors.statuses).map((s) => s.toUpperCase());
    for (const c of ir.connectors) {
      const doc = docs.get(c.id)!;
      const op = execute(doc);
      expect(Object.keys(op.responses).filter((s) => !s.startsWith('2')).sort()).toEqual(statuses.sort());
      const actions = c.entities.flatMap((e) => e.actions.map((a) => ({ e, a })));
      const ok = op.responses['200'] as { content: Record<string, { schema: Schema }> };
      const union = schemaAt(doc, ok.content['application/json']!.schema) as { anyOf: Schema[] };
      const json = union.anyOf.map((r) => schemaAt(doc, r)) as { title: string; properties: Record<string, Schema> }[];
      expect(json).toHaveLength(actions.filter(({ a }) => a.result.shape !== 'binary').length);
      for (const { e, a } of actions) {
        if (a.result.shape === 'binary') continue;
        const response = json.find((r) => r.title === `${e.name} ${a.name}`)!;
        if (a.result.shape === 'list') {
          expect(response.properties[records]!['type']).toBe('array');
          expect(response.properties[meta]).toBeDefined();
        } else expect(response.properties[records]).toBeDefined();
      }
      const downloads = actions.filter(({ a }) => a.result.shape === 'binary');
      // Exact media types first: tools such as Prism take the first that matches.
      expect(Object.keys(ok.content)).toEqual(downloads.length ? ['application/json', '*/*'] : ['application/json']);
      expect(Boolean(op.responses['206'])).toBe(downloads.some(({ a }) => a.rangeParam));
      const error = doc.components.responses['Error422'] as { content: Record<string, { schema: Schema }> };
      expect(error.content['application/json']!.schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
    }
  });

  test("a download's size limit is stated on its pair (file_storage files_export: the contract's 10 MB)", () => {
    const pair = docs.get('file_storage')!.components.schemas['pair.files_export.download.request'] as { description: string };
    expect(pair.description).toMatch(/Response: bytes \(\*\/\*\), at most 10485760 bytes \(10 MB\)\.$/);
  });

  test('the error body types its errors as the spec sketches them: a list of { field, message, error_code }', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const body = ajv.compile(docs.get('payments')!.components.schemas['ErrorBody'] as object);
    expect(body({ message: 'invalid params', errors: [{ field: 'params.limit', message: 'too big', error_code: 'maximum' }] })).toBe(true);
    expect(body({ message: 'invalid params', errors: { field: 'params.limit' } })).toBe(false);
    expect(body({ message: 'invalid params', errors: [{ field: 1 }] })).toBe(false);
  });

  test('a meta key paging reads the next position from is not required: the last page may lack it', () => {
    const crm = docs.get('crm')!.components.schemas['meta.list'] as { required?: string[]; properties: Schema };
    expect(Object.keys(crm.properties)).toContain('next_cursor');
    expect(crm.required).toEqual(['next_link']);
    const nested = docs.get('call_recording')!.components.schemas['meta.pagination'] as { required: string[]; properties: Record<string, { required: string[] }> };
    expect(nested.required).toEqual(['pagination']);
    expect(nested.properties['pagination']!.required.sort()).toEqual(['currentPageNumber', 'currentPageSize', 'totalRecords']);
  });

  test('the bearer security scheme applies to every operation', () => {
    for (const doc of docs.values()) {
      expect(doc.components.securitySchemes['bearerAuth']).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(doc.security).toEqual([{ bearerAuth: [] }]);
    }
  });

  test('its schemas accept right execute bodies and reject wrong ones (JSON Schema 2020-12)', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ ...docs.get('payments')!, $id: 'https://openapi.local/payments.json' } as never);
    const check = (body: unknown) => ajv.validate('https://openapi.local/payments.json#/components/schemas/ExecuteBody', body);
    expect(check({ entity: 'customers', action: 'list', params: { limit: 10 } })).toBe(true);
    expect(check({ entity: 'customers', action: 'get', params: { id: 'cus_1' } })).toBe(true);
    expect(check({ entity: 'charges', action: 'search', params: { query: { filter: { and: [{ gt: { amount: 100 } }, { like: { currency: 'us%' } }] }, sort: [{ created: 'desc' }] } } })).toBe(true);
    expect(check({ entity: 'customers', action: 'list', params: { limit: 101 } })).toBe(false); // limit 1 to 100
    expect(check({ entity: 'customers', action: 'list', params: { colour: 'blue' } })).toBe(false); // unknown param
    expect(check({ entity: 'customers', action: 'get', params: {} })).toBe(false); // id required
    expect(check({ entity: 'customers', action: 'download' })).toBe(false); // no such action
    expect(check({ entity: 'charges', action: 'search', params: { query: { filter: { gt: { captured: true } } } } })).toBe(false); // no ordering on booleans
    expect(check({ entity: 'charges', action: 'search', params: { query: { filter: { eq: { nope: 1 } } } } })).toBe(false); // unsearchable field
    expect(check({ entity: 'charges', action: 'search', params: { query: { filter: { eq: { currency: 'usd' }, neq: { currency: 'eur' } } } } })).toBe(false); // two operators
  });

  test("param groups bind the execute body (work_management tasks list: a project, a section, or a workspace with an assignee)", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ ...docs.get('work_management')!, $id: 'https://openapi.local/work_management.json' } as never);
    const check = (body: unknown) => ajv.validate('https://openapi.local/work_management.json#/components/schemas/ExecuteBody', body);
    expect(check({ entity: 'tasks', action: 'list', params: { project: 'p1' } })).toBe(true);
    expect(check({ entity: 'tasks', action: 'list', params: { assignee: 'me', workspace: 'w1' } })).toBe(true);
    expect(check({ entity: 'tasks', action: 'list' })).toBe(false); // no params: no group met
    expect(check({ entity: 'tasks', action: 'list', params: {} })).toBe(false);
    expect(check({ entity: 'tasks', action: 'list', params: { workspace: 'w1' } })).toBe(false); // half an alternative
    expect(check({ entity: 'tasks', action: 'list', params: { project: 'p1', section: 's1' } })).toBe(false); // two of "one of"
    expect(check({ entity: 'workspace_task_search', action: 'list', params: { workspace_gid: 'w1' } })).toBe(false); // at least one search param
    expect(check({ entity: 'workspace_task_search', action: 'list', params: { workspace_gid: 'w1', text: 'x' } })).toBe(true);
  });

  test('a nullable object with fields keeps its null (work_management next_page is null on the last page)', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ ...docs.get('work_management')!, $id: 'https://openapi.local/wm.json' } as never);
    const meta = (value: unknown) => ajv.validate('https://openapi.local/wm.json#/components/schemas/meta.list', value);
    expect(meta({ next_page: { offset: 'eyJ' } })).toBe(true);
    expect(meta({ next_page: null })).toBe(true);
    expect(meta({ next_page: 'eyJ' })).toBe(false);
  });

  test("a source's auth_config holds the auth fields and the variables supplied there (advertising region_url, optional, a URL)", () => {
    const doc = docs.get('advertising')!;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ ...doc, $id: 'https://openapi.local/advertising.json' } as never);
    const check = (auth: unknown) => ajv.validate('https://openapi.local/advertising.json#/components/schemas/AuthConfig', auth);
    const auth = { client_id: 'c', client_secret: 's', refresh_token: 'r' };
    expect(check(auth)).toBe(true); // region_url has a default: it may be left out
    expect(check({ ...auth, region_url: 'https://advertising-api-eu.example.com' })).toBe(true);
    expect(check({ ...auth, region_url: 'eu-west' })).toBe(false); // not an absolute http(s) URL
    expect(check({ ...auth, region_url: 7 })).toBe(false);
    expect(check({ ...auth, regionUrl: 'https://x.example' })).toBe(false); // unknown key
    expect(check({ client_id: 'c', client_secret: 's' })).toBe(false); // refresh_token required
    // Source creation takes it as auth_config.
    const creation = schemaAt(doc, doc.paths[ir.service.createSource.path]!.post.requestBody.content['application/json']!.schema) as { properties: Record<string, Schema> };
    expect(creation.properties['auth_config']).toMatchObject({ $ref: '#/components/schemas/AuthConfig' });
  });
});

describe('a real tool consumes them', () => {
  test('openapi-typescript generates types from every document that compile and discriminate execute bodies', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'openapi-ts-'));
    mkdirSync(path.join(dir, 'types'));
    for (const [id, doc] of docs) {
      // defaultNonNullable off: params with a default are optional in a request (the tool's default suits responses).
      writeFileSync(path.join(dir, 'types', `${id}.ts`), astToString(await openapiTS(structuredClone(doc) as never, { defaultNonNullable: false })));
    }
    const executePath = JSON.stringify(ir.service.execute.path);
    writeFileSync(
      path.join(dir, 'use.ts'),
      [
        ...ir.connectors.map((c) => `import type * as ${c.id} from './types/${c.id}.js';`),
        "import type { components, paths } from './types/payments.js';",
        `type PaymentsBody = paths[${executePath}]['post']['requestBody']['content']['application/json'];`,
        "export const list: PaymentsBody = { entity: 'customers', action: 'list', params: { limit: 10 } };",
        "export const search: PaymentsBody = { entity: 'charges', action: 'search', params: { query: { filter: { gt: { amount: 100 } } } } };",
        '// @ts-expect-error customers have no download action',
        "export const wrongAction: PaymentsBody = { entity: 'customers', action: 'download', params: {} };",
        '// @ts-expect-error limit is a number',
        "export const wrongParam: PaymentsBody = { entity: 'customers', action: 'list', params: { limit: '10' } };",
        "type Page = components['schemas']['pair.customers.list.response'];",
        'declare const page: Page;',
        'export const email: string | null | undefined = page.result[0]?.email;',
        "export type ErrorBody = components['schemas']['ErrorBody'];",
        // Every document's execute body is a type of its own.
        ...ir.connectors.map((c) => `export type ${c.id}Body = ${c.id}.paths[${executePath}]['post']['requestBody']['content']['application/json'];`),
        '',
      ].join('\n'),
    );
    const program = ts.createProgram([path.join(dir, 'use.ts')], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, types: [], skipLibCheck: true, noUncheckedIndexedAccess: true });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(problems).toEqual([]);
    expect(program.getSourceFiles().filter((f) => f.fileName.includes('/types/'))).toHaveLength(ir.connectors.length);
  }, 180_000);
});
