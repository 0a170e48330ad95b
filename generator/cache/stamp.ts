/**
 * No-op detection, as build tools do it: a digest of every input of generation (spec files, the generator version —
 * cache/version.ts —, and the config's target) and, for each file the last run wrote, its content hash, size and
 * modification time, kept in the cache directory (never committed). When the inputs are unchanged and every output
 * file is still there with its recorded size and time (its content is hashed only when those differ), generation has
 * nothing to do and skips loading the spec. Inputs are compared by paths, sizes and times first too; their content is
 * hashed only when those differ.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { listOutputFiles } from '../write.js';

/** What the cache remembers of one output directory. */
export interface Stamp {
  /** Digest of the content of all inputs. */
  inputs: string;
  /** Digest of the inputs' paths, sizes and times (with the generator version and target) when `inputs` was taken. */
  quick: string;
  /** Output file (relative path) → [sha256 of its content, size, modification time in ms]. */
  files: Record<string, [string, number, number]>;
}

/** What a run's inputs are: both digests. */
export interface InputDigest {
  /** See Stamp.inputs. */
  inputs: string;
  /** See Stamp.quick. */
  quick: string;
}

/** sha256 of a string, hex. */
export function sha256(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

async function specFiles(specDir: string): Promise<string[]> {
  const entries = await readdir(specDir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/**
 * The digest of the inputs of `generate` for `specDir`, the generator `version` and the config's `target`; when the
 * spec files' paths, sizes and times match the stamp's, its content digest is taken from the stamp without reading.
 */
export async function inputDigest(specDir: string, version: string, target: string, stamp?: Stamp): Promise<InputDigest> {
  const files = await specFiles(specDir);
  const head = `spec-dir-name:${path.basename(path.resolve(specDir))}\nversion:${version}\ntarget:${target}\n`;
  const quickHash = createHash('sha256').update(head);
  const stats = await Promise.all(files.map((f) => stat(f).catch(() => undefined)));
  files.forEach((f, i) => quickHash.update(`${path.relative(specDir, f)}\0${stats[i]?.size ?? -1}\0${stats[i]?.mtimeMs ?? -1}\n`));
  const quick = quickHash.digest('hex');
  if (stamp?.quick === quick) return { inputs: stamp.inputs, quick };
  const hash = createHash('sha256').update(head);
  const contents = await Promise.all(files.map((f) => readFile(f).catch(() => Buffer.from('\0missing'))));
  files.forEach((f, i) => hash.update(`spec/${path.relative(specDir, f)}\n`).update(contents[i]!).update('\n'));
  return { inputs: hash.digest('hex'), quick };
}

function stampFile(cacheDir: string, outDir: string): string {
  return path.join(cacheDir, 'stamps', `${sha256(path.resolve(outDir)).slice(0, 16)}.json`);
}

/** The stamp of the last run into `outDir`, if any. */
export async function readStamp(cacheDir: string, outDir: string): Promise<Stamp | undefined> {
  try {
    const stamp = JSON.parse(await readFile(stampFile(cacheDir, outDir), 'utf8')) as Stamp;
    return typeof stamp.inputs === 'string' && typeof stamp.quick === 'string' && stamp.files ? stamp : undefined;
  } catch {
    return undefined;
  }
}

/** The sha256 of each file's content (path → hex). */
export function contentHashes(files: Map<string, string>): Map<string, string> {
  return new Map([...files].map(([rel, content]) => [rel, sha256(content)]));
}

/**
 * Which files the stamp vouches for (see KnownContent in write.ts): a file with the stamped size and time held the
 * stamped content, so it holds the new content when that has the same hash.
 */
export function knownByStamp(stamp: Stamp | undefined, hashes: Map<string, string>): (rel: string, size: number, mtimeMs: number) => boolean {
  return (rel, size, mtimeMs) => {
    const recorded = stamp?.files[rel];
    return recorded !== undefined && recorded[1] === size && recorded[2] === mtimeMs && recorded[0] === hashes.get(rel);
  };
}

/** Makes the stamp of `files` as they now are in `outDir` (`hashes` of their content; size and time from disk). */
export async function makeStamp(outDir: string, digest: InputDigest, hashes: Map<string, string>): Promise<Stamp> {
  const sorted = [...hashes.keys()].sort();
  const stats = await Promise.all(sorted.map((rel) => stat(path.join(outDir, rel)).catch(() => undefined)));
  const entries = sorted.map((rel, i): [string, [string, number, number]] => [rel, [hashes.get(rel)!, stats[i]?.size ?? -1, stats[i]?.mtimeMs ?? -1]]);
  return { ...digest, files: Object.fromEntries(entries) };
}

/** Records a run (best effort: a cache that cannot be written only costs the next run its shortcut). */
export async function writeStamp(cacheDir: string, outDir: string, stamp: Stamp): Promise<void> {
  const file = stampFile(cacheDir, outDir);
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(`${file}.tmp-${process.pid}`, JSON.stringify(stamp));
    await rename(`${file}.tmp-${process.pid}`, file);
  } catch {
    // ignored on purpose: see above
  }
}

/**
 * Whether `outDir` holds exactly the stamped files, each with its stamped content: a file with its stamped size and
 * time is taken as unchanged; only the others are read and hashed.
 */
export async function outputMatches(outDir: string, stamp: Stamp): Promise<boolean> {
  const present = (await listOutputFiles(outDir)).sort();
  const expected = Object.keys(stamp.files).sort();
  if (present.length !== expected.length || present.some((f, i) => f !== expected[i])) return false;
  const same = await Promise.all(
    expected.map(async (rel) => {
      const [hash, size, mtime] = stamp.files[rel]!;
      const file = path.join(outDir, rel);
      const s = await stat(file).catch(() => undefined);
      if (!s || s.size !== size) return false;
      if (s.mtimeMs === mtime) return true;
      return sha256(await readFile(file)) === hash;
    }),
  );
  return same.every(Boolean);
}
