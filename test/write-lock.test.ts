/**
 * One transaction at a time per output directory (generator/lib/dir-lock.ts, write.ts): a writer that finds the
 * output's lock held waits for it; a killed run's lock is taken over; a lock held past the wait is an error naming its
 * file; and two `generate` runs into one output at once (a `--watch` and a run by hand) both succeed and leave what one
 * run leaves — before the lock, one could remove the other's stage and leave the output without files.
 */
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { acquireLock, waitWhileLocked } from '../generator/lib/dir-lock.js';
import { applyOutput, LOCK_FILE, MANIFEST_FILE, manifestText, planOutput, STAGING_DIR, type FileMap } from '../generator/write.js';
import { readOutputTree } from './helpers/output-tree.js';
import { writeMiniSpec } from './helpers/mini-spec.js';
import { runCli } from './helpers/run-cli.js';

const tmp = (name: string) => mkdtemp(path.join(os.tmpdir(), `codegen-lock-${name}-`));

/** An output's files with the manifest generate writes beside them (a later run removes only the files it lists). */
const withManifest = (files: [string, string][]): FileMap => new Map([...files, [MANIFEST_FILE, manifestText(files.map(([rel]) => rel))]]);

const BEFORE: FileMap = withManifest([
  ['a.ts', 'a v1'],
  ['pkg/b.ts', 'b v1'],
]);
const AFTER: FileMap = withManifest([
  ['a.ts', 'a v2'],
  ['pkg/c.ts', 'c v1'],
]);

async function outputWith(files: FileMap): Promise<string> {
  const dir = path.join(await tmp('out'), 'out');
  await applyOutput(dir, files, await planOutput(dir, files));
  return dir;
}

/** Applies AFTER to `out` in a child process (the kill test's writer, never killed); resolves with its exit code. */
async function writeInChild(out: string): Promise<{ exited: Promise<number | null> }> {
  const job = path.join(path.dirname(out), 'job.json');
  await writeFile(job, JSON.stringify({ outDir: out, files: [...AFTER], plan: await planOutput(out, AFTER) }));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'helpers/kill-writer.ts'), job, '-1'], { stdio: 'ignore' });
  return { exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))) };
}

/** The pid of a process that has ended. */
function endedPid(): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    child.on('exit', () => resolve(child.pid!));
  });
}

/** The output's files without the writer's own (its lock, and a waiting writer's file for taking it); the manifest is output. */
const outputFiles = async (dir: string) => new Map([...(await readOutputTree(dir))].filter(([rel]) => rel === MANIFEST_FILE || !rel.startsWith('.codegen-')));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the output lock', () => {
  test('a writer waits while another process holds the lock, then writes', async () => {
    const out = await outputWith(BEFORE);
    const release = await acquireLock(path.join(out, LOCK_FILE));
    const { exited } = await writeInChild(out);
    let code: number | null | undefined;
    void exited.then((c) => (code = c));
    await sleep(1500); // long enough for the child to start and reach the lock
    expect(code, 'the writer finished while the lock was held').toBeUndefined();
    expect(await readdir(out)).not.toContain(STAGING_DIR);
    expect(await outputFiles(out)).toEqual(new Map(BEFORE));
    release();
    expect(await exited).toBe(0);
    expect(await readOutputTree(out)).toEqual(new Map(AFTER));
    expect(await readdir(out)).not.toContain(LOCK_FILE);
  }, 60_000);

  test("a killed run's lock (its process is gone) is taken over, and none is left", async () => {
    const out = await outputWith(BEFORE);
    await writeFile(path.join(out, LOCK_FILE), JSON.stringify({ pid: await endedPid(), host: os.hostname() }));
    await writeFile(path.join(out, `${LOCK_FILE}.${await endedPid()}.1.tmp`), 'left by a killed run');
    await applyOutput(out, AFTER, await planOutput(out, AFTER));
    expect(await readOutputTree(out)).toEqual(new Map(AFTER));
    expect((await readdir(out)).filter((name) => name.startsWith(LOCK_FILE))).toEqual([]);
  });

  test('a lock a live process holds past the wait is an error that names the lock file; it is left in place', async () => {
    const out = await outputWith(BEFORE);
    const lock = path.join(out, LOCK_FILE);
    const held = JSON.stringify({ pid: process.ppid, host: os.hostname() }); // a live process other than this one
    await writeFile(lock, held);
    await expect(acquireLock(lock, 100)).rejects.toThrow(new RegExp(`^process ${process.ppid} has held .*${LOCK_FILE} for over 100 ms \\(another connector-codegen run writing there\\); if none is running, remove that file$`));
    // Content that names no holder is never judged stale: waited for, not removed.
    await writeFile(lock, 'not a lock of ours');
    await expect(acquireLock(lock, 100)).rejects.toThrow(/^another process has held /);
    expect(await readFile(lock, 'utf8')).toBe('not a lock of ours');
  });

  test('takings in one process wait for each other too, one at a time', async () => {
    const out = await outputWith(BEFORE);
    const lock = path.join(out, LOCK_FILE);
    const order: string[] = [];
    let holding = 0;
    const first = await acquireLock(lock);
    // Two more wait at once (each with a file of its own to take the lock by).
    const others = ['second', 'third'].map((name) =>
      acquireLock(lock).then(async (release) => {
        holding++;
        order.push(`${name} took it (${holding} holding)`);
        await sleep(50);
        holding--;
        release();
      }),
    );
    await sleep(200);
    order.push('first releases');
    first();
    await Promise.all(others);
    expect(order[0]).toBe('first releases');
    expect(order.slice(1).sort()).toEqual(['second took it (1 holding)', 'third took it (1 holding)']);
    expect(await readdir(out)).toEqual(expect.not.arrayContaining([expect.stringMatching(/^\.codegen-lock/)]));
  });

  test('waitWhileLocked (generate --check) returns once the holder releases, having changed nothing', async () => {
    const out = await outputWith(BEFORE);
    const lock = path.join(out, LOCK_FILE);
    const release = await acquireLock(lock);
    let done = false;
    const waiting = waitWhileLocked(lock).then(() => (done = true));
    await sleep(200);
    expect(done).toBe(false);
    release();
    await waiting;
    expect(await readdir(out)).not.toContain(LOCK_FILE);
    await expect(waitWhileLocked(path.join(out, 'no-such-lock'))).resolves.toBeUndefined();
  });
});

