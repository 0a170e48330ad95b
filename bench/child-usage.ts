/**
 * What a child process costs: wall time (measured here), CPU seconds (user + system) and peak resident memory of
 * the process and the descendants it waited for, as GNU time (/usr/bin/time) reads them from the kernel's rusage
 * at exit. Worker threads are part of their process; child processes of the child are counted once it waited.
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const TIME = '/usr/bin/time';

/** Cost of one run of a command. */
export interface ChildUsage {
  wallMs: number;
  cpuS: number;
  maxRssMiB: number;
  /** What the command wrote to stderr. */
  stderr: string;
}

/** Runs `command args` to completion (it must exit 0) and returns its cost. */
export function runMeasured(command: string, args: string[], options: SpawnSyncOptions = {}): ChildUsage {
  if (!existsSync(TIME)) throw new Error(`${TIME} (GNU time) is needed to read child CPU and memory; install the "time" package`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-usage-'));
  try {
    const out = path.join(dir, 'usage');
    const start = performance.now();
    const r = spawnSync(TIME, ['-f', '%U %S %M', '-o', out, command, ...args], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20, ...options });
    const wallMs = performance.now() - start;
    if (r.status !== 0) throw new Error(`${path.basename(command)} ${args.join(' ')} failed (${r.status ?? r.signal}):\n${String(r.stderr).slice(-2000)}`);
    // GNU time writes "Command exited with non-zero status" lines before the figures on failure; take the last line.
    const last = readFileSync(out, 'utf8').trim().split('\n').pop()!;
    const [user, system, rssKiB] = last.split(' ').map(Number) as [number, number, number];
    return { wallMs, cpuS: user + system, maxRssMiB: rssKiB / 1024, stderr: String(r.stderr) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
