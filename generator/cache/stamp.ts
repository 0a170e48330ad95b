/**
 * No-op detection, as build tools do it: a digest of every input of generation (spec files, the generator version —
 * cache/version.ts —, and the config's target) and, for each file the last run wrote, its content hash, size and
 * modification time, kept in the cache directory (never committed). When the inputs are unchanged and every output
 * file is still there with its recorded size and time (its content is hashed only when those differ), generation has
 * nothing to do and skips loading the spec. Inputs are compared by paths, sizes and times first too; their content is
 * hashed only when those differ. A run with work to do uses the stamp too: to know which output files are unchanged
 * without reading them (knownByStamp), and which files of the incremental cache the output already holds as formatted
 * then (keptByStamp).
 */
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { filesUnder, statLines } from '../lib/file-stats.cjs';
import { sha256, sha256Hash } from '../lib/sha256.js';
import { listOutputFiles, type KnownContent } from '../write.js';
import { makeDirSync } from '../lib/make-dir.js';

export { sha256 };

/** What the cache remembers of one output directory. */
export interface Stamp {
  /** The output directory (absolute): a stamp found under another directory's name is not its stamp. */
  outDir: string;
  /** Digest of the content of all inputs. */
  inputs: string;
  /** The inputs' paths, sizes and times (with the generator version and target) when `inputs` was taken. */
  quick: string;
  /** The config's target (cache/no-op.ts targetOf: package naming, connectors, the prettier configs that govern the output). */
  target: string;
  /**
   * Output file (relative path) → [sha256 of its content, size, modification time in ms], and for a file of the
   * incremental cache the sha256 of its content as emitted (before formatting).
   */
  files: Record<string, StampedFile>;
}

/** See Stamp.files. */
export type StampedFile = [hash: string, size: number, mtimeMs: number, emitted?: string];

/** What a run's inputs are: both digests. */
export interface InputDigest {
  /** See Stamp.inputs. */
  inputs: string;
  /** See Stamp.quick. */
  quick: string;
}

/**
 * The inputs of `generate` for `specDir`, the generator `version` and the config's `target`; when the spec files'
 * paths, sizes and times match the stamp's, its content digest is taken from the stamp without reading. Synchronous:
 * a stat per spec file. Without `read`, files that do not match are not read either: the digest is then empty.
 */
export function inputDigest(specDir: string, version: string, target: string, stamp?: Stamp, read = true): InputDigest {
  const files = filesUnder(specDir);
  const head = `spec-dir-name:${path.basename(path.resolve(specDir))}\nversion:${version}\ntarget:${target}\n`;
  const quick = head + statLines('spec', specDir, files);
  if (stamp?.quick === quick) return { inputs: stamp.inputs, quick };
  if (!read) return { inputs: '', quick }; // no digest: not the stamp's
  const hash = sha256Hash().update(head);
  for (const rel of files) {
    let content: Buffer;
    try {
      content = readFileSync(path.join(specDir, rel));
    } catch {
      content = Buffer.from('\0missing');
    }
    hash.update(`spec/${rel}\n`).update(content).update('\n');
  }
  return { inputs: hash.digest('hex'), quick };
}

