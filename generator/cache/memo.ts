/**
 * Remembered results of the pure, costly steps inside emitters — ajv's compilation of a connector's validators,
 * handlebars' compilation of a template — so a run whose input to them is unchanged (a connector whose description
 * changed keeps its schemas) skips them and the libraries they load. Each result is kept under a digest of the step's
 * name, its whole input and the generator version (the generator's own files and the versions of ajv and handlebars:
 * cache/version.ts), in `<cache dir>/memo/`. A memo is used only while a run has set one (generate.ts); elsewhere, and
 * when the cache cannot be read or written, the step runs.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readStored, writeStored, type Store } from './store.js';

/** Bumped when the entry format changes. */
const ENTRY_VERSION = 1;
/** Entries kept: every connector's validators a few times over, and the templates. */
const MAX_ENTRIES = 400;

/** The memo of the current run: where, and the (real) generator version keying it. */
let current: { store: Store; version: string } | undefined;

/** Sets the memo of the runs that follow (undefined: none); returns the one it replaces. */
export function useMemo(cache: { dir: string; version: string } | undefined): { dir: string; version: string } | undefined {
  const before = current && { dir: path.dirname(current.store.dir), version: current.version };
  current = cache && { store: { dir: path.join(cache.dir, 'memo'), ext: '.txt', max: MAX_ENTRIES }, version: cache.version };
  return before;
}

function keyOf(version: string, step: string, input: string): string {
  return `${step}-${createHash('sha256').update(`${ENTRY_VERSION}\0${version}\0${step}\0`).update(input).digest('hex')}`;
}

/** `compute()`'s result for `input` to `step`, remembered. */
export async function remember(step: string, input: string, compute: () => Promise<string>): Promise<string> {
  const memo = current;
  if (!memo) return compute();
  const key = keyOf(memo.version, step, input);
  const found = (await readStored(memo.store, [key], (bytes) => bytes.toString('utf8'))).get(key);
  if (found !== undefined) return found;
  const result = await compute();
  await writeStored(memo.store, [[key, result]]);
  return result;
}

/** `remember` for a step that runs synchronously (compiling a template when it is first used). */
export function rememberSync(step: string, input: string, compute: () => string): string {
  const memo = current;
  if (!memo) return compute();
  const file = path.join(memo.store.dir, `${keyOf(memo.version, step, input)}${memo.store.ext}`);
  try {
    return readFileSync(file, 'utf8');
  } catch {
    // a miss
  }
  const result = compute();
  try {
    mkdirSync(memo.store.dir, { recursive: true });
    writeFileSync(`${file}.${process.pid}.tmp`, result);
    renameSync(`${file}.${process.pid}.tmp`, file);
  } catch {
    // best effort: a memo that cannot be written only costs the next run the step
  }
  return result;
}
