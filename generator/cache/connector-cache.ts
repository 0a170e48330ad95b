/**
 * The incremental cache: per connector, the files every split emitter (Emitter.split) made for it, kept under the key
 * of everything those files depend on — the generator version (cache/version.ts) and the IR an emitter's `connector`
 * part receives (the common contract, the packaging, and that connector). A connector whose key is found is not
 * emitted again. Entries are plain JSON files under `<cache dir>/connectors/`, written atomically; the directory is
 * safe to delete, and entries of another generator version are never read (their key differs).
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Formatted } from '../emitters/types.js';
import type { SpecIR } from '../ir.js';
import { onlyConnector } from '../emitters/types.js';

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

const entryFile = (dir: string, key: string) => path.join(dir, 'connectors', `${key}.json`);

/** The entries found for `keys` (id → entry); a missing or unreadable entry is a miss. */
export async function readEntries(dir: string, keys: Map<string, string>): Promise<Map<string, ConnectorEntry>> {
  const found = new Map<string, ConnectorEntry>();
  const now = new Date();
  await Promise.all(
    [...keys].map(async ([id, key]) => {
      try {
        const entry = JSON.parse(await readFile(entryFile(dir, key), 'utf8')) as ConnectorEntry;
        if (!Array.isArray(entry)) return;
        found.set(id, entry);
        void utimes(entryFile(dir, key), now, now).catch(() => undefined); // used: kept longest
      } catch {
        // a miss
      }
    }),
  );
  return found;
}

/** Stores entries (best effort: a cache that cannot be written only costs the next run the work). */
export async function writeEntries(dir: string, entries: [key: string, entry: ConnectorEntry][]): Promise<void> {
  if (entries.length === 0) return;
  try {
    await mkdir(path.join(dir, 'connectors'), { recursive: true });
    await Promise.all(
      entries.map(async ([key, entry]) => {
        const temp = `${entryFile(dir, key)}.${process.pid}.tmp`;
        await writeFile(temp, JSON.stringify(entry));
        await rename(temp, entryFile(dir, key));
      }),
    );
    const names = (await readdir(path.join(dir, 'connectors'))).filter((n) => n.endsWith('.json'));
    if (names.length > MAX_ENTRIES) {
      const aged = await Promise.all(names.map(async (n) => ({ n, t: (await stat(path.join(dir, 'connectors', n)).catch(() => undefined))?.mtimeMs ?? 0 })));
      aged.sort((a, b) => b.t - a.t);
      await Promise.all(aged.slice(MAX_ENTRIES / 2).map(({ n }) => rm(path.join(dir, 'connectors', n), { force: true })));
    }
  } catch {
    // ignored on purpose: see above
  }
}
