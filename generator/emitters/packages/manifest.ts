/**
 * The npm packaging every generated package shares: package.json (dual ESM/CommonJS exports with types for
 * both), the build tsconfig (`connector-codegen build` runs `tsc -b` over them, then derives the CommonJS
 * output), and the prepack guard that refuses to pack a package whose build is missing or stale.
 *
 * Layout of a built package: `dist/esm/*.js` + `.d.ts` (ESM, the package is `type: module`), `dist/cjs/*.js` +
 * `.d.ts` with `dist/cjs/package.json` `{ "type": "commonjs" }`. Each export condition points at types of its
 * own format, which is what arethetypeswrong checks under node10, node16 (CJS and ESM) and bundler resolution.
 * A package with `bundled` packages (devDependencies) is laid out by the bundler instead: generator/release/bundle.ts.
 */
import type { PackagingIR } from '../../ir.js';

/** Where a built package keeps build state that is not shipped: the tsc build info and the source stamp. */
export const BUILD_STATE_DIR = '.build';

/** Where tsc compiles a package that is bundled (it has `bundled` dependencies): the bundler's input, not shipped. */
export const BUNDLE_INPUT_DIR = `${BUILD_STATE_DIR}/tsc`;

/** The file the build writes with the hash of the sources it compiled (read by the prepack guard). */
export const BUILD_STAMP = `${BUILD_STATE_DIR}/stamp.json`;

/** One package to describe. */
export interface ManifestInput {
  /** Header line (without comment markers): generator, spec file, where to change it. */
  header: string;
  /** npm name. */
  name: string;
  /** Version. */
  version: string;
  /** One sentence. */
  description: string;
  /** Entry points besides the root: subpath → module name under src/ (e.g. `./validators` → `validators`). */
  subpaths: Record<string, string>;
  /** Runtime dependencies (name → range). */
  dependencies: Record<string, string>;
  /** Files shipped besides dist/ (README.md, …). */
  docs: string[];
  /** Directory of the package inside the repository, for `repository.directory` patterns. */
  connectorId?: string;
  /** Executables: command name → file in the package. */
  bin?: Record<string, string>;
  /**
   * Packages the build inlines into dist/ (name → exact version), written as devDependencies: an install never
   * fetches them, and `connector-codegen build` bundles a package that has any (generator/release/bundle.ts).
   */
  bundled?: Record<string, string>;
  /** Node versions it runs on (`engines.node`); default `>=18`. */
  node?: string;
}

/** `import` and `require` conditions of one entry, each with the types of its own format. */
function conditions(module: string) {
  return {
    import: { types: `./dist/esm/${module}.d.ts`, default: `./dist/esm/${module}.js` },
    require: { types: `./dist/cjs/${module}.d.ts`, default: `./dist/cjs/${module}.js` },
  };
}

function repository(packaging: PackagingIR, connectorId: string | undefined): PackagingIR['repository'] {
  const repo = packaging.repository;
  if (repo === undefined || typeof repo === 'string' || repo.directory === undefined) return repo;
  const id = connectorId ?? 'runtime';
  return { ...repo, directory: repo.directory.replaceAll('{id}', id).replaceAll('{connector}', id.replace(/_/g, '-')) };
}

