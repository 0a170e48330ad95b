/**
 * The pieces of compiled schemas (piece.mjs), kept across runs under `<cache dir>/validators/`, one JSON file per
 * schema, named by a digest of the schema's JSON and of everything that shapes its piece: ajv's version and the code
 * that compiles and cuts it (compile.mjs, piece.mjs: ajv's options live there). A generator change elsewhere leaves
 * the pieces valid; a change of those files or of ajv keys every entry anew. Entries are written atomically, read
 * defensively (an unreadable one is a miss), and the directory is safe to delete.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Piece } from './piece.mjs';

/** Bumped when the entry format changes. */
const ENTRY_VERSION = 1;
/** Entries kept (the most recently used): a spec of ~250 distinct schemas through many edits. */
const MAX_ENTRIES = 4000;
/** Numbers this process's temporary files: two writers of one entry in one process do not share one. */
let temps = 0;

let salt: string | undefined;
/** What, besides the schema, a piece depends on. */
function pieceSalt(): string {
  if (salt === undefined) {
    const hash = createHash('sha256').update(`${ENTRY_VERSION}\0`);
    hash.update((createRequire(import.meta.url)('ajv/package.json') as { version: string }).version).update('\0');
    for (const file of ['./compile.mjs', './piece.mjs']) hash.update(readFileSync(new URL(file, import.meta.url))).update('\0');
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
  return typeof p === 'object' && p !== null && Array.isArray(p.prefixes) && typeof p.entry === 'number' && Array.isArray(p.statements);
}

/** The pieces cached under one cache directory. */
export class PieceCache {
  readonly #dir: string;
  /** Keys present when listed in this turn of the event loop (every connector of a run asks in the same turn). */
  #listed: Set<string> | undefined;

  constructor(cacheDir: string) {
    this.#dir = path.join(cacheDir, 'validators');
  }

  #file(key: string): string {
    return path.join(this.#dir, `${key}.json`);
  }

  /** Whether an entry for `key` is likely there: one directory listing per turn rather than a lookup per schema. */
  has(key: string): boolean {
    if (!this.#listed) {
      try {
        this.#listed = new Set(readdirSync(this.#dir).filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -'.json'.length)));
      } catch {
        this.#listed = new Set();
      }
      setImmediate(() => (this.#listed = undefined));
    }
    return this.#listed.has(key);
  }

  /** The entry for `key`, or undefined when it is missing or unreadable. */
  async read(key: string): Promise<Piece | undefined> {
    try {
      const entry = JSON.parse(await readFile(this.#file(key), 'utf8')) as { key?: unknown; piece?: unknown };
      if (entry.key !== key || !isPiece(entry.piece)) return undefined;
      const now = new Date();
      void utimes(this.#file(key), now, now).catch(() => undefined); // used: kept longest
      return entry.piece;
    } catch {
      return undefined;
    }
  }

  /** Stores entries (best effort: a cache that cannot be written only costs a later run the compiling). */
  async write(entries: readonly (readonly [key: string, piece: Piece])[]): Promise<void> {
    if (entries.length === 0) return;
    try {
      await mkdir(this.#dir, { recursive: true });
      await Promise.all(
        entries.map(async ([key, piece]) => {
          const temp = `${this.#file(key)}.${process.pid}-${temps++}.tmp`;
          try {
            await writeFile(temp, JSON.stringify({ key, piece }));
            await rename(temp, this.#file(key));
          } catch {
            await rm(temp, { force: true }).catch(() => undefined); // this entry only: the others are still stored
          }
        }),
      );
      const names = (await readdir(this.#dir)).filter((n) => n.endsWith('.json'));
      if (names.length > MAX_ENTRIES) {
        const aged = await Promise.all(names.map(async (n) => ({ n, t: (await stat(path.join(this.#dir, n)).catch(() => undefined))?.mtimeMs ?? 0 })));
        aged.sort((a, b) => b.t - a.t);
        await Promise.all(aged.slice(MAX_ENTRIES / 2).map(({ n }) => rm(path.join(this.#dir, n), { force: true })));
      }
    } catch {
      // ignored on purpose: see above
    }
  }
}
