/**
 * The incremental cache: per connector, the files every split emitter (Emitter.split) made for it, kept under the key
 * of everything those files depend on — the generator version (cache/version.ts) and the IR an emitter's `connector`
 * part receives (the common contract, the packaging, and that connector). A connector whose key is found is not
 * emitted again. Entries are plain JSON files under `<cache dir>/connectors/`, written atomically; the directory is
 * safe to delete, and entries of another generator version are never read (their key differs).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Formatted } from '../emitters/types.js';
import type { SpecIR } from '../ir.js';
import { onlyConnector } from '../emitters/types.js';
import { readStored, writeStored, type Store } from './store.js';

/** Bumped when the entry format changes. */
const ENTRY_VERSION = 1;
/** Entries kept: a few generations of a large spec; the oldest go beyond it. */
const MAX_ENTRIES = 600;

/** One connector's files: [path, content before formatting, what its emitter guarantees about formatting]. */
export type ConnectorEntry = [string, string, Formatted][];

/** The cache key of each connector of `ir` (id → key) for generator `version`: a digest of exactly what its emitters read. */
export function connectorKeys(version: string, ir: SpecIR): Map<string, string> {
  return new Map(ir.connectors.map((c) => [c.id, createHash('sha256').update(`${ENTRY_VERSION}\0${version}\0${JSON.stringify(onlyConnector(ir, c))}`).digest('hex')]));
}

const store = (dir: string): Store => ({ dir: path.join(dir, 'connectors'), ext: '.json', max: MAX_ENTRIES });

/** The entries found for `keys` (id → entry); a missing or unreadable entry is a miss. */
export async function readEntries(dir: string, keys: Map<string, string>): Promise<Map<string, ConnectorEntry>> {
  const found = await readStored(store(dir), keys.values(), (bytes) => {
    const entry = JSON.parse(bytes.toString('utf8')) as ConnectorEntry;
    return Array.isArray(entry) ? entry : undefined;
  });
  return new Map([...keys].flatMap(([id, key]) => (found.has(key) ? [[id, found.get(key)!]] : [])));
}

/** Stores entries (best effort: a cache that cannot be written only costs the next run the work). */
export async function writeEntries(dir: string, entries: [key: string, entry: ConnectorEntry][]): Promise<void> {
  await writeStored(store(dir), entries.map(([key, entry]) => [key, JSON.stringify(entry)]));
}
