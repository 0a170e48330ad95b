/**
 * `generated/contract-tests/<id>.test.ts`: vitest tests, generated from the spec, that run every generated client
 * method of the connector against the mock over loopback HTTP: lists walk every page with the real iterator, get
 * returns a listed record, writes persist and read back, searches equal a reference evaluation over the fixtures,
 * downloads stream (ranges give 206), and invalid params are rejected before anything is sent.
 */
import { entityFields } from '../fixtures/dataset.js';
import type { ActionIR, ConnectorIR, EntityIR, PropertyIR } from '../../ir.js';
import { clientClassName } from '../clients/client-names.js';
import { camelCase, stringLiteral } from '../naming.js';
import { generatedHeader } from '../header.js';
import type { Emitter } from '../types.js';
import { keyType, queryParam, requestParams, targetParam, type ParamSource } from './requests.js';

/** A literal value as code. */
function literalCode(value: unknown): string {
  if (typeof value === 'string') return stringLiteral(value);
  if (Array.isArray(value)) return `[${value.map(literalCode).join(', ')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${stringLiteral(k)}: ${literalCode(v)}`);
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  }
  return String(value);
}

/** Where a param value comes from, as code reading the harness's fixtures. */
function sourceCode(source: ParamSource): string {
  switch (source.from) {
    case 'literal':
      return literalCode(source.value);
    case 'key':
      return `h.key(${stringLiteral(source.entity)}, ${source.index}, ${stringLiteral(source.type)})`;
    case 'field':
      return `h.field(${stringLiteral(source.entity)}, ${source.index}, ${stringLiteral(source.field)})`;
  }
}

/** A valid request's params as code (requests.ts), with `extra` params given as code. */
function paramsCode(connector: ConnectorIR, entity: EntityIR, action: ActionIR, index: number, extra: Record<string, string> = {}): string {
  const entries = requestParams(connector, entity, action, index, new Set(Object.keys(extra))).map(([name, source]) => `${stringLiteral(name)}: ${sourceCode(source)}`);
  for (const [name, code] of Object.entries(extra)) entries.push(`${stringLiteral(name)}: ${code}`);
  return `{ ${entries.join(', ')} }`;
}

/** A param value that breaks the spec, or undefined when the contract shows nothing to break. */
function invalidParams(connector: ConnectorIR, entity: EntityIR, action: ActionIR): string | undefined {
  if (action.name === 'search') return `{ query: {}, contract_unknown_param: true }`;
  if (!action.paramsUnspecified) return paramsCode(connector, entity, action, 0, { contract_unknown_param: 'true' });
  const typed = action.params.find((p) => p.types[0] === 'integer' || p.types[0] === 'boolean' || p.types[0] === 'string');
  if (!typed) return undefined;
  return paramsCode(connector, entity, action, 0, { [typed.name]: typed.types[0] === 'string' ? '12345' : "'not-a-number'" });
}

function listTest(connector: ConnectorIR, entity: EntityIR, action: ActionIR, resource: string): string {
  const scheme = connector.pagination.find((s) => s.name === action.pagination);
  const size = action.params.find((p) => p.name === scheme?.sizeParam);
  const pageSize = size ? Math.min(10, size.maximum ?? 10) : undefined;
  const query = queryParam(connector, entity, action);
  let params = paramsCode(connector, entity, action, 0, size && pageSize ? { [size.name]: String(pageSize) } : {});
  let expected = `h.expectedKeys(${stringLiteral(entity.name)}, params)`;
  const lines: string[] = [];
  if (query) {
    // A query that must match: one field of a fixture record, written in the param's query language.
    lines.push(`const sample = h.sampleString(${stringLiteral(entity.name)}, ${JSON.stringify(query.fields)})!;`);
    params = paramsCode(connector, entity, action, 0, { ...(size && pageSize ? { [size.name]: String(pageSize) } : {}), [query.param.name]: `h.query(${stringLiteral(query.param.queryLanguage!)}, sample)` });
    expected = `h.expectedKeys(${stringLiteral(entity.name)}, { [sample.field]: sample.value })`;
  }
  const paged = scheme !== undefined;
  return `
  test('${action.name} walks every page with the iterator${query ? ' (a query that matches a fixture record)' : ''}', async () => {
    const client = await h.client(AUTH);
    ${lines.join('\n    ')}
    const params = ${params};
    const { keys, pages } = await h.walk(client.${resource}.${camelCase(action.name)}(params as never) as never, (r) => h.keyOf(${stringLiteral(entity.name)}, r));
    const expected = ${expected};
    expect(keys).toEqual(expected);
    ${query ? 'expect(expected.length).toBeGreaterThan(0);' : ''}
    ${paged ? `expect(pages).toBeGreaterThanOrEqual(Math.max(1, Math.ceil(expected.length / ${pageSize ?? 'h.pageSize'})));` : 'expect(pages).toBe(1);'}
  });`;
}

