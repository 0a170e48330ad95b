/**
 * The generator's version for caching: a digest of everything besides the spec and the config that shapes the output
 * (lib/generator-inputs.cjs: the generator's sources, templates, the runtime, the release state, the versions of the
 * packages that print the output). A cache entry made by another version is never read. Hashing ~200 files on every start is what a no-op run must not pay, so the digest is remembered with a
 * fingerprint of the files' paths, sizes and modification times (lib/file-stats.cjs, as build tools and
 * bin/cli-build.cjs do): when those are unchanged, the digest is reused after a stat per file.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { statLines } from '../lib/file-stats.cjs';
import { peekHandedVersion, takeHandedVersion, versionDigest, versionInputs, type VersionInputGroup } from '../lib/generator-inputs.cjs';
import { DEFAULT_CACHE_DIR } from './dir.js';
import { makeDirSync } from '../lib/make-dir.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Paths, sizes and modification times of the files: cheap, and changes whenever one is edited. */
export function fingerprint(inputs: VersionInputGroup[]): string {
  return inputs.map(({ label, root, files }) => statLines(label, root, files)).join('');
}

/**
 * The generator version (hex digest, lib/generator-inputs.cjs), remembered under `cacheDir` with the fingerprint it was
 * taken at; the CLI hands the first run of a process the version it took with its own check of the sources.
 */
export function generatorVersion(cacheDir: string = DEFAULT_CACHE_DIR): string {
  const handed = takeHandedVersion(repoRoot);
  if (handed !== undefined) return handed;
  const inputs = versionInputs(repoRoot);
  const seen = fingerprint(inputs);
  const memo = path.join(cacheDir, 'version.json');
  try {
    const known = JSON.parse(readFileSync(memo, 'utf8')) as { fingerprint?: string; version?: string };
    if (known.fingerprint === seen && typeof known.version === 'string') return known.version;
  } catch {
    // none yet
  }
  const version = versionDigest(inputs);
  try {
    makeDirSync(cacheDir);
    const temp = `${memo}.${process.pid}.tmp`;
    writeFileSync(temp, JSON.stringify({ fingerprint: seen, version }));
    renameSync(temp, memo);
  } catch {
    // A memo that cannot be written only costs the next run the hashing.
  }
  return version;
}

/**
 * The generator version as generatorVersion gives it, leaving a version the CLI handed over for the run that follows
 * (the CLI's fast no-op answer, cli/noop.ts, asks before the run and may leave the work to it).
 */
export function peekGeneratorVersion(cacheDir: string = DEFAULT_CACHE_DIR): string {
  return peekHandedVersion(repoRoot) ?? generatorVersion(cacheDir);
}
