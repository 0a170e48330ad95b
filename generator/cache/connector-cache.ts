/**
 * The incremental cache: per connector, the files every split emitter (Emitter.split) made for it, kept under the key
 * of everything those files depend on — the generator version (cache/version.ts) and the IR an emitter's `connector`
 * part receives (the common contract, the packaging, and that connector). A connector whose key is found is not
 * emitted again. Entries are files under `<cache dir>/connectors/`, written atomically: a JSON line listing the files
 * (path, length in bytes, formatting, sha256 of the content), then their contents one after another, of which a run
 * reads only those the output does not already hold as they would be written (readEntry). Besides files, an entry
 * keeps the connector's fragments of shared files (emitters/run.ts fragmentPath), never written out. The directory is safe
 * to delete, and entries of another generator version are never read (their key differs).
 *
 * The files of the emitters that read no description (EmitterEntry.readsDescriptions) are kept apart, in entries
 * under `<cache dir>/structure/` keyed by the connector's structure key: the same inputs with every `description` of
 * the connector's IR and of the common contract's left out. A whole entry names its structure entry
 * (STRUCTURE_POINTER), so a run reads both for a connector it finds; for a connector it does not find, it works out the
 * structure key, and finds the structure entry when only descriptions changed (the most common edit, in a connector's
 * file or in service.yaml): those emitters then run for nobody. Each file is stored once.
 */
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import type { Formatted } from '../emitters/types.js';
import type { AssumptionIR, SpecIR } from '../ir.js';
import type { FileContent } from '../write.js';
import { readIndex } from './indexed-file.js';
import { readStoredWith, writeStored, type Store } from './store.js';
import { sha256 } from '../lib/sha256.js';
import type { StampedFile } from './stamp.js';

/** Bumped when the entry format changes. */
const ENTRY_VERSION = 5;

/** The pseudo-file of a whole entry that holds its structure entry's key (never an output path: those never start with `#`). */
export const STRUCTURE_POINTER = '#structure';
/** Entries kept: a few generations of a large spec; the oldest go beyond it. */
const MAX_ENTRIES = 600;

/** One connector's files: [path, content before formatting, what its emitter guarantees about formatting, sha256 of the content]. */
export type ConnectorEntry = [string, FileContent, Formatted, string][];

/** A file of an entry as read. */
export interface CachedFile {
  /** Path in the output. */
  rel: string;
  /** What its emitter guarantees about formatting. */
  formatted: Formatted;
  /** sha256 of the content (before formatting). */
  hash: string;
  /** The stamp's record of the file when the output already holds it as it would be written (its content is not read). */
  kept: StampedFile | undefined;
  /** The content before formatting, as bytes (a view of the entry as read); only for a file not kept. */
  content: () => Uint8Array;
}

/** Which files the output already holds as they would be written (generate.ts, cache/stamp.ts keptByStamp). */
export type KeptFiles = (rel: string, hash: string) => StampedFile | undefined;

/** The cache keys of a run's connectors (connectorKeys). */
export interface ConnectorKeys {
  /** Connector id → the key of its whole entry. */
  whole: Map<string, string>;
  /** Connector id → its structure key, for the connectors `ids` (computed on demand: it serializes their IR). */
  structure(ids: readonly string[]): Map<string, string>;
}

/**
 * The cache keys of each connector of `ir` for generator `version`: digests of everything its emitters read,
 * onlyConnector(ir, connector). That is the part every connector shares (the common contract's IR, with what the
 * Limits table found in every connector, and the packaging), serialized once; the connector's package; and its own
 * IR. For the whole key, the connector's IR is named by `inputs` (id → the digest of the files it comes from, which the
 * generator version covers: spec/read.ts ValidSpec.inputKeys) — hashing those files is cheaper than serializing the
 * IR they give. The structure key serializes the shared part and the connector's IR without their descriptions, and
 * the connector's assumptions (part of the common contract's list, which the shared part leaves out).
 */
export function connectorKeys(version: string, ir: SpecIR, inputs: ReadonlyMap<string, string>): ConnectorKeys {
  const shared = { ...ir, service: { ...ir.service, assumptions: null }, connectors: null };
  const common = JSON.stringify(shared);
  /** The common part without its descriptions (for structure keys; serialized on first need). */
  let commonStructure: string | undefined;
  const whole = new Map(
    ir.connectors.map((c) => {
      const input = inputs.get(c.id);
      if (input === undefined) throw new Error(`internal: no input key for connector ${c.id}`);
      return [c.id, createHash('sha256').update(`${ENTRY_VERSION}\0${version}\0${common}\0${input}\0${JSON.stringify(c.package)}`).digest('hex')];
    }),
  );
  const structure = (ids: readonly string[]) => {
    // Each connector's assumptions, as onlyConnector finds them (ids `<connector id>/…`), in one pass over the list.
    const owned = new Map<string, AssumptionIR[]>(ids.map((id) => [id, []]));
    for (const a of ir.service.assumptions) owned.get(a.id.split('/')[0]!)?.push(a);
    return new Map(
      ir.connectors
        .filter((c) => owned.has(c.id))
        .map((c) => {
          const assumptions = owned.get(c.id)!;
          commonStructure ??= JSON.stringify(shared, withoutDescriptions);
          const text = `${ENTRY_VERSION}\0structure\0${version}\0${commonStructure}\0${JSON.stringify(c, withoutDescriptions)}\0${JSON.stringify(assumptions)}`;
          return [c.id, createHash('sha256').update(text).digest('hex')];
        }),
    );
  };
  return { whole, structure };
}

