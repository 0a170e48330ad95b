/**
 * `connector-codegen build`: compiles every generated package into dist/, in dependency order and incrementally.
 *
 * 1. `tsc -b <output>` over the solution tsconfig the packages emitter writes: the runtime first (a project
 *    reference of every connector), ESM JavaScript and declarations into dist/esm, skipping projects whose
 *    inputs are unchanged (tsc's build info in .build/).
 * 2. The CommonJS build is derived per file from dist/esm (esbuild's transform: ESM syntax to CommonJS, nothing
 *    else changes), beside copies of the declarations and a `{ "type": "commonjs" }` package.json, so both formats
 *    come from one type-check. Only files whose ESM output changed are transformed.
 *    A package that inlines third-party code (devDependencies: the MCP server) is bundled instead (bundle.ts).
 * 3. `.build/stamp.json` records the hash of the sources built, which each package's prepack guard compares.
 * The runtime is also linked into `<output>/node_modules/`, so packages installed by link find it.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, readlink, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD_STAMP } from '../emitters/packages/manifest.js';
import { displayPath } from '../lib/display-path.js';
import { bundlePackage, isBundled, type BundleManifest } from './bundle.js';

const require = createRequire(import.meta.url);

/** One package of the output directory. */
export interface OutputPackage {
  /** npm name. */
  name: string;
  /** Version. */
  version: string;
  /** Absolute directory. */
  dir: string;
}

/** What a build did to one package. */
export interface BuiltPackage extends OutputPackage {
  /** Whether its dist/ changed in this run (false: it was up to date). */
  changed: boolean;
}

/** The packages of an output directory in build order: the solution tsconfig's references (runtime first). */
export async function outputPackages(outDir: string): Promise<OutputPackage[]> {
  const solution = path.join(outDir, 'tsconfig.json');
  let references: { path: string }[];
  try {
    references = (JSON.parse(await readFile(solution, 'utf8')) as { references?: { path: string }[] }).references ?? [];
  } catch {
    throw new Error(`${displayPath(outDir)} holds no generated packages (no ${displayPath(solution)}): run \`npx connector-codegen generate --out ${displayPath(outDir)}\` first`);
  }
  return Promise.all(
    references.map(async (ref) => {
      const dir = path.resolve(outDir, ref.path);
      const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { name: string; version: string };
      return { name: manifest.name, version: manifest.version, dir };
    }),
  );
}

/** sha256 over a package's src/: each file's relative path and content, sorted (the prepack guard computes the same). */
export async function sourceHash(dir: string): Promise<string> {
  const src = path.join(dir, 'src');
  const files = (await readdir(src, { recursive: true, withFileTypes: true }))
    .filter((d) => d.isFile())
    .map((d) => path.relative(src, path.join(d.parentPath, d.name)).split(path.sep).join('/'))
    .sort();
  const hash = createHash('sha256');
  for (const file of files) hash.update(file).update('\0').update(await readFile(path.join(src, file))).update('\0');
  return hash.digest('hex');
}

/** Runs tsc -b; rejects with its diagnostics when the build fails. */
function typescriptBuild(outDir: string): Promise<void> {
  const tsc = require.resolve('typescript/bin/tsc');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsc, '-b', path.join(outDir, 'tsconfig.json')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`TypeScript could not build the packages in ${displayPath(outDir)}:\n${output.trimEnd()}`))));
  });
}

async function mtime(file: string): Promise<number | undefined> {
  return stat(file).then(
    (s) => s.mtimeMs,
    () => undefined,
  );
}

/** Files under `dir` (relative, forward slashes), or none when it does not exist. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((d) => d.isFile()).map((d) => path.relative(dir, path.join(d.parentPath, d.name)).split(path.sep).join('/'));
}

/**
 * Brings dist/ in line with src/: removes ESM output of deleted sources (tsc -b never does), then derives the
 * CommonJS build from the ESM one. Returns whether anything in dist/ changed.
 */
