/**
 * The incremental cache: per connector, the files every split emitter (Emitter.split) made for it, kept under the key
 * of everything those files depend on — the generator version (cache/version.ts) and the IR an emitter's `connector`
 * part receives (the common contract, the packaging, and that connector). A connector whose key is found is not
 * emitted again. Entries are files under `<cache dir>/connectors/`, written atomically: a JSON line listing the files
 * (path, length in bytes, formatting, sha256 of the content), then their contents one after another, each decoded only
 * when asked for (a file the output already holds never is: generate.ts). The directory is safe to delete, and entries
 * of another generator version are never read (their key differs).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Formatted } from '../emitters/types.js';
import type { SpecIR } from '../ir.js';
import type { FileContent } from '../write.js';
import { onlyConnector } from '../emitters/types.js';
import { readStored, writeStored, type Store } from './store.js';

/** Bumped when the entry format changes. */
const ENTRY_VERSION = 3;
/** Entries kept: a few generations of a large spec; the oldest go beyond it. */
const MAX_ENTRIES = 600;

/** One connector's files: [path, content before formatting, what its emitter guarantees about formatting, sha256 of the content]. */
export type ConnectorEntry = [string, FileContent, Formatted, string][];

/** A file of an entry as read: its content is decoded on first call. */
export interface CachedFile {
  /** Path in the output. */
  rel: string;
  /** What its emitter guarantees about formatting. */
  formatted: Formatted;
  /** sha256 of the content (before formatting). */
  hash: string;
  /** The content before formatting, as bytes (a view of the entry as read). */
  content: () => Uint8Array;
}

/**
 * The cache key of each connector of `ir` (id → key) for generator `version`: a digest of exactly what its emitters
 * read, onlyConnector(ir, connector) — the part every connector shares serialized once.
 */
export function connectorKeys(version: string, ir: SpecIR): Map<string, string> {
  const common = JSON.stringify({ ...ir, service: { ...ir.service, assumptions: null }, connectors: null });
  return new Map(
    ir.connectors.map((c) => {
      const own = onlyConnector(ir, c);
      const hash = createHash('sha256').update(`${ENTRY_VERSION}\0${version}\0${common}\0`);
      return [c.id, hash.update(`${JSON.stringify(own.service.assumptions)}\0${JSON.stringify(c)}`).digest('hex')];
    }),
  );
}

const store = (dir: string): Store => ({ dir: path.join(dir, 'connectors'), ext: '.entry', max: MAX_ENTRIES });

/**
 * An entry as the chunks of its file: the index line, then each file's content. Written chunk by chunk, so no copy of
 * the whole entry is made (at 8× the spec, copies of every connector's files were ~80 MB of buffers at once).
 */
function encode(entry: ConnectorEntry): FileContent[] {
  const index = entry.map(([rel, content, formatted, hash]) => [rel, Buffer.byteLength(content, 'utf8'), formatted, hash]);
  return [`${JSON.stringify(index)}\n`, ...entry.map(([, content]) => content)];
}

function decode(bytes: Buffer): CachedFile[] | undefined {
  const end = bytes.indexOf(0x0a);
  const index = JSON.parse(bytes.toString('utf8', 0, end)) as [string, number, Formatted, string][];
  let at = end + 1;
  const files = index.map(([rel, length, formatted, hash]): CachedFile => {
    const start = at;
    at += length;
    return { rel, formatted, hash, content: () => bytes.subarray(start, start + length) };
  });
  return at === bytes.length ? files : undefined; // a truncated or padded file is a miss
}

/** The entries found for `keys` (id → its files); a missing or unreadable entry is a miss. */
export async function readEntries(dir: string, keys: Map<string, string>): Promise<Map<string, CachedFile[]>> {
  const found = await readStored(store(dir), keys.values(), decode);
  return new Map([...keys].flatMap(([id, key]) => (found.has(key) ? [[id, found.get(key)!]] : [])));
}

/** Stores entries (best effort: a cache that cannot be written only costs the next run the work). */
export async function writeEntries(dir: string, entries: [key: string, entry: ConnectorEntry][]): Promise<void> {
  await writeStored(store(dir), entries.map(([key, entry]) => [key, encode(entry)]));
}
