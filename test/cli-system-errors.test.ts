/** What the CLI says when the system refuses a file operation or a port: path (or address) and reason, in words. */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { systemErrorMessage } from '../generator/cli/system-errors.js';
import { writeMiniSpec } from './helpers/mini-spec.js';
import { runCli } from './helpers/run-cli.js';

const realSpec = path.resolve(import.meta.dirname, '../spec');
let dir: string;
let file: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'codegen-syserr-'));
  file = path.join(dir, 'a-file');
  await writeFile(file, 'not a directory');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The error a real operation throws. */
async function thrown(operation: () => Promise<unknown>): Promise<unknown> {
  try {
    await operation();
  } catch (error) {
    return error;
  }
  throw new Error('the operation did not fail');
}

/** A server listening on a free loopback port, and that port. */
async function listening(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

describe('systemErrorMessage', () => {
  test('a directory where a file is: names the path and the reason, with the code', async () => {
    expect(systemErrorMessage(await thrown(() => mkdir(file)))).toBe(`cannot create the directory ${file}: a file is there, not a directory (EEXIST)`);
  });

  test('a path through a file, a missing file, a directory read as a file', async () => {
    expect(systemErrorMessage(await thrown(() => mkdir(path.join(file, 'x'), { recursive: true })))).toBe(`cannot create the directory ${path.join(file, 'x')}: a part of the path is a file, not a directory (ENOTDIR)`);
    expect(systemErrorMessage(await thrown(() => readFile(path.join(dir, 'missing'))))).toBe(`cannot open ${path.join(dir, 'missing')}: it does not exist (ENOENT)`);
    expect(systemErrorMessage(await thrown(() => writeFile(dir, 'x')))).toBe(`cannot open ${dir}: it is a directory, where a file was expected (EISDIR)`);
  });

  test('a port another process listens on', async () => {
    const { server, port } = await listening();
    try {
      const second = createServer();
      const error = await new Promise((resolve) => second.once('error', resolve).listen(port, '127.0.0.1'));
      expect(systemErrorMessage(error)).toBe(`cannot listen on 127.0.0.1:${port}: another process is listening there (EADDRINUSE); choose another port`);
    } finally {
      server.close();
    }
  });

  test('anything else is left to the caller', () => {
    expect(systemErrorMessage(new Error('plain'))).toBeUndefined();
    expect(systemErrorMessage(Object.assign(new Error('odd'), { code: 'EWHATEVER', syscall: 'open', path: '/x' }))).toBeUndefined();
    expect(systemErrorMessage('EEXIST')).toBeUndefined();
  });
});

describe('the CLI', () => {
  test('generate --out naming a file: one line, exit 1, the file untouched', async () => {
    const spec = await writeMiniSpec();
    const r = await runCli(['generate', '--spec', spec, '--out', file]);
    expect(r).toEqual({ code: 1, stdout: '', stderr: `connector-codegen generate: the output ${file} is a file, not a directory: give --out (or the config's "output") a directory\n` });
    expect(await readFile(file, 'utf8')).toBe('not a directory');
  });

  test('generate --out where the system makes no directory (/proc): one line, exit 1, no endless retry', async () => {
    const r = await runCli(['generate', '--spec', await writeMiniSpec(), '--out', '/proc/connector-codegen-test'], { timeoutMs: 30_000 });
    expect(r).toEqual({ code: 1, stdout: '', stderr: 'connector-codegen generate: cannot create the directory /proc/connector-codegen-test: it does not exist (ENOENT)\n' });
  });

  test('mock on a port in use: one line naming the address, exit 1', async () => {
    const { server, port } = await listening();
    try {
      const r = await runCli(['mock', '--spec', realSpec, '--port', String(port)]);
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`connector-codegen mock: cannot listen on 127.0.0.1:${port}: another process is listening there (EADDRINUSE); choose another port\n`);
    } finally {
      server.close();
    }
  }, 30_000);
});
