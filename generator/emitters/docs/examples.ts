/**
 * Example programs of the reference and the package READMEs. Each is a complete ES module that imports the
 * generated package by its npm name, exactly as a user would, and declares its client at the top — the docs
 * test compiles every one of them with tsc against the generated packages.
 */
import type { ActionIR, ConnectorIR, EntityIR, PaginationIR, PropertyIR } from '../../ir.js';
import { clientClassName, exampleValue, methodExample } from '../clients/client-names.js';
import { camelCase, propertyKey, stringLiteral } from '../naming.js';
import { exampleParams } from '../example-params.js';

/** The client variable of a connector's examples (`payments`). */
export const clientVariable = (connector: ConnectorIR) => camelCase(connector.id);

/** Preambles without extra imports, per connector: every action example of a page starts with the same one. */
const preambles = new WeakMap<ConnectorIR, string>();

/** The import and client declaration every example starts with. */
export function clientPreamble(connector: ConnectorIR, extraImports: string[] = []): string {
  if (extraImports.length === 0) {
    const cached = preambles.get(connector);
    if (cached !== undefined) return cached;
    const built = buildPreamble(connector, []);
    preambles.set(connector, built);
    return built;
  }
  return buildPreamble(connector, extraImports);
}

function buildPreamble(connector: ConnectorIR, extraImports: string[]): string {
  const names = [clientClassName(connector), ...extraImports].join(', ');
  return [
    `import { ${names} } from '${connector.package.name}';`,
    '',
    `const ${clientVariable(connector)} = new ${clientClassName(connector)}({ baseUrl: process.env.CONNECTOR_BASE_URL!, token: process.env.CONNECTOR_TOKEN!, sourceId: '<source id>' });`,
  ].join('\n');
}

/** The example of one entity–action pair: the method's own `@example` (its JSDoc), as a complete program. */
export function actionExample(connector: ConnectorIR, entity: EntityIR, action: ActionIR): string {
  return `${clientPreamble(connector)}\n${methodExample(connector, entity, action)}`;
}

/** The page size an example asks for: 100, or the param's maximum when lower. */
function exampleSize(p: PropertyIR): number {
  return Math.min(100, p.maximum ?? 100);
}

/** Params of an example call: the required ones (and a param group's), plus the page size when the scheme has a numeric one. */
function exampleCallParams(action: ActionIR, scheme?: PaginationIR): string {
  const entries = exampleParams(action).map((p) => `${propertyKey(p.name)}: ${exampleValue(p)}`);
  const size = scheme?.sizeParam ? action.params.find((p) => p.name === scheme.sizeParam && !p.required) : undefined;
  if (size && (size.types[0] === 'integer' || size.types[0] === 'number') && size.enum === undefined) entries.push(`${propertyKey(size.name)}: ${exampleSize(size)}`);
  return entries.length ? `{ ${entries.join(', ')} }` : '';
}

/** `payments.customers.list` */
function methodPath(connector: ConnectorIR, entity: EntityIR, action: ActionIR): string {
  return `${clientVariable(connector)}.${camelCase(entity.name)}.${camelCase(action.name)}`;
}

/** The list action that best shows paging with a scheme: one an example calls without params, else the first one. */
function pagedAction(connector: ConnectorIR, schemeName?: string): { entity: EntityIR; action: ActionIR } | undefined {
  const candidates = connector.entities.flatMap((entity) =>
    entity.actions
      .filter((a) => a.result.shape === 'list' && a.pagination !== 'none' && a.pagination !== 'unspecified' && (schemeName === undefined || a.pagination === schemeName))
      .map((action) => ({ entity, action })),
  );
  return candidates.find((c) => exampleParams(c.action).length === 0) ?? candidates[0];
}

/** How to page with one scheme: the first page, every record with a bound, and page by page. */
export function paginationExample(connector: ConnectorIR, scheme: PaginationIR): string | undefined {
  const found = pagedAction(connector, scheme.name);
  if (!found) return undefined;
  const method = methodPath(connector, found.entity, found.action);
  const params = exampleCallParams(found.action, scheme);
  return [
    clientPreamble(connector),
    '',
    '// Awaiting the call gives the first page: its records and its meta.',
    `const first = await ${method}(${params});`,
    'console.log(first.records.length, first.meta);',
    '',
    '// Iterating walks every record of every page; maxItems / maxPages stop early.',
    `for await (const record of ${method}(${params || 'undefined'}, { maxItems: 500 })) console.log(record);`,
    '',
    '// .pages() walks page by page.',
    `for await (const page of ${method}(${params}).pages()) console.log(page.records.length);`,
  ].join('\n');
}

/** Source creation with the connector's auth_config. */
export function authExample(connector: ConnectorIR): string {
  const fields = connector.auth.fields.filter((f) => f.required).map((f) => `${propertyKey(f.name)}: process.env.${f.name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}!`);
  const config = fields.length ? `{ ${fields.join(', ')} }` : '{}';
  return [
    `import { ${clientClassName(connector)} } from '${connector.package.name}';`,
    '',
    '// Source creation needs no source id.',
    `const ${clientVariable(connector)} = new ${clientClassName(connector)}({ baseUrl: process.env.CONNECTOR_BASE_URL!, token: process.env.CONNECTOR_TOKEN! });`,
    `const source = await ${clientVariable(connector)}.createSource({`,
    `  workspace_id: '<workspace id>',`,
    `  source_template_id: ${stringLiteral(connector.id)},`,
    `  name: 'My ${connector.title} source',`,
    `  auth_config: ${config},`,
    '});',
    'console.log(source.id);',
  ].join('\n');
}

/** A search filter an example can use: eq on a plain string field, else on an enum string, else none. */
function exampleFilter(entity: EntityIR): string {
  const fields = (entity.searchable?.properties ?? []).filter((p) => !p.deprecated && p.types.length === 1);
  const plain = fields.find((p) => p.types[0] === 'string' && p.enum === undefined && p.const === undefined);
  if (plain) return `{ eq: { ${propertyKey(plain.name)}: '<value>' } }`;
  const literal = fields.find((p) => p.types[0] === 'string');
  return literal ? `{ eq: { ${propertyKey(literal.name)}: ${exampleValue(literal)} } }` : '';
}

/** The package README's quickstart (≤ 15 lines): client, a list walked with the iterator, a search, errors. */
export function quickstart(connector: ConnectorIR): string {
  const list = pagedAction(connector);
  const searchEntity = connector.entities.find((e) => e.actions.some((a) => a.name === 'search'));
  const body: string[] = [];
  if (list) {
    const scheme = connector.pagination.find((s) => s.name === list.action.pagination);
    const params = exampleCallParams(list.action, scheme);
    body.push(`for await (const record of ${methodPath(connector, list.entity, list.action)}(${params || 'undefined'}, { maxItems: 500 })) console.log(record);`);
  }
  if (searchEntity) {
    const filter = exampleFilter(searchEntity);
    const search = searchEntity.actions.find((a) => a.name === 'search')!;
    body.push(`const { hits } = await ${methodPath(connector, searchEntity, search)}({ query: {${filter ? ` filter: ${filter} ` : ''}}, limit: 10 });`);
    body.push('console.log(hits.map((hit) => hit.id));');
  }
  return [
    clientPreamble(connector, ['ApiError']),
    'try {',
    ...body.map((line) => `  ${line}`),
    '} catch (error) {',
    '  if (error instanceof ApiError) console.error(error.status, error.message);',
    '  else throw error;',
    '}',
  ].join('\n');
}
