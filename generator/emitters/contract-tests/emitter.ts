/**
 * `generated/contract-tests/<id>.test.ts`: vitest tests, generated from the spec, that run every generated client
 * method of the connector against the mock over loopback HTTP: lists walk every page with the real iterator, get
 * returns a listed record, writes persist and read back, searches equal a reference evaluation over the fixtures,
 * downloads stream (ranges give 206), and invalid params are rejected before anything is sent.
 */
import { entityFields } from '../fixtures/dataset.js';
import type { ActionIR, ConnectorIR, EntityIR, PropertyIR } from '../../ir.js';
import { clientClassName } from '../clients/client-names.js';
import { camelCase } from '../naming.js';
import { hardline, indent, join, printDoc, type Doc } from '../ts/doc.js';
import { code, fileDoc, importDecl, literal, str, type LiteralValue } from '../ts/syntax.js';
import { generatedHeader } from '../header.js';
import type { Emitter } from '../types.js';
import { keyType, queryParam, requestParams, targetParam, type ParamSource } from './requests.js';

/**
 * Generated tests are printed as prettier prints them (see ../ts/doc.ts): data (params, field lists) through the literal
 * printer, each other statement short enough for one line, so no call needs prettier's argument-breaking rules.
 */

/** Where a param value comes from, as code reading the harness's fixtures. */
function sourceValue(source: ParamSource): LiteralValue {
  switch (source.from) {
    case 'literal':
      return source.value as LiteralValue;
    case 'key':
      return code(`h.key(${str(source.entity)}, ${source.index}, ${str(source.type)})`);
    case 'field':
      return code(`h.field(${str(source.entity)}, ${source.index}, ${str(source.field)})`);
  }
}

/** A valid request's params (requests.ts), with `extra` params given as code. */
function paramsValue(connector: ConnectorIR, entity: EntityIR, action: ActionIR, index: number, extra: Record<string, string> = {}): LiteralValue {
  const entries: [string, LiteralValue][] = requestParams(connector, entity, action, index, new Set(Object.keys(extra))).map(([name, source]) => [name, sourceValue(source)]);
  for (const [name, value] of Object.entries(extra)) entries.push([name, code(value)]);
  return Object.fromEntries(entries);
}

/** Params that break the spec, or undefined when the contract shows nothing to break. */
function invalidParams(connector: ConnectorIR, entity: EntityIR, action: ActionIR): LiteralValue | undefined {
  if (action.name === 'search') return { query: {}, contract_unknown_param: true };
  if (!action.paramsUnspecified) return paramsValue(connector, entity, action, 0, { contract_unknown_param: 'true' });
  const typed = action.params.find((p) => p.types[0] === 'integer' || p.types[0] === 'boolean' || p.types[0] === 'string');
  if (!typed) return undefined;
  return paramsValue(connector, entity, action, 0, { [typed.name]: typed.types[0] === 'string' ? '12345' : "'not-a-number'" });
}

/** `const name = <literal>;` */
const constOf = (name: string, value: LiteralValue): Doc => ['const ', name, ' = ', literal(value), ';'];

/** `test('title', async () => { … });` */
function testOf(title: string, statements: Doc[]): Doc {
  return [`test(${str(title)}, async () => {`, indent([hardline, join(hardline, statements)]), hardline, '});'];
}

function listTest(connector: ConnectorIR, entity: EntityIR, action: ActionIR, method: string): Doc {
  const scheme = connector.pagination.find((s) => s.name === action.pagination);
  const size = action.params.find((p) => p.name === scheme?.sizeParam);
  const pageSize = size ? Math.min(10, size.maximum ?? 10) : undefined;
  const query = queryParam(connector, entity, action);
  const e = str(entity.name);
  const sizeParam = size && pageSize ? { [size.name]: String(pageSize) } : {};
  const statements: Doc[] = ['const client = await h.client(AUTH);'];
  let expected = `h.expectedKeys(${e}, params)`;
  if (query) {
    // A query that must match: one field of a fixture record, written in the param's query language.
    statements.push(['const sample = h.sampleString(', e, ', ', literal(query.fields), ')!;']);
    statements.push(constOf('params', paramsValue(connector, entity, action, 0, { ...sizeParam, [query.param.name]: `h.query(${str(query.param.queryLanguage!)}, sample)` })));
    expected = `h.expectedKeys(${e}, { [sample.field]: sample.value })`;
  } else {
    statements.push(constOf('params', paramsValue(connector, entity, action, 0, sizeParam)));
  }
  statements.push(
    `const iterator = ${method}(params as never) as never;`,
    `const { keys, pages } = await h.walk(iterator, (r) => h.keyOf(${e}, r));`,
    `const expected = ${expected};`,
    'expect(keys).toEqual(expected);',
  );
  if (query) statements.push('expect(expected.length).toBeGreaterThan(0);');
  statements.push(scheme !== undefined ? `expect(pages).toBeGreaterThanOrEqual(Math.max(1, Math.ceil(expected.length / ${pageSize ?? 'h.pageSize'})));` : 'expect(pages).toBe(1);');
  return testOf(`${action.name} walks every page with the iterator${query ? ' (a query that matches a fixture record)' : ''}`, statements);
}

