/**
 * The publishable package around a connector's sources: package.json, tsconfig.json, README.md and
 * src/index.ts; plus generated/tsconfig.paths.json, which maps every package name to its sources in the repo.
 */
import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import type { ConnectorIR, SpecIR } from '../../ir.js';
import { stableJson } from '../../lib/stable-json.js';
import { clientClassName } from './client-names.js';
import { quickstart as quickstartExample } from '../docs/examples.js';
import { actionAnchor, entityAnchor } from '../docs/connector-view.js';
import { PACKAGE_REFERENCE } from '../docs/links.js';
import { camelCase, packageName } from '../naming.js';
import { recordTypeName, metaTypeName, paramsTypeName, searchFieldsTypeName, AUTH_CONFIG_TYPE } from './type-names.js';
import { generatedHeader } from '../header.js';
import { changelogMarkdown, packageVersion, runtimeVersion } from '../../release/package-release.js';

/** npm name of the runtime package. */
export const RUNTIME_PACKAGE = '@connector-sdk/runtime';

const readme = Handlebars.compile(readFileSync(new URL('../../../templates/package-readme.md.hbs', import.meta.url), 'utf8'), { noEscape: true });

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

/** The README's quickstart (≤ 15 lines): client, a list walked with the iterator, a search, error handling. */
function quickstart(connector: ConnectorIR): string {
  return quickstartExample(connector);
}

/** Emits the package files of one connector. */
export function packageFiles(ir: SpecIR, connector: ConnectorIR): Map<string, string> {
  const dir = connector.id;
  const files = new Map<string, string>();
  files.set(
    `${dir}/package.json`,
    // Written in this fixed key order, not sorted: the "types" condition must come first in exports.
    `${JSON.stringify(
      {
        '//': generatedHeader(connector.file).slice(3).trim(),
        name: packageName(connector.id),
        version: packageVersion(connector.id),
        description: `Typed client of the ${connector.title} connector of the Connector Execution Service.`,
        license: 'MIT',
        type: 'module',
        sideEffects: false,
        main: './dist/index.js',
        types: './dist/index.d.ts',
        exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' }, './package.json': './package.json' },
        files: ['dist', 'README.md', PACKAGE_REFERENCE, 'CHANGELOG.md'],
        scripts: { build: 'tsc -p tsconfig.json' },
        dependencies: { [RUNTIME_PACKAGE]: `^${runtimeVersion()}` },
        engines: { node: '>=18' },
      },
      null,
      2,
    )}\n`,
  );
  files.set(`${dir}/CHANGELOG.md`, changelogMarkdown(connector, packageName(connector.id)));
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
  // Each entity and method links to its section of the reference shipped in the package.
  const entities = connector.entities.map((e) => ({
    name: e.name,
    link: `${PACKAGE_REFERENCE}#${entityAnchor(e.name)}`,
    property: camelCase(e.name),
    actions: e.actions.map((a) => `[\`${camelCase(a.name)}\`](${PACKAGE_REFERENCE}#${actionAnchor(e.name, a.name)})`).join(', '),
  }));
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
      reference: PACKAGE_REFERENCE,
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
