/**
 * An exclusive lock on a directory between processes: a lock file in it that names its holder (pid and host). Two
 * `generate` runs into one output (a `--watch` and a run by hand, two terminals) would otherwise stage into one staging
 * directory at once, or one would "recover" the other's transaction while it runs (write.ts), and the output could lose
 * files. The lock file is made whole in one step: its content goes to a file of this process, which is then linked
 * under the lock's name (a link fails when the name exists). A process that finds the lock held waits for it; a lock
 * whose holder is gone (the same host, no such process: a killed run) is stale and is taken over. Waiting longer than
 * the limit fails with an error that names the lock file.
 *
 * Taking over a stale lock reads it again just before removing it, so two processes that found the same stale lock do
 * not remove each other's new one unless they interleave within that window (only right after a run was killed).
 */
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { displayPath } from './display-path.js';
import { removeSync } from './remove.js';

/** What the lock file holds. */
interface Holder {
  pid: number;
  host: string;
}

/** Lock takings of this process so far (lock files of one process tell them apart). */
let takings = 0;

/** How often a waiting process looks again. */
const POLL_MS = 20;

/** How long a process waits for a lock by default: the writer holds it only while it writes (a second or two at most). */
export const LOCK_WAIT_MS = 30_000;

/** After how long a wait `onWait` hears of it. */
const NOTICE_MS = 1000;

/** Hears, once per wait that lasts, what is being waited for (a line for the user). */
export type LockWaitNotice = (notice: string) => void;

/** Who holds a lock, for messages. */
function holderName(holder: Holder | undefined): string {
  return holder ? `process ${holder.pid}${holder.host === os.hostname() ? '' : ` on ${holder.host}`}` : 'another process';
}

/** Tells `onWait`, once, when a wait that began at `started` has lasted NOTICE_MS. */
function noticeOnce(lockFile: string, started: number, onWait: LockWaitNotice | undefined): (holder: Holder | undefined) => void {
  let told = false;
  return (holder) => {
    if (told || !onWait || Date.now() - started < NOTICE_MS) return;
    told = true;
    onWait(`waiting for ${holderName(holder)}, another connector-codegen run writing there (it holds ${displayPath(lockFile)})`);
  };
}

/** A lock that could not be taken in time. */
export class LockTimeoutError extends Error {
  constructor(lockFile: string, holder: Holder | undefined, waitedMs: number) {
    const who = holderName(holder);
    const waited = waitedMs >= 1000 ? `${Math.round(waitedMs / 1000)} s` : `${waitedMs} ms`;
    super(`${who} has held ${displayPath(lockFile)} for over ${waited} (another connector-codegen run writing there); if none is running, remove that file`);
    this.name = 'LockTimeoutError';
  }
}

/** The lock's holder as its file names it (with the file's text), undefined when the text names none, 'gone' without a file. */
function readHolder(lockFile: string): (Holder & { text: string }) | undefined | 'gone' {
  let text: string;
  try {
    text = readFileSync(lockFile, 'utf8');
  } catch (error) {
    // No file, or no directory to hold one (the output is a file: the caller's own checks say so).
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'gone';
    return undefined;
  }
  try {
    const holder = JSON.parse(text) as Partial<Holder>;
    return typeof holder.pid === 'number' && typeof holder.host === 'string' ? { pid: holder.pid, host: holder.host, text } : undefined;
  } catch {
    return undefined; // not ours to judge: waited for, never removed
  }
}

/** Whether the holder is known to be gone: on this host, and no process has its pid. */
function isStale(holder: Holder): boolean {
  return holder.host === os.hostname() && isProcessGone(holder.pid);
}

/** Whether no process of this host has the pid (this process's own never is gone). */
export function isProcessGone(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0); // signal 0: only asks whether the process exists
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** The pid in the name of a temporary file of acquireLock for `lockName` (`<lock>.<pid>.<taking>.tmp`), if `name` is one. */
export function lockTempPid(lockName: string, name: string): number | undefined {
  const match = /^\.(\d+)\.\d+\.tmp$/.exec(name.startsWith(lockName) ? name.slice(lockName.length) : '');
  return match ? Number(match[1]) : undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Takes the lock `lockFile` (its directory must exist), waiting while another live process holds it; returns its
 * release. Throws LockTimeoutError after `waitMs`.
 */
export async function acquireLock(lockFile: string, waitMs: number = LOCK_WAIT_MS, onWait?: LockWaitNotice): Promise<() => void> {
  // Each taking has its own file and content: runs in one process wait for each other too, and release only their own.
  const taking = ++takings;
  const own: Holder & { taking: number } = { pid: process.pid, host: os.hostname(), taking };
  const text = JSON.stringify(own);
  const temp = `${lockFile}.${process.pid}.${taking}.tmp`;
  writeFileSync(temp, text);
  const started = Date.now();
  const notice = noticeOnce(lockFile, started, onWait);
  try {
    for (;;) {
      try {
        linkSync(temp, lockFile);
        return () => {
          try {
            if (readFileSync(lockFile, 'utf8') === text) unlinkSync(lockFile);
          } catch {
            // already gone: nothing to release
          }
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = readHolder(lockFile);
      if (holder === 'gone') continue;
      if (holder && isStale(holder)) {
        const again = readHolder(lockFile);
        if (again !== 'gone' && again?.text === holder.text) removeSync(lockFile);
        continue;
      }
      if (Date.now() - started >= waitMs) throw new LockTimeoutError(lockFile, holder, waitMs);
      notice(holder);
      await sleep(POLL_MS);
    }
  } finally {
    removeSync(temp);
  }
}

/**
 * Waits, changing nothing, until no live process holds the lock `lockFile` (it is absent, or stale). Throws
 * LockTimeoutError after `waitMs`.
 */
export async function waitWhileLocked(lockFile: string, waitMs: number = LOCK_WAIT_MS, onWait?: LockWaitNotice): Promise<void> {
  const started = Date.now();
  const notice = noticeOnce(lockFile, started, onWait);
  for (;;) {
    const holder = readHolder(lockFile);
    if (holder === 'gone' || (holder && isStale(holder))) return;
    if (Date.now() - started >= waitMs) throw new LockTimeoutError(lockFile, holder, waitMs);
    notice(holder);
    await sleep(POLL_MS);
  }
}

/** Runs `work` holding the lock `lockFile` (acquireLock), and releases it however `work` ends. */
export async function withLock<T>(lockFile: string, work: () => T | Promise<T>, onWait?: LockWaitNotice): Promise<T> {
  const release = await acquireLock(lockFile, LOCK_WAIT_MS, onWait);
  try {
    return await work();
  } finally {
    release();
  }
}
