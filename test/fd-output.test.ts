/**
 * The CLI's output to pipes and files goes straight to the descriptors (generator/lib/fd-output.cjs), so a run that
 * prints a line does not set up Node's streams; what it writes must still arrive whole, and a terminal still gets the
 * stream (and colour). The reader-gone case (`| head`) is in cli-conventions.test.ts.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const helper = path.join(root, 'generator/lib/fd-output.cjs');
const cli = path.join(root, 'bin/connector-codegen.js');

/**
 * Runs `code` in a child node with `fd-output` required as `out`; stdout collected whole, however slowly it is read.
 * With `throughPipe`, the child's stdout is a pipe (to `cat`), not the socket Node gives a child for stdio.
 */
function runChild(code: string, readDelayMs = 0, throughPipe = false): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolve) => {
    const script = `const out = require(${JSON.stringify(helper)});\n${code}`;
    const child = throughPipe
      ? spawn('bash', ['-c', '"$NODE" -e "$SCRIPT" | cat'], { env: { ...process.env, NODE: process.execPath, SCRIPT: script } })
      : spawn(process.execPath, ['-e', script]);
    const chunks: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (readDelayMs) {
        // A slow reader: the pipe fills, and a non-blocking writer meets EAGAIN.
        child.stdout.pause();
        setTimeout(() => child.stdout.resume(), readDelayMs);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (exit) => resolve({ code: exit, stdout: Buffer.concat(chunks), stderr }));
  });
}

describe('output written to the descriptor', () => {
  test.runIf(process.platform === 'linux')('arrives whole through a full non-blocking pipe (EAGAIN is waited out)', async () => {
    // The child reopens its stdout pipe with O_NONBLOCK (a new open file description of the same pipe); `cat` passes
    // on only as fast as this test reads.
    const makeText = "Array.from({ length: 40000 }, (_, i) => `line ${i} ${'é'.repeat(i % 7)}\\n`).join('')";
    const result = await runChild(
      `const fs = require('node:fs');
       const fd = fs.openSync('/proc/self/fd/1', fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
       out.writeAll(fd, ${makeText});`,
      2,
      true,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const text = Array.from({ length: 40000 }, (_, i) => `line ${i} ${'é'.repeat(i % 7)}\n`).join('');
    expect(result.stdout.length).toBe(Buffer.byteLength(text));
    expect(result.stdout.toString('utf8')).toBe(text);
  });

  test('a pipe and a file are no terminal; output to them is written without creating the streams', async () => {
    const piped = await runChild(`
      const before = new Set(process.moduleLoadList);
      out.outputTo(1)(String(out.isTerminal(1)) + '\\n');
      out.outputTo(2)('to stderr\\n');
      out.outputTo(1)(process.moduleLoadList.filter((m) => !before.has(m) && /\\b(net|stream)$/.test(m)).join(',') + '\\n');`);
    expect(piped.stdout.toString()).toBe('false\n\n');
    expect(piped.stderr).toBe('to stderr\n');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'codegen-fd-'));
    try {
      const file = path.join(dir, 'out.txt');
      const r = spawnSync('bash', ['-c', `"${process.execPath}" -e 'const out = require(process.argv[1]); out.outputTo(1)(String(out.isTerminal(1)))' "${helper}" > "${file}"`]);
      expect(r.status).toBe(0);
      expect(await readFile(file, 'utf8')).toBe('false');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  const script = spawnSync('script', ['--version']).status === 0;
  test.runIf(script && process.platform === 'linux')('a terminal is one: its output goes through the stream, diagnostics in colour', () => {
    // `script` runs the command on a pseudo-terminal and copies what it prints.
    const r = spawnSync('script', ['-qc', `"${process.execPath}" "${cli}" validate --spec /nonexistent-spec-dir`, '/dev/null'], { encoding: 'utf8' });
    expect(r.stdout).toContain('no spec directory');
    const probe = spawnSync('script', ['-qc', `"${process.execPath}" -e 'process.stdout.write(String(require(process.argv[1]).isTerminal(1)))' "${helper}"`, '/dev/null'], {
      encoding: 'utf8',
    });
    expect(probe.stdout).toBe('true');
  });
});

describe('the CLI', () => {
  test.runIf(existsSync('/dev/full'))('output that cannot be written (a full disk: /dev/full) ends the run with one line and exit 1, never a trace', () => {
    for (const args of [['--version'], ['help'], ['validate', '--help'], ['describe']]) {
      const run = spawnSync('bash', ['-c', '"$NODE" "$CLI" "$@" > /dev/full', 'run', ...args], { encoding: 'utf8', env: { ...process.env, NODE: process.execPath, CLI: cli } });
      expect(run.status, args.join(' ')).toBe(1);
      expect(run.stderr, args.join(' ')).toBe('connector-codegen: cannot write to standard output: no space left on device (ENOSPC)\n');
    }
  });

  test('an edit and a no-op, printing to pipes, set up no stream and load neither net, tty nor fs/promises', async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), 'codegen-fd-cli-'));
    try {
      const specDir = path.join(work, 'spec');
      await cp(path.join(root, 'spec'), specDir, { recursive: true });
      const env = { ...process.env, CONNECTOR_CODEGEN_CACHE_DIR: path.join(work, 'cache'), LOADED_MODULES_MATCH: '^NativeModule (net|tty|fs/promises)$' };
      const generate = () =>
        spawnSync(process.execPath, ['--require', path.join(root, 'test/helpers/loaded-modules.cjs'), cli, 'generate', '--spec', specDir, '--out', path.join(work, 'out')], { encoding: 'utf8', env });
      expect(generate().status).toBe(0); // cold: the emitter host's worker pipes its output to the parent's streams
      const file = path.join(specDir, 'connectors/crm.yaml');
      await writeFile(file, (await readFile(file, 'utf8')).replace(/^title: .*$/m, 'title: CRM (edited)'));
      const edit = generate();
      expect(edit.stderr).toBe('');
      expect(edit.stdout).toMatch(/^generated \d+ files into .*\nloaded: \n$/);
      const noop = generate();
      expect(noop.stderr).toBe('');
      expect(noop.stdout).toMatch(/ is up to date \(\d+ files\)\nloaded: \n$/);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }, 60_000);
});
