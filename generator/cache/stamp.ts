/**
 * No-op detection, as build tools do it: a digest of every input of generation (spec files, generator
 * sources, templates, emitter dependency versions) and the content hashes of the files the last run wrote,
 * kept in a local cache (node_modules/.cache, never committed). When the inputs are unchanged and every output
 * file on disk still has its recorded hash, generation has nothing to do and skips loading the spec.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { releaseDir } from '../release/state.js';
import { isBuildProduct } from '../write.js';

const generatorDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(generatorDir, '..');
const require = createRequire(import.meta.url);
/** Packages whose version changes generated output. */
const OUTPUT_DEPENDENCIES = ['ajv', 'handlebars', 'prettier', 'yaml'];

/** What the cache remembers of one output directory. */
export interface Stamp {
  /** Digest of all inputs. */
  inputs: string;
  /** Output file (relative path) → sha256 of its content. */
  files: Record<string, string>;
}

/** sha256 of a string, hex. */
export function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)).sort();
}

/** Digest of everything that determines the output of `generate` for `specDir` and the config's `target`. */
export async function inputDigest(specDir: string, target = ''): Promise<string> {
  const hash = createHash('sha256');
  hash.update(`spec-dir-name:${path.basename(path.resolve(specDir))}\n`);
  // The config's package naming and connector selection (serialized by the caller).
  hash.update(`target:${target}\n`);
  const groups: [string, string[]][] = [
    ['spec', await filesUnder(specDir)],
    ['generator', await filesUnder(generatorDir)],
    ['templates', await filesUnder(path.join(repoRoot, 'templates'))],
    // Package versions and changelogs (release state), and the runtime (copied into <output>/runtime/).
    ['release', await filesUnder(releaseDir())],
    ['runtime', (await filesUnder(path.join(repoRoot, 'runtime'))).filter((f) => !f.includes(`${path.sep}node_modules${path.sep}`) && !f.includes(`${path.sep}dist${path.sep}`))],
    // The MCP server (copied into <output>/mcp/), and the SDK and ajv versions its package pins (package.json).
    ['mcp', [...(await filesUnder(path.join(repoRoot, 'mcp'))), path.join(repoRoot, 'package.json')]],
  ];
  const roots: Record<string, string> = { spec: specDir, generator: generatorDir, templates: path.join(repoRoot, 'templates'), release: releaseDir(), runtime: path.join(repoRoot, 'runtime'), mcp: path.join(repoRoot, 'mcp') };
  for (const [label, files] of groups) {
    const root = roots[label]!;
    const contents = await Promise.all(files.map((f) => readFile(f)));
    files.forEach((f, i) => hash.update(`${label}/${path.relative(root, f)}\n`).update(contents[i]!).update('\n'));
  }
  for (const dep of OUTPUT_DEPENDENCIES) {
    const version = (require(`${dep}/package.json`) as { version: string }).version;
    hash.update(`dep:${dep}@${version}\n`);
  }
  return hash.digest('hex');
}

function cacheFile(outDir: string): string {
  return path.join(repoRoot, 'node_modules/.cache/connector-codegen', `${sha256(path.resolve(outDir)).slice(0, 16)}.json`);
}

/** The stamp of the last run into `outDir`, if any. */
export async function readStamp(outDir: string): Promise<Stamp | undefined> {
  try {
    return JSON.parse(await readFile(cacheFile(outDir), 'utf8')) as Stamp;
  } catch {
    return undefined;
  }
}

/** Records a run (best effort: a cache that cannot be written only costs the next run its shortcut). */
export async function writeStamp(outDir: string, stamp: Stamp): Promise<void> {
  const file = cacheFile(outDir);
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(`${file}.tmp-${process.pid}`, JSON.stringify(stamp));
    await rename(`${file}.tmp-${process.pid}`, file);
  } catch {
    // ignored on purpose: see above
  }
}

/** Whether `outDir` holds exactly the stamped files, each with its stamped content. */
export async function outputMatches(outDir: string, stamp: Stamp): Promise<boolean> {
  const present = (await filesUnder(outDir)).map((f) => path.relative(outDir, f).split(path.sep).join('/')).filter((f) => !isBuildProduct(f));
  const expected = Object.keys(stamp.files).sort();
  if (present.length !== expected.length || present.some((f, i) => f !== expected[i])) return false;
  const hashes = await Promise.all(expected.map(async (f) => sha256(await readFile(path.join(outDir, f)))));
  return hashes.every((h, i) => h === stamp.files[expected[i]!]);
}
