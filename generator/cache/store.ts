/**
 * A directory of cache entries, one file per key (a hex digest of everything the entry depends on): written atomically
 * (aside, then renamed), the least recently used removed beyond a limit. Best effort throughout: a missing, unreadable
 * or undecodable entry is a miss, and an entry that cannot be written only costs a later run the work. Entries are
 * never changed in place, so concurrent runs at worst write the same entry twice. Every file system call is
 * synchronous: entries are local files, and an asynchronous call costs a round trip through libuv's thread pool (a
 * wake-up on each side), more CPU than the call itself.
 */
import { closeSync, openSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeSync } from 'node:fs';
import path from 'node:path';
import { statOrUndefined } from '../lib/fs-or-undefined.js';
import { makeDirSync } from '../lib/make-dir.js';

/** One kind of entry: its directory and file extension. */
export interface Store {
  /** Directory of the entries. */
  dir: string;
  /** File extension (with the dot). */
  ext: string;
  /** Entries kept: beyond it the older half goes. */
  max: number;
}

const entryFile = (store: Store, key: string) => path.join(store.dir, `${key}${store.ext}`);

/** Numbers this process's temporary files: two writes of one entry in one process do not share one. */
let temps = 0;

/** The entries found for `keys` (key → decoded entry); `decode` throwing or returning undefined is a miss. */
export function readStored<T>(store: Store, keys: Iterable<string>, decode: (bytes: Buffer) => T | undefined): Map<string, T> {
  return readStoredWith(store, keys, (file) => decode(readFileSync(file)));
}

/**
 * The entries found for `keys` (key → what `read` made of the entry's file, read as it likes: whole, or in part);
 * `read` throwing or returning undefined is a miss. Synchronous, as is `read`: entries are small local files, and each
 * asynchronous call costs a round trip through libuv's thread pool (a wake-up on each side) that costs more CPU than
 * the read itself — a one-connector edit reads ~30 entries, a cold run finds none (a failed open is cheaper still).
 */
export function readStoredWith<T>(store: Store, keys: Iterable<string>, read: (file: string) => T | undefined): Map<string, T> {
  const found = new Map<string, T>();
  const now = new Date();
  for (const key of new Set(keys)) {
    const file = entryFile(store, key);
    try {
      const entry = read(file);
      if (entry === undefined) continue;
      found.set(key, entry);
    } catch {
      continue; // a miss
    }
    try {
      utimesSync(file, now, now); // used: kept longest
    } catch {
      // gone meanwhile: it is still read
    }
  }
  return found;
}

/** Stores entries (key → bytes, or chunks of text or bytes written one after another), then trims the directory to `store.max` entries. */
export async function writeStored(store: Store, entries: [key: string, bytes: string | Uint8Array | readonly (string | Uint8Array)[]][]): Promise<void> {
  if (entries.length === 0) return;
  try {
    makeDirSync(store.dir);
    for (const [key, bytes] of entries) {
      const temp = `${entryFile(store, key)}.${process.pid}-${temps++}.tmp`;
      try {
        writeChunks(temp, typeof bytes === 'string' || bytes instanceof Uint8Array ? [bytes] : bytes);
        renameSync(temp, entryFile(store, key));
      } catch {
        rmSync(temp, { force: true }); // this entry only: the others are still stored
      }
    }
    // Every file but another writer's temp counts, entries of an older format too (they age out with the rest).
    const names = readdirSync(store.dir).filter((n) => !n.endsWith('.tmp'));
    if (names.length > store.max) {
      const aged = names.map((n) => ({ n, t: statOrUndefined(path.join(store.dir, n))?.mtimeMs ?? 0 }));
      aged.sort((a, b) => b.t - a.t);
      for (const { n } of aged.slice(Math.floor(store.max / 2))) rmSync(path.join(store.dir, n), { force: true });
    }
  } catch {
    // ignored on purpose: see above
  }
}

/** Writes `chunks` one after another into a new file `file` (a string as UTF-8), with no copy of them all at once. */
function writeChunks(file: string, chunks: readonly (string | Uint8Array)[]): void {
  const fd = openSync(file, 'w');
  try {
    for (const chunk of chunks) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    }
  } finally {
    closeSync(fd);
  }
}
