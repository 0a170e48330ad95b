/**
 * Inputs that used to break the front end, through the real CLI: files that must not be read (a FIFO, a directory, a
 * symlink leaving the spec directory, a file over the size limit), bytes that are not text (NUL, invalid UTF-8, escape
 * sequences), names every JavaScript object already has, and values of the wrong type inside assumptions. Each is one
 * located diagnostic and exit 1 — never a hang, a stack trace, or a TypeError.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { edit, SHOP_YAML, writeMiniSpec } from './helpers/mini-spec.js';
import { runCli } from './helpers/run-cli.js';

const shopOf = (dir: string) => path.join(dir, 'connectors/shop.yaml');

/** validate on `dir`: exit 1, no stack trace, and the diagnostics (first lines). */
async function problems(dir: string, args: string[] = ['validate']): Promise<string[]> {
  const r = await runCli([...args, '--spec', dir]);
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).not.toMatch(/\n\s+at |TypeError|internal error/);
  return r.stderr.split('\n').filter((l) => / (error|warning) [A-Z]+\d+ /.test(l)).map((l) => l.replace(`${dir}/`, ''));
}

describe('files that must not be read', () => {
  test('a FIFO named like a spec file: refused at once by validate, generate and diff (no hang)', async () => {
    const dir = await writeMiniSpec();
    execFileSync('mkfifo', [path.join(dir, 'connectors/pipe.yaml')]);
    expect(await problems(dir)).toEqual(['connectors/pipe.yaml:1:1 error SRC001 pipe.yaml is a FIFO (named pipe), not a regular file; it was not read']);
    const out = await mkdtemp(path.join(os.tmpdir(), 'codegen-fifo-out-'));
    expect(await problems(dir, ['generate', '--out', out])).toHaveLength(1);
    const diff = await runCli(['diff', dir, dir]);
    expect(diff.code).toBe(3); // a side is not a valid spec (diff exit codes)
    expect(diff.stderr).toContain('SRC001');
  });

  test("an editor's lock or swap file beside a connector file (hidden) is no spec file", async () => {
    const dir = await writeMiniSpec();
    await symlink('user@host.1234:1700000000', path.join(dir, 'connectors/.#shop.yaml')); // Emacs' lock: a dangling link
    await writeFile(path.join(dir, 'connectors/.shop.yaml'), 'half: [a save');
    const r = await runCli(['validate', '--spec', dir]);
    expect(r.code, r.stderr).toBe(0);
  });

  test('a directory named like a spec file', async () => {
    const dir = await writeMiniSpec();
    await mkdir(path.join(dir, 'connectors/folder.yaml'));
    expect(await problems(dir)).toEqual(['connectors/folder.yaml:1:1 error SRC001 folder.yaml is a directory, not a regular file; it was not read']);
  });

  test('a symlink to a file outside the spec directory is refused without reading it; one inside is followed', async () => {
    const dir = await writeMiniSpec();
    const outside = path.join(await mkdtemp(path.join(os.tmpdir(), 'codegen-outside-')), 'secret.yaml');
    await writeFile(outside, 'this: [is not: yaml');
    await symlink(outside, path.join(dir, 'connectors/ext.yaml'));
    expect(await problems(dir)).toEqual([`connectors/ext.yaml:1:1 error SRC002 ext.yaml is a symlink to ${outside}, outside the spec directory; it was not read`]);
    const inside = await writeMiniSpec();
    await mkdir(path.join(inside, 'shared'));
    await writeFile(path.join(inside, 'shared/shop.yaml'), SHOP_YAML);
    const { rm } = await import('node:fs/promises');
    await rm(shopOf(inside));
    await symlink('../shared/shop.yaml', shopOf(inside));
    expect((await runCli(['validate', '--spec', inside])).code).toBe(0);
  });

  test('a file over the size limit is refused before it is read', async () => {
    const dir = await writeMiniSpec();
    await writeFile(path.join(dir, 'connectors/huge.yaml'), `id: huge\ndescription: "${'x'.repeat(3 * 1024 * 1024)}"\n`);
    const started = performance.now();
    expect(await problems(dir)).toEqual(['connectors/huge.yaml:1:1 error SRC003 huge.yaml is 3.0 MiB; spec files are at most 2 MiB']);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('bytes that are not text', () => {
  test('a NUL byte: located', async () => {
    const dir = await writeMiniSpec();
    await writeFile(shopOf(dir), edit(SHOP_YAML, 'title: Shop', 'title: Sh\u0000op'));
    expect(await problems(dir)).toEqual(['connectors/shop.yaml:2:10 error SRC005 control character U+0000 in the file']);
  });

  test('invalid UTF-8: located at the first bad byte', async () => {
    const dir = await writeMiniSpec();
    const text = Buffer.from(edit(SHOP_YAML, 'title: Shop', 'title: Shop'));
    const at = text.indexOf('Shop') + 2;
    await writeFile(shopOf(dir), Buffer.concat([text.subarray(0, at), Buffer.from([0xc3, 0x28]), text.subarray(at)]));
    expect(await problems(dir)).toEqual(['connectors/shop.yaml:2:10 error SRC004 invalid UTF-8 byte 0xc3']);
  });

  test('a control character written as an escape in a quoted string: located at the value, never copied into code', async () => {
    const dir = await writeMiniSpec();
    await writeFile(shopOf(dir), edit(SHOP_YAML, 'title: Shop', 'title: "Sh\\0op\\e"'));
    expect(await problems(dir)).toEqual(['connectors/shop.yaml:2:8 error SRC005 title holds the control character U+0000 (written as an escape)']);
  });
});

describe('names and values that used to crash generate', () => {
  test.each(['__proto__', 'toString', 'constructor', 'hasOwnProperty'])('a param named %s is a located error (SPEC040)', async (name) => {
    const dir = await writeMiniSpec({ shop: edit(SHOP_YAML, '          starting_after: string\n', `          starting_after: string\n          ${name}: string\n`) });
    expect(await problems(dir)).toEqual([
      `connectors/shop.yaml:45:11 error SPEC040 '${name}' is a reserved name (every JavaScript object has it), so it cannot name an item in entities.customers.actions.list.params`,
    ]);
  });

  test('a shared param marked common under a reserved name', async () => {
    const dir = await writeMiniSpec({ shop: edit(SHOP_YAML, '          limit: common\n', '          toString: common\n') });
    expect(await problems(dir)).toEqual([expect.stringMatching(/^connectors\/shop\.yaml:\d+:11 error SPEC040 'toString' is a reserved name/)]);
  });

  test('an error status described with a number, or a key that is not a status', async () => {
    const dir = await writeMiniSpec();
    const service = await readFile(path.join(dir, 'service.yaml'), 'utf8');
    await writeFile(path.join(dir, 'service.yaml'), service.replace(/"403": .*\n/, '"403": 42\n').replace(/"401": .*\n/, '"4O1": missing token\n'));
    const lines = await problems(dir);
    expect(lines).toEqual([
      expect.stringMatching(/^service\.yaml:\d+:\d+ error SPEC005 key '4O1' in assumptions\.errorStatuses\.value must match \^\[1-5\]\(\[0-9\]\[0-9\]\|xx\)\$$/),
      expect.stringMatching(/^service\.yaml:\d+:\d+ error SPEC003 assumptions\.errorStatuses\.value\.403 must be string, not integer$/),
    ]);
  });

  test('an entity name that cannot become a TypeScript name, and two that become the same one', async () => {
    const emoji = await writeMiniSpec({ shop: SHOP_YAML.replace('  customers:\n    record: customer\n', '  "9lives":\n    record: customer\n') });
    expect(await problems(emoji)).toContainEqual(expect.stringContaining("error SPEC041 entity name '9lives' cannot become a TypeScript name"));
    const twins = await writeMiniSpec({ shop: `${SHOP_YAML}  Customers:\n    actions:\n      get: {}\n` });
    expect(await problems(twins)).toContainEqual(expect.stringMatching(/error SPEC041 entity 'customers' (\(params of get\) )?would generate the name '\w+', which entity 'Customers'/));
  });
});
