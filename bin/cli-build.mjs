// The CLI runs from a build of itself: ES modules bundled by esbuild from generator/cli/main.ts with code splitting (a
// small entry with the command declarations, and a chunk per command's work loaded when it runs), plus the worker
// threads' entries (generator/emitters/<name>/worker.ts → workers/<name>.mjs), kept in
// node_modules/.cache/connector-codegen-cli/ under the hash of the sources. npm ci builds it (through `prepare`); after
// that, a start only compares the sources' sizes and modification times with those recorded for the build (a stat
// per file, compared as one string: generator/lib/file-stats.mjs), and hashes the sources only when they differ.
// The same check covers the inputs of the generator version (generator/lib/generator-inputs.mjs), which is kept with
// the build and handed to the run, so a run does not check them again. Each module's import.meta.url stays its own
// source file's URL, so every path relative to a source file resolves as from source. If building is impossible,
// the CLI runs from source through tsx. A `generate` with nothing to do is answered by a module of its own
// (runCli), before the main module loads.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { filesUnder, statLines } from '../generator/lib/file-stats.mjs';
import { handOverVersion, versionDigest, versionInputs } from '../generator/lib/generator-inputs.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = ['generator', 'mock', 'runtime/src', 'mcp/src', 'bin/cli-build.mjs', 'package.json', 'package-lock.json'];
const cacheDir = path.join(root, 'node_modules/.cache/connector-codegen-cli');
/**
 * What the sources and the version's inputs were when last seen, and what they gave: { sources, build, inputs,
 * version } (sources and inputs as fingerprints).
 */
const currentFile = path.join(cacheDir, 'current.json');

/** The sources: for each entry of SOURCES, its files (relative to the entry). */
function sources(listings) {
  return SOURCES.map((entry) => ({ entry, files: filesUnder(path.join(root, entry), { include: (name) => /\.(ts|mjs|json)$/.test(name), listings }) }));
}

/** Path, size and modification time of every source: cheap, and changes whenever a source is edited. */
function fingerprint(list, seen) {
  return list.map(({ entry, files }) => statLines(entry, path.join(root, entry), files, seen)).join('');
}

/** Hash of the content of every source the bundle is built from. */
async function contentHash(list) {
  const { createHash } = await import('node:crypto');
  const hash = createHash('sha256');
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
 * An esbuild plugin that keeps every package but BUNDLED_PACKAGES external. Their require() of a Node built-in (an
 * ES module bundle has no require) becomes a module re-exporting the built-in's ES module.
 */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      const bare = args.path.replace(/^node:/, '');
      if (args.kind === 'require-call' && builtinModules.includes(bare)) return { path: bare, namespace: 'builtin' };
      const name = args.path.startsWith('@') ? args.path.split('/').slice(0, 2).join('/') : args.path.split('/')[0];
      return BUNDLED_PACKAGES.has(name) || args.path.startsWith('node:') ? undefined : { path: args.path, external: true };
    });
    build.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({ contents: `export * from 'node:${args.path}';`, loader: 'js' }));
  },
};

/** Builds the bundle for `hash` into its directory (atomically: built aside, then renamed). */
async function buildInto(hash) {
  const dir = path.join(cacheDir, `cli-${hash}`);
  const [{ build: esbuild }, { ownImportMetaUrl }] = await Promise.all([import('esbuild'), import('../generator/lib/own-import-meta-url.mjs')]);
  const temp = `${dir}.tmp-${process.pid}`;
  rmSync(temp, { recursive: true, force: true });
  const common = {
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
    plugins: [externalPackages, ownImportMetaUrl],
    // Tells emitters/emitter-host.ts where this build's worker entries are.
    define: { CONNECTOR_CODEGEN_CLI_BUILD: JSON.stringify(`cli-${hash}`) },
  };
  await Promise.all([
    esbuild({
      ...common,
      entryPoints: { main: path.join(root, 'generator/cli/main.ts'), ...workerEntries() },
      splitting: true,
      outdir: temp,
      // .mjs: Node knows the format from the name, without looking up a package.json for each module.
      outExtension: { '.js': '.mjs' },
      chunkNames: 'chunks/[name]-[hash]',
    }),
    // The fast no-op answer (generator/cli/noop.ts) as one module: loading it costs a no-op run less than the ~20
    // modules of main.mjs and its chunks it spares.
    esbuild({ ...common, entryPoints: [path.join(root, 'generator/cli/noop.ts')], outfile: path.join(temp, 'noop.mjs') }),
  ]);
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
 * The entry module of the build of the current sources, building it if needed; hands the generator version to the run
 * (generator-inputs.mjs handOverVersion).
 */
export async function buildCli() {
  const stats = new Map();
  const listings = new Map(); // both walks cover generator/, runtime/src and mcp/src: each directory read once
  const list = sources(listings);
  const seen = fingerprint(list, stats);
  const inputs = versionInputs(root, listings);
  const inputsSeen = inputs.map(({ label, root: dir, files }) => statLines(label, dir, files, stats)).join('');
  const current = readCurrent();
  let build = current?.sources === seen && existsSync(path.join(cacheDir, current.build, 'main.mjs')) ? current.build : undefined;
  const version = current?.inputs === inputsSeen && typeof current.version === 'string' ? current.version : versionDigest(inputs);
  if (build === undefined) {
    const hash = await contentHash(list);
    build = existsSync(path.join(cacheDir, `cli-${hash}`, 'main.mjs')) ? `cli-${hash}` : path.basename(await buildInto(hash));
  }
  if (build !== current?.build || version !== current?.version || seen !== current?.sources || inputsSeen !== current?.inputs) {
    mkdirSync(cacheDir, { recursive: true });
    const temp = `${currentFile}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify({ sources: seen, build, inputs: inputsSeen, version }));
    renameSync(temp, currentFile);
  }
  handOverVersion(root, version);
  return path.join(cacheDir, build, 'main.mjs');
}

/** The build's entry module (buildCli), or undefined when running from source (asked for, or no build to be had). */
async function builtEntry() {
  if (process.env.CONNECTOR_CODEGEN_FROM_SOURCE) return undefined;
  try {
    return await buildCli();
  } catch {
    return undefined;
  }
}

/** The CLI module: from the build (`entry`, from buildCli) when it can be had, else from source through tsx. */
export async function loadCli(entry) {
  if (entry !== undefined) {
    try {
      return await import(pathToFileURL(entry).href);
    } catch {
      // fall through: run from source
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  return import('../generator/cli/main.ts');
}

/**
 * Runs the CLI on `argv`; returns the exit code. A `generate` with nothing to do is answered by the build's noop.mjs
 * (generator/cli/noop.ts) without loading the CLI's main module; whatever it leaves, the CLI does.
 */
export async function runCli(argv) {
  const entry = await builtEntry();
  if (entry !== undefined && argv[0] === 'generate') {
    try {
      const { answerNoop } = await import(pathToFileURL(path.join(path.dirname(entry), 'noop.mjs')).href);
      const code = answerNoop(argv, (text) => void process.stdout.write(text));
      if (code !== undefined) return code;
    } catch {
      // the CLI answers
    }
  }
  const { main } = await loadCli(entry);
  return main(argv);
}

// `node bin/cli-build.mjs` (npm's prepare): build it now.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildCli();