async function deriveCommonJs(dir: string, transform: (code: string, file: string) => Promise<string>): Promise<boolean> {
  const esm = path.join(dir, 'dist/esm');
  const cjs = path.join(dir, 'dist/cjs');
  const sources = new Set((await filesUnder(path.join(dir, 'src'))).map((f) => f.replace(/\.ts$/, '')));
  let changed = false;
  const esmFiles: string[] = [];
  for (const file of await filesUnder(esm)) {
    if (sources.has(file.replace(/\.(d\.ts|js)$/, ''))) esmFiles.push(file);
    else {
      await rm(path.join(esm, file), { force: true });
      changed = true;
    }
  }
  const wanted = new Set([...esmFiles, 'package.json']);
  for (const file of await filesUnder(cjs)) {
    if (!wanted.has(file)) {
      await rm(path.join(cjs, file), { force: true });
      changed = true;
    }
  }
  for (const file of esmFiles) {
    const from = path.join(esm, file);
    const to = path.join(cjs, file);
    const [source, target] = await Promise.all([mtime(from), mtime(to)]);
    if (target !== undefined && source !== undefined && target >= source) continue;
    await mkdir(path.dirname(to), { recursive: true });
    if (file.endsWith('.d.ts')) await copyFile(from, to);
    else await writeFile(to, await transform(await readFile(from, 'utf8'), from));
    changed = true;
  }
  const marker = path.join(cjs, 'package.json');
  if (!existsSync(marker)) {
    await writeFile(marker, '{ "type": "commonjs" }\n');
    changed = true;
  }
  return changed;
}

/**
 * `<output>/node_modules/<runtime name>` → `<output>/runtime`: a connector package installed by link (`npm install
 * <output>/payments`) resolves its runtime from its real path, so the runtime must be findable from there.
 */
async function linkRuntime(outDir: string, runtime: OutputPackage): Promise<void> {
  await linkPackage(outDir, runtime.name, runtime.dir);
}

/** A package of connector-codegen's own installation (its node_modules, walking up), by name. */
function ownPackageDir(name: string): string | undefined {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', ...name.split('/'));
    if (existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * `<output>/node_modules/<name>` → connector-codegen's own copy, for each dependency or package to inline of a
 * generated package that the output does not hold (the MCP server's SDK and ajv) and for Node's types: tsc and the
 * bundler resolve them from the output directory, wherever it is. The copies are this repository's tested versions
 * (the MCP package pins the same; the bundler checks).
 */
async function linkDependencies(outDir: string, manifests: BundleManifest[]): Promise<void> {
  const own = new Set(manifests.map((m) => m.name));
  const names = new Set<string>();
  for (const manifest of manifests) {
    for (const name of Object.keys({ ...manifest.dependencies, ...manifest.devDependencies })) if (!own.has(name)) names.add(name);
  }
  if (names.size === 0) return;
  names.add('@types/node');
  for (const name of [...names].sort()) {
    const target = ownPackageDir(name);
    if (!target) throw new Error(`building the packages in ${displayPath(outDir)} needs ${name}, which connector-codegen's installation does not have: run npm install in connector-codegen`);
    await linkPackage(outDir, name, target);
  }
}

/** Links `<output>/node_modules/<name>` to `target` (unless it already does). */
async function linkPackage(outDir: string, name: string, target: string): Promise<void> {
  const link = path.join(outDir, 'node_modules', ...name.split('/'));
  const relative = path.relative(path.dirname(link), target);
  if ((await readlink(link).catch(() => undefined)) === relative) return;
  await rm(link, { recursive: true, force: true });
  await mkdir(path.dirname(link), { recursive: true });
  await symlink(relative, link, 'junction');
}

/** Builds every package of `outDir` that is not up to date; returns them all in build order. */
export async function buildPackages(outDir: string): Promise<BuiltPackage[]> {
  const packages = await outputPackages(outDir);
  const manifests = await Promise.all(packages.map(async (p) => JSON.parse(await readFile(path.join(p.dir, 'package.json'), 'utf8')) as BundleManifest));
  if (packages[0]) await linkRuntime(outDir, packages[0]);
  await linkDependencies(outDir, manifests);
  const before = await Promise.all(packages.map((p) => readFile(path.join(p.dir, BUILD_STAMP), 'utf8').catch(() => '')));
  await typescriptBuild(outDir);
  const esbuild = await import('esbuild');
  const transform = async (code: string, file: string) =>
    (await esbuild.transform(code, { format: 'cjs', platform: 'node', target: 'node18', sourcefile: file, logLevel: 'silent' })).code;
  return Promise.all(
    packages.map(async (p, i) => {
      const distChanged = isBundled(manifests[i]!) ? await bundlePackage(p.dir, manifests[i]!, esbuild) : await deriveCommonJs(p.dir, transform);
      const stamp = `${JSON.stringify({ source: await sourceHash(p.dir) })}\n`;
      if (stamp !== before[i]) {
        await mkdir(path.dirname(path.join(p.dir, BUILD_STAMP)), { recursive: true });
        await writeFile(path.join(p.dir, BUILD_STAMP), stamp);
      }
      return { ...p, changed: distChanged || stamp !== before[i] };
    }),
  );
}