/** A short name for a path (two 32-bit FNV-1a hashes): stamps are named by their output directory, which they hold too. */
function nameOf(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x9e3779b9;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x01000193 ^ 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

function stampFile(cacheDir: string, outDir: string): string {
  return path.join(cacheDir, 'stamps', `${nameOf(path.resolve(outDir))}.json`);
}

/** The stamp of the last run into `outDir`, if any. */
export function readStamp(cacheDir: string, outDir: string): Stamp | undefined {
  try {
    const stamp = JSON.parse(readFileSync(stampFile(cacheDir, outDir), 'utf8')) as Stamp;
    return stamp.outDir === path.resolve(outDir) && typeof stamp.inputs === 'string' && typeof stamp.quick === 'string' && typeof stamp.target === 'string' && stamp.files ? stamp : undefined;
  } catch {
    return undefined;
  }
}

/** The sha256 of each file's content (path → hex); `known(rel)`, when it answers, is that file's hash already taken. */
export function contentHashes(files: ReadonlyMap<string, string | Uint8Array>, known: (rel: string) => string | undefined = () => undefined): Map<string, string> {
  return new Map([...files].map(([rel, content]) => [rel, known(rel) ?? sha256(content)]));
}

/**
 * What the stamp tells of each file (see KnownContent in write.ts): a file with the stamped size and time holds the
 * stamped content, so it holds the new content when that has the same hash, and other content when not.
 */
export function knownByStamp(stamp: Stamp | undefined, hashes: Map<string, string>): KnownContent {
  return (rel, size, mtimeMs) => {
    const recorded = stamp?.files[rel];
    if (recorded === undefined || recorded[1] !== size || recorded[2] !== mtimeMs) return undefined;
    return recorded[0] === hashes.get(rel) ? 'same' : 'changed';
  };
}

/**
 * Which files of the incremental cache `outDir` already holds as this run would write them: a file whose content as
 * emitted has the hash the stamp recorded for it, under the same target (so formatted the same way), and which is on
 * disk with the stamped size and time. Such a file needs no decoding, formatting, hashing or comparing; its record
 * passes to the next stamp.
 */
export function keptByStamp(stamp: Stamp | undefined, target: string, outDir: string): ((rel: string, emitted: string) => StampedFile | undefined) | undefined {
  if (!stamp || stamp.target !== target) return undefined;
  return (rel, emitted) => {
    const recorded = stamp.files[rel];
    if (recorded?.[3] !== emitted) return undefined;
    const s = statSync(path.join(outDir, rel), { throwIfNoEntry: false });
    return s && s.size === recorded[1] && s.mtimeMs === recorded[2] ? recorded : undefined;
  };
}

/**
 * Makes the stamp of the output as it now is in `outDir`: the written files by `hashes` of their content (size and
 * time from disk; `emitted`: the hash as emitted of those from the incremental cache), and the `kept` ones as recorded.
 */
export function makeStamp(outDir: string, digest: InputDigest, target: string, hashes: Map<string, string>, emitted: Map<string, string>, kept: Map<string, StampedFile>): Stamp {
  const files: Record<string, StampedFile> = {};
  for (const rel of [...hashes.keys(), ...kept.keys()].sort()) {
    const known = kept.get(rel);
    if (known) {
      files[rel] = known;
      continue;
    }
    const s = statSync(path.join(outDir, rel), { throwIfNoEntry: false });
    const source = emitted.get(rel);
    files[rel] = source === undefined ? [hashes.get(rel)!, s?.size ?? -1, s?.mtimeMs ?? -1] : [hashes.get(rel)!, s?.size ?? -1, s?.mtimeMs ?? -1, source];
  }
  return { outDir: path.resolve(outDir), ...digest, target, files };
}

/** Records a run (best effort: a cache that cannot be written only costs the next run its shortcut). */
export function writeStamp(cacheDir: string, outDir: string, stamp: Stamp): void {
  const file = stampFile(cacheDir, outDir);
  try {
    makeDirSync(path.dirname(file));
    writeFileSync(`${file}.tmp-${process.pid}`, JSON.stringify(stamp));
    renameSync(`${file}.tmp-${process.pid}`, file);
  } catch {
    // ignored on purpose: see above
  }
}

/**
 * Whether `outDir` holds exactly the stamped files, each with its stamped content: a file with its stamped size and
 * time is taken as unchanged; only the others are read and hashed. Synchronous: a stat per file.
 */
export function outputMatches(outDir: string, stamp: Stamp): boolean {
  const present = listOutputFiles(outDir);
  const expected = Object.keys(stamp.files);
  if (present.length !== expected.length || present.some((f) => !Object.hasOwn(stamp.files, f))) return false;
  return expected.every((rel) => {
    const [hash, size, mtime] = stamp.files[rel]!;
    const file = path.join(outDir, rel);
    const s = statSync(file, { throwIfNoEntry: false });
    if (!s || s.size !== size) return false;
    if (s.mtimeMs === mtime) return true;
    try {
      return sha256(readFileSync(file)) === hash;
    } catch {
      return false;
    }
  });
}
