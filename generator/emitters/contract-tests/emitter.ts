/**
 * `generated/contract-tests/<id>.test.ts`: vitest tests, generated from the spec, that run every generated client
 * method of the connector against the mock over loopback HTTP, and every pair succeeds at least once: lists walk
 * every page with the real iterator and each listed record reads back with get; the spec's rules (ordering, default
 * filters, matches, interval bounds, param groups, invariants, formats) hold; writes persist and read back (created
 * records are listed, partial updates keep what they do not name); searches equal a reference evaluation and their
 * data equals the record; downloads stream (ranges give 206); invalid params are rejected before anything is sent.
 * Printed as prettier prints it (code.ts), so the files skip prettier.
 */
import { recordsEntity, typesFit, type ActionIR, type ConnectorIR, type EntityIR, type PropertyIR } from '../../ir.js';
import { entityFields } from '../fixtures/entity-facts.js';
import { clientClassName } from '../clients/client-names.js';
import { camelCase } from '../naming.js';
import { generatedHeader } from '../header.js';
import { hardline, join, printDoc, type Doc } from '../ts/doc.js';
import { code, fileDoc, importDecl, literal, str, type LiteralValue } from '../ts/syntax.js';
import { splitEmitter } from '../types.js';
import { allOf, arrowOf, blockOf, CLIENT, constOf, describeOf, testOf } from './code.js';
import { invalidParams, paramsValue, requestValue } from './params.js';
import { createParams, keyType, pairsInOrder, parentLinks, queryParam, RECORD_INDEX, sourceAuthConfig, targetParam, updateParams, writeThroughTarget } from './requests.js';
import { parentTests } from './parents.js';
import { listRules, listRuleTests, recordRulesTest } from './rules.js';

function listTest(connector: ConnectorIR, entity: EntityIR, action: ActionIR, method: string): Doc {
  const scheme = connector.pagination.find((s) => s.name === action.pagination);
  const size = action.params.find((p) => p.name === scheme?.sizeParam);
  const pageSize = size ? Math.min(10, size.maximum ?? 10) : undefined;
  const query = queryParam(connector, entity, action);
  const e = str(entity.name);
  const sizeEntry: Record<string, LiteralValue> = size && pageSize ? { [size.name]: pageSize } : {};
  const statements: Doc[] = [CLIENT];
  const rules = listRules(connector, entity, action) ? ', rules' : '';
  let expected = `h.expectedKeys(${e}, params${rules})`;
  if (query) {
    // A query that must match: one field of a fixture record (one the default filter keeps), in the param's query language.
    statements.push(constOf('sampleFields', query.fields), `const sample = h.sampleString(${e}, sampleFields${rules})!;`);
    statements.push(constOf('params', paramsValue(connector, entity, action, 0, { ...sizeEntry, [query.param.name]: code(`h.query(${str(query.param.queryLanguage!)}, sample)`) })));
    expected = `h.keysWhere(${e}, sample.field, sample.value${rules})`;
  } else {
    statements.push(constOf('params', paramsValue(connector, entity, action, 0, sizeEntry)));
  }
  statements.push(
    `const iterator = ${method}(params as never) as never;`,
    `const { keys, pages } = await h.walk(iterator, (r) => h.keyOf(${e}, r));`,
    `const expected = ${expected};`,
    'expect(keys).toEqual(expected);',
    'expect(expected.length).toBeGreaterThan(0);',
    scheme !== undefined ? `expect(pages).toBeGreaterThanOrEqual(Math.max(1, Math.ceil(expected.length / ${pageSize ?? 'h.pageSize'})));` : 'expect(pages).toBe(1);',
  );
  return testOf(`${action.name} walks every page with the iterator${query ? ' (a query that matches a fixture record)' : ''}`, statements);
}

/** The value of a get's target param read from `key` (a string), as the param's type wants it. */
const keyValue = (target: PropertyIR, key: string) => code(keyType(target) === 'string' ? key : `Number(${key})`);

/**
 * The get params that address the record whose key the expression `key` holds: the key, and (a parent rule) the
 * params naming the record's parent, read from the fixtures at run time.
 */
function getParamsFor(connector: ConnectorIR, entity: EntityIR, get: ActionIR, target: PropertyIR, key: string): Record<string, LiteralValue> {
  const parents = parentLinks(connector, entity, get).map((l) => [l.param, code(`h.parentField(${str(entity.name)}, ${key}, ${printDoc(literal(l.chain))}, ${str(l.field)})`)] as const);
  return paramsValue(connector, entity, get, 0, { [target.name]: keyValue(target, key), ...Object.fromEntries(parents) });
}

