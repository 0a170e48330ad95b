/**
 * The CLI's build of itself (bin/cli-build.cjs, bin/cli-bundle.mjs): a start script, a work script sharing its
 * modules, and every worker thread's entry, so a generate run from the CLI starts its emitter workers without
 * bundling anything at run time; each runs with a V8 code cache (bin/code-cache.cjs).
 */
import { execFile } from 'node:child_process';
import { appendFile, cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { isAscii } from 'node:buffer';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { buildCli } from '../bin/cli-build.cjs';
import { emitterEntries } from '../generator/emitters/index.js';
import { writeMiniSpec } from './helpers/mini-spec.js';
import { ONE_SHOT_V8_FLAGS } from '../bin/one-shot.cjs';

const exec = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '..');
const codeCache = path.join(repo, 'bin/code-cache.cjs');

/**
 * Runs `code` (an ES module body) in a new Node process with the V8 flags of a one-shot run and `flags` on its command
 * line; its stdout, parsed.
 */
async function inNode(code: string, cwd = repo, flags: string[] = []): Promise<unknown> {
  const { stdout } = await exec(process.execPath, [...flags, ...ONE_SHOT_V8_FLAGS, '--input-type=module', '-e', code, 'run'], { cwd });
  return JSON.parse(stdout);
}

