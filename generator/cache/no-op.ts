/**
 * The no-op check of `generate`: is the output what the last run wrote, from the same inputs (stamp.ts)? generate.ts
 * runs it first; the CLI's fast answer (cli/noop.ts) runs the same check before the CLI's main module loads.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ResolvedConfig } from '../config/config.js';
import { governingStyleFiles, type StyleFiles } from '../format/style.js';
import { inputDigest, outputMatches, readStamp, type InputDigest, type Stamp } from './stamp.js';
import { generatorVersion } from './version.js';

/** What the no-op check found: the run's inputs, and whether the output is up to date with them. */
export interface NoopState {
  /** The generator version the run's cache entries are keyed by. */
  version: string;
  /** The stamp of the last run into the output directory, if any. */
  stamp: Stamp | undefined;
  /** See Stamp.target. */
  target: string;
  /** The inputs' digests. */
  digest: InputDigest;
  /** Whether the inputs are the stamp's and the output holds exactly the stamped files. */
  upToDate: boolean;
  /** Files of the stamp (the output's file count when up to date). */
  fileCount: number;
  /** The style files that govern the output (part of the target; formatting reads them again otherwise). */
  styleFiles: StyleFiles;
}

/** What the check needs of a run (GenerateOptions). */
export interface NoopCheckOptions {
  /** Spec directory. */
  specDir: string;
  /** Output directory. */
  outDir: string;
  /** The project config (package naming and connectors shape the output). */
  config?: Pick<ResolvedConfig, 'packages' | 'connectors'> & Partial<Pick<ResolvedConfig, 'releaseDir'>>;
  /** The generator version; default: cache/version.ts generatorVersion. */
  generatorVersion?: string;
}

/**
 * Runs the no-op check against the stamps in `cacheDir`. Synchronous: stat calls, and reads of small files. With
 * `quick`, spec files whose sizes or times differ from the stamp's count as changed unread (the CLI's fast answer:
 * the generate that follows it reads them).
 */
export function noopState(options: NoopCheckOptions, cacheDir: string, quick = false): NoopState {
  const version = options.generatorVersion ?? generatorVersion(cacheDir);
  const stamp = readStamp(cacheDir, options.outDir);
  const styleFiles = governingStyleFiles(options.outDir);
  const target = targetOf(options, styleFiles);
  const digest = inputDigest(options.specDir, version, target, stamp, !quick);
  const upToDate = stamp?.inputs === digest.inputs && outputMatches(options.outDir, stamp);
  return { version, stamp, target, digest, upToDate, fileCount: stamp ? Object.keys(stamp.files).length : 0, styleFiles };
}

/**
 * What of the config shapes the output: part of the no-op digest (with the prettier configs that govern the output,
 * and the project's release state: package versions and changelogs).
 */
function targetOf(options: NoopCheckOptions, style: StyleFiles): string {
  const contents = [style.config, ...style.editorconfig].filter((f): f is string => f !== undefined).map((f) => [f, readText(f)]);
  const release = options.config?.releaseDir;
  return JSON.stringify({ packages: options.config?.packages ?? null, connectors: options.config?.connectors ?? null, style: contents, ...(release ? { release: releaseState(release) } : {}) });
}

/** A release state directory as the target holds it: its path, versions.json and every changelog (a few small files). */
function releaseState(dir: string): [string, string, [string, string][]] {
  let changelogs: string[] = [];
  try {
    changelogs = readdirSync(path.join(dir, 'changelogs')).sort();
  } catch {
    // no changelogs yet
  }
  return [dir, readText(path.join(dir, 'versions.json')), changelogs.map((name) => [name, readText(path.join(dir, 'changelogs', name))])];
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
