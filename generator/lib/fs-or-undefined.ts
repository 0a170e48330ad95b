/**
 * Synchronous file system calls that answer undefined where the asynchronous ones they replaced were caught: for a
 * missing file, and equally for one that cannot be looked at (a parent that is a file, no permission). Callers treat
 * every such answer as "not there", as before.
 */
import { lstatSync, readFileSync, statSync, type Stats } from 'node:fs';

/** What `call` gives, or undefined when it throws. */
function orUndefined<T>(call: () => T): T | undefined {
  try {
    return call();
  } catch {
    return undefined;
  }
}

/** stat of `file` (links followed), or undefined. */
export const statOrUndefined = (file: string): Stats | undefined => orUndefined(() => statSync(file));

/** lstat of `file` (a link itself), or undefined. */
export const lstatOrUndefined = (file: string): Stats | undefined => orUndefined(() => lstatSync(file));

/**
 * The bytes of `file`, or undefined; undefined too for what is not a regular file (links followed): reading a FIFO put
 * where an output file goes would block forever, a device could never end.
 */
export const readOrUndefined = (file: string): Buffer | undefined => (statOrUndefined(file)?.isFile() ? orUndefined(() => readFileSync(file)) : undefined);
