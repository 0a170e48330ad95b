/** lib/remove.ts: the writer's `rm -rf` (staging directory, journal) without Node's rimraf. */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { removeSync } from '../generator/lib/remove.js';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'codegen-remove-'));

test('removes a file, a nested tree, and nothing when the path is missing', () => {
  const dir = tmp();
  writeFileSync(path.join(dir, 'file'), 'x');
  removeSync(path.join(dir, 'file'));
  mkdirSync(path.join(dir, 'tree/a/b/c'), { recursive: true });
  mkdirSync(path.join(dir, 'tree/empty'));
  writeFileSync(path.join(dir, 'tree/a/one'), '1');
  writeFileSync(path.join(dir, 'tree/a/b/c/two'), '2');
  removeSync(path.join(dir, 'tree'));
  removeSync(path.join(dir, 'missing'));
  removeSync(path.join(dir, 'missing/below'));
  expect(readdirSync(dir)).toEqual([]);
});

test('removes links, never what they point to', () => {
  const dir = tmp();
  const outside = tmp();
  writeFileSync(path.join(outside, 'kept'), 'k');
  mkdirSync(path.join(dir, 'tree'));
  symlinkSync(outside, path.join(dir, 'tree/to-dir'));
  symlinkSync(path.join(outside, 'kept'), path.join(dir, 'tree/to-file'));
  symlinkSync(path.join(outside, 'gone'), path.join(dir, 'tree/dangling'));
  removeSync(path.join(dir, 'tree'));
  expect(existsSync(path.join(dir, 'tree'))).toBe(false);
  expect(readdirSync(outside)).toEqual(['kept']);
});

test('throws what it cannot look at, as rmSync does (a path below a file)', () => {
  const dir = tmp();
  writeFileSync(path.join(dir, 'file'), 'x');
  expect(() => removeSync(path.join(dir, 'file/below'))).toThrow(/ENOTDIR/);
  expect(() => rmSync(path.join(dir, 'file/below'), { recursive: true, force: true })).toThrow(/ENOTDIR/);
});
