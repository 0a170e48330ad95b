/**
 * `generated/contract-tests/<id>.test.ts`: vitest tests, generated from the spec, that run every generated client
 * method of the connector against the mock over loopback HTTP, and every pair succeeds at least once: lists walk
 * every page with the real iterator and each listed record reads back with get; the spec's rules (ordering, default
 * filters, matches, interval bounds, param groups, invariants, formats) hold; writes persist and read back (created
 * records are listed, partial updates keep what they do not name); searches equal a reference evaluation and their
 * data equals the record; downloads stream (ranges give 206); invalid params are rejected before anything is sent.
 */
import { typesFit, type ActionIR, type ConnectorIR, type EntityIR } from '../../ir.js';
import { entityFields } from '../fixtures/model.js';
import { clientClassName } from '../clients/client-names.js';
import { camelCase, stringLiteral } from '../naming.js';
import { generatedHeader } from '../header.js';
import { splitEmitter } from '../types.js';
import { invalidParamsCode, paramsCode, requestCode } from './params.js';
import { createParams, keyType, pairsInOrder, queryParam, RECORD_INDEX, recordEntity, sourceAuthConfig, targetParam, updateParams, writeThroughTarget } from './requests.js';
import { listRules, listRuleTests, recordRulesTest } from './rules.js';

