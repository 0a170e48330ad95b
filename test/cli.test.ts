/** The connector-codegen CLI as a user runs it: exit codes, located errors, nothing written on failure. */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { edit, SHOP_YAML, writeMiniSpec } from './helpers/mini-spec.js';
import { runCli } from './helpers/run-cli.js';

const realSpec = path.resolve(import.meta.dirname, '../spec');

const run = (args: string[]) => runCli(args);

describe('validate', () => {
  test('passes on spec/ and says what it checked', async () => {
    const r = await run(['validate', '--spec', realSpec]);
    expect(r).toMatchObject({ code: 0, stdout: 'spec is valid: 15 connectors, 346 entity-action pairs\n' });
  });

  test('a broken spec: exit 1, every problem located with a hint, no stack trace', async () => {
    let text = edit(SHOP_YAML, '    maximum: 100\n', '    maximum: lots\n');
    text = edit(text, 'title: Shop\n', '');
    const dir = await writeMiniSpec({ shop: text });
    const r = await run(['validate', '--spec', dir]);
    expect(r.code).toBe(1);
    const file = path.relative(os.tmpdir(), path.join(dir, 'connectors/shop.yaml')); // paths print relative to the cwd
    expect(r.stderr).toContain(`${file}:1:1 error SPEC004 missing key 'title' in (top level)\n  hint: Add the required key.\n`);
    expect(r.stderr).toContain(`${file}:26:14 error SPEC003 params.limit.maximum must be number, not string\n`);
    // validate writes nothing, so it does not say that nothing was written.
    expect(r.stderr).toContain('2 errors in the spec.\n');
    expect(r.stderr).not.toContain('written');
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  test('a missing spec directory is one line naming the path given', async () => {
    const r = await run(['validate', '--spec', path.join(os.tmpdir(), 'no-such-spec-dir')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`connector-codegen validate: no spec directory at ${path.join(os.tmpdir(), 'no-such-spec-dir')} (it does not exist)\n`);
  });

  test('a spec path below a file (generate, the way through the no-op check too): the same one line', async () => {
    const file = path.join(await writeMiniSpec(), 'service.yaml');
    const r = await run(['generate', '--spec', path.join(file, 'spec'), '--out', path.join(os.tmpdir(), 'never-written')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`connector-codegen generate: no spec directory at ${path.join(file, 'spec')} (it does not exist)\n`);
  });

  test('a spec directory without service.yaml: one diagnostic, not one per missing key', async () => {
    const dir = await writeMiniSpec();
    await rm(path.join(dir, 'service.yaml'));
    const r = await run(['validate', '--spec', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr.match(/ error [A-Z]+\d+ /g)).toHaveLength(1);
    expect(r.stderr).toMatch(/service\.yaml:1:1 error SPEC004 \S+ has no service\.yaml \(the service's common contract\)\n  hint: A spec directory holds service\.yaml and connectors/);
    // An empty directory (the wrong one given): asks whether it is the spec directory.
    const empty = await mkdtemp(path.join(os.tmpdir(), 'codegen-empty-spec-'));
    const none = await run(['validate', '--spec', empty]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(`error SPEC004 ${empty} has no service.yaml (the service's common contract) and no connectors/*.yaml: is this the spec directory?`);
  });
});

describe('describe', () => {
  test('--json prints the catalogue with 15 connectors and 346 pairs', async () => {
    const r = await run(['describe', '--json', '--spec', realSpec]);
    const catalogue = JSON.parse(r.stdout);
    expect(catalogue.totals).toMatchObject({ connectors: 15, entities: 172, pairs: 346 });
    expect(catalogue.connectors[0].entities[0].actions[0]).toHaveProperty('params');
  });

  test('without --json prints one line per connector', async () => {
    const r = await run(['describe', '--spec', realSpec]);
    expect(r.stdout.split('\n').filter((l) => /entities/.test(l))).toHaveLength(16);
    expect(r.stdout).toMatch(/^total\s+172 entities\s+346 actions/m);
  });
});

describe('generate', () => {
  test('writes, then --check passes; a changed file fails --check by name; a file it did not write is kept and named', async () => {
    const dir = await writeMiniSpec();
    const out = await mkdtemp(path.join(os.tmpdir(), 'codegen-out-'));
    await writeFile(path.join(out, 'notes.txt'), 'mine');
    const first = await run(['generate', '--spec', dir, '--out', out]);
    expect(first.code).toBe(0);
    expect(await readdir(out)).toContain('shop');
    expect(await readFile(path.join(out, 'notes.txt'), 'utf8')).toBe('mine');
    expect(first.stderr).toContain('kept 1 file generate did not write');
    const foreign = await run(['generate', '--check', '--spec', dir, '--out', out]);
    expect(foreign.code).toBe(1);
    expect(foreign.stderr).toContain('  notes.txt');
    // Only files it did not write: no command to run (regenerating never clears them), but what to do.
    expect(foreign.stderr).not.toContain('to regenerate it');
    expect(foreign.stderr).toContain('generate never removes them: move them out of the output');
    await rm(path.join(out, 'notes.txt'));
    expect((await run(['generate', '--check', '--spec', dir, '--out', out])).code).toBe(0);
    await writeFile(path.join(dir, 'connectors/shop.yaml'), edit(SHOP_YAML, 'title: Shop', 'title: Store'));
    const check = await run(['generate', '--check', '--spec', dir, '--out', out]);
    expect(check.code).toBe(1);
    expect(check.stderr).toContain('  catalogue.json');
  });

  test("files it did not write where it writes its own (an output pointed at a project) are never overwritten: exit 1, nothing written", async () => {
    const dir = await writeMiniSpec();
    const out = await mkdtemp(path.join(os.tmpdir(), 'codegen-out-'));
    await writeFile(path.join(out, 'tsconfig.json'), '{ "mine": true }\n');
    await writeFile(path.join(out, '.gitignore'), 'secrets/\n');
    for (const args of [['generate'], ['generate', '--check']]) {
      const r = await run([...args, '--spec', dir, '--out', out]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/holds 2 files that generate did not write \(not in .*\/\.codegen-files\) where it writes its own: \.gitignore, tsconfig\.json\. It overwrites none of them/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect((await readdir(out)).sort()).toEqual(['.gitignore', 'tsconfig.json']);
    expect(await readFile(path.join(out, 'tsconfig.json'), 'utf8')).toBe('{ "mine": true }\n');
    // Files with the content generate writes are no loss: a copy of an output whose manifest went is taken over.
    await rm(out, { recursive: true });
    expect((await run(['generate', '--spec', dir, '--out', out])).code).toBe(0);
    await rm(path.join(out, '.codegen-files'));
    expect((await run(['generate', '--spec', dir, '--out', out])).code).toBe(0);
    expect((await run(['generate', '--check', '--spec', dir, '--out', out])).code).toBe(0);
  });

  test('the spec directory, or a directory inside it, is no output: exit 1, nothing written', async () => {
    const dir = await writeMiniSpec();
    const before = (await readdir(dir, { recursive: true })).sort();
    for (const out of [dir, path.join(dir, 'sdk')]) {
      const r = await run(['generate', '--spec', dir, '--out', out]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(out === dir ? /is the spec directory: give --out/ : /is inside the spec directory .*: give --out/);
    }
    expect((await readdir(dir, { recursive: true })).sort()).toEqual(before);
  });

  test('an output that is a file: generate and --check both say so at once, exit 1', async () => {
    const dir = await writeMiniSpec();
    const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'codegen-out-')), 'README.md');
    await writeFile(file, 'mine\n');
    for (const args of [['generate'], ['generate', '--check']]) {
      const started = Date.now();
      const r = await run([...args, '--spec', dir, '--out', file]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/the output .*README\.md is a file, not a directory/);
      expect(Date.now() - started).toBeLessThan(20_000); // no wait for a lock that cannot be there (it waited 30 s)
    }
    expect(await readFile(file, 'utf8')).toBe('mine\n');
  });

  test('a broken spec leaves the output directory exactly as it was', async () => {
    const good = await writeMiniSpec();
    const out = await mkdtemp(path.join(os.tmpdir(), 'codegen-out-'));
    expect((await run(['generate', '--spec', good, '--out', out])).code).toBe(0);
    const before = await readFile(path.join(out, 'catalogue.json'), 'utf8');
    const listing = await readdir(out);
    const bad = await writeMiniSpec({ shop: edit(SHOP_YAML, 'title: Shop', 'title: Store\nbogus: 1') });
    const r = await run(['generate', '--spec', bad, '--out', out]);
    expect(r.code).toBe(1);
    expect(await readdir(out)).toEqual(listing);
    expect(await readFile(path.join(out, 'catalogue.json'), 'utf8')).toBe(before);
  });

  test('--timings prints each phase', async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'codegen-out-'));
    const r = await run(['generate', '--timings', '--spec', await writeMiniSpec(), '--out', out]);
    for (const phase of ['load', 'normalize', 'check', 'emit:catalogue', 'emit:clients', 'plan', 'write', 'total']) expect(r.stderr).toMatch(new RegExp(`^${phase}\\s+[\\d.]+ ms$`, 'm'));
  });

  test("--timings' total is the run's time, not the sum of its phases (the emitters' overlap)", async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'codegen-out-'));
    const started = performance.now();
    const r = await run(['generate', '--timings', '--spec', realSpec, '--out', out]);
    const wall = performance.now() - started;
    const ms = Object.fromEntries([...r.stderr.matchAll(/^(\S+)\s+([\d.]+) ms$/gm)].map((m) => [m[1]!, Number(m[2])]));
    const phases = Object.entries(ms).filter(([phase]) => phase !== 'total').map(([, v]) => v);
    expect(ms['total']).toBeGreaterThanOrEqual(Math.max(...phases));
    expect(ms['total']).toBeLessThanOrEqual(wall);
  }, 60_000);

  test('a broken spec: generate says that nothing was written', async () => {
    const bad = await writeMiniSpec({ shop: edit(SHOP_YAML, 'title: Shop', 'title: Store\nbogus: 1') });
    const r = await run(['generate', '--spec', bad, '--out', await mkdtemp(path.join(os.tmpdir(), 'codegen-out-'))]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('1 error in the spec; nothing was written.\n');
  });
});

describe('mock', () => {
  test('--records beyond the stated maximum, or a bad --max-sources: a usage error (exit 2) with the limit, before anything starts', async () => {
    const big = await run(['mock', '--spec', realSpec, '--port', '0', '--records', '1000001']);
    expect(big).toMatchObject({ code: 2, stdout: '' });
    expect(big.stderr).toMatch(/^connector-codegen: option '--records' must be at most 1000000 \(records per entity/);
    expect(big.stderr).not.toMatch(/\n\s+at /);
    const bad = await run(['mock', '--spec', realSpec, '--port', '0', '--max-sources', 'many']);
    expect(bad).toMatchObject({ code: 2 });
    expect(bad.stderr).toMatch(/option '--max-sources' must be an integer ≥ 0, not 'many'/);
  });
});
