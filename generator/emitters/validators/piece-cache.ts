/**
 * The pieces of compiled schemas (piece.mjs), kept across runs under `<cache dir>/validators/`, one JSON file per
 * schema, named by a digest of the schema's JSON and of everything that shapes its piece: ajv's version and the code
 * that compiles and cuts it (compile.mjs, piece.mjs: ajv's options live there). A generator change elsewhere leaves
 * the pieces valid; a change of those files or of ajv keys every entry anew. Entries are written atomically, read
 * defensively (an unreadable one is a miss; cache/store.ts), and the directory is safe to delete.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { readStored, writeStored, type Store } from '../../cache/store.js';
import type { Piece } from './piece.mjs';

/** Bumped when the entry format changes. */
const ENTRY_VERSION = 1;
/** Entries kept (the most recently used): a spec of ~250 distinct schemas through many edits. */
const MAX_ENTRIES = 4000;

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

/** The pieces cached under one cache directory (entries of cache/store.ts). */
export class PieceCache {
  readonly #store: Store;
  /** Keys present when listed in this turn of the event loop (every connector of a run asks in the same turn). */
  #listed: Set<string> | undefined;

  constructor(cacheDir: string) {
    this.#store = { dir: path.join(cacheDir, 'validators'), ext: '.json', max: MAX_ENTRIES };
  }

  /** Whether an entry for `key` is likely there: one directory listing per turn rather than a lookup per schema. */
  has(key: string): boolean {
    if (!this.#listed) {
      try {
        this.#listed = new Set(
          readdirSync(this.#store.dir)
            .filter((n) => n.endsWith('.json'))
            .map((n) => n.slice(0, -'.json'.length)),
        );
      } catch {
        this.#listed = new Set();
      }
      setImmediate(() => (this.#listed = undefined));
    }
    return this.#listed.has(key);
  }

  /** The entry for `key`, or undefined when it is missing or unreadable. */
  async read(key: string): Promise<Piece | undefined> {
    const found = await readStored(this.#store, [key], (bytes) => {
      const entry = JSON.parse(bytes.toString('utf8')) as { key?: unknown; piece?: unknown };
      return entry.key === key && isPiece(entry.piece) ? entry.piece : undefined;
    });
    return found.get(key);
  }

  /** Stores entries (best effort: a cache that cannot be written only costs a later run the compiling). */
  async write(entries: readonly (readonly [key: string, piece: Piece])[]): Promise<void> {
    await writeStored(
      this.#store,
      entries.map(([key, piece]) => [key, JSON.stringify({ key, piece })]),
    );
  }
}
