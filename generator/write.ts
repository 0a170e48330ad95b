/**
 * Phase 5 — write: bring an output directory to exactly the given files, as one transaction. Only files whose content
 * changed are written; stale files are removed; build products (dist/, .build/, node_modules/, *.tgz) are never touched.
 *
 * 1. Stage: every new or changed file is written under `<out>/.codegen-staging/new/` (the same file system, so the
 *    moves below are renames). A failure or a kill here leaves the output as it was; the next run removes the stage.
 * 2. Commit: the journal `<out>/.codegen-journal.json` is written (atomically). From here on the run counts as done.
 * 3. Apply: each replaced or removed file is moved aside to `.codegen-staging/old/`, each new one moved into place;
 *    then the stage and the journal are removed. A kill here is completed by the next run (recoverOutput, from the
 *    journal); an error here (a disk that fills up) is rolled back from the files moved aside.
 * So an interrupted generate leaves the output as it was before, or — once the next run or `--check` has looked — as
 * it is after; never a mix that stays.
 *
 * Every file system call is synchronous, one after another: each asynchronous call cost a round trip through libuv's
 * thread pool (a wake-up on each side), more CPU than the call itself, and a cold run makes four or five calls per
 * file (at 8× the spec, ~10,000). Done in order, each step of the transaction also ends before the next begins.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { isProcessGone, lockTempPid, waitWhileLocked, withLock, type LockWaitNotice } from './lib/dir-lock.js';
import { removeSync } from './lib/remove.js';
import type { Stats } from 'node:fs';
import path from 'node:path';
import { lstatOrUndefined, readOrUndefined, statOrUndefined } from './lib/fs-or-undefined.js';

/** A generated file's content: text, or its UTF-8 bytes (how generate keeps emitted files: emitters/output-bytes.ts). */
export type FileContent = string | Uint8Array;

/** Generated files: path relative to the output directory (forward slashes) → content. */
export type FileMap = Map<string, FileContent>;

/** Whether `bytes` (a file as read) hold `content`. */
function holds(bytes: Buffer, content: FileContent): boolean {
  return typeof content === 'string' ? bytes.length === Buffer.byteLength(content, 'utf8') && bytes.toString('utf8') === content : bytes.equals(content);
}

/** How the directory differs from the wanted files. */
export interface OutputPlan {
  /** Files to create. */
  added: string[];
  /** Files whose content differs. */
  changed: string[];
  /** Files present but no longer generated (including temp files a killed run of an older version left). */
  stale: string[];
  /** Files already up to date. */
  unchanged: number;
}

/** Files the writer never touches: VCS files. */
const KEEP = new Set(['.gitkeep']);

/**
 * Directories inside the output that hold what users make of it, not what generate writes: installed
 * dependencies, and the build products of `connector-codegen build` and `npm pack` (see the output's .gitignore).
 */
const NOT_OUTPUT_DIRS = new Set(['node_modules', 'dist', '.build']);

/** The writer's own transaction files inside the output directory. */
export const STAGING_DIR = '.codegen-staging';
export const JOURNAL_FILE = '.codegen-journal.json';
/** Held while a run writes or recovers the output (lib/dir-lock.ts): one transaction at a time. */
export const LOCK_FILE = '.codegen-lock';

/** Whether a path relative to the output directory is a build product or installed dependency, never output. */
export function isBuildProduct(rel: string): boolean {
  return rel.split('/').some((part) => NOT_OUTPUT_DIRS.has(part)) || rel.endsWith('.tgz');
}

/** Whether a path is the writer's transaction state (never output, never stale). */
export function isTransactionFile(rel: string): boolean {
  return isLeftover(rel) || rel.startsWith(`${STAGING_DIR}/`);
}

/**
 * The output files under `dir` (relative, forward slashes): neither build products, transaction files nor .gitkeep.
 * Synchronous: a few dozen directory reads, cheaper without a round trip through the thread pool each.
 */
