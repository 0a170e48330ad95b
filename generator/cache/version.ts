/**
 * The generator's version for caching: a digest of everything besides the spec and the config that shapes the output
 * — the generator's sources, templates, the runtime (copied into the output), the release state (versions and
 * changelogs), and the versions of the packages that print the output. A cache entry made by another version is never
 * read. Hashing ~200 files on every start is what a no-op run must not pay, so the digest is remembered with a
 * fingerprint of the files' paths, sizes and modification times (lib/file-stats.mjs, as build tools and
 * bin/cli-build.mjs do): when those are unchanged, the digest is reused after a stat per file.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { releaseDir } from '../release/state.js';
import { filesUnder, statLines } from '../lib/file-stats.mjs';
import { sha256Hash } from '../lib/sha256.js';

const generatorDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(generatorDir, '..');
/** Packages whose version changes generated output. */
const OUTPUT_DEPENDENCIES = ['ajv', 'handlebars', 'prettier', 'yaml'];
/** The default cache directory: outside the committed tree, safe to delete. */
export const DEFAULT_CACHE_DIR = path.join(repoRoot, 'node_modules/.cache/connector-codegen');
/** Directories below an input root that hold installed or built files, not inputs. */
const NOT_INPUTS = new Set(['node_modules', 'dist']);

/** One group of inputs: a label, its root, and its files relative to the root (the label and path are hashed, so a move changes the digest). */
interface VersionInputs {
  label: string;
  root: string;
  files: string[];
}

/** Every input of the version, by label. */
function versionInputs(): VersionInputs[] {
  const roots = [
    ['generator', generatorDir],
    ['templates', path.join(repoRoot, 'templates')],
    ['runtime', path.join(repoRoot, 'runtime')],
    ['release', releaseDir()],
    // The MCP server's sources (copied into <output>/mcp/).
    ['mcp', path.join(repoRoot, 'mcp')],
  ] as const;
  const inputs: VersionInputs[] = roots.map(([label, root]) => ({ label, root, files: filesUnder(root, { skip: NOT_INPUTS }) }));
  inputs.push({ label: 'dep', root: path.join(repoRoot, 'node_modules'), files: OUTPUT_DEPENDENCIES.map((dep) => `${dep}/package.json`) });
  // The MCP package pins the MCP SDK and ajv at the versions this package.json names.
  inputs.push({ label: 'package', root: repoRoot, files: ['package.json'] });
  return inputs;
}

/** Paths, sizes and modification times of the files: cheap, and changes whenever one is edited. */
export function fingerprint(inputs: VersionInputs[]): string {
  return inputs.map(({ label, root, files }) => statLines(label, root, files)).join('');
}

function contentDigest(inputs: VersionInputs[]): string {
  const hash = sha256Hash();
  for (const { label, root, files } of inputs) {
    for (const rel of files) {
      let content: Buffer | string;
      try {
        content = readFileSync(path.join(root, rel));
      } catch {
        content = '\0missing';
      }
      // Of a dependency, only its version counts (its package.json also lists install-time fields).
      if (label === 'dep') content = String((JSON.parse(content.toString()) as { version?: string }).version);
      hash.update(`${label}/${rel}\n`).update(content).update('\n');
    }
  }
  return hash.digest('hex');
}

/** The generator version (hex digest), remembered under `cacheDir` with the fingerprint it was taken at. */
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