/** package.json of a generated package, in a fixed key order (the `types` condition must come first). */
export function packageJson(packaging: PackagingIR, input: ManifestInput): string {
  const subpaths = Object.entries(input.subpaths).sort(([a], [b]) => (a < b ? -1 : 1));
  const repo = repository(packaging, input.connectorId);
  const publishConfig = { ...(packaging.registry ? { registry: packaging.registry } : {}), ...(packaging.access ? { access: packaging.access } : {}) };
  const manifest = {
    '//': input.header,
    name: input.name,
    version: input.version,
    description: input.description,
    license: packaging.license,
    ...(packaging.author ? { author: packaging.author } : {}),
    ...(packaging.homepage ? { homepage: packaging.homepage } : {}),
    ...(repo ? { repository: repo } : {}),
    type: 'module',
    sideEffects: false,
    // node10 resolution (and tools that ignore "exports") reads these: the CommonJS build.
    main: './dist/cjs/index.js',
    types: './dist/cjs/index.d.ts',
    exports: {
      '.': conditions('index'),
      ...Object.fromEntries(subpaths.map(([subpath, module]) => [subpath, conditions(module)])),
      './package.json': './package.json',
    },
    // Subpath types for node10 resolution, which does not read "exports".
    ...(subpaths.length ? { typesVersions: { '*': Object.fromEntries(subpaths.map(([subpath, module]) => [subpath.slice(2), [`./dist/cjs/${module}.d.ts`]])) } } : {}),
    ...(input.bin ? { bin: input.bin } : {}),
    files: ['dist', ...input.docs],
    scripts: { prepack: 'node prepack.cjs' },
    ...(Object.keys(input.dependencies).length ? { dependencies: input.dependencies } : {}),
    ...(input.bundled && Object.keys(input.bundled).length ? { devDependencies: input.bundled } : {}),
    engines: { node: input.node ?? '>=18' },
    ...(Object.keys(publishConfig).length ? { publishConfig } : {}),
  };
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/** The build tsconfig of a package: ESM and declarations into dist/esm, incremental, referencing the runtime. */
export function buildTsconfig(header: string, runtime?: { name: string; dir: string }): string {
  const config = {
    '//': header,
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      lib: ['ES2022', 'DOM', 'DOM.Iterable'],
      types: [],
      strict: true,
      declaration: true,
      composite: true,
      rootDir: 'src',
      outDir: 'dist/esm',
      tsBuildInfoFile: `${BUILD_STATE_DIR}/tsconfig.tsbuildinfo`,
      skipLibCheck: true,
      // The runtime is built first (a project reference); its sources stand for its package name here.
      ...(runtime ? { paths: { [runtime.name]: [`../${runtime.dir}/src/index.ts`] } } : {}),
    },
    include: ['src'],
    ...(runtime ? { references: [{ path: `../${runtime.dir}` }] } : {}),
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/**
 * prepack.cjs: run by npm before `npm pack` and `npm publish` in the package directory. It refuses when dist/ is
 * missing or was built from other sources than src/ holds now, so a package is never published empty or stale.
 * The hash is the one `connector-codegen build` writes to .build/stamp.json (generator/release/build.ts).
 */
export function prepackGuard(header: string, packageName: string): string {
  return `// ${header}
// Runs before npm pack / npm publish: refuses to package a build that is missing or older than src/.
'use strict';
const { createHash } = require('node:crypto');
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const path = require('node:path');

/** sha256 over src/: each file's path (relative, forward slashes) and content, in sorted order. */
function sourceHash() {
  const hash = createHash('sha256');
  const files = readdirSync('src', { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.relative('src', path.join(d.parentPath ?? d.path, d.name)).split(path.sep).join('/'))
    .sort();
  for (const file of files) hash.update(file).update('\\0').update(readFileSync(path.join('src', file))).update('\\0');
  return hash.digest('hex');
}

let stamp;
try {
  stamp = JSON.parse(readFileSync(${JSON.stringify(BUILD_STAMP)}, 'utf8'));
} catch {
  stamp = undefined;
}
const built = stamp && existsSync('dist/esm/index.js') && existsSync('dist/cjs/index.js');
if (!built || stamp.source !== sourceHash()) {
  console.error(
    ${JSON.stringify(packageName)} + (built ? ' was built from other sources than src/ holds now' : ' is not built') +
      ': run \`npx connector-codegen build\` in the project that generated it, then pack or publish again ' +
      '(\`npx connector-codegen publish\` builds and publishes every package in order).',
  );
  process.exit(1);
}
`;
}
