/** The test run's temporary files stay under its own directory (temp-dir.global-setup.ts), which the run removes. */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('temporary files of a test run', () => {
  it('go under the run’s own directory, in the tests and in the processes they start', () => {
    const dir = os.tmpdir();
    expect(path.basename(dir)).toMatch(/^connector-codegen-test-/);
    const child = execFileSync(process.execPath, ['-e', 'process.stdout.write(require("node:os").tmpdir())'], {
      encoding: 'utf8',
    });
    expect(child).toBe(dir);
  });
});