describe('generate and the lock', () => {
  test('a run that waits says once what for, then writes when the lock is released', async () => {
    const spec = await writeMiniSpec();
    const out = path.join(await tmp('cli'), 'sdk');
    await mkdir(out, { recursive: true });
    const release = await acquireLock(path.join(out, LOCK_FILE));
    const run = runCli(['generate', '--spec', spec, '--out', out], { env: { CONNECTOR_CODEGEN_CACHE_DIR: await tmp('cache') } });
    await sleep(4000); // the run reaches its write and waits there
    release();
    const r = await run;
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^generated \d+ files into /);
    expect(r.stderr).toBe(`connector-codegen generate: waiting for process ${process.pid}, another connector-codegen run writing there (it holds ${out}/${LOCK_FILE})\n`);
  }, 60_000);
});

describe('two generate runs into one output at once', () => {
  test('both succeed, and the output is what one run writes (3 rounds)', async () => {
    const spec = path.join(await tmp('spec'), 'spec');
    await cp(path.resolve(import.meta.dirname, '../spec'), spec, { recursive: true });
    const alone = path.join(await tmp('alone'), 'out');
    expect((await runCli(['generate', '--spec', spec, '--out', alone], { env: { CONNECTOR_CODEGEN_CACHE_DIR: await tmp('cache') } })).code).toBe(0);
    const expected = await readOutputTree(alone);
    for (let round = 0; round < 3; round++) {
      const out = path.join(await tmp('shared'), 'out');
      // Separate caches: neither run can learn from the other's, so both write everything.
      const runs = await Promise.all([0, 1].map(async () => runCli(['generate', '--spec', spec, '--out', out], { env: { CONNECTOR_CODEGEN_CACHE_DIR: await tmp('cache') } })));
      for (const r of runs) {
        expect(r.code, `round ${round}: ${r.stderr}`).toBe(0);
        expect(r.stderr, `round ${round}`).toMatch(/^(connector-codegen generate: waiting for process \d+, [^\n]*\n)?$/); // a wait that lasted says so
      }
      expect(await readOutputTree(out), `round ${round}`).toEqual(expected);
      // No transaction state is left: only the manifest.
      expect((await readdir(out)).filter((name) => name.startsWith('.codegen-')), `round ${round}`).toEqual(['.codegen-files']);
      await rm(path.dirname(out), { recursive: true, force: true });
    }
  }, 180_000);

  test('of two specs, with one cache: the output is exactly what the last run writes, and the cache says so', async () => {
    const specA = path.join(await tmp('spec-a'), 'spec');
    await cp(path.resolve(import.meta.dirname, '../spec'), specA, { recursive: true });
    const specB = path.join(await tmp('spec-b'), 'spec');
    await cp(specA, specB, { recursive: true });
    const service = path.join(specB, 'service.yaml');
    await writeFile(service, (await readFile(service, 'utf8')).replace('records: result', 'records: data'));
    const reference = async (spec: string) => {
      const out = path.join(await tmp('reference'), 'out');
      expect((await runCli(['generate', '--spec', spec, '--out', out], { env: { CONNECTOR_CODEGEN_CACHE_DIR: await tmp('cache') } })).code).toBe(0);
      return readOutputTree(out);
    };
    const expected = { [specA]: await reference(specA), [specB]: await reference(specB) };
    const cache = await tmp('cache-shared');
    const env = { CONNECTOR_CODEGEN_CACHE_DIR: cache };
    const out = path.join(await tmp('shared'), 'out');
    expect((await runCli(['generate', '--spec', specA, '--out', out], { env })).code).toBe(0);
    for (let round = 0; round < 2; round++) {
      // Each run plans against the output as it finds it under the lock: planned before, a run would keep files the
      // other changed meanwhile, and record them in the cache as its own.
      const finished: string[] = [];
      await Promise.all([specB, specA, specB].map(async (spec) => {
        const r = await runCli(['generate', '--spec', spec, '--out', out], { env });
        expect(r.code, r.stderr).toBe(0);
        finished.push(spec);
      }));
      const last = finished.at(-1)!;
      expect(await readOutputTree(out), `round ${round}`).toEqual(expected[last]);
      expect((await runCli(['generate', '--check', '--spec', last, '--out', out], { env })).code, `round ${round}`).toBe(0);
    }
  }, 240_000);
});