export function listOutputFiles(dir: string): string[] {
  const out: string[] = [];
  const visit = (at: string, prefix: string) => {
    let entries;
    try {
      entries = readdirSync(at, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const rel = prefix + e.name;
      // The parents passed these checks already: the last part decides (transaction files are at the top only).
      if (NOT_OUTPUT_DIRS.has(e.name) || e.name.endsWith('.tgz') || (prefix === '' && isTransactionFile(rel))) continue;
      if (e.isDirectory()) visit(`${at}/${e.name}`, `${rel}/`);
      else if (!KEEP.has(e.name)) out.push(rel);
    }
  };
  visit(dir, '');
  return out;
}

/**
 * Tells from a file's size and modification time alone what it holds (generate.ts: the last run's record of its
 * outputs, cache/stamp.ts): what is to be written there (`same`), other content (`changed`), or undefined: "read it
 * and compare".
 */
export type KnownContent = (rel: string, size: number, mtimeMs: number) => 'same' | 'changed' | undefined;

/**
 * Compares `files` with what is on disk under `outDir`; a file `known` vouches for is not read (an edit changes the
 * shared files, a megabyte of catalogue among them, without reading them), and the `kept` ones are known to be there
 * as they should (neither compared nor stale).
 */
export async function planOutput(outDir: string, files: FileMap, known?: KnownContent, kept: ReadonlySet<string> = new Set()): Promise<OutputPlan> {
  const existing = new Set(listOutputFiles(outDir));
  const plan: OutputPlan = { added: [], changed: [], stale: [], unchanged: kept.size };
  for (const [rel, content] of files) {
    if (!existing.has(rel)) {
      plan.added.push(rel);
      continue;
    }
    const file = path.join(outDir, rel);
    const info = known && statOrUndefined(file);
    const verdict = info && known!(rel, info.size, info.mtimeMs);
    if (verdict === 'same') {
      plan.unchanged++;
      continue;
    }
    if (verdict === 'changed') {
      plan.changed.push(rel);
      continue;
    }
    const current = readOrUndefined(file);
    if (current && holds(current, content)) plan.unchanged++;
    else plan.changed.push(rel);
  }
  plan.stale = [...existing].filter((f) => !files.has(f) && !kept.has(f));
  plan.added.sort();
  plan.changed.sort();
  plan.stale.sort();
  return plan;
}

/** The journal: what the committed transaction does. */
interface Journal {
  /** Files moved from the stage into place (added or changed). */
  writes: string[];
  /** Files that existed before and are replaced or removed (moved aside first). */
  aside: string[];
  /** Files removed. */
  removes: string[];
}

const staged = (outDir: string, kind: 'new' | 'old', rel: string) => path.join(outDir, STAGING_DIR, kind, rel);

/** The directories that hold `rel`, outermost first: `a/b/c.ts` → `a`, `a/b`. */
function parentDirs(rel: string): string[] {
  const parts = rel.split('/');
  return parts.slice(1).map((_, i) => parts.slice(0, i + 1).join('/'));
}

/** Whether anything is at `file` (a link is not followed). */
function exists(file: string): boolean {
  return lstatOrUndefined(file) !== undefined;
}

/** Moves `from` to `to`, making `to`'s directory. */
function move(from: string, to: string): void {
  mkdirSync(path.dirname(to), { recursive: true });
  renameSync(from, to);
}

/**
 * Refuses a plan that could not be applied: a path to write where a directory is, or a file where a directory must be.
 * Checked before anything is written, so such an output fails as a whole and stays as it was.
 */
function checkPaths(outDir: string, writes: string[]): void {
  // Each path looked at once; below a missing directory nothing is looked at (a fresh output: one lstat per directory).
  const infos = new Map<string, Stats | undefined>();
  const info = (rel: string) => {
    if (!infos.has(rel)) infos.set(rel, lstatOrUndefined(path.join(outDir, rel)));
    return infos.get(rel);
  };
  const problems = writes.flatMap((rel): string[] => {
    for (const dir of parentDirs(rel)) {
      const s = info(dir);
      if (!s) return []; // a directory still to make: nothing below it is in the way
      if (!s.isDirectory()) return [`${rel} (${dir} is a file, not a directory)`];
    }
    return info(rel)?.isDirectory() ? [`${rel} (a directory is in the way)`] : [];
  });
  if (problems.length) throw new Error(`cannot write the output; nothing was written: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? `; and ${problems.length - 5} more` : ''}`);
}

/** Test hook: called at each step of applyOutput (a kill test stops the process there). */
export type StepHook = (step: string) => void;

/** Applies a plan as one transaction (see the top of this file). */
export async function applyOutput(outDir: string, files: FileMap, plan: OutputPlan, onStep: StepHook = () => {}, onWait?: LockWaitNotice): Promise<void> {
  const writes = [...plan.added, ...plan.changed].sort();
  if (writes.length === 0 && plan.stale.length === 0) return;
  checkPaths(outDir, writes);
  mkdirSync(outDir, { recursive: true });
  await withLock(path.join(outDir, LOCK_FILE), () => transaction(outDir, files, plan, writes, onStep), onWait);
}

/** Stages, commits and applies `writes` and the plan's removals, holding the output's lock. */
function transaction(outDir: string, files: FileMap, plan: OutputPlan, writes: string[], onStep: StepHook): void {
  recoverLocked(outDir, topNames(outDir));
  // 1. Stage.
  removeSync(path.join(outDir, STAGING_DIR));
  try {
    for (const dir of new Set(writes.map((rel) => path.dirname(staged(outDir, 'new', rel))))) mkdirSync(dir, { recursive: true });
    for (const rel of writes) {
      onStep(`stage ${rel}`);
      writeFileSync(staged(outDir, 'new', rel), files.get(rel)!);
    }
  } catch (error) {
    removeSync(path.join(outDir, STAGING_DIR));
    throw error;
  }
  // 2. Commit.
  onStep('journal');
  const journal: Journal = { writes, aside: [...plan.changed, ...plan.stale].sort(), removes: plan.stale };
  const temp = path.join(outDir, `${JOURNAL_FILE}.${process.pid}.tmp`);
  writeFileSync(temp, JSON.stringify(journal));
  renameSync(temp, path.join(outDir, JOURNAL_FILE));
  // 3. Apply; on an error, undo what was done.
  try {
    forward(outDir, journal, onStep);
  } catch (error) {
    try {
      backward(outDir, journal);
    } catch {
      // the error that stopped the transaction is the one to report
    }
    throw error;
  }
}

/**
 * Completes a committed transaction: idempotent, so a run killed anywhere in it can be completed again. Files are
 * independent of each other, so each step runs for all of them at once; a staged directory whose target does not exist
 * yet (a fresh output, a new connector) moves into place in one rename.
 */
function forward(outDir: string, journal: Journal, onStep: StepHook): void {
  const writing = new Set(journal.writes);
  for (const rel of journal.aside) {
    const target = path.join(outDir, rel);
    // Moved aside once; after that the old file is in old/ and the target is gone or already the new file.
    if (!exists(staged(outDir, 'old', rel)) && exists(target) && (exists(staged(outDir, 'new', rel)) || !writing.has(rel))) {
      onStep(`aside ${rel}`);
      move(target, staged(outDir, 'old', rel));
    }
  }
  const placedDirs = placeNewDirectories(outDir, journal.writes, onStep);
  for (const rel of journal.writes) {
    if (parentDirs(rel).some((dir) => placedDirs.has(dir)) || !exists(staged(outDir, 'new', rel))) continue; // already in place
    onStep(`place ${rel}`);
    move(staged(outDir, 'new', rel), path.join(outDir, rel));
  }
  for (const rel of journal.removes) removeEmptyParents(outDir, path.dirname(path.join(outDir, rel)));
  onStep('cleanup');
  removeSync(path.join(outDir, STAGING_DIR));
  onStep('done');
  removeSync(path.join(outDir, JOURNAL_FILE));
}

/**
 * Moves each outermost staged directory whose target is missing into place whole; returns those directories (relative).
 * Only written files are staged, so such a directory holds new files only, and nothing at its target is lost.
 */
function placeNewDirectories(outDir: string, writes: string[], onStep: StepHook): Set<string> {
  const dirs = new Set(writes.flatMap(parentDirs));
  const placed = new Set<string>();
  const depthOf = (dir: string) => dir.split('/').length;
  const insidePlaced = (dir: string) => parentDirs(dir).some((parent) => placed.has(parent));
  const deepest = Math.max(0, ...[...dirs].map(depthOf));
  // Outer directories first; a directory inside one already placed went with it.
  for (let depth = 1; depth <= deepest; depth++) {
    const level = [...dirs].filter((dir) => depthOf(dir) === depth && !insidePlaced(dir));
    for (const dir of level) {
      if (exists(path.join(outDir, dir)) || !exists(staged(outDir, 'new', dir))) continue;
      onStep(`place ${dir}/`);
      move(staged(outDir, 'new', dir), path.join(outDir, dir));
      placed.add(dir);
    }
  }
  return placed;
}

/** Undoes a transaction that failed while being applied: new files go, old ones come back. */
function backward(outDir: string, journal: Journal): void {
  for (const rel of journal.writes) {
    if (!exists(staged(outDir, 'new', rel))) removeSync(path.join(outDir, rel)); // the new file had been placed
  }
  for (const rel of journal.aside) if (exists(staged(outDir, 'old', rel))) move(staged(outDir, 'old', rel), path.join(outDir, rel));
  for (const rel of journal.writes) removeEmptyParents(outDir, path.dirname(path.join(outDir, rel)));
  removeSync(path.join(outDir, STAGING_DIR));
  removeSync(path.join(outDir, JOURNAL_FILE));
}

/** What an interrupted run had left, and what recovery made of it. */
export type Recovery = 'none' | 'completed' | 'discarded';

/** What an interrupted run left in `outDir`, without changing anything (for --check; a run writing there is waited for). */
export async function pendingTransaction(outDir: string, onWait?: LockWaitNotice): Promise<Recovery> {
  await waitWhileLocked(path.join(outDir, LOCK_FILE), undefined, onWait);
  if (exists(path.join(outDir, JOURNAL_FILE))) return 'completed';
  return exists(path.join(outDir, STAGING_DIR)) ? 'discarded' : 'none';
}

/** Whether an interrupted run left anything in `outDir` that recoverOutput would finish (one directory read). */
export function interruptedRunLeft(outDir: string): boolean {
  return topNames(outDir).some(isLeftover);
}

function topNames(outDir: string): string[] {
  try {
    return readdirSync(outDir);
  } catch {
    return [];
  }
}

/** Whether a top-level name is the writer's: its stage, its journal or the lock (and their temporary files). */
function isLeftover(name: string): boolean {
  return name === STAGING_DIR || name === JOURNAL_FILE || name.startsWith(`${JOURNAL_FILE}.`) || name === LOCK_FILE || name.startsWith(`${LOCK_FILE}.`);
}

/**
 * Finishes what an interrupted run left: a committed transaction is completed from its journal; an uncommitted stage
 * is removed (the output is as it was before that run).
 */
export async function recoverOutput(outDir: string, onWait?: LockWaitNotice): Promise<Recovery> {
  // The usual case, told by one directory read: nothing was left.
  if (!topNames(outDir).some(isLeftover)) return 'none';
  // Else under the lock: what looks left may be the transaction of a run writing now (it is waited for).
  return withLock(path.join(outDir, LOCK_FILE), () => recoverLocked(outDir, topNames(outDir)), onWait);
}

/** recoverOutput's work, the lock held; `names` are the output directory's top-level names. */
function recoverLocked(outDir: string, names: string[]): Recovery {
  if (!names.some((name) => isLeftover(name) && name !== LOCK_FILE)) return 'none';
  const journalFile = path.join(outDir, JOURNAL_FILE);
  let journal: Journal | undefined;
  try {
    journal = JSON.parse(readFileSync(journalFile, 'utf8')) as Journal;
  } catch {
    journal = undefined;
  }
  if (journal) {
    forward(outDir, journal, () => {});
    return 'completed';
  }
  removeSync(journalFile); // unreadable: it was never renamed into place completely
  for (const name of names) if (name.startsWith(`${JOURNAL_FILE}.`)) removeSync(path.join(outDir, name));
  // A killed run's file for taking the lock (a waiting run's is still in use).
  for (const name of names) {
    const pid = lockTempPid(LOCK_FILE, name);
    if (pid !== undefined && isProcessGone(pid)) removeSync(path.join(outDir, name));
  }
  if (exists(path.join(outDir, STAGING_DIR))) {
    removeSync(path.join(outDir, STAGING_DIR));
    return 'discarded';
  }
  return 'none';
}

function removeEmptyParents(root: string, dir: string): void {
  const resolvedRoot = path.resolve(root);
  let current = path.resolve(dir);
  while (current.startsWith(resolvedRoot + path.sep)) {
    try {
      if (!statSync(current).isDirectory()) return;
      rmdirSync(current); // fails when not empty: that ends the walk
    } catch {
      return;
    }
    current = path.dirname(current);
  }
}
