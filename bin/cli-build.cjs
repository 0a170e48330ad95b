// The CLI runs from a build of itself: two scripts bundled by esbuild from generator/cli/main.ts (a start script with
// the command line and the no-op path of generate, and a work script with everything else, loaded when needed), plus
// the worker threads' entries (generator/emitters/<name>/worker.ts → workers/<name>.cjs), run with V8 code caches
// (bin/cli-bundle.mjs, bin/code-cache.cjs) and kept in node_modules/.cache/connector-codegen-cli/ under the hash of
// the sources. npm ci builds it (through `prepare`); after
// that, a start only compares the sources' sizes and modification times with those recorded for the build (a stat
// per file, compared as one string: generator/lib/file-stats.cjs), and hashes the sources only when they differ.
// The same check covers the inputs of the generator version (generator/lib/generator-inputs.cjs), which is kept with
// the build and handed to the run, so a run does not check them again. Each module's import.meta.url stays its own
// source file's URL, so every path relative to a source file resolves as from source. If building is impossible,
// the CLI runs from source through tsx. A `generate` with nothing to do is answered by a module of its own
// (runCli), before the main module loads.
'use strict';
const { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { filesUnder, statLines } = require('../generator/lib/file-stats.cjs');
const { outputTo } = require('../generator/lib/fd-output.cjs');
const { handOverVersion, versionDigest, versionInputs } = require('../generator/lib/generator-inputs.cjs');
const { tuneV8 } = require('./v8-tuning.cjs');

const root = path.resolve(__dirname, '..');
const SOURCES = ['generator', 'mock', 'runtime/src', 'mcp/src', 'bin/cli-build.cjs', 'bin/cli-bundle.mjs', 'package.json', 'package-lock.json'];
const cacheDir = path.join(root, 'node_modules/.cache/connector-codegen-cli');
/**
 * What the sources and the version's inputs were when last seen, and what they gave: { sources, build, inputs,
 * version } (sources and inputs as fingerprints).
 */
const currentFile = path.join(cacheDir, 'current.json');

/** The sources: for each entry of SOURCES, its files (relative to the entry). */
function sources(listings) {
  return SOURCES.map((entry) => ({ entry, files: filesUnder(path.join(root, entry), { include: (name) => /\.(ts|mjs|cjs|json)$/.test(name), listings }) }));
}

/** Path, size and modification time of every source: cheap, and changes whenever a source is edited. */
function fingerprint(list, seen) {
  return list.map(({ entry, files }) => statLines(entry, path.join(root, entry), files, seen)).join('');
}

/**
 * Hash of the content of every source the bundle is built from, and of where they are: the build holds their absolute
 * paths (import.meta.url, the runtime and templates it copies), so a checkout copied or moved with its node_modules
 * builds its own instead of running from the original's files.
 */
function contentHash(list) {
  const { createHash } = require('node:crypto');
  const hash = createHash('sha256').update(root).update('\0');
  for (const { entry, files } of list) {
    for (const rel of files) hash.update(path.posix.join(entry, rel)).update('\0').update(readFileSync(path.join(root, entry, rel))).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

function readCurrent() {
  try {
    return JSON.parse(readFileSync(currentFile, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Every emitter that runs in a worker thread has a `worker.ts` in its folder: an entry `workers/<folder>` of the build. */
function workerEntries() {
  const emitters = path.join(root, 'generator/emitters');
  return Object.fromEntries(
    readdirSync(emitters, { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(path.join(emitters, d.name, 'worker.ts')))
      .map((d) => [`workers/${d.name}`, path.join(emitters, d.name, 'worker.ts')]),
  );
}

/**
 * Packages bundled into the CLI rather than loaded from node_modules: yaml, handlebars and ajv (with its dependencies)
 * are dozens of CommonJS files each, which cost a run more to load one by one (yaml: ~40 ms of CPU; ajv, loaded by the
 * emitter host to compile validators: ~35 ms) than as part of a chunk (~8 ms); js-yaml, one ES module, joins the chunk
 * of the spec loader that reads every spec file with it (generator/spec/yaml-fast.ts). yaml is imported dynamically
 * (yaml-source.ts loadYaml), so its code is a chunk of its own, loaded only when a file needs it. Their versions are
 * pinned by package.json and package-lock.json, sources of the build. Every other package is loaded from node_modules.
 */
const BUNDLED_PACKAGES = new Set(['yaml', 'js-yaml', 'handlebars', 'ajv', 'fast-deep-equal', 'fast-uri', 'json-schema-traverse', 'require-from-string']);
/**
 * Modules of other packages bundled alone: prettier's doc builders and printer (emitters/ts/doc.ts), 62 KB that every
 * run with TypeScript to print loads, in the main thread and in the emitter host. Loaded from node_modules they cost
 * ~5 ms of CPU each time (resolving the package's exports, compiling); in the build they come with its code cache. The
 * rest of prettier stays outside (the formatter's worker loads it when a file needs formatting).
 */
const BUNDLED_MODULES = new Set(['prettier/doc']);

/** An esbuild plugin that keeps every package but BUNDLED_PACKAGES and BUNDLED_MODULES external. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      return BUNDLED_PACKAGES.has(name) || BUNDLED_MODULES.has(args.path) || args.path.startsWith('node:') ? undefined : { path: args.path, external: true };
    });
  },
};

/** Builds the CLI for `hash` into its directory (atomically: built aside, then renamed). */
async function buildInto(hash) {
  const dir = path.join(cacheDir, `cli-${hash}`);
  const [{ build: esbuild }, { ownImportMetaUrl }, { bundleCli }] = await Promise.all([
    import('esbuild'),
    import('../generator/lib/own-import-meta-url.mjs'),
    import('./cli-bundle.mjs'),
  ]);
  const temp = `${dir}.tmp-${process.pid}`;
  rmSync(temp, { recursive: true, force: true });
  // The define tells emitters/emitter-host.ts where this build's worker entries are.
  await bundleCli({
    esbuild,
    root,
    outdir: temp,
    // The fast no-op answer (generator/cli/noop.ts) stands alone: a no-op run loads it instead of the CLI.
    standalone: { ...workerEntries(), noop: path.join(root, 'generator/cli/noop.ts') },
    plugins: [externalPackages, ownImportMetaUrl],
    define: { CONNECTOR_CODEGEN_CLI_BUILD: JSON.stringify(`cli-${hash}`) },
  });
  try {
    renameSync(temp, dir);
  } catch {
    rmSync(temp, { recursive: true, force: true }); // another process built it first
  }
  // Builds of other sources go; another process's build of these sources is left alone.
  for (const old of readdirSync(cacheDir)) if (old.startsWith('cli-') && !old.startsWith(`cli-${hash}`) && !old.includes('.tmp-')) rmSync(path.join(cacheDir, old), { recursive: true, force: true });
  return dir;
}

/**
 * The directory of the build of the current sources, building it if needed; hands the generator version to the run
 * (generator-inputs.cjs handOverVersion).
 */
async function buildCli() {
  const stats = new Map();
  const listings = new Map(); // both walks cover generator/, runtime/src and mcp/src: each directory read once
  const list = sources(listings);
  const seen = `${root}\n${fingerprint(list, stats)}`; // the location too: see contentHash
  const inputs = versionInputs(root, listings);
  const inputsSeen = inputs.map(({ label, root: dir, files }) => statLines(label, dir, files, stats)).join('');
  const current = readCurrent();
  let build = current?.sources === seen && existsSync(path.join(cacheDir, current.build, 'start.cjs')) ? current.build : undefined;
  const version = current?.inputs === inputsSeen && typeof current.version === 'string' ? current.version : versionDigest(inputs);
  if (build === undefined) {
    const hash = contentHash(list);
    build = existsSync(path.join(cacheDir, `cli-${hash}`, 'start.cjs')) ? `cli-${hash}` : path.basename(await buildInto(hash));
  }
  if (build !== current?.build || version !== current?.version || seen !== current?.sources || inputsSeen !== current?.inputs) {
    mkdirSync(cacheDir, { recursive: true });
    const temp = `${currentFile}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify({ sources: seen, build, inputs: inputsSeen, version }));
    renameSync(temp, currentFile);
  }
  handOverVersion(root, version);
  return path.join(cacheDir, build);
}

/** The build's directory (buildCli), or undefined when running from source (asked for, or no build to be had). */
async function builtDir() {
  if (process.env.CONNECTOR_CODEGEN_FROM_SOURCE) return undefined;
  try {
    return await buildCli();
  } catch {
    return undefined;
  }
}

/** The CLI's main module: from the build (`dir`, from buildCli) when it can be had, else from source through tsx. */
async function loadCli(dir) {
  if (dir !== undefined) {
    try {
      return require('./code-cache.cjs').loadBuild(dir);
    } catch {
      // fall through: run from source
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  return import('../generator/cli/main.ts');
}

/**
 * Runs the CLI on `argv`; returns the exit code. A `generate` with nothing to do is answered by the build's noop.cjs
 * (generator/cli/noop.ts) without loading the CLI; whatever it leaves, the CLI does. What the run compiled goes to the
 * build's code caches (bin/code-cache.cjs).
 */
async function runCli(argv) {
  const dir = await builtDir();
  const codeCache = dir === undefined ? undefined : require('./code-cache.cjs');
  if (codeCache && argv[0] === 'generate') {
    try {
      const code = codeCache.runScript(path.join(dir, 'noop.cjs')).answerNoop(argv, outputTo(1));
      if (code !== undefined) {
        codeCache.saveCodeCache('no-op');
        return code;
      }
    } catch {
      // the CLI answers
    }
  }
  tuneV8(); // before the CLI's code compiles: the flags apply to code compiled after them
  const cli = await loadCli(dir);
  const code = await cli.main(argv);
  codeCache?.saveCodeCache(cli.runKind?.() ?? argv.find((arg) => !arg.startsWith('-')) ?? '');
  return code;
}

exports.buildCli = buildCli;
exports.loadCli = loadCli;
exports.runCli = runCli;

// `node bin/cli-build.cjs` (npm's prepare): build it now.
if (require.main === module) {
  buildCli().catch((error) => {
    console.error(`connector-codegen: could not build the CLI: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