function listTest(connector: ConnectorIR, entity: EntityIR, action: ActionIR, resource: string): string {
  const scheme = connector.pagination.find((s) => s.name === action.pagination);
  const size = action.params.find((p) => p.name === scheme?.sizeParam);
  const pageSize = size ? Math.min(10, size.maximum ?? 10) : undefined;
  const query = queryParam(connector, entity, action);
  const sizeEntry = size && pageSize ? { [size.name]: String(pageSize) } : {};
  let params = paramsCode(connector, entity, action, 0, sizeEntry);
  let expected = `h.expectedKeys(${stringLiteral(entity.name)}, params${listRules(action) === '{}' ? '' : ', rules'})`;
  const lines: string[] = [];
  if (query) {
    // A query that must match: one field of a fixture record, written in the param's query language.
    lines.push(`const sample = h.sampleString(${stringLiteral(entity.name)}, ${JSON.stringify(query.fields)})!;`);
    params = paramsCode(connector, entity, action, 0, { ...sizeEntry, [query.param.name]: `h.query(${stringLiteral(query.param.queryLanguage!)}, sample)` });
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
    expect(expected.length).toBeGreaterThan(0);
    ${paged ? `expect(pages).toBeGreaterThanOrEqual(Math.max(1, Math.ceil(expected.length / ${pageSize ?? 'h.pageSize'})));` : 'expect(pages).toBe(1);'}
  });`;
}

/** A test that each record of the first page reads back with get, equal on every field the two records share. */
function listedReadBackTest(connector: ConnectorIR, entity: EntityIR, action: ActionIR): string | undefined {
  const get = entity.actions.find((a) => a.name === 'get');
  const target = get && targetParam(get);
  if (!get || !target) return undefined;
  const e = stringLiteral(entity.name);
  return `
  test('each listed record reads back with get', async () => {
    const client = await h.client(AUTH);
    const page = await client.${camelCase(entity.name)}.${camelCase(action.name)}(${paramsCode(connector, entity, action, 0)} as never);
    const records = (page as unknown as { records: Record<string, unknown>[] }).records;
    expect(records.length).toBeGreaterThan(0);
    for (const listed of records) {
      const key = h.keyOf(${e}, listed);
      const record = await client.${camelCase(entity.name)}.get(${paramsCode(connector, entity, get, 0, { [target.name]: keyType(target) === 'string' ? 'key' : 'Number(key)' })} as never);
      h.expectSameShared(listed, record as never, \`${entity.name} \${key}: list and get\`);
    }
  });`;
}

/**
 * A test that search data equals the record get (or the list) returns, on every field the two share — except fields
 * whose search data follows a rule of its own (`derive`, or a record field of another type, whose search data is null).
 */
function searchDataTest(connector: ConnectorIR, entity: EntityIR, method: string): string {
  const e = stringLiteral(entity.name);
  const fields = entityFields(connector, recordEntity(connector, entity));
  const ruled = (entity.searchable?.properties ?? []).filter((p) => fields.some((f) => f.name === p.name && (p.derive || !typesFit(f, p)))).map((p) => p.name);
  const except = ruled.length ? `, ${JSON.stringify(ruled)}` : '';
  const get = entity.actions.find((a) => a.name === 'get');
  const target = get && targetParam(get);
  const list = entity.actions.find((a) => a.name === 'list');
  const read = get && target
    ? `await client.${camelCase(entity.name)}.get(${paramsCode(connector, entity, get, 0, { [target.name]: keyType(target) === 'string' ? 'hit.id' : 'Number(hit.id)' })} as never)`
    : list
      ? `listed.find((r) => h.keyOf(${e}, r) === hit.id)`
      : `h.entity(${e}).records.find((r) => h.keyOf(${e}, r) === hit.id)`;
  return `
  test('search data holds the values the record has', async () => {
    const client = await h.client(AUTH);
    ${!(get && target) && list ? `const listed = await h.all(client.${camelCase(entity.name)}.list(${paramsCode(connector, entity, list, 0)} as never) as never);` : ''}
    let compared = 0;
    for await (const hit of ${method}({ query: {}, limit: 25 } as never) as AsyncIterable<{ id: string; data: Record<string, unknown> }>) {
      const record = ${read};
      expect(record, \`hit \${hit.id} is a record\`).toBeDefined();
      h.expectSameShared(hit.data, record as never, \`${entity.name} \${hit.id}: search data and record\`${except});
      if (++compared === 25) break;
    }
    expect(compared).toBeGreaterThan(0);
  });`;
}

function actionTests(connector: ConnectorIR, entity: EntityIR, action: ActionIR): string {
  const resource = camelCase(entity.name);
  const e = stringLiteral(entity.name);
  const method = `client.${resource}.${camelCase(action.name)}`;
  const tests: string[] = [];
  switch (action.name) {
    case 'list':
    case 'api_search': {
      tests.push(listTest(connector, entity, action, resource));
      const readBack = listedReadBackTest(connector, entity, action);
      if (readBack && !action.params.some((p) => p.queryLanguage)) tests.push(readBack);
      if (action.name === 'list') tests.push(...listRuleTests(connector, entity, action));
      else tests.push(...listRuleTests(connector, entity, action).filter((t) => !t.includes('default order')));
      const rules = recordRulesTest(connector, entity, action);
      if (rules && action.name === 'list') tests.push(rules);
      break;
    }
    case 'get':
      tests.push(`
  test('get returns a listed record', async () => {
    const client = await h.client(AUTH);
    const record = await ${method}(${paramsCode(connector, entity, action, 0)} as never);
    expect(record).toEqual(h.asShape(${e}, 0, ${JSON.stringify(closedFields(connector, action))}));
  });`);
      break;
    case 'create':
      tests.push(createTest(connector, entity, action, method));
      break;
    case 'update':
      tests.push(updateTest(connector, entity, action, method));
      break;
    case 'delete':
      tests.push(`
  test('delete removes a record', async () => {
    const client = await h.client(AUTH);
    await ${method}(${paramsCode(connector, entity, action, RECORD_INDEX.delete!)} as never);
    await h.expectGone(${e}, ${readers(connector, entity)}, ${RECORD_INDEX.delete});
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
      tests.push(searchDataTest(connector, entity, method));
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
  const invalid = invalidParamsCode(connector, entity, action);
  if (invalid) {
    tests.push(`
  test('invalid params are rejected before anything is sent', async () => {
    const client = await h.client(AUTH);
    const sent = h.requests;
    await expect(Promise.resolve().then(() => ${method}(${invalid} as never))).rejects.toBeInstanceOf(ParamValidationError);
    expect(h.requests).toBe(sent);
  });`);
  }
  const rules = action.result.shape === 'list' ? listRules(action) : '{}';
  const declarations = rules === '{}' ? '' : `\n  const rules: ListRules = ${rules};\n`;
  return `describe('${entity.name} ${action.name}', () => {${declarations}${tests.join('\n')}\n});`;
}

function createTest(connector: ConnectorIR, entity: EntityIR, action: ActionIR, method: string): string {
  const through = writeThroughTarget(connector, entity, action);
  if (through) {
    // The write changes a record of another entity: read it back there.
    return `
  test('create changes the ${through.name} record it names, visible to later reads', async () => {
    const client = await h.client(AUTH);
    const params = ${requestCode(createParams(connector, entity, action))};
    const changed = await ${method}(params as never);
    await h.readBack(${stringLiteral(through.name)}, ${readers(connector, through)}, params, changed as never);
  });`;
  }
  const e = stringLiteral(entity.name);
  const owner = recordEntity(connector, entity);
  const list = owner.actions.find((a) => a.name === 'list');
  const first = list?.ordering?.[0];
  const listed = list
    ? `
    // The created record is listed${first ? `, first (the list is ordered by ${first.field} ${first.direction})` : ''}.
    const key = h.keyOf(${e}, created as never);
    const keys = (await h.all(client.${camelCase(owner.name)}.list(${paramsCode(connector, owner, list, 0)} as never) as never)).map((r) => h.keyOf(${e}, r));
    expect(keys).toContain(key);${first?.direction === 'desc' ? `\n    expect(keys[0]).toBe(key);` : ''}`
    : '';
  return `
  test('create persists, reads back${list ? ' and is listed' : ''}', async () => {
    const client = await h.client(AUTH);
    const params = ${requestCode(createParams(connector, entity, action))};
    const created = await ${method}(params as never);
    await h.readBack(${e}, ${readers(connector, entity)}, params, created as never);${listed}
  });`;
}

function updateTest(connector: ConnectorIR, entity: EntityIR, action: ActionIR, method: string): string {
  const e = stringLiteral(entity.name);
  const params = requestCode(updateParams(connector, entity, action));
  const index = RECORD_INDEX.update!;
  const partial = action.updateSemantics === 'partial';
  return `
  test('update changes a record, visible to later reads${partial ? '; what it does not name keeps its value' : ''}', async () => {
    const client = await h.client(AUTH);
    const params = ${params};
    const reader = ${readers(connector, entity)};${partial ? `\n    const before = await h.readRecord(${e}, reader, h.key(${e}, ${index}));\n    expect(before).toBeDefined();` : ''}
    const updated = await ${method}(params as never);
    await h.readBack(${e}, reader, params, updated as never, ${index});${partial ? `\n    h.expectUnchanged(before!, (await h.readRecord(${e}, reader, h.key(${e}, ${index})))!, params);` : ''}
  });`;
}

/** Fields of a closed result shape (what the mock answers with), or null for open shapes. */
function closedFields(connector: ConnectorIR, action: ActionIR): string[] | null {
  const shape = connector.records.find((r) => r.name === action.result.record);
  return shape && shape.unspecified === undefined && shape.properties.length ? shape.properties.map((p) => p.name) : null;
}

/** Code of `{ read, list }`: how a test reads records back (get by key, or list everything), where the entity — or the one it takes its records from — can. */
function readers(connector: ConnectorIR, entity: EntityIR): string {
  const owner = recordEntity(connector, entity);
  const resource = `client.${camelCase(owner.name)}`;
  const get = owner.actions.find((a) => a.name === 'get');
  const list = owner.actions.find((a) => a.name === 'list');
  const parts: string[] = [];
  const target = get && targetParam(get);
  if (get && target) {
    const cast = keyType(target) === 'string' ? 'String(key)' : 'Number(key)';
    parts.push(`read: (key: unknown) => ${resource}.get(${paramsCode(connector, owner, get, 0, { [target.name]: cast })} as never)`);
  }
  if (list) parts.push(`list: () => ${resource}.list(${paramsCode(connector, owner, list, 0)} as never) as never`);
  return parts.length ? `{ ${parts.join(', ')} }` : '{}';
}

function testFile(connector: ConnectorIR): string {
  const client = clientClassName(connector);
  const auth = requestCode(sourceAuthConfig(connector));
  const body = pairsInOrder(connector).map(([e, a]) => actionTests(connector, e, a)).join('\n\n');
  const ruleHelpers = ['at', 'orderingBreak', 'ruleBreaks'].filter((name) => new RegExp(`\\b${name}\\(`).test(body));
  const ruleTypes = /: ListRules = /.test(body) ? ['type ListRules'] : [];
  return `${generatedHeader(connector.file)}import { describe, expect, test } from 'vitest';
import { ${client}, ParamValidationError } from '${connector.package.name}';
import { ContractHarness } from '../../test/contract/harness.js';
${ruleHelpers.length + ruleTypes.length ? `import { ${[...ruleHelpers, ...ruleTypes].join(', ')} } from '../../test/contract/rules.js';\n` : ''}
const h = new ContractHarness(${stringLiteral(connector.id)}, ${client});
const AUTH = ${auth};

${body}
`;
}

/** The contract tests of every connector. */
export const contractTestsEmitter = splitEmitter({
  name: 'contract-tests',
  connector: (_ir, c) => new Map([[`contract-tests/${c.id}.test.ts`, testFile(c)]]),
});
