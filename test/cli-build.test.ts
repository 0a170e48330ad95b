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
  test('has the emitter host\'s worker entry (workers/host.mjs), and its code knows where it is', async () => {
    const dir = path.dirname(await buildCli());
    expect(emitterEntries.filter((e) => e.offThread).length).toBeGreaterThan(0);
    expect(existsSync(path.join(dir, 'workers', 'host.mjs'))).toBe(true);
    // The build's own directory name is compiled in (esbuild define); no reference to the undefined global is left.
    const code = readdirSync(path.join(dir, 'chunks')).map((f) => readFileSync(path.join(dir, 'chunks', f), 'utf8')).join('\n');
    expect(code).toContain(JSON.stringify(path.basename(dir)));
    expect(code).not.toContain('CONNECTOR_CODEGEN_CLI_BUILD');
  });
});
