/**
 * The CLI's build of itself (bin/cli-build.mjs) carries every worker thread's entry, so a generate run from the CLI
 * starts its emitter workers without bundling anything at run time.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { buildCli } from '../bin/cli-build.mjs';
import { emitterEntries } from '../generator/emitters/index.js';

describe('the CLI build', () => {
  test('has a workers/<name>.mjs entry for every emitter that runs in a worker thread, and its code knows where they are', async () => {
    const dir = path.dirname(await buildCli());
    const workers = emitterEntries.filter((e) => e.worker).map((e) => e.worker!.name);
    expect(workers.length).toBeGreaterThan(0);
    for (const name of workers) expect(existsSync(path.join(dir, 'workers', `${name}.mjs`)), name).toBe(true);
    // The build's own directory name is compiled in (esbuild define); no reference to the undefined global is left.
    const code = readdirSync(path.join(dir, 'chunks')).map((f) => readFileSync(path.join(dir, 'chunks', f), 'utf8')).join('\n');
    expect(code).toContain(JSON.stringify(path.basename(dir)));
    expect(code).not.toContain('CONNECTOR_CODEGEN_CLI_BUILD');
  });
});
