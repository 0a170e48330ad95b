/** The bench's reading of a child's cost (bench/child-usage.ts): CPU to the millisecond, memory, a failing command. */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { childCpuTimes, runMeasured } from '../bench/child-usage.js';

describe('bench child usage', () => {
  test("reads the children's user + system time of bash `times`, in milliseconds", () => {
    const cpu = (times: string) => {
      const { userS, systemS } = childCpuTimes(times);
      return userS + systemS;
    };
    expect(cpu('0m0.002s 0m0.000s\n0m0.245s 0m0.004s\n')).toBeCloseTo(0.249, 6);
    expect(cpu('0m0.000s 0m0.000s\n1m2.500s 0m0.125s')).toBeCloseTo(62.625, 6);
    expect(() => childCpuTimes('garbage')).toThrow(/bash times/);
    const split = childCpuTimes('0m0.002s 0m0.000s\n1m2.500s 0m0.125s');
    expect(split.userS).toBeCloseTo(62.5, 6);
    expect(split.systemS).toBeCloseTo(0.125, 6);
  });

  test('measures a busy child: CPU at millisecond precision, its peak memory, its stderr', () => {
    const busy = runMeasured(process.execPath, ['-e', 'const a = []; for (let i = 0; i < 2e6; i++) a.push({ i }); console.error("done")']);
    expect(busy.cpuS).toBeGreaterThan(0.01);
    expect(busy.maxRssMiB).toBeGreaterThan(60);
    expect(busy.wallMs).toBeGreaterThan(0);
    expect(busy.stderr).toContain('done');
  });

  test('a failing command throws with its status and stderr', () => {
    expect(() => runMeasured(process.execPath, ['-e', 'console.error("boom"); process.exit(3)'])).toThrow(/failed \(3\)[\s\S]*boom/);
  });

  test('measures the command alone: bash reads neither ~/.bashrc (as for a remote shell) nor $BASH_ENV', () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'bench-usage-home-'));
    try {
      // A socket on stdin with SHLVL 0 looks to bash like a remote shell (it reads ~/.bashrc); $BASH_ENV it reads anyway.
      writeFileSync(path.join(home, '.bashrc'), `touch ${JSON.stringify(path.join(home, 'bashrc-ran'))}\n`);
      writeFileSync(path.join(home, 'env.sh'), `touch ${JSON.stringify(path.join(home, 'bash-env-ran'))}\n`);
      runMeasured(process.execPath, ['-e', '0'], { env: { ...process.env, HOME: home, SHLVL: '0', BASH_ENV: path.join(home, 'env.sh') } });
      expect(existsSync(path.join(home, 'bashrc-ran'))).toBe(false);
      expect(existsSync(path.join(home, 'bash-env-ran'))).toBe(false);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
