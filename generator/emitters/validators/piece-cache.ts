/**
 * The pieces of compiled schemas (piece.mjs), kept across runs under `<cache dir>/validators/`, each keyed by a digest
 * of the schema's JSON and of everything that shapes its piece: ajv's version and the code that compiles and cuts it
 * (compile.mjs, piece.mjs: ajv's options live there). A generator change elsewhere leaves the pieces valid; a change
 * of those files or of ajv keys every entry anew.
 *
 * The pieces of one compile batch share one file, a pack (`<digest of its keys>.pack`): a first line with the index
 * (`[[key, byte length], …]`), then each entry's JSON (`{ key, piece }`) in that order. One file per piece made a cold
 * run create ~240 files, and creating files cost more than compiling them on a busy file system (ext4's inode
 * allocation: ~0.25 s of system CPU a run, measured). Packs never change once written (atomically, cache/store.ts);
 * an index or entry that does not read back is a miss; the least recently used packs go beyond a limit; the directory
 * is safe to delete.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { writeStored, type Store } from '../../cache/store.js';
import { sha256 } from '../../lib/sha256.js';
import type { Piece } from './piece.mjs';
import { readIndex } from '../../cache/indexed-file.js';

/** Bumped when the entry format changes. */
const ENTRY_VERSION = 2;
/**
 * Packs kept (the most recently used, trimmed to half beyond this): one per cold run, one small one per edit that changed
 * schemas. Every run that looks a schema up reads each pack's index (~60–75 µs a pack, measured), so the bound is
 * what an edit pays after a long session of edits: ~2–5 ms, where 500 packs came to ~35 ms. A piece of a pack that
 * went is compiled again if a schema ever has it again.
 */
const MAX_PACKS = 64;
/** Bytes read to find a pack's index line (~240 keys fit in 20 KB); a longer index reads the whole file. */
const INDEX_PROBE = 64 * 1024;

/** Where an entry lies in its pack file. */
type Slice = readonly [offset: number, length: number];

let salt: string | undefined;
/** What, besides the schema, a piece depends on. */
function pieceSalt(): string {
  if (salt === undefined) {
    const hash = createHash('sha256').update(`${ENTRY_VERSION}\0`);
    hash.update((createRequire(import.meta.url)('ajv/package.json') as { version: string }).version).update('\0');
    for (const file of ['./compile.mjs', './piece.mjs'])
      hash.update(readFileSync(new URL(file, import.meta.url))).update('\0');
    salt = hash.digest('hex');
  }
  return salt;
}

/** The cache key of a schema (its JSON text). */
export function pieceKey(schemaJson: string): string {
  return createHash('sha256').update(pieceSalt()).update('\0').update(schemaJson).digest('hex');
}

function isPiece(value: unknown): value is Piece {
  const p = value as Piece | null;
  return (
    typeof p === 'object' &&
    p !== null &&
    Array.isArray(p.prefixes) &&
    typeof p.entry === 'number' &&
    Array.isArray(p.statements)
  );
}

/** The pieces cached under one cache directory (packs stored with cache/store.ts). */
export class PieceCache {
  readonly #store: Store;
  /** Pack file name → its entries (packs never change, so an index read once holds for the process). */
  readonly #packs = new Map<string, Map<string, Slice>>();
  /** Key → the pack holding it, as listed in this turn of the event loop (every connector of a run asks in the same turn). */
  #listed: Map<string, string> | undefined;
  /** Packs marked as used by this process (their time is touched once). */
  readonly #touched = new Set<string>();

  constructor(cacheDir: string) {
    this.#store = { dir: path.join(cacheDir, 'validators'), ext: '.pack', max: MAX_PACKS };
  }

  /** Whether an entry for `key` is likely there: one directory listing per turn rather than a lookup per schema. */
  has(key: string): boolean {
    return this.#index().has(key);
  }

  #index(): Map<string, string> {
    if (!this.#listed) {
      const listed = new Map<string, string>();
      let names: string[] = [];
      try {
        names = readdirSync(this.#store.dir).filter((n) => n.endsWith('.pack'));
      } catch {
        // no directory: nothing cached
      }
      for (const name of names.sort()) {
        let slices = this.#packs.get(name);
        if (!slices) {
          slices = readPackIndex(path.join(this.#store.dir, name));
          if (!slices) continue;
          this.#packs.set(name, slices);
        }
        for (const key of slices.keys()) if (!listed.has(key)) listed.set(key, name);
      }
      this.#listed = listed;
      setImmediate(() => (this.#listed = undefined));
    }
    return this.#listed;
  }

  /**
   * The entry for `key`, or undefined when it is missing or unreadable. Read synchronously: a piece is a small slice of
   * a local file, and an asynchronous read would cost more CPU in libuv's thread pool round trips than the read.
   */
  read(key: string): Piece | undefined {
    const name = this.#index().get(key);
    const slice = name === undefined ? undefined : this.#packs.get(name)?.get(key);
    if (name === undefined || !slice) return undefined;
    const file = path.join(this.#store.dir, name);
    try {
      const fd = openSync(file, 'r');
      try {
        const bytes = Buffer.alloc(slice[1]);
        if (readSync(fd, bytes, 0, slice[1], slice[0]) !== slice[1]) return undefined;
        const entry = JSON.parse(bytes.toString('utf8')) as { key?: unknown; piece?: unknown };
        if (entry.key !== key || !isPiece(entry.piece)) return undefined;
        if (!this.#touched.has(name)) {
          this.#touched.add(name);
          const now = new Date();
          utimesSync(file, now, now); // used: kept longest
        }
        return entry.piece;
      } finally {
        closeSync(fd);
      }
    } catch {
      return undefined;
    }
  }

  /** Stores the pieces of one batch as one pack (best effort: a cache that cannot be written only costs a later run the compiling). */
  async write(entries: readonly (readonly [key: string, piece: Piece])[]): Promise<void> {
    if (entries.length === 0) return;
    const bodies = entries.map(([key, piece]) => JSON.stringify({ key, piece }));
    const index = entries.map(([key], i) => [key, Buffer.byteLength(bodies[i]!, 'utf8')]);
    const id = sha256(entries.map(([key]) => key).sort().join('\n'));
    await writeStored(this.#store, [[id, [`${JSON.stringify(index)}\n`, ...bodies]]]);
  }
}

/** A pack's entries (key → slice of the file), or undefined when its index does not read back. */
function readPackIndex(file: string): Map<string, Slice> | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    const read = (length: number) => {
      const bytes = Buffer.alloc(length);
      readSync(fd!, bytes, 0, length, 0);
      return bytes;
    };
    let index = readIndex(read(Math.min(size, INDEX_PROBE)), size);
    if (index === 'more') index = readIndex(read(size), size);
    // A truncated or padded pack, or a row without a key, is a miss.
    if (!index || index === 'more' || index.rows.some((row) => typeof row[0] !== 'string')) return undefined;
    const { bodies } = index;
    return new Map(index.rows.map((row, i) => [row[0] as string, bodies[i]!]));
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
