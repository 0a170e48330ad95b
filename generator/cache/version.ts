/**
 * The generator's version for caching: a digest of everything besides the spec and the config that shapes the output
 * — the generator's sources, templates, the runtime (copied into the output), the release state (versions and
 * changelogs), and the versions of the packages that print the output. A cache entry made by another version is never
 * read. Hashing ~200 files on every start is what a no-op run must not pay, so the digest is remembered with a
 * fingerprint of the files' paths, sizes and modification times (as build tools and bin/cli-build.mjs do): when those
 * are unchanged, the digest is reused after a few stat calls.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { releaseDir } from '../release/state.js';

const generatorDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(generatorDir, '..');
/** Packages whose version changes generated output. */
const OUTPUT_DEPENDENCIES = ['ajv', 'handlebars', 'prettier', 'yaml'];
/** The default cache directory: outside the committed tree, safe to delete. */
export const DEFAULT_CACHE_DIR = path.join(repoRoot, 'node_modules/.cache/connector-codegen');

/** Files under `dir` (sorted absolute paths), skipping installed and built directories. */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile())
      .map((e) => path.join(e.parentPath, e.name))
      .filter((f) => !f.includes(`${path.sep}node_modules${path.sep}`) && !f.includes(`${path.sep}dist${path.sep}`))
      .sort();
  } catch {
    return [];
  }
}

/** Every input of the version, by label (the label and relative path are hashed, so a move changes the digest). */
function versionInputs(): { label: string; root: string; files: string[] }[] {
  const roots = [
    ['generator', generatorDir],
    ['templates', path.join(repoRoot, 'templates')],
    ['runtime', path.join(repoRoot, 'runtime')],
    ['release', releaseDir()],
    // The MCP server's sources (copied into <output>/mcp/).
    ['mcp', path.join(repoRoot, 'mcp')],
  ] as const;
  const inputs: { label: string; root: string; files: string[] }[] = roots.map(([label, root]) => ({ label, root, files: filesUnder(root) }));
  const deps = OUTPUT_DEPENDENCIES.map((dep) => path.join(repoRoot, 'node_modules', dep, 'package.json'));
  inputs.push({ label: 'dep', root: path.join(repoRoot, 'node_modules'), files: deps });
  // The MCP package pins the MCP SDK and ajv at the versions this package.json names.
  inputs.push({ label: 'package', root: repoRoot, files: [path.join(repoRoot, 'package.json')] });
  return inputs;
}

/** Paths, sizes and modification times of the files: cheap, and changes whenever one is edited. */
export function fingerprint(files: { label: string; root: string; files: string[] }[]): string {
  const hash = createHash('sha256');
  for (const { label, root, files: list } of files) {
    for (const file of list) {
      const s = statSync(file, { throwIfNoEntry: false });
      hash.update(`${label}/${path.relative(root, file)}\0${s?.size ?? -1}\0${s?.mtimeMs ?? -1}\n`);
    }
  }
  return hash.digest('hex');
}

function contentDigest(inputs: { label: string; root: string; files: string[] }[]): string {
  const hash = createHash('sha256');
  for (const { label, root, files } of inputs) {
    for (const file of files) {
      let content: Buffer | string;
      try {
        content = readFileSync(file);
      } catch {
        content = '\0missing';
      }
      // Of a dependency, only its version counts (its package.json also lists install-time fields).
      if (label === 'dep') content = String((JSON.parse(content.toString()) as { version?: string }).version);
      hash.update(`${label}/${path.relative(root, file)}\n`).update(content).update('\n');
    }
  }
  return hash.digest('hex');
}

/** The generator version (hex digest), remembered under `cacheDir` by fingerprint. */
export function generatorVersion(cacheDir: string = DEFAULT_CACHE_DIR): string {
  const inputs = versionInputs();
  const seen = fingerprint(inputs);
  const memo = path.join(cacheDir, 'version.json');
  try {
    const known = JSON.parse(readFileSync(memo, 'utf8')) as { fingerprint?: string; version?: string };
    if (known.fingerprint === seen && typeof known.version === 'string') return known.version;
  } catch {
    // none yet
  }
  const version = contentDigest(inputs);
  try {
    mkdirSync(cacheDir, { recursive: true });
    const temp = `${memo}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify({ fingerprint: seen, version }));
    renameSync(temp, memo);
  } catch {
    // A memo that cannot be written only costs the next run the hashing.
  }
  return version;
}