/**
 * JSON.stringify's replacer that leaves out every `description` of the IR. A key of that name is always documentation
 * (ir.ts: field names are values of `name`, and the IR holds no maps keyed by spec data), in a connector's IR and in
 * the common contract's alike.
 */
function withoutDescriptions(key: string, value: unknown): unknown {
  return key === 'description' && typeof value === 'string' ? undefined : value;
}

/** The kinds of entries: whole (every split emitter's files, by connectorKeys) or structure (the description-blind emitters' files, by structureKeys). */
export type EntryKind = 'connectors' | 'structure';

const store = (dir: string, kind: EntryKind): Store => ({ dir: path.join(dir, kind), ext: '.entry', max: MAX_ENTRIES });

/**
 * An entry as the chunks of its file: the index line, then each file's content. Written chunk by chunk, so no copy of
 * the whole entry is made (at 8× the spec, copies of every connector's files were ~80 MB of buffers at once).
 */
function encode(entry: ConnectorEntry): FileContent[] {
  const index = entry.map(([rel, content, formatted, hash]) => [rel, Buffer.byteLength(content, 'utf8'), formatted, hash]);
  return [`${JSON.stringify(index)}\n`, ...entry.map(([, content]) => content)];
}

/** Bytes read first from an entry: enough for its index line (~100 bytes per file). */
const HEAD_BYTES = 16 * 1024;

/** Reads `length` bytes of the open file `fd` from `position`. */
function readAt(fd: number, length: number, position: number): Buffer {
  const bytes = Buffer.allocUnsafe(length);
  for (let at = 0; at < length; ) {
    const bytesRead = readSync(fd, bytes, at, length - at, position + at);
    if (bytesRead === 0) throw new Error('short read'); // shorter than it was: a miss
    at += bytesRead;
  }
  return bytes;
}

/**
 * Reads an entry: its index line, then the contents of the files that are not `kept` by the output, the span from the
 * first to the last of them (a one-connector edit reads of every other connector's entry its index and its fragments,
 * which come first: generate.ts).
 */
function readEntry(file: string, kept?: KeptFiles): CachedFile[] | undefined {
  const fd = openSync(file, 'r');
  try {
    const { size } = fstatSync(fd);
    let bytes = readAt(fd, Math.min(HEAD_BYTES, size), 0);
    let index = readIndex(bytes, size);
    if (index === 'more') index = readIndex((bytes = readAt(fd, size, 0)), size);
    if (!index || index === 'more') return undefined; // truncated or padded: a miss
    const rows = index.rows as [string, number, Formatted, string][];
    const records = rows.map(([rel, , , hash]) => kept?.(rel, hash));
    const { bodies } = index;
    // `bytes` holds the entry's bytes from `offset` on.
    let offset = 0;
    const needed = bodies.filter((_, i) => !records[i]);
    if (needed.length > 0) {
      const from = needed[0]![0];
      const to = needed.at(-1)![0] + needed.at(-1)![1];
      if (to > bytes.length) [bytes, offset] = [readAt(fd, to - from, from), from];
    }
    const files = rows.map(([rel, , formatted, hash], i): CachedFile => {
      const [start, length] = bodies[i]!;
      const content = () => {
        if (start < offset || start + length > offset + bytes.length) throw new Error(`internal: the content of ${rel} (kept by the output) was not read`);
        return bytes.subarray(start - offset, start - offset + length);
      };
      return { rel, formatted, hash, kept: records[i], content };
    });
    // A content to be used must be what the index says it is: a damaged entry is a miss, never output.
    return files.every((f) => f.kept || sha256(f.content()) === f.hash) ? files : undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * The entries of `kind` found for `keys` (id → its files); a missing or unreadable entry is a miss. `kept`: see
 * readEntry (without it, every content is read).
 */
export function readEntries(dir: string, kind: EntryKind, keys: Map<string, string>, kept?: KeptFiles): Map<string, CachedFile[]> {
  const found = readStoredWith(store(dir, kind), keys.values(), (file) => readEntry(file, kept));
  return new Map([...keys].flatMap(([id, key]) => (found.has(key) ? [[id, found.get(key)!]] : [])));
}

/** Stores entries (best effort: a cache that cannot be written only costs the next run the work). */
export async function writeEntries(dir: string, kind: EntryKind, entries: [key: string, entry: ConnectorEntry][]): Promise<void> {
  await writeStored(store(dir, kind), entries.map(([key, entry]) => [key, encode(entry)]));
}
