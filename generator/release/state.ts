/**
 * The release state: the committed source of truth of each connector package's version and changelog,
 * outside generated/ so that `npm run generate` reproduces them. Layout (release/README.md):
 *
 *   release/versions.json            { "packages": { "<connector id>": { "version": "0.2.0", "fingerprint": "…" } } }
 *   release/changelogs/<id>.md        the package's changelog entries, newest first (no title)
 *
 * A connector missing from versions.json is at INITIAL_VERSION. `fingerprint` is the digest of the connector's
 * spec at its last release (fingerprint.ts): `release` skips a connector whose spec has not changed since.
 * The directory is the project's: the config's `release` (config.ts ResolvedConfig.releaseDir), or
 * CONNECTOR_CODEGEN_RELEASE_DIR when set. `releaseDir()` below (`release/` of this repository) serves callers without
 * a config: the API's defaults.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stableJson } from '../lib/stable-json.js';
import { releaseDirOf } from '../lib/generator-inputs.cjs';

/** Version of a package that has never been released. */
export const INITIAL_VERSION = '0.1.0';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** One package's release facts. */
export interface PackageRelease {
  /** Current version, MAJOR.MINOR.PATCH. */
  version: string;
  /** Digest of the connector's spec when this version was released. */
  fingerprint?: string;
}

/** The whole release state. */
export interface ReleaseState {
  /** Connector id → its package's release facts. */
  packages: Record<string, PackageRelease>;
}

/** The release state directory of callers without a config: CONNECTOR_CODEGEN_RELEASE_DIR, else this repository's. */
export function releaseDir(): string {
  return releaseDirOf(repoRoot);
}

/** Path of versions.json in `dir`. */
export function versionsFile(dir: string): string {
  return path.join(dir, 'versions.json');
}

/** Path of a connector's changelog entries in `dir`. */
export function changelogFile(dir: string, connectorId: string): string {
  return path.join(dir, 'changelogs', `${connectorId}.md`);
}

function readOptional(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const SEMVER = /^\d+\.\d+\.\d+$/;

/** Reads versions.json (synchronously: the package emitter calls it). A missing file is an empty state. */
export function readReleaseState(dir: string = releaseDir()): ReleaseState {
  const file = versionsFile(dir);
  const text = readOptional(file);
  if (text === undefined) return { packages: {} };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${file}: not valid JSON (${(error as Error).message})`);
  }
  const packages = (data as { packages?: unknown }).packages;
  if (!packages || typeof packages !== 'object' || Array.isArray(packages)) throw new Error(`${file}: expected an object "packages" mapping connector ids to { "version": "x.y.z" }`);
  for (const [id, entry] of Object.entries(packages as Record<string, unknown>)) {
    const version = (entry as PackageRelease | null)?.version;
    if (typeof version !== 'string' || !SEMVER.test(version)) throw new Error(`${file}: packages.${id}.version must be MAJOR.MINOR.PATCH, not ${JSON.stringify(version)}`);
  }
  return { packages: packages as Record<string, PackageRelease> };
}

/** A connector's current version. */
export function currentVersion(state: ReleaseState, connectorId: string): string {
  return state.packages[connectorId]?.version ?? INITIAL_VERSION;
}

/** A connector's changelog entries as written, or undefined when it has none yet. */
export function readChangelog(dir: string, connectorId: string): string | undefined {
  return readOptional(changelogFile(dir, connectorId));
}

function writeAtomically(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(`${file}.tmp-${process.pid}`, text);
  renameSync(`${file}.tmp-${process.pid}`, file);
}

/** Writes versions.json and the given changelogs (id → full entries text). */
export function writeReleaseState(dir: string, state: ReleaseState, changelogs: ReadonlyMap<string, string>): void {
  for (const [id, text] of changelogs) writeAtomically(changelogFile(dir, id), text);
  const packages = Object.fromEntries(Object.keys(state.packages).sort().map((id) => [id, state.packages[id]!]));
  writeAtomically(
    versionsFile(dir),
    stableJson({ '//': 'Versions of the generated connector packages. Written by `connector-codegen release`; read by `npm run generate`.', packages }),
  );
}