/** A test that each record of the first page reads back with get, equal on every field the two records share. */
function listedReadBackTest(connector: ConnectorIR, entity: EntityIR, action: ActionIR, method: string): Doc | undefined {
  const get = entity.actions.find((a) => a.name === 'get');
  const target = get && targetParam(get);
  if (!get || !target) return undefined;
  return testOf('each listed record reads back with get', [
    CLIENT,
    constOf('params', paramsValue(connector, entity, action, 0)),
    `const page = await ${method}(params as never);`,
    'const records = (page as unknown as { records: Record<string, unknown>[] }).records;',
    'expect(records.length).toBeGreaterThan(0);',
    blockOf('for (const listed of records)', [
      `const key = h.keyOf(${str(entity.name)}, listed);`,
      constOf('getParams', getParamsFor(connector, entity, get, target, 'key')),
      `const record = await client.${camelCase(entity.name)}.get(getParams as never);`,
      `h.expectSameShared(listed, record as never, \`${entity.name} \${key}: list and get\`);`,
    ]),
  ]);
}

/**
 * A test that search data equals the record get (or the list) returns, on every field the two share — except fields
 * whose search data follows a rule of its own (`derive`, or a record field of another type, whose search data is null).
 */
function searchDataTest(connector: ConnectorIR, entity: EntityIR, method: string): Doc {
  const e = str(entity.name);
  const fields = entityFields(connector, recordsEntity(connector, entity));
  const ruled = (entity.searchable?.properties ?? []).filter((p) => fields.some((f) => f.name === p.name && (p.derive || !typesFit(f, p)))).map((p) => p.name);
  const get = entity.actions.find((a) => a.name === 'get');
  const target = get && targetParam(get);
  const list = entity.actions.find((a) => a.name === 'list');
  const statements: Doc[] = [CLIENT];
  const read: Doc[] = [];
  if (get && target) {
    read.push(constOf('getParams', getParamsFor(connector, entity, get, target, 'hit.id')), `const record = await client.${camelCase(entity.name)}.get(getParams as never);`);
  } else if (list) {
    statements.push(constOf('listParams', paramsValue(connector, entity, list, 0)), `const listed = ${allOf(`client.${camelCase(entity.name)}.list`, 'listParams')};`);
    read.push(`const record = listed.find((r) => h.keyOf(${e}, r) === hit.id);`);
  } else {
    read.push(`const record = h.entity(${e}).records.find((r) => h.keyOf(${e}, r) === hit.id);`);
  }
  if (ruled.length) statements.push(constOf('ruled', ruled));
  statements.push(
    'type Hit = { id: string; data: Record<string, unknown> };',
    'const query = { query: {}, limit: 25 };',
    'let compared = 0;',
    blockOf(`for await (const hit of ${method}(query as never) as AsyncIterable<Hit>)`, [
      ...read,
      'expect(record, `hit ${hit.id} is a record`).toBeDefined();',
      `const what = \`${entity.name} \${hit.id}: search data and record\`;`,
      `h.expectSameShared(hit.data, record as never, what${ruled.length ? ', ruled' : ''});`,
      'if (++compared === 25) break;',
    ]),
    'expect(compared).toBeGreaterThan(0);',
  );
  return testOf('search data holds the values the record has', statements);
}

/** A test per alternate key of a get: the key param given a record's value of the field finds that record. */
function alternateKeyTests(connector: ConnectorIR, entity: EntityIR, action: ActionIR, method: string): Doc[] {
  const target = targetParam(action);
  if (!target) return [];
  const e = str(entity.name);
  return (action.alternateKeys?.fields ?? []).map((field) =>
    testOf(`${target.name} also finds the record by its ${field}`, [
      CLIENT,
      `const value = String(h.field(${e}, 0, ${str(field)}));`,
      constOf('params', paramsValue(connector, entity, action, 0, { [target.name]: keyValue(target, 'value') })),
      `const record = await ${method}(params as never);`,
      constOf('fields', closedFields(connector, action)),
      `expect(record).toEqual(h.asShape(${e}, 0, fields));`,
    ]),
  );
}

