/**
 * `generate --watch`: regenerate whenever the spec (or the config) is saved. Each run prints one summary line, or the
 * diagnostics of a spec that does not validate — then the output stays as it was and the watch goes on. Saves arrive as
 * bursts of file events (editors write, rename, touch): they are gathered for a moment, and a save during a run queues
 * one more run. Only files whose content changed are written (write.ts), and unchanged spec files are not parsed again.
 */
import { watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { displayPath } from '../lib/display-path.js';

/** How long events are gathered before a run starts. */
const SETTLE_MS = 120;

/** What the watch needs from the command. */
export interface WatchOptions {
  /** Directories and files to watch (a file is watched through its directory: editors replace files). */
  targets: string[];
  /** Runs one generation and reports it; never throws for a bad spec. */
  run: (changed: string[]) => Promise<void>;
  /** Where to say what the watch is doing. */
  log: (line: string) => void;
  /** Resolves when the watch should stop (default: SIGINT or SIGTERM). */
  until?: Promise<void>;
}

/** Watches until stopped. The first run happens at once. */
export async function watchAndRun(options: WatchOptions): Promise<void> {
  const watchers: FSWatcher[] = [];
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

  for (const target of options.targets) {
    const isDirectory = !path.extname(target);
    const dir = isDirectory ? target : path.dirname(target);
    try {
      const watcher = watch(dir, { recursive: isDirectory }, (_event, name) => {
        if (!name) return;
        const file = path.join(dir, name.toString());
        if (!isDirectory && file !== target) return; // another file beside the config
        if (isDirectory && !/\.ya?ml$/.test(file)) return; // editors' swap and backup files
        changedFile(file);
      });
      watcher.on('error', (error) => options.log(`connector-codegen generate: cannot watch ${displayPath(dir)} any more: ${error.message}`));
      watchers.push(watcher);
    } catch (error) {
      options.log(`connector-codegen generate: cannot watch ${displayPath(dir)}: ${(error as Error).message}`);
    }
  }

  const until =
    options.until ??
    new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
  start();
  await until;
  for (const w of watchers) w.close();
  if (timer) clearTimeout(timer);
  await running;
}
