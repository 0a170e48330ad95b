/** makeDirSync: mkdir -p that fails once where Node's recursive mkdir retries forever. */
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { makeDirSync } from '../generator/lib/make-dir.js';

test('makes missing parents; an existing directory is fine', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'make-dir-'));
  const dir = path.join(root, 'a/b/c');
  makeDirSync(dir);
  expect(statSync(dir).isDirectory()).toBe(true);
  makeDirSync(dir);
});

test('a file in the way, or a directory the system cannot make, is one error (Node retried /proc/x forever)', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'make-dir-'));
  writeFileSync(path.join(root, 'file'), '');
  expect(() => makeDirSync(path.join(root, 'file/x'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
  expect(() => makeDirSync(path.join(root, 'file'))).toThrow(expect.objectContaining({ code: 'EEXIST', syscall: 'mkdir' }));
  if (existsSync('/proc/self')) expect(() => makeDirSync('/proc/connector-codegen-test/x')).toThrow(expect.objectContaining({ code: 'ENOENT' }));
});