function actionTests(connector: ConnectorIR, entity: EntityIR, action: ActionIR): Doc {
  const e = str(entity.name);
  const method = `client.${camelCase(entity.name)}.${camelCase(action.name)}`;
  const tests: Doc[] = [];
  switch (action.name) {
    case 'list':
    case 'api_search': {
      tests.push(listTest(connector, entity, action, method));
      const readBack = listedReadBackTest(connector, entity, action, method);
      if (readBack && !action.params.some((p) => p.queryLanguage)) tests.push(readBack);
      tests.push(...listRuleTests(connector, entity, action, action.name === 'list'));
      const rules = recordRulesTest(connector, entity, action);
      if (rules && action.name === 'list') tests.push(rules);
      break;
    }
    case 'get':
      tests.push(
        testOf('get returns a listed record', [
          CLIENT,
          constOf('params', paramsValue(connector, entity, action, 0)),
          `const record = await ${method}(params as never);`,
          constOf('fields', closedFields(connector, action)),
          `expect(record).toEqual(h.asShape(${e}, 0, fields));`,
        ]),
      );
      tests.push(...alternateKeyTests(connector, entity, action, method));
      break;
    case 'create':
      tests.push(createTest(connector, entity, action, method));
      break;
    case 'update':
      tests.push(updateTest(connector, entity, action, method));
      break;
    case 'delete':
      tests.push(
        testOf('delete removes a record', [
          CLIENT,
          constOf('params', paramsValue(connector, entity, action, RECORD_INDEX.delete!)),
          `await ${method}(params as never);`,
          ...readers(connector, entity, RECORD_INDEX.delete),
          `await h.expectGone(${e}, reader, ${RECORD_INDEX.delete});`,
        ]),
      );
      break;
    case 'search': {
      const fields: LiteralValue = entity.searchable?.properties.length ? entity.searchable.properties.map((p) => ({ name: p.name, type: p.types.join('|') })) : null;
      tests.push(
        testOf('search results equal a reference evaluation over the fixtures', [
          CLIENT,
          constOf('fields', fields),
          blockOf(`for (const params of h.searchQueries(${e}, fields))`, [
            'const hits: string[] = [];',
            'const query = { ...params, limit: 7 };',
            blockOf(`for await (const hit of ${method}(query as never))`, ['hits.push((hit as { id: string }).id);']),
            `const expected = h.expectedSearch(${e}, fields, { ...params, limit: 100000 });`,
            'expect(hits, JSON.stringify(params)).toEqual(expected);',
          ]),
        ]),
      );
      tests.push(searchDataTest(connector, entity, method));
      break;
    }
    case 'download': {
      const statements: Doc[] = [
        CLIENT,
        constOf('params', paramsValue(connector, entity, action, 0)),
        `const file = await ${method}(params as never);`,
        'expect(file.status).toBe(200);',
        'let bytes = 0;',
        'for await (const chunk of file.body) bytes += chunk.length;',
        'expect(bytes).toBeGreaterThan(0);',
        'expect(file.contentType).toBeTruthy();',
      ];
      if (action.rangeParam) {
        statements.push(
          constOf('rangeParams', paramsValue(connector, entity, action, 0, { [action.rangeParam]: 'bytes=0-99' })),
          `const part = await ${method}(rangeParams as never);`,
          'expect(part.status).toBe(206);',
          'expect(part.contentRange).toBe(`bytes 0-99/${bytes}`);',
          'expect((await part.arrayBuffer()).byteLength).toBe(100);',
        );
      }
      tests.push(testOf(`download streams the content${action.rangeParam ? '; a range gives 206' : ''}`, statements));
      break;
    }
  }
  tests.push(...parentTests(connector, entity, action, method));
  const invalid = invalidParams(connector, entity, action);
  if (invalid) {
    tests.push(
      testOf('invalid params are rejected before anything is sent', [
        CLIENT,
        'const sent = h.requests;',
        constOf('params', invalid),
        `const call = () => ${method}(params as never);`,
        'await expect(Promise.resolve().then(call)).rejects.toBeInstanceOf(ParamValidationError);',
        'expect(h.requests).toBe(sent);',
      ]),
    );
  }
  const rules = action.result.shape === 'list' ? listRules(connector, entity, action) : undefined;
  return describeOf(`${entity.name} ${action.name}`, [...(rules ? [constOf('rules', rules, 'ListRules')] : []), ...tests]);
}

function createTest(connector: ConnectorIR, entity: EntityIR, action: ActionIR, method: string): Doc {
  const params = constOf('params', requestValue(createParams(connector, entity, action)));
  const through = writeThroughTarget(connector, entity, action);
  if (through) {
    // The write changes a record of another entity: read it back there.
    return testOf(`create changes the ${through.name} record it names, visible to later reads`, [
      CLIENT,
      params,
      `const changed = await ${method}(params as never);`,
      ...readers(connector, through),
      `await h.readBack(${str(through.name)}, reader, params, changed as never);`,
    ]);
  }
  const e = str(entity.name);
  const owner = recordsEntity(connector, entity);
  const list = owner.actions.find((a) => a.name === 'list');
  const first = list?.ordering?.[0];
  const statements: Doc[] = [CLIENT, params, `const created = await ${method}(params as never);`, ...readers(connector, entity), `await h.readBack(${e}, reader, params, created as never);`];
  if (list) {
    // readers() declared listParams: the owner's list.
    statements.push(
      `// The created record is listed${first ? `, first (the list is ordered by ${first.field} ${first.direction})` : ''}.`,
      `const key = h.keyOf(${e}, created as never);`,
      `const listed = ${allOf(`client.${camelCase(owner.name)}.list`, 'listParams')};`,
      `const keys = listed.map((r) => h.keyOf(${e}, r));`,
      'expect(keys).toContain(key);',
      ...(first?.direction === 'desc' ? ['expect(keys[0]).toBe(key);'] : []),
    );
  }
  return testOf(`create persists, reads back${list ? ' and is listed' : ''}`, statements);
}