describe('the CLI build', () => {
  test("has the emitter host's worker entry, and its scripts know where they are", async () => {
    const dir = await buildCli();
    expect(emitterEntries.filter((e) => e.offThread).length).toBeGreaterThan(0);
    expect(existsSync(path.join(dir, 'workers', 'host.cjs'))).toBe(true);
    // The build's own directory name is compiled in (esbuild define); no reference to the undefined global is left.
    for (const script of ['start.cjs', 'work.cjs', 'workers/host.cjs']) {
      const code = readFileSync(path.join(dir, script), 'utf8');
      expect(code, script).not.toContain('CONNECTOR_CODEGEN_CLI_BUILD');
    }
    expect(readFileSync(path.join(dir, 'work.cjs'), 'utf8')).toContain(JSON.stringify(path.basename(dir)));
  });

  test('its scripts are ASCII (read as Latin-1), and the characters escaped mean what they meant', async () => {
    const dir = await buildCli();
    for (const script of ['start.cjs', 'work.cjs', 'noop.cjs', 'workers/host.cjs']) {
      expect(isAscii(readFileSync(path.join(dir, script))), script).toBe(true);
    }
    // The docs templates' slot syntax ⟦name⟧ is a regular expression literal esbuild leaves as written: escaped, it still matches.
    const work = readFileSync(path.join(dir, 'work.cjs'), 'latin1');
    const literal = /page\.split\((\/[^\n]*?\/)\)/.exec(work)?.[1];
    expect(literal).toContain('\\u27e6');
    expect('a ⟦service:title⟧ b'.split(new Function(`return ${literal}`)() as RegExp)).toEqual(['a ', 'service:title', ' b']);
  });

  test('each module is in one script: the start script holds the command line, the work script what runs after', async () => {
    const dir = await buildCli();
    const start = readFileSync(path.join(dir, 'start.cjs'), 'utf8');
    const work = readFileSync(path.join(dir, 'work.cjs'), 'utf8');
    const modules = (code: string) => new Set([...code.matchAll(/^\/\/ (generator\/\S+\.(?:ts|mjs))$/gm)].map((m) => m[1]!));
    const [inStart, inWork] = [modules(start), modules(work)];
    for (const m of ['generator/cli/main.ts', 'generator/generate.ts', 'generator/spec/diagnostics.ts', 'generator/cache/stamp.ts']) expect(inStart, m).toContain(m);
    for (const m of ['generator/spec/read.ts', 'generator/emitters/index.ts', 'generator/format/format.ts']) expect(inWork, m).toContain(m);
    expect([...inStart].filter((m) => inWork.has(m))).toEqual([]);
  });

  test("a checkout copied with its node_modules builds its own: it never runs from the original's files", async () => {
    // The build holds its sources' absolute paths. The copy: the sources, every package linked, and the original's
    // CLI builds (node_modules/.cache) copied, as `cp -r` of a checkout gives.
    const copy = await mkdtemp(path.join(os.tmpdir(), 'codegen-moved-'));
    try {
      for (const entry of ['bin', 'generator', 'mock', 'runtime', 'mcp', 'templates', 'spec', 'release', 'package.json', 'package-lock.json']) {
        await cp(path.join(repo, entry), path.join(copy, entry), { recursive: true });
      }
      await mkdir(path.join(copy, 'node_modules/.cache'), { recursive: true });
      for (const name of await readdir(path.join(repo, 'node_modules'))) {
        if (name !== '.cache') await symlink(path.join(repo, 'node_modules', name), path.join(copy, 'node_modules', name));
      }
      await buildCli();
      await cp(path.join(repo, 'node_modules/.cache/connector-codegen-cli'), path.join(copy, 'node_modules/.cache/connector-codegen-cli'), { recursive: true });
      // An edit the build's sources do not cover (the runtime's README is copied into the output).
      await appendFile(path.join(copy, 'runtime/README.md'), '\nEdited in the copy.\n');
      const out = path.join(copy, 'out');
      await exec(process.execPath, [path.join(copy, 'bin/connector-codegen.js'), 'generate', '--spec', path.join(copy, 'spec'), '--out', out], {
        cwd: copy,
        env: { ...process.env, CONNECTOR_CODEGEN_CACHE_DIR: path.join(copy, 'cache') },
      });
      expect(await readFile(path.join(out, 'runtime/README.md'), 'utf8')).toContain('Edited in the copy.');
      const builds = (await readdir(path.join(copy, 'node_modules/.cache/connector-codegen-cli'))).filter((f) => f.startsWith('cli-'));
      expect(builds).toHaveLength(1);
      expect(readFileSync(path.join(copy, 'node_modules/.cache/connector-codegen-cli', builds[0]!, 'work.cjs'), 'latin1')).not.toContain(pathToFileURL(repo).href + '/');
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('running from the build', () => {
  /** A copy of the build in a directory of its own (its code caches are this test's alone). */
  async function buildCopy(): Promise<string> {
    const copy = await mkdtemp(path.join(os.tmpdir(), 'codegen-build-'));
    const build = await buildCli();
    await cp(build, copy, { recursive: true, filter: (f) => f === build || f.endsWith('.cjs') || f.endsWith('/workers') });
    return copy;
  }
  /** Runs the CLI of the build in `dir`; its exit code, output, and the names of its scripts' code caches in that process. */
  const runBuilt = (dir: string, args: string[], kind: string, cwd = repo) =>
    inNode(
      `const { loadBuild, saveCodeCache, codeCacheFile } = await import(${JSON.stringify(codeCache)});
       const lines = []; const io = { stdout: (t) => lines.push(t), stderr: (t) => lines.push(t), color: false, pretty: false };
       const cli = loadBuild(${JSON.stringify(dir)});
       const code = await cli.main(${JSON.stringify(args)}, io);
       saveCodeCache(${JSON.stringify(kind)});
       const caches = Object.fromEntries(['start', 'work'].map((s) => [s, codeCacheFile(${JSON.stringify(dir)} + '/' + s + '.cjs').split('/').pop()]));
       console.log(JSON.stringify({ code, out: lines.join(''), caches }));`,
      cwd,
    ) as Promise<{ code: number; out: string; caches: { start: string; work: string } }>;

  test('--version loads the start script only; validate loads the work script; each keeps a code cache', async () => {
    const dir = await buildCopy();
    try {
      const { code, caches } = await runBuilt(dir, ['--version'], 'version');
      expect(code).toBe(0);
      expect((await readdir(dir)).sort()).toEqual(['noop.cjs', 'start.cjs', caches.start, `${caches.start}.json`, 'work.cjs', 'workers'].sort());
      expect(await runBuilt(dir, ['validate'], 'validate')).toMatchObject({ code: 0 });
      expect(JSON.parse(await readFile(path.join(dir, `${caches.work}.json`), 'utf8')).kinds).toEqual(['validate']);
      expect(JSON.parse(await readFile(path.join(dir, `${caches.start}.json`), 'utf8')).kinds).toEqual(['version', 'validate']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test('a spec error thrown in the work script is reported by the start script as located diagnostics', async () => {
    const dir = await buildCopy();
    const spec = await writeMiniSpec();
    try {
      const file = path.join(spec, 'connectors/shop.yaml');
      await writeFile(file, (await readFile(file, 'utf8')).replace('pagination: cursor', 'pagination: nowhere'));
      const result = await runBuilt(dir, ['validate', '--spec', spec], 'validate');
      expect(result.code).toBe(1); // not an internal error: one SpecError class for both scripts
      expect(result.out).toMatch(/shop\.yaml:\d+:\d+ error /);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('code caches', () => {
  const SCRIPT = 'exports.answer = (function add(a, b) { return a + b; })(40, 2);\n';
  const load = (file: string, kind: string, flags: string[] = []) =>
    inNode(
      `const { runScript, saveCodeCache, codeCacheState } = await import(${JSON.stringify(codeCache)});
       const { answer } = runScript(${JSON.stringify(file)});
       const state = codeCacheState(${JSON.stringify(file)});
       saveCodeCache(${JSON.stringify(kind)});
       console.log(JSON.stringify({ answer, ...state }));`,
      repo,
      flags,
    );

  test('written by the first run, taken by the next; a damaged cache is refused, the script runs, the cache is rewritten', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'codegen-cache-'));
    const file = path.join(dir, 'script.cjs');
    try {
      await writeFile(file, SCRIPT);
      expect(await load(file, 'a')).toEqual({ answer: 42, cached: false, rejected: false });
      expect(await load(file, 'a')).toEqual({ answer: 42, cached: true, rejected: false });
      const [cache] = (await readdir(dir)).filter((f) => f.endsWith('.cache'));
      await writeFile(path.join(dir, cache!), 'not a code cache');
      expect(await load(file, 'a')).toEqual({ answer: 42, cached: true, rejected: true });
      expect(await load(file, 'a')).toEqual({ answer: 42, cached: true, rejected: false });
      // Another source of the same length, which V8 alone would take the cache for: not given the old cache.
      await writeFile(file, SCRIPT.replace('40', '41'));
      await utimes(file, new Date(), new Date(Date.now() + 5000));
      expect(await load(file, 'a')).toEqual({ answer: 43, cached: false, rejected: false });
      expect(await load(file, 'a')).toEqual({ answer: 43, cached: true, rejected: false });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test("a script compiled before the run set its V8 flags (the no-op check) keeps the cache made without them", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'codegen-cache-'));
    const file = path.join(dir, 'script.cjs');
    const tuning = path.join(repo, 'bin/v8-tuning.cjs');
    // As the CLI runs: no V8 flags on the command line; a run with work sets them after the no-op script ran.
    const run = async (kind: string, tune: boolean) => {
      const code = `const { runScript, saveCodeCache, codeCacheState } = await import(${JSON.stringify(codeCache)});
        const { tuneV8 } = await import(${JSON.stringify(tuning)});
        runScript(${JSON.stringify(file)});
        const state = codeCacheState(${JSON.stringify(file)});
        if (${tune}) tuneV8();
        saveCodeCache(${JSON.stringify(kind)});
        console.log(JSON.stringify(state));`;
      const { stdout } = await exec(process.execPath, ['--input-type=module', '-e', code, 'run'], { cwd: repo });
      return JSON.parse(stdout) as unknown;
    };
    try {
      await writeFile(file, SCRIPT);
      expect(await run('no-op', false)).toEqual({ cached: false, rejected: false });
      expect(await run('generate', true)).toEqual({ cached: true, rejected: false });
      // The run with work did not write the script's cache under its flags, which a no-op run would refuse.
      expect(await run('no-op', false)).toEqual({ cached: true, rejected: false });
      const [record] = (await readdir(dir)).filter((f) => f.endsWith('.cache.json'));
      expect(JSON.parse(await readFile(path.join(dir, record!), 'utf8')).kinds).toEqual(['no-op']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test('one per set of flags on the command line: a run started with other V8 flags neither takes nor overwrites it', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'codegen-cache-'));
    const file = path.join(dir, 'script.cjs');
    // Flags V8 hashes into a cache's check (the heap flags `npm run generate` starts Node with).
    const heap = ['--min-semi-space-size=16', '--max-semi-space-size=16'];
    try {
      await writeFile(file, SCRIPT);
      expect(await load(file, 'a')).toEqual({ answer: 42, cached: false, rejected: false });
      expect(await load(file, 'a', heap)).toEqual({ answer: 42, cached: false, rejected: false });
      expect(await load(file, 'a', heap)).toEqual({ answer: 42, cached: true, rejected: false });
      expect(await load(file, 'a')).toEqual({ answer: 42, cached: true, rejected: false });
      expect((await readdir(dir)).filter((f) => f.endsWith('.cache'))).toHaveLength(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test('a script keeps caches for its most recent sets of flags only, each cache with its record', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'codegen-cache-'));
    const file = path.join(dir, 'script.cjs');
    const { MAX_FLAG_SETS } = (await import(codeCache)) as { MAX_FLAG_SETS: number };
    // Flags that change no V8 behaviour the script sees, each a set of its own (as `--cpu-prof-dir=<dir>` would be).
    const flagSet = (i: number) => [`--stack-size=${900 + i}`];
    const caches = async () => (await readdir(dir)).filter((f) => f.endsWith('.cache')).sort();
    try {
      await writeFile(file, SCRIPT);
      expect(await load(file, 'a')).toMatchObject({ cached: false });
      const [unflagged] = await caches();
      for (let i = 0; i < MAX_FLAG_SETS + 2; i++) {
        expect(await load(file, 'a', flagSet(i))).toMatchObject({ answer: 42, cached: false });
        expect((await caches()).length).toBe(Math.min(i + 2, MAX_FLAG_SETS));
      }
      // The oldest went, their records with them; the newest are kept and taken.
      expect(await caches()).not.toContain(unflagged);
      expect((await readdir(dir)).filter((f) => f.endsWith('.cache.json')).sort()).toEqual((await caches()).map((f) => `${f}.json`));
      expect(await load(file, 'a', flagSet(MAX_FLAG_SETS + 1))).toMatchObject({ cached: true, rejected: false });
      expect(await load(file, 'a', flagSet(0))).toMatchObject({ cached: false });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
