/**
 * The parse cache: per spec file, what loading it produced when it parsed cleanly and passed its meta-schema — its data
 * and the positions later phases asked of it (SourceFile.positions) — kept under a digest of its text, its kind
 * (service or connector), the generator version (which covers the yaml package, the meta-schemas and the checks) and
 * the V8 version (entries are V8-serialized: exact for every value YAML can give, NaN and -0 included). A run that
 * edits one connector parses that file alone; the others come from here, and their YAML is parsed only when a
 * position not asked before is needed (a new diagnostic). Files with problems are never stored: their diagnostics
 * come from a real parse every time. Entries live under `<cache dir>/spec/`, safe to delete.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { SourceFile } from '../spec/yaml-source.js';
import { readStored, writeStored, type Store } from './store.js';

/** Bumped when the entry format changes. */
const ENTRY_VERSION = 1;
/** Entries kept (a file's every edit makes one). */
const MAX_ENTRIES = 800;

/** Which meta-schema a file is checked against. */
export type SpecFileKind = 'service' | 'connector';

/** A file as the cache keeps it. */
export interface ParsedFile {
  /** The document's plain data. */
  data: unknown;
  /** Positions asked of its text (see SourceFile.positions). */
  positions: Map<string, readonly [number, number]>;
}

/** Where the cache lives and which generator version keys it (see generate.ts RunCache). */
export interface SpecCacheOptions {
  /** Cache directory. */
  dir: string;
  /** Generator version. */
  version: string;
}

/** The parse cache of one load: entries found for its files, and what to store after it. */
export class SpecCache {
  private constructor(
    private readonly store: Store,
    private readonly version: string,
    private readonly found: Map<string, ParsedFile>,
    /** Key → how many positions its entry held when read. */
    private readonly sizes: Map<string, number>,
    /** Keys by kind and text: a load asks for a file's entry more than once, and hashing its text is the cost. */
    private readonly keys: Record<SpecFileKind, Map<string, string>>,
  ) {}

  /** Reads the entries of the given files (kind and text). */
  static async open(options: SpecCacheOptions, files: { kind: SpecFileKind; text: string }[]): Promise<SpecCache> {
    const store: Store = { dir: path.join(options.dir, 'spec'), ext: '.v8', max: MAX_ENTRIES };
    const keys = { service: new Map<string, string>(), connector: new Map<string, string>() };
    for (const f of files) keys[f.kind].set(f.text, keyOf(options.version, f.kind, f.text));
    const found = readStored(
      store,
      files.map((f) => keys[f.kind].get(f.text)!),
      (bytes) => {
        const entry = deserialize(bytes) as Partial<ParsedFile>;
        return entry && 'data' in entry && entry.positions instanceof Map ? (entry as ParsedFile) : undefined;
      },
    );
    return new SpecCache(store, options.version, found, new Map([...found].map(([k, e]) => [k, e.positions.size])), keys);
  }

  /** The cached parse of a file, if any. */
  get(kind: SpecFileKind, text: string): ParsedFile | undefined {
    return this.found.get(this.key(kind, text));
  }

  private key(kind: SpecFileKind, text: string): string {
    let key = this.keys[kind].get(text);
    if (key === undefined) this.keys[kind].set(text, (key = keyOf(this.version, kind, text)));
    return key;
  }

  /** Stores the given clean files whose entry is missing or now knows more positions. */
  async save(files: { kind: SpecFileKind; source: SourceFile }[]): Promise<void> {
    const entries: [string, Uint8Array][] = [];
    for (const { kind, source } of files) {
      const key = this.key(kind, source.text);
      if (this.sizes.get(key) === source.positions.size) continue;
      this.sizes.set(key, source.positions.size);
      entries.push([key, serialize({ data: source.data, positions: source.positions } satisfies ParsedFile)]);
    }
    await writeStored(this.store, entries);
  }
}

function keyOf(version: string, kind: SpecFileKind, text: string): string {
  return createHash('sha256').update(`${ENTRY_VERSION}\0${version}\0${process.versions.v8}\0${kind}\0`).update(text).digest('hex');
}