function updateTest(connector: ConnectorIR, entity: EntityIR, action: ActionIR, method: string): Doc {
  const e = str(entity.name);
  const index = RECORD_INDEX.update!;
  const partial = action.updateSemantics === 'partial';
  const statements: Doc[] = [CLIENT, constOf('params', requestValue(updateParams(connector, entity, action))), ...readers(connector, entity, index)];
  if (partial) statements.push(`const before = await h.readRecord(${e}, reader, h.key(${e}, ${index}));`, 'expect(before).toBeDefined();');
  statements.push(`const updated = await ${method}(params as never);`, `await h.readBack(${e}, reader, params, updated as never, ${index});`);
  if (partial) statements.push(`const after = await h.readRecord(${e}, reader, h.key(${e}, ${index}));`, 'h.expectUnchanged(before!, after!, params);');
  return testOf(`update changes a record, visible to later reads${partial ? '; what it does not name keeps its value' : ''}`, statements);
}

/** Fields of a closed result shape (what the mock answers with), or null for open shapes. */
function closedFields(connector: ConnectorIR, action: ActionIR): string[] | null {
  const shape = connector.records.find((r) => r.name === action.result.record);
  return shape && shape.unspecified === undefined && shape.properties.length ? shape.properties.map((p) => p.name) : null;
}

/**
 * Statements defining `reader` (`{ read, list }`): how a test reads records back — get by key, or list everything
 * (with `listParams`) — where the entity, or the one it takes its records from, can; within the parent of fixture
 * record `index` (a parent rule), the record the test writes.
 */
function readers(connector: ConnectorIR, entity: EntityIR, index = 0): Doc[] {
  const owner = recordsEntity(connector, entity);
  const resource = `client.${camelCase(owner.name)}`;
  const get = owner.actions.find((a) => a.name === 'get');
  const list = owner.actions.find((a) => a.name === 'list');
  const target = get && targetParam(get);
  const statements: Doc[] = [];
  const reader: Record<string, LiteralValue> = {};
  if (get && target) {
    const cast = keyType(target) === 'string' ? 'String(key)' : 'Number(key)';
    statements.push(arrowOf('readParams', 'key: unknown', paramsValue(connector, owner, get, index, { [target.name]: code(cast) })));
    reader.read = code(`(key: unknown) => ${resource}.get(readParams(key) as never)`);
  }
  if (list) {
    statements.push(constOf('listParams', paramsValue(connector, owner, list, index)));
    reader.list = code(`() => ${resource}.list(listParams as never) as never`);
  }
  return [...statements, constOf('reader', reader)];
}

/** Whether `code` calls `name` (`name(` not preceded by a word character): native searches, no regex over the file. */
function calls(code: string, name: string): boolean {
  for (let at = code.indexOf(`${name}(`); at >= 0; at = code.indexOf(`${name}(`, at + 1)) if (at === 0 || !/\w/.test(code[at - 1]!)) return true;
  return false;
}

function testFile(connector: ConnectorIR): string {
  const client = clientClassName(connector);
  const body = printDoc(join([hardline, hardline], pairsInOrder(connector).map(([e, a]) => actionTests(connector, e, a))));
  const ruleHelpers = ['at', 'orderingBreak', 'ruleBreaks'].filter((name) => calls(body, name));
  const ruleTypes = [['ListRules', ': ListRules = '], ['InvariantRule', ': InvariantRule[] = '], ['Ordering', ': Ordering = ']].filter(([, used]) => body.includes(used!)).map(([name]) => `type ${name!}`);
  const imports: Doc[] = [
    importDecl({ names: ['describe', 'expect', 'test'], from: 'vitest' }),
    importDecl({ names: [client, 'ParamValidationError'], from: connector.package.name }),
    importDecl({ names: ['ContractHarness'], from: '../../test/contract/harness.js' }),
    ...(ruleHelpers.length + ruleTypes.length ? [importDecl({ names: [...ruleHelpers, ...ruleTypes], from: '../../test/contract/rules.js' })] : []),
  ];
  const setup: Doc[] = [`const h = new ContractHarness(${str(connector.id)}, ${client});`, constOf('AUTH', requestValue(sourceAuthConfig(connector)))];
  return `${printDoc(fileDoc(generatedHeader(connector.file), [imports, setup]))}\n${body}\n`;
}

/** The contract tests of every connector. */
export const contractTestsEmitter = splitEmitter({
  name: 'contract-tests',
  formatted: true,
  connector: (_ir, c) => new Map([[`contract-tests/${c.id}.test.ts`, testFile(c)]]),
});