function actionTests(connector: ConnectorIR, entity: EntityIR, action: ActionIR): Doc {
  const resource = camelCase(entity.name);
  const e = str(entity.name);
  const method = `client.${resource}.${camelCase(action.name)}`;
  const tests: Doc[] = [];
  const client = 'const client = await h.client(AUTH);';
  switch (action.name) {
    case 'list':
    case 'api_search':
      tests.push(listTest(connector, entity, action, method));
      break;
    case 'get': {
      const fields = closedFields(connector, action);
      tests.push(
        testOf('get returns a listed record', [
          client,
          constOf('params', paramsValue(connector, entity, action, 0)),
          `const record = await ${method}(params as never);`,
          constOf('fields', fields),
          `expect(record).toEqual(h.asShape(${e}, 0, fields));`,
        ]),
      );
      break;
    }
    case 'create':
      tests.push(
        testOf('create persists and reads back', [
          client,
          constOf('params', createParams(connector, entity, action)),
          `const created = await ${method}(params as never);`,
          ...readers(connector, entity),
          `await h.readBack(${e}, readers, params, created as never);`,
        ]),
      );
      break;
    case 'update':
      tests.push(
        testOf('update changes a record, visible to later reads', [
          client,
          constOf('params', paramsValue(connector, entity, action, 1, changedField(connector, entity, action))),
          `const updated = await ${method}(params as never);`,
          ...readers(connector, entity),
          `await h.readBack(${e}, readers, params, updated as never, 1);`,
        ]),
      );
      break;
    case 'delete':
      tests.push(
        testOf('delete removes a record', [
          client,
          constOf('params', paramsValue(connector, entity, action, 2)),
          `await ${method}(params as never);`,
          ...readers(connector, entity),
          `await h.expectGone(${e}, readers, 2);`,
        ]),
      );
      break;
    case 'search': {
      const fields: LiteralValue = entity.searchable?.properties.length ? entity.searchable.properties.map((p) => ({ name: p.name, type: p.types.join('|') })) : null;
      tests.push(
        testOf('search results equal a reference evaluation over the fixtures', [
          client,
          constOf('fields', fields),
          [
            `for (const params of h.searchQueries(${e}, fields)) {`,
            indent([
              hardline,
              join(hardline, [
                'const hits: string[] = [];',
                'const query = { ...params, limit: 7 };',
                [`for await (const hit of ${method}(query as never)) {`, indent([hardline, 'hits.push((hit as { id: string }).id);']), hardline, '}'],
                `const expected = h.expectedSearch(${e}, fields, { ...params, limit: 100000 });`,
                'expect(hits, JSON.stringify(params)).toEqual(expected);',
              ]),
            ]),
            hardline,
            '}',
          ],
        ]),
      );
      break;
    }
    case 'download': {
      const statements: Doc[] = [
        client,
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
          constOf('rangeParams', paramsValue(connector, entity, action, 0, { [action.rangeParam]: "'bytes=0-99'" })),
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
  const invalid = invalidParams(connector, entity, action);
  if (invalid) {
    tests.push(
      testOf('invalid params are rejected before anything is sent', [
        client,
        'const sent = h.requests;',
        constOf('params', invalid),
        `const call = () => ${method}(params as never);`,
        'await expect(Promise.resolve().then(call)).rejects.toBeInstanceOf(ParamValidationError);',
        'expect(h.requests).toBe(sent);',
      ]),
    );
  }
  return [`describe(${str(`${entity.name} ${action.name}`)}, () => {`, indent([hardline, join([hardline, hardline], tests)]), hardline, '});'];
}

/** Fields of a closed result shape (what the mock answers with), or null for open shapes. */
function closedFields(connector: ConnectorIR, action: ActionIR): string[] | null {
  const shape = connector.records.find((r) => r.name === action.result.record);
  return shape && shape.unspecified === undefined && shape.properties.length ? shape.properties.map((p) => p.name) : null;
}

/**
 * Statements defining `readers` (`{ read, list }`): how a test reads records back — get by key, or list everything —
 * where the entity can.
 */
function readers(connector: ConnectorIR, entity: EntityIR): Doc[] {
  const resource = `client.${camelCase(entity.name)}`;
  const get = entity.actions.find((a) => a.name === 'get');
  const list = entity.actions.find((a) => a.name === 'list');
  const statements: Doc[] = [];
  const names: string[] = [];
  if (get) {
    const target = targetParam(entity, get);
    const name = target?.name ?? 'id';
    const cast = keyType(target) === 'string' ? 'String(key)' : 'Number(key)';
    statements.push(['const readParams = (key: unknown) => (', literal(paramsValue(connector, entity, get, 0, { [name]: cast })), ');']);
    statements.push(`const read = (key: unknown) => ${resource}.get(readParams(key) as never);`);
    names.push('read');
  }
  if (list) {
    statements.push(constOf('listParams', paramsValue(connector, entity, list, 0)));
    statements.push(`const list = () => ${resource}.list(listParams as never) as never;`);
    names.push('list');
  }
  statements.push(`const readers = { ${names.join(', ')} };`.replace('{  }', '{}'));
  return statements;
}

/** Create params: the required ones, and (where the contract hides them) two string fields of the record. */
function createParams(connector: ConnectorIR, entity: EntityIR, action: ActionIR): LiteralValue {
  const extra: Record<string, string> = {};
  if (action.paramsUnspecified) {
    const fields = entityFields(connector, entity).filter((f) => f.types[0] === 'string' && !f.enum && f.const === undefined && !/(^id$|_id$|Id$)/.test(f.name));
    for (const f of fields.slice(0, 2)) extra[f.name] = str(`contract ${f.name}`);
  }
  return paramsValue(connector, entity, action, 0, extra);
}

/** The field an update test changes: a non-target param that names a record field, else a hidden string field. */
function changedField(connector: ConnectorIR, entity: EntityIR, action: ActionIR): Record<string, string> {
  const fields = entityFields(connector, entity);
  const target = targetParam(entity, action);
  const changeable = (p: PropertyIR) => p !== target && p.types[0] === 'string' && !p.enum && p.const === undefined;
  const param = action.params.find((p) => changeable(p) && fields.some((f) => f.name === p.name)) ?? action.params.find((p) => changeable(p) && p.required);
  if (param) return { [param.name]: param.pattern ? "'renamed-record'" : str(`updated ${param.name}`) };
  const field = fields.find((f) => f.types[0] === 'string' && !f.enum && f.const === undefined && f.name !== target?.name && !/(^id$|_id$|Id$)/.test(f.name));
  return field && action.paramsUnspecified ? { [field.name]: str(`updated ${field.name}`) } : {};
}

/** Reads before writes, so reads compare with the fixtures as generated (files run their tests in order). */
const readsFirst = (a: ActionIR, b: ActionIR) => (a.kind === b.kind ? 0 : a.kind === 'read' ? -1 : 1);

function testFile(connector: ConnectorIR): string {
  const client = clientClassName(connector);
  const auth = Object.fromEntries(connector.auth.fields.map((f) => [f.name, `<${f.name}>`]));
  const imports: Doc[] = [
    importDecl({ names: ['describe', 'expect', 'test'], from: 'vitest' }),
    importDecl({ names: [client, 'ParamValidationError'], from: connector.package.name }),
    importDecl({ names: ['ContractHarness'], from: '../../test/contract/harness.js' }),
  ];
  const setup: Doc[] = [`const h = new ContractHarness(${str(connector.id)}, ${client});`, constOf('AUTH', auth)];
  const blocks = connector.entities.flatMap((e) => [...e.actions].sort(readsFirst).map((a) => [actionTests(connector, e, a)]));
  return printDoc(fileDoc(generatedHeader(connector.file), [imports, setup, ...blocks]));
}

/** The contract tests of every connector. */
export const contractTestsEmitter: Emitter = {
  name: 'contract-tests',
  formatted: true,
  emit(ir) {
    return new Map(ir.connectors.map((c) => [`contract-tests/${c.id}.test.ts`, testFile(c)]));
  },
};
