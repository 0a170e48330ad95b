/**
 * What a child process costs: wall time (measured here), CPU seconds (user + system) and peak resident memory of
 * the process and the descendants it waited for, from the kernel's rusage at exit. Worker threads are part of their
 * process; child processes of the child are counted once it waited.
 *
 * CPU comes from bash's `times` (its children's user and system time, in milliseconds): GNU time prints CPU in 10 ms
 * steps, too coarse for a run of 60–100 ms (a no-op against `node -e 0`). Peak memory comes from GNU time, which waits
 * for that bash (the largest resident set among it and its children).
 *
 * That bash must run nothing but the command: bash reads ~/.bashrc when its standard input is a socket (Node's pipes
 * are socket pairs) and SHLVL is 0 or unset, as it guesses a remote shell, and $BASH_ENV in any non-interactive
 * shell. A ~/.bashrc that runs `pyenv init` added ~0.2 s of CPU to every measured process (node -e 0: 0.30 s instead of
 * 0.09 s) under `npm run bench`. So bash runs with --norc --noprofile, without BASH_ENV and ENV, and with its standard
 * input closed (no measured command reads any).
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const TIME = '/usr/bin/time';
const BASH = '/bin/bash';
/** Runs the command, then writes its CPU times (bash `times`, second line: the children's) to the file in $0. */
const WITH_TIMES = '"$@"; status=$?; times > "$0"; exit $status';

/** Cost of one run of a command. */
export interface ChildUsage {
  wallMs: number;
  /** User + system seconds. */
  cpuS: number;
  /** User seconds (in the process's own code). */
  userS: number;
  /** System seconds (in the kernel on its behalf: files, page faults): on a busy file system the noisier part. */
  systemS: number;
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
    const times = path.join(dir, 'times');
    const start = performance.now();
    const env = { ...(options.env ?? process.env) };
    delete env.BASH_ENV;
    delete env.ENV;
    const r = spawnSync(TIME, ['-f', '%M', '-o', out, BASH, '--norc', '--noprofile', '-c', WITH_TIMES, times, command, ...args], { encoding: 'utf8', maxBuffer: 64 * 2 ** 20, stdio: ['ignore', 'pipe', 'pipe'], ...options, env });
    const wallMs = performance.now() - start;
    if (r.status !== 0) throw new Error(`${path.basename(command)} ${args.join(' ')} failed (${r.status ?? r.signal}):\n${String(r.stderr).slice(-2000)}`);
    // GNU time writes "Command exited with non-zero status" lines before the figures on failure; take the last line.
    const rssKiB = Number(readFileSync(out, 'utf8').trim().split('\n').pop());
    const { userS, systemS } = childCpuTimes(readFileSync(times, 'utf8'));
    return { wallMs, cpuS: userS + systemS, userS, systemS, maxRssMiB: rssKiB / 1024, stderr: String(r.stderr) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** User and system seconds of the children from bash `times` output (`0m0.002s 0m0.000s` / `0m0.245s 0m0.004s`). */
export function childCpuTimes(timesOutput: string): { userS: number; systemS: number } {
  const children = timesOutput.trim().split('\n')[1];
  const parts = children?.match(/^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/);
  if (!parts) throw new Error(`unexpected output of bash times: ${JSON.stringify(timesOutput)}`);
  const [, um, us, sm, ss] = parts.map(Number) as [number, number, number, number, number];
  return { userS: um * 60 + us, systemS: sm * 60 + ss };
}
