/**
 * The output directory as one transaction: a generate killed at any step of the write leaves it as it was before or
 * — after the next run has finished the journal — as it is after, never a mix; build products are never touched; a
 * write that cannot succeed (a directory where a file must go) changes nothing; temp files of older runs are removed
 * by the next run and reported by --check.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { Random } from '../generator/emitters/fixtures/random.js';
import { generate } from '../generator/generate.js';
import { applyOutput, JOURNAL_FILE, LOCK_FILE, MANIFEST_FILE, manifestText, planOutput, recoverOutput, STAGING_DIR, type FileMap } from '../generator/write.js';
import { writeMiniSpec, edit, SHOP_YAML } from './helpers/mini-spec.js';
import { cliBin, runCli } from './helpers/run-cli.js';

const exec = promisify(execFile);
const tmp = (name: string) => mkdtemp(path.join(os.tmpdir(), `codegen-${name}-`));

/** Every file under `dir` (build products included: they must survive too). */
async function tree(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const rel = path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    out.set(rel, await readFile(path.join(dir, rel), 'utf8'));
  }
  return out;
}

/** An output's files with the manifest generate writes beside them (a later run removes only the files it lists). */
const withManifest = (files: [string, string][]): FileMap => new Map([...files, [MANIFEST_FILE, manifestText(files.map(([rel]) => rel))]]);

const BEFORE: FileMap = withManifest([
  ['a.ts', 'a v1'],
  ['b.ts', 'b v1'],
  ['pkg/src/c.ts', 'c v1'],
  ['pkg/src/d.ts', 'd v1'],
  ['old/only/e.ts', 'e v1'],
  ['f.md', 'f v1'],
]);
const AFTER: FileMap = withManifest([
  ['a.ts', 'a v2'],
  ['b.ts', 'b v1'],
  ['pkg/src/c.ts', 'c v2'],
  ['pkg/src/new.ts', 'new v1'],
  ['fresh/dir/g.ts', 'g v1'],
  ['f.md', 'f v2'],
]);
const BUILD_PRODUCTS: [string, string][] = [
  ['pkg/dist/c.js', 'built'],
  ['node_modules/x/index.js', 'installed'],
  ['pkg-1.0.0.tgz', 'packed'],
];

async function outputWith(files: FileMap): Promise<string> {
  const dir = await tmp('atomic');
  for (const [rel, text] of [...files, ...BUILD_PRODUCTS]) {
    await mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await writeFile(path.join(dir, rel), text);
  }
  return dir;
}

const expected = (files: FileMap) => new Map([...files, ...BUILD_PRODUCTS].sort(([a], [b]) => (a < b ? -1 : 1)));
const sorted = (m: Map<string, string>) => new Map([...m].sort(([a], [b]) => (a < b ? -1 : 1)));

describe('killed at every step of the write', () => {
  test('the output is as before or (after the next run finishes it) as after; build products are untouched', async () => {
    // Count the steps of this transaction.
    const probe = await outputWith(BEFORE);
    let steps = 0;
    await applyOutput(probe, AFTER, await planOutput(probe, AFTER), () => void steps++);
    expect(sorted(await tree(probe))).toEqual(expected(AFTER));
    expect(steps).toBeGreaterThan(10);

    const seen = { before: 0, after: 0 };
    for (let k = 0; k < steps; k++) {
      const out = await outputWith(BEFORE);
      const job = path.join(out, '..', `${path.basename(out)}.job.json`);
      await writeFile(job, JSON.stringify({ outDir: out, files: [...AFTER], plan: await planOutput(out, AFTER) }));
      const child = await new Promise<{ signal: NodeJS.Signals | null }>((resolve) => {
        const p = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'helpers/kill-writer.ts'), job, String(k)], { stdio: 'ignore' });
        p.on('exit', (_code, signal) => resolve({ signal }));
      });
      expect(child.signal, `step ${k}`).toBe('SIGKILL');
      // Before recovery: never a file of neither state.
      const raw = await tree(out);
      for (const [rel, text] of raw) {
        if (rel.startsWith(`${STAGING_DIR}/`) || rel.startsWith(JOURNAL_FILE) || rel === LOCK_FILE) continue;
        expect([BEFORE.get(rel), AFTER.get(rel), BUILD_PRODUCTS.find(([r]) => r === rel)?.[1]], `step ${k}: ${rel}`).toContain(text);
      }
      // The killed run's lock is stale: the recovery takes it over (and leaves none behind).
      const recovered = await recoverOutput(out);
      const now = sorted(await tree(out));
      if (recovered === 'completed') {
        expect(now, `step ${k}`).toEqual(expected(AFTER));
        seen.after++;
      } else {
        expect(now, `step ${k}`).toEqual(expected(BEFORE));
        seen.before++;
      }
      await rm(out, { recursive: true, force: true });
      await rm(job, { force: true });
    }
    // Kills landed on both sides of the commit.
    expect(seen.before).toBeGreaterThan(0);
    expect(seen.after).toBeGreaterThan(0);
  }, 300_000);
});

