/**
 * The OpenAPI 3.1 export: the CLI prints and writes it; it validates (@readme/openapi-parser); its execute
 * bodies are exactly the spec's entity–action pairs with their params; its schemas accept right bodies and
 * reject wrong ones (ajv, draft 2020-12); responses use the envelope and the error body; and a real tool,
 * openapi-typescript, turns it into types that compile and discriminate bodies.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

type Schema = { [key: string]: unknown };
interface Doc {
  paths: Record<string, { post: Schema & { requestBody: { content: Record<string, { schema: Schema }> }; responses: Record<string, Schema> } }>;
  components: { schemas: Record<string, Schema>; responses: Record<string, Schema>; securitySchemes: Record<string, Schema> };
  security: Record<string, string[]>[];
}

let ir: SpecIR;
let text: string;
let doc: Doc;
beforeAll(async () => {
  ir = (await readSpec(path.join(repo, 'spec'))).ir;
  text = readFileSync(path.join(repo, 'generated/openapi.json'), 'utf8');
  doc = JSON.parse(text) as Doc;
});

const schemaAt = (ref: unknown) => doc.components.schemas[String((ref as { $ref: string }).$ref).replace('#/components/schemas/', '')]!;

describe('connector-codegen openapi', () => {
  test('prints the committed document, and --out writes it', async () => {
    const run = promisify(execFile);
    const { stdout } = await run(process.execPath, [bin, 'openapi', '--spec', path.join(repo, 'spec')], { maxBuffer: 64 * 1024 * 1024 });
    expect(stdout).toBe(text);
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'openapi-')), 'nested/openapi.json');
    await run(process.execPath, [bin, 'openapi', '--spec', path.join(repo, 'spec'), '--out', out]);
    expect(readFileSync(out, 'utf8')).toBe(text);
  }, 60_000);
});

describe('the document', () => {
  test('is a valid OpenAPI 3.1 document (@readme/openapi-parser)', async () => {
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid ? '' : compileErrors(result)).toBe('');
    expect(result.warnings).toEqual([]);
  }, 60_000);

  test('has both endpoints: source creation and one execute operation per connector', () => {
    const execute = ir.connectors.map((c) => `${ir.service.execute.path}#${c.id}`);
    expect(Object.keys(doc.paths).sort()).toEqual([ir.service.createSource.path, ...execute].sort());
    for (const c of ir.connectors) expect(doc.paths[`${ir.service.execute.path}#${c.id}`]!.post['tags']).toEqual([c.id]);
  });

  test('each execute body is a union over exactly the connector\'s entity–action pairs, discriminated, with each pair\'s params', () => {
    let pairs = 0;
    for (const c of ir.connectors) {
      const body = schemaAt(doc.paths[`${ir.service.execute.path}#${c.id}`]!.post.requestBody.content['application/json']!.schema);
      expect(body['discriminator']).toMatchObject({ propertyName: 'entity' });
      const found: string[] = [];
      for (const entityRef of body['oneOf'] as Schema[]) {
        const entity = schemaAt(entityRef);
        expect(entity['discriminator']).toMatchObject({ propertyName: 'action' });
        for (const pairRef of entity['oneOf'] as Schema[]) {
          const pair = schemaAt(pairRef) as { properties: Record<string, Schema>; required: string[] };
          const e = String(pair.properties['entity']!['const']);
          const a = String(pair.properties['action']!['const']);
          found.push(`${e} ${a}`);
          const action = c.entities.find((x) => x.name === e)!.actions.find((x) => x.name === a)!;
          const params = schemaAt(pair.properties['params']) as { properties?: Record<string, unknown> };
          expect(Object.keys(params.properties ?? {}).sort(), `${c.id} ${e} ${a}`).toEqual(action.params.map((p) => p.name).sort());
          if (action.params.some((p) => p.required)) expect(pair.required).toContain('params');
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
      const op = doc.paths[`${ir.service.execute.path}#${c.id}`]!.post;
      expect(Object.keys(op.responses).filter((s) => !s.startsWith('2')).sort()).toEqual(statuses.sort());
      const actions = c.entities.flatMap((e) => e.actions.map((a) => ({ e, a })));
      const ok = op.responses['200'] as { content: Record<string, { schema: { anyOf?: Schema[] } }> };
      const json = ok.content['application/json']!.schema.anyOf!.map(schemaAt) as { title: string; properties: Record<string, Schema> }[];
      expect(json).toHaveLength(actions.filter(({ a }) => a.result.shape !== 'binary').length);
      for (const { e, a } of actions) {
        if (a.result.shape === 'binary') continue;
        const response = json.find((r) => r.title === `${c.id} ${e.name} ${a.name}`)!;
        if (a.result.shape === 'list') {
          expect(response.properties[records]!['type']).toBe('array');
          expect(response.properties[meta]).toBeDefined();
        } else expect(response.properties[records]).toBeDefined();
      }
      const downloads = actions.filter(({ a }) => a.result.shape === 'binary');
      expect(Boolean(ok.content['application/octet-stream'])).toBe(downloads.length > 0);
      expect(Boolean(op.responses['206'])).toBe(downloads.some(({ a }) => a.rangeParam));
    }
    const error = doc.components.responses['Error422'] as { content: Record<string, { schema: Schema }> };
    expect(error.content['application/json']!.schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
  });

  test('the bearer security scheme applies to every operation', () => {
    expect(doc.components.securitySchemes['bearerAuth']).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
  });

  test('its schemas accept right execute bodies and reject wrong ones (JSON Schema 2020-12)', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    ajv.addSchema({ ...doc, $id: 'https://openapi.local/doc.json' } as never);
    const check = (connector: string, body: unknown) => ajv.validate(`https://openapi.local/doc.json#/components/schemas/${connector}.execute`, body);
    expect(check('payments', { entity: 'customers', action: 'list', params: { limit: 10 } })).toBe(true);
    expect(check('payments', { entity: 'customers', action: 'get', params: { id: 'cus_1' } })).toBe(true);
    expect(check('payments', { entity: 'charges', action: 'search', params: { query: { filter: { and: [{ gt: { amount: 100 } }, { like: { currency: 'us%' } }] }, sort: [{ created: 'desc' }] } } })).toBe(true);
    expect(check('payments', { entity: 'customers', action: 'list', params: { limit: 101 } })).toBe(false); // limit 1 to 100
    expect(check('payments', { entity: 'customers', action: 'list', params: { colour: 'blue' } })).toBe(false); // unknown param
    expect(check('payments', { entity: 'customers', action: 'get', params: {} })).toBe(false); // id required
    expect(check('payments', { entity: 'customers', action: 'download' })).toBe(false); // no such action
    expect(check('payments', { entity: 'charges', action: 'search', params: { query: { filter: { gt: { captured: true } } } } })).toBe(false); // no ordering on booleans
    expect(check('payments', { entity: 'charges', action: 'search', params: { query: { filter: { eq: { nope: 1 } } } } })).toBe(false); // unsearchable field
    expect(check('payments', { entity: 'charges', action: 'search', params: { query: { filter: { eq: { currency: 'usd' }, neq: { currency: 'eur' } } } } })).toBe(false); // two operators
  });
});

describe('a real tool consumes it', () => {
  test('openapi-typescript generates types that compile and discriminate execute bodies', async () => {
    // defaultNonNullable off: params with a default are optional in a request (the tool's default suits responses).
    const types = astToString(await openapiTS(structuredClone(doc) as never, { defaultNonNullable: false }));
    const dir = mkdtempSync(path.join(os.tmpdir(), 'openapi-ts-'));
    writeFileSync(path.join(dir, 'openapi.ts'), types);
    writeFileSync(
      path.join(dir, 'use.ts'),
      [
        "import type { components, paths } from './openapi.js';",
        "type PaymentsBody = paths['/api/v1/connectors/sources/{source_id}/execute#payments']['post']['requestBody']['content']['application/json'];",
        "export const list: PaymentsBody = { entity: 'customers', action: 'list', params: { limit: 10 } };",
        "export const search: PaymentsBody = { entity: 'charges', action: 'search', params: { query: { filter: { gt: { amount: 100 } } } } };",
        '// @ts-expect-error customers have no download action',
        "export const wrongAction: PaymentsBody = { entity: 'customers', action: 'download', params: {} };",
        '// @ts-expect-error limit is a number',
        "export const wrongParam: PaymentsBody = { entity: 'customers', action: 'list', params: { limit: '10' } };",
        "type Page = components['schemas']['payments.pair.customers.list.response'];",
        'declare const page: Page;',
        'export const email: string | null | undefined = page.result[0]?.email;',
        "export type ErrorBody = components['schemas']['ErrorBody'];",
        '',
      ].join('\n'),
    );
    const program = ts.createProgram([path.join(dir, 'use.ts')], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, types: [], skipLibCheck: true, noUncheckedIndexedAccess: true });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(problems).toEqual([]);
    expect(types).toContain('"payments.record.customer"');
  }, 120_000);
});
