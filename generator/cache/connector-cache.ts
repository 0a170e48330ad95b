/**
 * The incremental cache: per connector, the files every split emitter (Emitter.split) made for it, kept under the key
 * of everything those files depend on — the generator version (cache/version.ts) and the IR an emitter's `connector`
 * part receives (the common contract, the packaging, and that connector). A connector whose key is found is not
 * emitted again. Entries are files under `<cache dir>/connectors/`, written atomically: a JSON line listing the files
 * (path, length in bytes, formatting, sha256 of the content as emitted), then the bodies of the pseudo-files, which are
 * never written out — the connector's fragments of shared files (emitters/run.ts fragmentPath) and STRUCTURE_POINTER.
 *
 * An entry holds no copy of the connector's output files: their content is in the output, found by content address
 * (readEntry). A file the output holds as it would be written (the stamp vouches for it: cache/stamp.ts keptByStamp) is
 * not even read; any other is read from the output and used when its sha256 is the entry's. When one of the files is
 * not in the output as emitted (an emptied output, another output directory, a file changed since), the entry is a miss
 * and the connector is emitted again: the same files, at the cost of emitting them. Copies would double what a cold run
 * writes (~12 MB of 24 for the 15-connector spec, ~90 of 180 MB at 8×) to spare only that rare case, and make the
 * cache directory hold a copy of the output for every generation it keeps. The directory is safe to delete, and
 * entries of another generator version are never read (their key differs).
 *
 * The files of the emitters that read no description (EmitterEntry.readsDescriptions) are kept apart, in entries
 * under `<cache dir>/structure/` keyed by the connector's structure key: the same inputs with every `description` of
 * the connector's IR and of the common contract's left out. A whole entry names its structure entry
 * (STRUCTURE_POINTER), so a run reads both for a connector it finds; for a connector it does not find, it works out the
 * structure key, and finds the structure entry when only descriptions changed (the most common edit, in a connector's
 * file or in service.yaml): those emitters then run for nobody. Each file is listed once.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { serviceOnly, type Formatted } from '../emitters/types.js';
import type { AssumptionIR, SpecIR } from '../ir.js';
import type { FileContent } from '../write.js';
import { readIndex } from './indexed-file.js';
import { readStoredWith, writeStored, type Store } from './store.js';
import { sha256 } from '../lib/sha256.js';
import type { StampedFile } from './stamp.js';

/** Bumped when the entry format changes. */
const ENTRY_VERSION = 6;

/** The pseudo-file of a whole entry that holds its structure entry's key (never an output path: those never start with `#`). */
export const STRUCTURE_POINTER = '#structure';
/** Entries kept: a few generations of a large spec; the oldest go beyond it. */
const MAX_ENTRIES = 600;

/**
 * One connector's files: [path, content before formatting, what its emitter guarantees about formatting, sha256 of the
 * content]. Only the contents of pseudo-files (isPseudoFile) are stored.
 */
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
  /** The content before formatting, as bytes (of the entry or of the output file as read); only for a file not kept. */
  content: () => Uint8Array;
}

/** A pseudo-file of an entry (a fragment, the structure pointer): stored in the entry, never output (output paths never start with `#`). */
export const isPseudoFile = (rel: string): boolean => rel.startsWith('#');

/**
 * The bytes of the output file `rel` when its content is the one of sha256 `hash` (the content as emitted), else
 * undefined: where readEntry finds the files of an entry.
 */
export type OutputContent = (rel: string, hash: string) => Uint8Array | undefined;

/** Which files the output already holds as they would be written (generate.ts, cache/stamp.ts keptByStamp). */
export type KeptFiles = (rel: string, hash: string) => StampedFile | undefined;

/** The cache keys of a run's connectors (connectorKeys). */
export interface ConnectorKeys {
  /** Connector id → the key of its whole entry. */
  whole: Map<string, string>;
  /** Connector id → its structure key, for the connectors `ids` (computed on demand: it serializes their IR). */
  structure(ids: readonly string[]): Map<string, string>;
  /**
   * The key of the service entry: the files that read no connector (EmitterSplit.service), kept under `<cache dir>/service/`
   * in an entry like a connector's. The shared part and the common contract's own assumptions, and whether the run has
   * connectors: what serviceOnly(ir) gives those files.
   */
  service: string;
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
  const service = createHash('sha256')
    .update(`${ENTRY_VERSION}\0service\0${version}\0${common}\0${JSON.stringify(serviceOnly(ir).service.assumptions)}\0${ir.connectors.length > 0}`)
    .digest('hex');
  return { whole, structure, service };
}