describe('placing files', () => {
  test('a directory new to the output moves into place whole; files of existing directories one by one', async () => {
    const out = await outputWith(BEFORE);
    const steps: string[] = [];
    await applyOutput(out, AFTER, await planOutput(out, AFTER), (step) => void steps.push(step));
    expect(steps.filter((s) => s.startsWith('place ')).sort()).toEqual(['place .codegen-files', 'place a.ts', 'place f.md', 'place fresh/', 'place pkg/src/c.ts', 'place pkg/src/new.ts']);
    expect(sorted(await tree(out))).toEqual(expected(AFTER));
    await rm(out, { recursive: true, force: true });
  });

  test('into an empty output: one move per top-level directory', async () => {
    const out = await tmp('fresh');
    const files = new Map<string, string>([
      ['x/a/1.ts', '1'],
      ['x/a/2.ts', '2'],
      ['x/b.ts', 'b'],
      ['y/c.ts', 'c'],
      ['top.json', '{}'],
    ]);
    const steps: string[] = [];
    await applyOutput(out, files, await planOutput(out, files), (step) => void steps.push(step));
    expect(steps.filter((s) => s.startsWith('place ')).sort()).toEqual(['place top.json', 'place x/', 'place y/']);
    expect(sorted(await tree(out))).toEqual(sorted(files));
    await rm(out, { recursive: true, force: true });
  });
});

describe('failures and leftovers', () => {
  test('a directory where a file must go: nothing is written, nothing is left', async () => {
    const out = await outputWith(BEFORE);
    await mkdir(path.join(out, 'pkg/src/new.ts'), { recursive: true });
    const before = await tree(out);
    await expect(applyOutput(out, AFTER, await planOutput(out, AFTER))).rejects.toThrow(/nothing was written: pkg\/src\/new\.ts \(a directory is in the way\)/);
    expect(await tree(out)).toEqual(before);
    expect(await readdir(out)).not.toContain(STAGING_DIR);
  });

  test('a file where a directory must go: the whole output stays as it was (real spec, every package changes)', async () => {
    const spec = await writeMiniSpec();
    const out = await tmp('file-in-the-way');
    await generate({ specDir: spec, outDir: out });
    await writeFile(path.join(spec, 'connectors/shop.yaml'), edit(SHOP_YAML, 'title: Shop', 'title: Store'));
    await rm(path.join(out, 'shop/src'), { recursive: true });
    await writeFile(path.join(out, 'shop/src'), 'a file where a directory must go');
    const before = await tree(out);
    const error = await generate({ specDir: spec, outDir: out }).then(() => undefined, (e: Error) => e);
    expect(error?.message).toMatch(/nothing was written: shop\/src\/\w+\.ts \(shop\/src is a file, not a directory\)/);
    expect(await tree(out)).toEqual(before);
  });

  test('a FIFO where an output file goes: --check names it and generate replaces it, neither waiting on it', async () => {
    const spec = await writeMiniSpec();
    const out = await tmp('fifo');
    expect((await runCli(['generate', '--spec', spec, '--out', out])).code).toBe(0);
    await rm(path.join(out, 'shop/README.md'));
    await exec('mkfifo', [path.join(out, 'shop/README.md')]);
    const check = await runCli(['generate', '--check', '--spec', spec, '--out', out], { timeoutMs: 20_000 });
    expect(check.code, 'generate --check ends').toBe(1);
    expect(check.stderr).toContain('  shop/README.md\n');
    expect((await runCli(['generate', '--spec', spec, '--out', out], { timeoutMs: 20_000 })).code).toBe(0);
    expect((await readFile(path.join(out, 'shop/README.md'), 'utf8')).length).toBeGreaterThan(0);
  });

  test('temp files of an older run are reported by --check and removed by generate', async () => {
    const spec = await writeMiniSpec();
    const out = await tmp('leftovers');
    expect((await runCli(['generate', '--spec', spec, '--out', out])).code).toBe(0);
    await writeFile(path.join(out, 'shop/src/client.ts.codegen-tmp-4242'), 'half a file');
    await mkdir(path.join(out, STAGING_DIR, 'new'), { recursive: true });
    await writeFile(path.join(out, STAGING_DIR, 'new/x.ts'), 'staged');
    const check = await runCli(['generate', '--check', '--spec', spec, '--out', out]);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('  shop/src/client.ts.codegen-tmp-4242\n');
    expect(check.stderr).toContain('interrupted generate');
    expect((await runCli(['generate', '--spec', spec, '--out', out])).code).toBe(0);
    const files = [...(await tree(out)).keys()];
    expect(files.filter((f) => f.includes('codegen-tmp') || f.startsWith(STAGING_DIR))).toEqual([]);
    expect((await runCli(['generate', '--check', '--spec', spec, '--out', out])).code).toBe(0);
  });
});

describe('the real CLI killed at random moments', () => {
  test('each kill leaves generated output that the next generate completes into exactly what the spec generates', async () => {
    const spec = await writeMiniSpec();
    const reference = await tmp('reference');
    await generate({ specDir: spec, outDir: reference });
    const wanted = await tree(reference);
    const random = Random.for('kill-cli', 13);
    for (let i = 0; i < 4; i++) {
      const out = await tmp('killed');
      const child = spawn(process.execPath, [cliBin, 'generate', '--spec', spec, '--out', out], { stdio: 'ignore' });
      const exited = new Promise((resolve) => child.on('exit', resolve));
      await new Promise((resolve) => setTimeout(resolve, random.int(100, 2500)));
      child.kill('SIGKILL'); // a no-op when it has finished already
      await exited;
      // Whatever the moment: the next run ends with exactly the generated tree, nothing else.
      await exec(process.execPath, [cliBin, 'generate', '--spec', spec, '--out', out]);
      expect(await tree(out)).toEqual(wanted);
    }
  }, 120_000);
});
