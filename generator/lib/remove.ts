/**
 * `rm -rf` for the writer's staging directory and journal, as `rmSync(path, { recursive: true, force: true })` does it
 * but without Node's rimraf: rmSync loads and runs it for every call, even for a single file (~1 ms to load, and an
 * lstat, a retry loop and an error probe per entry), where the writer removes a few small trees on every run with
 * work to do. A missing path is no error; any other error is thrown, as rmSync throws it. Links are removed, never
 * followed.
 */
import { lstatSync, readdirSync, rmdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Removes `target` (a file, a link, or a directory with everything below it); nothing when it does not exist. */
export function removeSync(target: string): void {
  const stats = lstatSync(target, { throwIfNoEntry: false });
  if (!stats) return;
  if (stats.isDirectory()) removeDirectory(target);
  else unlinkIfThere(target);
}

function unlinkIfThere(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if (!missing(error)) throw error;
  }
}

/** Removes the directory `dir` and everything below it. */
function removeDirectory(dir: string): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if (missing(error)) return;
    throw error;
  }
  for (const entry of entries) {
    const child = path.join(dir, entry.name);
    if (entry.isDirectory()) removeDirectory(child);
    else unlinkIfThere(child);
  }
  try {
    rmdirSync(dir);
  } catch (error) {
    if (!missing(error)) throw error;
  }
}
