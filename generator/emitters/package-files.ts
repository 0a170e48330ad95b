/**
 * The publishable package around a connector's sources: package.json, tsconfig.json, README.md and
 * src/index.ts; plus generated/tsconfig.paths.json, which maps every package name to its sources in the repo.
 */
import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import type { ConnectorIR, SpecIR } from '../ir.js';
import { stableJson } from '../stable-json.js';
import { clientClassName, methodExample } from './client-file.js';
import { camelCase, packageName } from './naming.js';
import { recordTypeName, metaTypeName, paramsTypeName, searchFieldsTypeName, AUTH_CONFIG_TYPE } from './types-file.js';
import { generatedHeader } from './ts-file.js';

/** Version of every generated package until releases version them. */
export const PACKAGE_VERSION = '0.1.0';
/** npm name of the runtime package. */
export const RUNTIME_PACKAGE = '@connector-sdk/runtime';

const readme = Handlebars.compile(readFileSync(new URL('../../templates/package-readme.md.hbs', import.meta.url), 'utf8'), { noEscape: true });

/** Names the runtime exports that a package re-exports for convenience (unless a local type takes the name). */
const RUNTIME_VALUES = ['AbortError', 'ApiError', 'AuthenticationError', 'ConnectionError', 'InvalidRequestError', 'NotFoundError', 'PaginationError', 'ParamValidationError', 'RateLimitError', 'ResponseValidationError', 'ServerError', 'TimeoutError'];
const RUNTIME_TYPES = ['ClientOptions', 'CreateSourceBody', 'DownloadResponse', 'Page', 'PageOptions', 'PagePromise', 'RequestOptions', 'SearchFilter', 'SearchHit', 'SearchRequest', 'SearchResult', 'SearchSort', 'Source'];

function localTypeNames(connector: ConnectorIR): Set<string> {
  const names = new Set([AUTH_CONFIG_TYPE, ...connector.records.map((r) => recordTypeName(r.name)), ...connector.meta.map((m) => metaTypeName(m.name))]);
  for (const e of connector.entities) {
    if (e.searchable) names.add(searchFieldsTypeName(e.name));
    for (const a of e.actions) names.add(paramsTypeName(e.name, a.name));
  }
  return names;
}

function indexFile(connector: ConnectorIR): string {
  const local = localTypeNames(connector);
  const values = RUNTIME_VALUES.filter((n) => !local.has(n));
  const types = RUNTIME_TYPES.filter((n) => !local.has(n));
  const shadowed = [...RUNTIME_VALUES, ...RUNTIME_TYPES].filter((n) => local.has(n));
  return [
    generatedHeader(connector.file),
    `export * from './types.js';`,
    `export * from './client.js';`,
    `export { ${values.join(', ')} } from '${RUNTIME_PACKAGE}';`,
    `export type { ${types.join(', ')} } from '${RUNTIME_PACKAGE}';`,
    ...(shadowed.length ? [`// Not re-exported (a type of this connector has the name; import it from ${RUNTIME_PACKAGE}): ${shadowed.join(', ')}.`] : []),
    '',
  ].join('\n');
}

function quickstart(connector: ConnectorIR): string {
  const client = camelCase(connector.id);
  const lines = [`import { ${clientClassName(connector)}, ApiError } from '${packageName(connector.id)}';`, ''];
  lines.push(`const ${client} = new ${clientClassName(connector)}({ baseUrl: process.env.CONNECTOR_BASE_URL!, token: process.env.CONNECTOR_TOKEN!, sourceId: '<source id>' });`);
  const list = connector.entities.flatMap((e) => e.actions.filter((a) => a.name === 'list' && a.pagination !== 'unspecified').map((a) => ({ e, a })))[0];
  const search = connector.entities.flatMap((e) => e.actions.filter((a) => a.name === 'search').map((a) => ({ e, a })))[0];
  const get = connector.entities.flatMap((e) => e.actions.filter((a) => a.name === 'get').map((a) => ({ e, a })))[0];
  if (list) lines.push('', methodExample(connector, list.e, list.a));
  if (search) lines.push('', methodExample(connector, search.e, search.a));
  if (get) {
    lines.push('', 'try {', `  ${methodExample(connector, get.e, get.a)}`, '} catch (error) {', '  if (error instanceof ApiError) console.error(error.status, error.message);', '  else throw error;', '}');
  }
  return lines.join('\n');
}

/** Emits the package files of one connector. */
export function packageFiles(ir: SpecIR, connector: ConnectorIR): Map<string, string> {
  const dir = connector.id;
  const files = new Map<string, string>();
  files.set(
    `${dir}/package.json`,
    stableJson({
      '//': generatedHeader(connector.file).slice(3).trim(),
      name: packageName(connector.id),
      version: PACKAGE_VERSION,
      description: `Typed client of the ${connector.title} connector of the Connector Execution Service.`,
      license: 'MIT',
      type: 'module',
      sideEffects: false,
      main: './dist/index.js',
      types: './dist/index.d.ts',
      exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' }, './package.json': './package.json' },
      files: ['dist', 'README.md'],
      scripts: { build: 'tsc -p tsconfig.json' },
      dependencies: { [RUNTIME_PACKAGE]: `^${PACKAGE_VERSION}` },
      engines: { node: '>=18' },
    }),
  );
  files.set(
    `${dir}/tsconfig.json`,
    `${generatedHeader(connector.file)}${JSON.stringify(
      {
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'], strict: true, declaration: true, outDir: 'dist', rootDir: 'src', skipLibCheck: true },
        include: ['src'],
      },
      null,
      2,
    )}\n`,
  );
  const entities = connector.entities.map((e) => ({ name: e.name, property: camelCase(e.name), actions: e.actions.map((a) => `\`${camelCase(a.name)}\``).join(', ') }));
  const actions = connector.entities.flatMap((e) => e.actions);
  files.set(
    `${dir}/README.md`,
    readme({
      specFile: connector.file,
      packageName: packageName(connector.id),
      title: connector.title,
      description: connector.description,
      entityCount: connector.entities.length,
      pairCount: actions.length,
      writeCount: actions.filter((a) => a.kind === 'write').length,
      quickstart: quickstart(connector),
      entities,
      authSummary: connector.auth.fields.length ? `${connector.auth.method} — ${connector.auth.fields.map((f) => `\`${f.name}\``).join(', ')}.` : 'not specified by the contract.',
    }),
  );
  files.set(`${dir}/src/index.ts`, indexFile(connector));
  return files;
}

/** generated/tsconfig.paths.json: package names → sources, for type-checking and tests inside the repo. */
export function pathsFile(ir: SpecIR): string {
  const paths: Record<string, string[]> = { [RUNTIME_PACKAGE]: ['../runtime/src/index.ts'] };
  for (const c of ir.connectors) paths[packageName(c.id)] = [`./${c.id}/src/index.ts`];
  return stableJson({ '//': 'Generated by connector-codegen from spec/. Do not edit: change the spec and run npm run generate.', compilerOptions: { paths } });
}
