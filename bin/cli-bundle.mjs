// How the CLI is bundled (bin/cli-build.cjs decides when): two CommonJS scripts that share their modules, run with
// V8 code caches (bin/code-cache.cjs), and one script per worker thread's entry.
//
// - start.cjs: what every run loads — generator/cli/main.ts and everything it imports, plus generate.ts (the no-op
//   path of generate). Its dynamic imports of other modules are answered by the work script.
// - work.cjs: everything else (reading the spec, the emitters, formatting, every other command's work), loaded on the
//   first dynamic import that needs it. A module of the start script it imports is taken from the start script, so
//   each module exists once (one SpecError class, one state per module).
// - workers/<name>.cjs: each emitter worker thread's entry, and noop.cjs, the fast answer of a generate with nothing to
//   do (generator/cli/noop.ts, run instead of the CLI): self-contained, since each runs alone.
//
// The scripts ask each other for modules through `require('connector-codegen:modules')` (code-cache.cjs provides it):
// `.start(path)` and `.work(path)` return the namespace of a module by its path relative to the repository.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { MODULES } from './code-cache.cjs';

/**
 * Suffix of a module standing for one of the other script's: a CommonJS module (the name tells esbuild so, whatever
 * the module it stands for is) whose exports are that module's namespace.
 */
const PROXY = '#proxy.cjs';

/** The module that stands for the module `proxyPath` (path + PROXY) of the `side` script. */
function proxy(side, proxyPath) {
  return { contents: `module.exports = require(${JSON.stringify(MODULES)}).${side}(${JSON.stringify(proxyPath.slice(0, -PROXY.length))});`, loader: 'js' };
}

/** Dynamic imports answered by the start script itself: the no-op path of generate. */
const START_DYNAMIC = new Set(['generator/generate.ts']);

/**
 * Bundles the CLI of the repository `root` into `outdir` with esbuild: start.cjs, work.cjs and the `standalone`
 * scripts (name → source file). `plugins` and `define` are the build's own.
 */
export async function bundleCli({ esbuild, root, outdir, standalone, plugins, define }) {
  const rel = (file) => path.relative(root, file).split(path.sep).join('/');
  // No import() in the scripts: code from a V8 code cache cannot run one on Node 20 (generator/lib/native-import.ts).
  // A package's becomes a require(); the modules of the repository are bundled.
  const supported = { 'dynamic-import': false };
  const common = { bundle: true, format: 'cjs', platform: 'node', target: 'node20', logLevel: 'silent', define, metafile: true, absWorkingDir: root, supported };
  const mainFile = path.join(root, 'generator/cli/main.ts');

  // 1. The start script's modules: main.ts's graph, with dynamic imports outside START_DYNAMIC left to the work script.
  const workEntries = new Set();
  const toWork = (inStart) => ({
    name: 'dynamic-imports-to-work',
    setup(build) {
      build.onResolve({ filter: /^\./ }, async (args) => {
        if (args.kind !== 'dynamic-import' || args.pluginData === 'resolving') return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'resolving' });
        if (resolved.errors.length || START_DYNAMIC.has(rel(resolved.path)) || inStart?.has(rel(resolved.path))) return undefined;
        workEntries.add(rel(resolved.path));
        return { path: `${rel(resolved.path)}${PROXY}`, namespace: 'work-module' };
      });
      build.onLoad({ filter: /.*/, namespace: 'work-module' }, (args) => proxy('work', args.path));
    },
  });
  const external = { name: 'modules-external', setup: (build) => build.onResolve({ filter: new RegExp(`^${MODULES}$`) }, () => ({ path: MODULES, external: true })) };
  const probe = await esbuild({ ...common, entryPoints: [mainFile], write: false, outfile: 'start.cjs', plugins: [toWork(), external, ...plugins] });
  // The repository's modules of the start script (a bundled package's files are bundled into each script that uses them).
  const inStart = new Set(Object.keys(probe.metafile.inputs).filter((f) => !f.includes(':') && !f.startsWith('node_modules/')));

  // 2. The start script: main.ts's exports, and every module of its graph by path (for the work script).
  const registry = (paths) =>
    `export function module(path) {\n  switch (path) {\n${[...paths].sort().map((p) => `    case ${JSON.stringify(p)}: return require(${JSON.stringify(path.join(root, p))});`).join('\n')}\n  }\n  throw new Error('internal: no module ' + path);\n}\n`;
  const source = (name, contents) => ({
    name: `${name}-entry`,
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${name}-entry$`) }, () => ({ path: name, namespace: 'entry' }));
      build.onLoad({ filter: /.*/, namespace: 'entry' }, () => ({ contents, loader: 'js', resolveDir: root }));
    },
  });
  const startCode = `export * from ${JSON.stringify(mainFile)};\n${registry(inStart)}`;
  workEntries.clear();
  await esbuild({ ...common, entryPoints: ['start-entry'], outfile: path.join(outdir, 'start.cjs'), plugins: [source('start', startCode), toWork(inStart), external, ...plugins] });

  // 3. The work script: every module the start script asked for, taking the start script's modules from it.
  const fromStart = {
    name: 'start-modules',
    setup(build) {
      build.onResolve({ filter: /^\./ }, async (args) => {
        if (args.pluginData === 'resolving' || args.namespace === 'entry') return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: 'resolving' });
        return !resolved.errors.length && inStart.has(rel(resolved.path)) ? { path: `${rel(resolved.path)}${PROXY}`, namespace: 'start-module' } : undefined;
      });
      build.onLoad({ filter: /.*/, namespace: 'start-module' }, (args) => proxy('start', args.path));
    },
  };
  await esbuild({ ...common, entryPoints: ['work-entry'], outfile: path.join(outdir, 'work.cjs'), plugins: [source('work', registry(workEntries)), fromStart, external, ...plugins] });

  // 4. The scripts that run alone.
  await esbuild({ ...common, entryPoints: standalone, outdir, outExtension: { '.js': '.cjs' }, plugins });
  for (const file of readdirSync(outdir, { recursive: true })) if (String(file).endsWith('.cjs')) asciiOnly(path.join(outdir, String(file)));
}

/**
 * Escapes what esbuild leaves beyond ASCII (it escapes strings, not comments or regular expression literals): a script
 * in ASCII is read as Latin-1, a copy (bin/code-cache.cjs), and held as a one-byte string, where UTF-8 text with one
 * arrow in a comment is decoded and held as two bytes per character (work.cjs: ~2 MB). `\uXXXX` means the same
 * character in a comment, a regular expression (surrogate pairs included) and a string — but not after a backslash
 * (`/\→/` would become an escaped backslash): a script with one is left as written, read as UTF-8, slower only.
 * @param {string} file
 */
function asciiOnly(file) {
  const code = readFileSync(file, 'utf8');
  // eslint-disable-next-line no-control-regex
  if (/\\[^\x00-\x7f]/.test(code)) return;
  // eslint-disable-next-line no-control-regex
  const escaped = code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (escaped !== code) writeFileSync(file, escaped);
}
