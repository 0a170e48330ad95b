/**
 * `mkdir -p` without Node's recursive mkdir, which retries forever (100% CPU) where a directory cannot be made though
 * its parent exists: under /proc or /sys, mkdir answers ENOENT, Node makes the parent (EEXIST) and tries again.
 */
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** Makes `dir` and its missing parents, one at a time; throws the system's error (ENOENT, EACCES, ENOTDIR, …) once. */
export function makeDirSync(dir: string): void {
  const missing: string[] = [];
  for (let at = path.resolve(dir); statSync(at, { throwIfNoEntry: false }) === undefined; at = path.dirname(at)) {
    missing.push(at);
    if (path.dirname(at) === at) break;
  }
  // A file where the directory goes: mkdir itself says so (EEXIST), as Node's would.
  if (missing.length === 0 && !statSync(dir).isDirectory()) mkdirSync(dir);
  for (const at of missing.reverse()) {
    try {
      mkdirSync(at);
    } catch (error) {
      // Made meanwhile by another process: fine when it is a directory.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || !statSync(at).isDirectory()) throw error;
    }
  }
}
