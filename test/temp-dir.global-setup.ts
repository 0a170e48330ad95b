/**
 * vitest globalSetup: every temporary file of a test run lives under one directory of the run's own, removed when the
 * run ends. Tests make their scratch directories with mkdtemp in os.tmpdir() and many leave them behind (a failing
 * test's files are what its reader inspects); before this, each `npm test` left ~300 directories, ~600 MB, in /tmp.
 *
 * TMPDIR set here reaches the test workers (they are created after global setup, with this process's environment) and
 * every process a test starts; os.tmpdir() reads it on each call. CONNECTOR_CODEGEN_KEEP_TEST_TMP=1 keeps the
 * directory and names it at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The variables os.tmpdir() reads (POSIX: TMPDIR, TMP, TEMP; Windows: TEMP, TMP). */
const TEMP_VARIABLES = ['TMPDIR', 'TMP', 'TEMP'] as const;

/** The run's directory, once made. */
let runDir: string | undefined;
/** The variables' values before setup, put back at teardown. */
const previous = new Map<string, string | undefined>();

/** Makes the run's directory and points os.tmpdir() at it, for this process and all it starts from now on. */
export function setup(): void {
  runDir = mkdtempSync(path.join(os.tmpdir(), 'connector-codegen-test-'));
  for (const name of TEMP_VARIABLES) {
    previous.set(name, process.env[name]);
    process.env[name] = runDir;
  }
}

/** Puts the variables back and removes the run's directory (unless CONNECTOR_CODEGEN_KEEP_TEST_TMP=1). */
export function teardown(): void {
  for (const [name, value] of previous) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  if (!runDir) return;
  if (process.env.CONNECTOR_CODEGEN_KEEP_TEST_TMP === '1') console.log(`test run's temporary files kept in ${runDir}`);
  // Retries: a process a test started may still be closing files inside.
  else rmSync(runDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}
