/**
 * CLI start-up benchmark: wall time of `connector-codegen --help` and `--version` as a user runs them (a new Node
 * process each), beside a bare `node -e 0` measured in the same run, as medians. The CLI is built beforehand (as
 * `npm ci` does), so this is the start of an installed CLI, not its first build.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { median, printTable } from './stats.js';

const repo = path.resolve(import.meta.dirname, '..');
const bin = path.join(repo, 'bin/connector-codegen.js');
const runs = Number(process.env.BENCH_RUNS ?? 15);

function wall(args: string[]): number {
  const start = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`);
  return performance.now() - start;
}

export function benchCli(): void {
  wall([bin, '--version']); // builds the CLI if its sources changed
  const cases: [string, string[], string][] = [
    ['node -e 0 (Node alone)', ['-e', '0'], ''],
    ['connector-codegen --version', [bin, '--version'], '≤ 150'],
    ['connector-codegen --help', [bin, '--help'], '≤ 150'],
    ['connector-codegen generate --help', [bin, 'generate', '--help'], '≤ 150'],
  ];
  const rows = cases.map(([name, args, target]) => {
    const times = Array.from({ length: runs }, () => wall(args));
    return [name, median(times).toFixed(0), Math.min(...times).toFixed(0), Math.max(...times).toFixed(0), target];
  });
  console.log(`\nCLI start-up (${runs} runs each, new process per run, wall clock)`);
  printTable(['case', 'median ms', 'min ms', 'max ms', 'target'], rows);
}