/**
 * JSON.stringify's replacer that leaves out every `description` of the IR. A key of that name is always documentation
 * (ir.ts: field names are values of `name`, and the IR holds no maps keyed by spec data), in a connector's IR and in
 * the common contract's alike.
 */
function withoutDescriptions(key: string, value: unknown): unknown {
  return key === 'description' && typeof value === 'string' ? undefined : value;
}

/**
 * The kinds of entries: whole (every split emitter's files, by connectorKeys), structure (the description-blind
 * emitters' files, by structureKeys) or service (the files that read no connector, by ConnectorKeys.service).
 */
export type EntryKind = 'connectors' | 'structure' | 'service';

const store = (dir: string, kind: EntryKind): Store => ({ dir: path.join(dir, kind), ext: '.entry', max: MAX_ENTRIES });

/**
 * An entry as the chunks of its file: the index line, then the bodies of the pseudo-files (an output file's row has a
 * body of length 0: its content is the output's). Written chunk by chunk, with no copy of the whole entry.
 */
function encode(entry: ConnectorEntry): FileContent[] {
  const index = entry.map(([rel, content, formatted, hash]) => [rel, isPseudoFile(rel) ? Buffer.byteLength(content, 'utf8') : 0, formatted, hash]);
  return [`${JSON.stringify(index)}\n`, ...entry.filter(([rel]) => isPseudoFile(rel)).map(([, content]) => content)];
}

/**
 * Reads an entry: its index line and the pseudo-files' bodies (the whole file: it holds no output file), then finds
 * each output file — kept by the output as it would be written (`kept`: not read), or with the entry's content in the
 * output (`fromOutput`: read). A file found neither way makes the entry a miss, as does a damaged entry.
 */
function readEntry(file: string, kept: KeptFiles | undefined, fromOutput: OutputContent | undefined): CachedFile[] | undefined {
  const bytes = readFileSync(file);
  const index = readIndex(bytes, bytes.length);
  if (!index || index === 'more') return undefined; // truncated or padded: a miss
  const rows = index.rows as [string, number, Formatted, string][];
  const files: CachedFile[] = [];
  for (const [i, [rel, length, formatted, hash]] of rows.entries()) {
    if (isPseudoFile(rel)) {
      const [start] = index.bodies[i]!;
      const body = bytes.subarray(start, start + length);
      if (sha256(body) !== hash) return undefined; // a content behind its index: never used
      files.push({ rel, formatted, hash, kept: undefined, content: () => body });
      continue;
    }
    if (length !== 0) return undefined; // not this format
    const record = kept?.(rel, hash);
    const output = record ? undefined : fromOutput?.(rel, hash);
    if (!record && !output) return undefined; // not in the output as emitted: the connector is emitted again
    files.push({
      rel,
      formatted,
      hash,
      kept: record,
      content: () => {
        if (!output) throw new Error(`internal: the content of ${rel} (kept by the output) was not read`);
        return output;
      },
    });
  }
  return files;
}

/**
 * The entries of `kind` found for `keys` (id → its files); a missing or unreadable entry is a miss, as is one whose
 * output files are neither `kept` nor found `fromOutput` (readEntry).
 */
export function readEntries(dir: string, kind: EntryKind, keys: Map<string, string>, kept: KeptFiles | undefined, fromOutput: OutputContent | undefined): Map<string, CachedFile[]> {
  const found = readStoredWith(store(dir, kind), keys.values(), (file) => readEntry(file, kept, fromOutput));
  return new Map([...keys].flatMap(([id, key]) => (found.has(key) ? [[id, found.get(key)!]] : [])));
}

/** Stores entries (best effort: a cache that cannot be written only costs the next run the work). */
export async function writeEntries(dir: string, kind: EntryKind, entries: [key: string, entry: ConnectorEntry][]): Promise<void> {
  await writeStored(store(dir, kind), entries.map(([key, entry]) => [key, encode(entry)]));
}
