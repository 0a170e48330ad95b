/**
 * `generate --watch`: regenerate whenever the spec (or the config) is saved. Each run prints one summary line, or the
 * diagnostics of a spec that does not validate — then the output stays as it was and the watch goes on. Saves arrive as
 * bursts of file events (editors write, rename, touch): they are gathered for a moment, and a save during a run queues
 * one more run. Only files whose content changed are written (write.ts), and unchanged spec files are not parsed again.
 */
import { readdirSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { displayPath } from '../lib/display-path.js';
import { statOrUndefined } from '../lib/fs-or-undefined.js';
import { specStem } from '../spec/yaml-source.js';

/** Whether `file` is a directory (links followed); false when it cannot be looked at. */
const isDirectory = (file: string) => statOrUndefined(file)?.isDirectory() ?? false;

/** How long events are gathered before a run starts. */
const SETTLE_MS = 120;

/** What the watch needs from the command. */
export interface WatchOptions {
  /**
   * Directories and files to watch (a file is watched through its directory: editors replace files). In a directory,
   * the files whose names `names` matches count (default: spec files, .yaml, .yml and .json).
   */
  targets: (string | { dir: string; names: RegExp })[];
  /** Runs one generation and reports it; never throws for a bad spec. */
  run: (changed: string[]) => Promise<void>;
  /** Where to say what the watch is doing. */
  log: (line: string) => void;
  /** Resolves when the watch should stop (default: SIGINT or SIGTERM). */
  until?: Promise<void>;
}

/** Watches until stopped. The first run happens at once. */
export async function watchAndRun(options: WatchOptions): Promise<void> {
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;

  const start = () => {
    timer = undefined;
    if (running) {
      again = true;
      return;
    }
    const changed = [...pending].sort();
    pending = new Set();
    running = options
      .run(changed)
      .catch((error: unknown) => options.log(`connector-codegen generate: ${error instanceof Error ? error.message : String(error)}`))
      .finally(() => {
        running = undefined;
        if (again) {
          again = false;
          start();
        }
      });
  };
  const changedFile = (file: string) => {
    pending.add(file);
    if (timer) clearTimeout(timer);
    timer = setTimeout(start, SETTLE_MS);
  };

  // Each directory is watched on its own, never with `recursive`: Node 20's recursive watch on Linux follows a file by
  // its inode, so after an editor saves by writing a new file and renaming it over the old one (vim, JetBrains IDEs,
  // `sed -i`), the file's later saves went unseen. A directory's own watch reports every name in it, however saved.
  const watchers = new Map<string, FSWatcher>();
  const cannotWatch = (dir: string, error: Error) => options.log(`connector-codegen generate: cannot watch ${displayPath(dir)}: ${error.message}`);
  /** Watches the directory `dir`; with `only`, for that one file in it (watched through its directory: editors replace files). */
  /** Which files of a watched directory count: its tree's pattern (spec files unless the target says). */
  const namesOf = new Map<string, RegExp>();
  const counts = (file: string) => {
    for (const [root, names] of namesOf) if (file.startsWith(root + path.sep)) return names.test(file);
    return SPEC_FILE.test(file);
  };
  const watchDir = (dir: string, only?: string) => {
    const key = only ?? dir; // a file's watch is its own, even in a watched directory
    if (watchers.has(key)) return;
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, (_event, name) => {
        if (!name) return;
        const file = path.join(dir, name.toString());
        if (only !== undefined) {
          if (file === only) changedFile(file); // another file beside the config is not ours
          return;
        }
        if (counts(file)) changedFile(file);
        else if (isDirectory(file)) {
          if (watchers.has(file)) return;
          watchTree(file); // made (or moved) here since: its files count as changed
          changedFile(file);
        } else if (watchers.has(file)) {
          unwatch(file); // a watched directory went: what it held is gone from the spec
          changedFile(file);
        } // else an editor's swap or backup file
      });
    } catch (error) {
      cannotWatch(dir, error as Error);
      return;
    }
    watcher.on('error', (error) => {
      unwatch(key);
      if (isDirectory(dir)) cannotWatch(dir, error);
    });
    watchers.set(key, watcher);
  };
  const watchTree = (dir: string) => {
    watchDir(dir);
    for (const sub of subdirectories(dir)) watchTree(sub);
  };
  const unwatch = (dir: string) => {
    for (const [watched, watcher] of watchers) {
      if (watched !== dir && !watched.startsWith(dir + path.sep)) continue;
      watcher.close();
      watchers.delete(watched);
    }
  };
  for (const target of options.targets) {
    if (typeof target !== 'string') {
      namesOf.set(target.dir, target.names);
      watchTree(target.dir);
    } else if (path.extname(target)) watchDir(path.dirname(target), target);
    else watchTree(target);
  }

  const until =
    options.until ??
    new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
  start();
  await until;
  for (const w of watchers.values()) w.close();
  if (timer) clearTimeout(timer);
  await running;
}

/** The files of a spec directory that count as its sources: those the loader reads (.yaml, .yml, .json). */
const SPEC_FILE = { test: (file: string) => specStem(file) !== undefined };

/** The directories in `dir` (none when it cannot be read). */
function subdirectories(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => path.join(dir, e.name));
  } catch {
    return [];
  }
}