function actionTests(connector: ConnectorIR, entity: EntityIR, action: ActionIR): string {
  const resource = camelCase(entity.name);
  const e = stringLiteral(entity.name);
  const method = `client.${resource}.${camelCase(action.name)}`;
  const tests: string[] = [];
  switch (action.name) {
    case 'list':
    case 'api_search':
      tests.push(listTest(connector, entity, action, resource));
      break;
    case 'get':
      tests.push(`
  test('get returns a listed record', async () => {
    const client = await h.client(AUTH);
    const record = await ${method}(${paramsCode(connector, entity, action, 0)} as never);
    expect(record).toEqual(h.asShape(${e}, 0, ${JSON.stringify(closedFields(connector, action))}));
  });`);
      break;
    case 'create':
      tests.push(`
  test('create persists and reads back', async () => {
    const client = await h.client(AUTH);
    const params = ${createParams(connector, entity, action)};
    const created = await ${method}(params as never);
    await h.readBack(${e}, ${readers(connector, entity)}, params, created as never);
  });`);
      break;
    case 'update':
      tests.push(`
  test('update changes a record, visible to later reads', async () => {
    const client = await h.client(AUTH);
    const params = ${paramsCode(connector, entity, action, 1, changedField(connector, entity, action))};
    const updated = await ${method}(params as never);
    await h.readBack(${e}, ${readers(connector, entity)}, params, updated as never, 1);
  });`);
      break;
    case 'delete':
      tests.push(`
  test('delete removes a record', async () => {
    const client = await h.client(AUTH);
    await ${method}(${paramsCode(connector, entity, action, 2)} as never);
    await h.expectGone(${e}, ${readers(connector, entity)}, 2);
  });`);
      break;
    case 'search': {
      const fields = entity.searchable?.properties.length ? JSON.stringify(entity.searchable.properties.map((p) => ({ name: p.name, type: p.types.join('|') }))) : 'null';
      tests.push(`
  test('search results equal a reference evaluation over the fixtures', async () => {
    const client = await h.client(AUTH);
    for (const params of h.searchQueries(${e}, ${fields})) {
      const hits: string[] = [];
      for await (const hit of ${method}({ ...params, limit: 7 } as never)) hits.push((hit as { id: string }).id);
      expect(hits, JSON.stringify(params)).toEqual(h.expectedSearch(${e}, ${fields}, { ...params, limit: 100000 }));
    }
  });`);
      break;
    }
    case 'download':
      tests.push(`
  test('download streams the content${action.rangeParam ? '; a range gives 206' : ''}', async () => {
    const client = await h.client(AUTH);
    const file = await ${method}(${paramsCode(connector, entity, action, 0)} as never);
    expect(file.status).toBe(200);
    let bytes = 0;
    for await (const chunk of file.body) bytes += chunk.length;
    expect(bytes).toBeGreaterThan(0);
    expect(file.contentType).toBeTruthy();${
      action.rangeParam
        ? `
    const part = await ${method}(${paramsCode(connector, entity, action, 0, { [action.rangeParam]: "'bytes=0-99'" })} as never);
    expect(part.status).toBe(206);
    expect(part.contentRange).toBe(\`bytes 0-99/\${bytes}\`);
    expect((await part.arrayBuffer()).byteLength).toBe(100);`
        : ''
    }
  });`);
      break;
  }
  const invalid = invalidParams(connector, entity, action);
  if (invalid) {
    tests.push(`
  test('invalid params are rejected before anything is sent', async () => {
    const client = await h.client(AUTH);
    const sent = h.requests;
    await expect(Promise.resolve().then(() => ${method}(${invalid} as never))).rejects.toBeInstanceOf(ParamValidationError);
    expect(h.requests).toBe(sent);
  });`);
  }
  return `describe('${entity.name} ${action.name}', () => {${tests.join('\n')}\n});`;
}

/** Fields of a closed result shape (what the mock answers with), or null for open shapes. */
function closedFields(connector: ConnectorIR, action: ActionIR): string[] | null {
  const shape = connector.records.find((r) => r.name === action.result.record);
  return shape && shape.unspecified === undefined && shape.properties.length ? shape.properties.map((p) => p.name) : null;
}

/** Code of `{ read, list }`: how a test reads records back (get by key, or list everything), where the entity can. */
function readers(connector: ConnectorIR, entity: EntityIR): string {
  const resource = `client.${camelCase(entity.name)}`;
  const get = entity.actions.find((a) => a.name === 'get');
  const list = entity.actions.find((a) => a.name === 'list');
  const parts: string[] = [];
  if (get) {
    const target = targetParam(entity, get);
    const name = target?.name ?? 'id';
    const cast = keyType(target) === 'string' ? 'String(key)' : 'Number(key)';
    parts.push(`read: (key: unknown) => ${resource}.get(${paramsCode(connector, entity, get, 0, { [name]: cast })} as never)`);
  }
  if (list) parts.push(`list: () => ${resource}.list(${paramsCode(connector, entity, list, 0)} as never) as never`);
  return `{ ${parts.join(', ')} }`;
}

/** Create params: the required ones, and (where the contract hides them) two string fields of the record. */
function createParams(connector: ConnectorIR, entity: EntityIR, action: ActionIR): string {
  const extra: Record<string, string> = {};
  if (action.paramsUnspecified) {
    const fields = entityFields(connector, entity).filter((f) => f.types[0] === 'string' && !f.enum && f.const === undefined && !/(^id$|_id$|Id$)/.test(f.name));
    for (const f of fields.slice(0, 2)) extra[f.name] = stringLiteral(`contract ${f.name}`);
  }
  return paramsCode(connector, entity, action, 0, extra);
}

/** The field an update test changes: a non-target param that names a record field, else a hidden string field. */
function changedField(connector: ConnectorIR, entity: EntityIR, action: ActionIR): Record<string, string> {
  const fields = entityFields(connector, entity);
  const target = targetParam(entity, action);
  const changeable = (p: PropertyIR) => p !== target && p.types[0] === 'string' && !p.enum && p.const === undefined;
  const param = action.params.find((p) => changeable(p) && fields.some((f) => f.name === p.name)) ?? action.params.find((p) => changeable(p) && p.required);
  if (param) return { [param.name]: param.pattern ? "'renamed-record'" : stringLiteral(`updated ${param.name}`) };
  const field = fields.find((f) => f.types[0] === 'string' && !f.enum && f.const === undefined && f.name !== target?.name && !/(^id$|_id$|Id$)/.test(f.name));
  return field && action.paramsUnspecified ? { [field.name]: stringLiteral(`updated ${field.name}`) } : {};
}

/** Reads before writes, so reads compare with the fixtures as generated (files run their tests in order). */
const readsFirst = (a: ActionIR, b: ActionIR) => (a.kind === b.kind ? 0 : a.kind === 'read' ? -1 : 1);

function testFile(connector: ConnectorIR): string {
  const client = clientClassName(connector);
  const auth = `{ ${connector.auth.fields.map((f) => `${stringLiteral(f.name)}: ${stringLiteral(`<${f.name}>`)}`).join(', ')} }`;
  return `${generatedHeader(connector.file)}import { describe, expect, test } from 'vitest';
import { ${client}, ParamValidationError } from '${connector.package.name}';
import { ContractHarness } from '../../test/contract/harness.js';

const h = new ContractHarness(${stringLiteral(connector.id)}, ${client});
const AUTH = ${auth};

${connector.entities.flatMap((e) => [...e.actions].sort(readsFirst).map((a) => actionTests(connector, e, a))).join('\n\n')}
`;
}

/** The contract tests of every connector. */
export const contractTestsEmitter: Emitter = {
  name: 'contract-tests',
  emit(ir) {
    return new Map(ir.connectors.map((c) => [`contract-tests/${c.id}.test.ts`, testFile(c)]));
  },
};
