/**
 * Generation benchmark: wall time of `connector-codegen generate` as a user runs it (a new Node process each
 * time), cold (empty output directory, no cache) and no-op (nothing changed since the last run), as medians of
 * several runs, plus the median time of each pipeline phase of the cold runs (from --timings).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median, printTable } from './stats.js';

const repo = path.resolve(import.meta.dirname, '..');
const bin = path.join(repo, 'bin/connector-codegen.js');
const runs = Number(process.env.BENCH_RUNS ?? 7);

function run(out: string): { ms: number; phases: Map<string, number> } {
  const start = performance.now();
  const r = spawnSync(process.execPath, [bin, 'generate', '--timings', '--out', out], { cwd: repo, encoding: 'utf8' });
  const ms = performance.now() - start;
  if (r.status !== 0) throw new Error(`generate failed: ${r.stderr}`);
  const phases = new Map<string, number>();
  for (const m of r.stderr.matchAll(/^(\S+)\s+([\d.]+) ms$/gm)) phases.set(m[1]!, Number(m[2]));
  return { ms, phases };
}

function clearCache(): void {
  rmSync(path.join(repo, 'node_modules/.cache/connector-codegen'), { recursive: true, force: true });
}

export function benchGenerate(): void {
  const cold: ReturnType<typeof run>[] = [];
  const noop: ReturnType<typeof run>[] = [];
  for (let i = 0; i < runs; i++) {
    const out = mkdtempSync(path.join(os.tmpdir(), 'codegen-bench-'));
    clearCache();
    cold.push(run(out));
    noop.push(run(out));
    rmSync(out, { recursive: true, force: true });
  }
  console.log(`\ngenerate (${runs} runs each, new process per run, wall clock incl. Node start-up)`);
  printTable(
    ['case', 'median ms', 'min ms', 'max ms', 'target'],
    [
      ['cold: empty output, no cache', ...stats(cold.map((r) => r.ms)), '≤ 1500'],
      ['no-op: nothing changed', ...stats(noop.map((r) => r.ms)), '≤ 300'],
    ],
  );
  const phases = [...cold[0]!.phases.keys()];
  console.log('\ncold run phases (median of in-process times)');
  printTable(['phase', 'median ms'], phases.map((p) => [p, median(cold.map((r) => r.phases.get(p) ?? 0)).toFixed(1)]));
}

function stats(values: number[]): string[] {
  return [median(values), Math.min(...values), Math.max(...values)].map((v) => v.toFixed(0));
}
