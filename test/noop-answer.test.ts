/**
 * The fast answer of a `generate` with nothing to do (generator/cli/noop.ts), which the CLI asks before loading its
 * main module: it answers "up to date" exactly when generate would, and leaves every other case to the CLI — a change
 * to any input of the no-op check (spec, output, config, the prettier configs governing the output) makes it decline,
 * and a config it has not seen validated is never taken without the validator.
 */
import { mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { answerNoop } from '../generator/cli/noop.js';
import { CONFIG_FILE } from '../generator/config/config.js';
import { displayPath } from '../generator/lib/display-path.js';
import { JOURNAL_FILE } from '../generator/write.js';
import { edit, SHOP_YAML, writeMiniSpec } from './helpers/mini-spec.js';
import { runCli } from './helpers/run-cli.js';

/** The caches of this file's runs, in-process and CLI alike (the memo of valid config texts lives there). */
let cacheDir: string;
beforeAll(async () => {
  cacheDir = await mkdtemp(path.join(os.tmpdir(), 'codegen-noop-cache-'));
  process.env.CONNECTOR_CODEGEN_CACHE_DIR = cacheDir;
});

/** A project (config, spec, output) that the CLI has just generated. */
interface Project {
  dir: string;
  spec: string;
  out: string;
  /** What `generate` printed when run again through the CLI (the full way or the fast one). */
  upToDate: string;
}

async function generatedProject(): Promise<Project> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'codegen-noop-'));
  const spec = await writeMiniSpec();
  await writeFile(path.join(dir, CONFIG_FILE), JSON.stringify({ spec, output: 'out' }, null, 2));
  const cli = (args: string[]) => runCli(args, { cwd: dir, env: { CONNECTOR_CODEGEN_CACHE_DIR: cacheDir } });
  expect((await cli(['generate'])).code).toBe(0);
  const again = await cli(['generate']);
  expect(again).toMatchObject({ code: 0, stdout: expect.stringMatching(/^out\/ is up to date \(\d+ files\)\n$/), stderr: '' });
  return { dir, spec, out: path.join(dir, 'out'), upToDate: again.stdout };
}

/** What the fast path answers in the project: its exit code and what it printed. */
function ask(project: Project, argv = ['generate']): { code: number | undefined; stdout: string } {
  let stdout = '';
  const code = answerNoop(argv, (text) => void (stdout += text), project.dir);
  return { code, stdout };
}

/** generate's line for the project's output, as this process (another working directory) displays it. */
const lineOf = (project: Project) => project.upToDate.replace(/^out\//, `${displayPath(project.out)}/`);

async function sameSizeEdit(file: string, from: string, to: string): Promise<void> {
  expect(to.length).toBe(from.length);
  await new Promise((resolve) => setTimeout(resolve, 5)); // a later modification time, whatever the clock's resolution
  await writeFile(file, edit(await readFile(file, 'utf8'), from, to));
}

describe('the fast no-op answer', () => {
  test('answers generate and generate --check with generate\'s own line when nothing changed', async () => {
    const project = await generatedProject();
    expect(ask(project)).toEqual({ code: 0, stdout: lineOf(project) });
    expect(ask(project, ['generate', '--check'])).toEqual({ code: 0, stdout: lineOf(project) });
  });

  test('takes --spec, --out and --config in both forms, and prints the output directory as typed', async () => {
    const project = await generatedProject();
    const line = (typed: string) => project.upToDate.replace(/^out\//, `${typed}/`);
    const configFile = path.join(project.dir, CONFIG_FILE);
    expect(ask(project, ['generate', '--out', 'out'])).toEqual({ code: 0, stdout: line('out') });
    expect(ask(project, ['generate', '--out=./out', '--check'])).toEqual({ code: 0, stdout: line('./out') });
    expect(ask(project, ['generate', '--spec', project.spec, '--out', project.out, '--config', configFile])).toEqual({ code: 0, stdout: line(project.out) });
    expect(ask(project, ['generate', `--config=${configFile}`, `--spec=${project.spec}`])).toEqual({ code: 0, stdout: lineOf(project) });
  });

  test('leaves other command lines to the CLI', async () => {
    const project = await generatedProject();
    const lines = [
      ['generate', '--timings'],
      ['generate', '--check', '--check'],
      ['generate', '--out', 'out', '--out', 'out'],
      ['generate', '--out'],
      ['generate', '--out', '--check'],
      ['generate', '--out='],
      ['generate', '--', '--check'],
      ['generate', '--watch'],
      ['generate', '-w'],
      ['generate', '--no-color'],
      ['generate', 'extra'],
      ['--spec', project.spec, 'generate'],
      ['validate'],
      [],
    ];
    for (const argv of lines) expect(ask(project, argv), argv.join(' ')).toEqual({ code: undefined, stdout: '' });
  });

  test('prints what the CLI prints the full way (there, --no-color takes the full way)', async () => {
    const project = await generatedProject();
    const cli = (args: string[]) => runCli(args, { cwd: project.dir, env: { CONNECTOR_CODEGEN_CACHE_DIR: cacheDir } });
    for (const args of [['generate'], ['generate', '--check'], ['generate', '--out', './out/']]) {
      const fast = await cli(args);
      expect(fast.code).toBe(0);
      expect(await cli([...args, '--no-color'])).toEqual(fast);
    }
  });

  test('declines after an edit of a spec file, even one that keeps its size', async () => {
    const project = await generatedProject();
    await sameSizeEdit(path.join(project.spec, 'connectors/shop.yaml'), 'title: Shop', 'title: Shoq');
    expect(ask(project)).toEqual({ code: undefined, stdout: '' });
  });

  test('a spec file touched without a change: declines unread, generate finds it up to date and records the new time', async () => {
    const project = await generatedProject();
    const file = path.join(project.spec, 'connectors/shop.yaml');
    await utimes(file, new Date(), new Date(Date.now() + 60_000));
    expect(ask(project)).toEqual({ code: undefined, stdout: '' });
    const cli = await runCli(['generate'], { cwd: project.dir, env: { CONNECTOR_CODEGEN_CACHE_DIR: cacheDir } });
    expect(cli).toMatchObject({ code: 0, stdout: project.upToDate });
    expect(ask(project)).toEqual({ code: 0, stdout: lineOf(project) });
  });

  test('declines when a spec file is added', async () => {
    const project = await generatedProject();
    await writeFile(path.join(project.spec, 'connectors/other.yaml'), SHOP_YAML.replace('id: shop', 'id: other'));
    expect(ask(project)).toEqual({ code: undefined, stdout: '' });
  });

  test('declines when an output file is edited, removed or added', async () => {
    const project = await generatedProject();
    const catalogue = path.join(project.out, 'catalogue.json');
    const original = await readFile(catalogue, 'utf8');
    await sameSizeEdit(catalogue, '"shop"', '"shoq"');
    expect(ask(project).code).toBeUndefined();
    await rm(catalogue);
    expect(ask(project).code).toBeUndefined();
    await writeFile(catalogue, original);
    expect((await runCli(['generate'], { cwd: project.dir, env: { CONNECTOR_CODEGEN_CACHE_DIR: cacheDir } })).code).toBe(0);
    expect(ask(project).code).toBe(0);
    await writeFile(path.join(project.out, 'extra.txt'), 'not generated');
    expect(ask(project).code).toBeUndefined();
  });

  test('declines when a prettier config or an .editorconfig comes to govern the output', async () => {
    const project = await generatedProject();
    await writeFile(path.join(project.dir, '.editorconfig'), 'root = true\n[*]\nindent_size = 4\n');
    expect(ask(project).code).toBeUndefined();
    await rm(path.join(project.dir, '.editorconfig'));
    expect(ask(project).code).toBe(0);
    await writeFile(path.join(project.dir, '.prettierrc.json'), '{ "printWidth": 100 }\n');
    expect(ask(project).code).toBeUndefined();
  });

  test('declines while an interrupted run left its journal in the output', async () => {
    const project = await generatedProject();
    await writeFile(path.join(project.out, JOURNAL_FILE), '{');
    expect(ask(project).code).toBeUndefined();
  });

  test('never takes a config text it has not seen validated: a changed invalid config still gets its located diagnostics', async () => {
    const project = await generatedProject();
    const config = path.join(project.dir, CONFIG_FILE);
    // Invalid, and nothing else of the no-op check changes (the output and spec are as generated).
    await writeFile(config, JSON.stringify({ spec: project.spec, output: 'out', bogus: true }, null, 2));
    expect(ask(project)).toEqual({ code: undefined, stdout: '' });
    const r = await runCli(['generate'], { cwd: project.dir, env: { CONNECTOR_CODEGEN_CACHE_DIR: cacheDir } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${CONFIG_FILE}:4:3 error CFG002 unknown key 'bogus' in the config`);
    expect(r.stdout).toBe('');
  });

  test('a changed valid config is answered once the CLI has validated it', async () => {
    const project = await generatedProject();
    const config = path.join(project.dir, CONFIG_FILE);
    await writeFile(config, JSON.stringify({ output: 'out', spec: project.spec }));
    expect(ask(project).code).toBeUndefined();
    const r = await runCli(['generate'], { cwd: project.dir, env: { CONNECTOR_CODEGEN_CACHE_DIR: cacheDir } });
    expect(r).toMatchObject({ code: 0, stdout: project.upToDate });
    expect(ask(project)).toEqual({ code: 0, stdout: lineOf(project) });
  });

  test('declines when the memo of valid configs was made by another validator', async () => {
    const project = await generatedProject();
    const memo = path.join(cacheDir, 'valid-configs.json');
    const known = JSON.parse(await readFile(memo, 'utf8')) as { validator: string; texts: string[] };
    await writeFile(memo, JSON.stringify({ ...known, validator: `${known.validator}-other` }));
    expect(ask(project).code).toBeUndefined();
  });

  test('follows the config as the CLI finds it: a nearer config (a text validated before) names another output, never generated', async () => {
    const project = await generatedProject();
    const sub = path.join(project.dir, 'sub');
    await mkdir(sub);
    await writeFile(path.join(sub, CONFIG_FILE), await readFile(path.join(project.dir, CONFIG_FILE), 'utf8'));
    expect(answerNoop(['generate'], () => {}, sub)).toBeUndefined();
    expect(answerNoop(['generate'], () => {}, project.dir)).toBe(0);
  });
});

describe('what a no-op run loads', () => {
  test("the CLI answers it with the no-op script alone: no ES module loader, no fs/promises or crypto, not the CLI's start or work script", async () => {
    const project = await generatedProject();
    const report = path.join(project.dir, 'loaded.json');
    // Preloaded into the CLI's process: at exit, writes the built-in modules it loaded and the files it required.
    const preload = path.join(project.dir, 'report-loaded.cjs');
    await writeFile(
      preload,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify({ builtins: process.moduleLoadList, files: Object.keys(require.cache) })));`,
    );
    const run = await runCli(['generate'], { cwd: project.dir, env: { CONNECTOR_CODEGEN_CACHE_DIR: cacheDir, NODE_OPTIONS: `--require ${preload}` } });
    expect(run).toMatchObject({ code: 0, stdout: project.upToDate });
    const { builtins, files } = JSON.parse(await readFile(report, 'utf8')) as { builtins: string[]; files: string[] };
    // Each costs every no-op run milliseconds of CPU (bin/connector-codegen.js says why the start chain is CommonJS).
    // node:v8 brings in the streams: the V8 flags of a run with work are set only once the no-op check says so (bin/v8-tuning.cjs).
    for (const heavy of ['NativeModule internal/modules/esm/translators', 'NativeModule internal/modules/esm/module_job', 'NativeModule internal/fs/promises', 'NativeModule crypto', 'NativeModule v8', 'NativeModule stream']) {
      expect(builtins, heavy).not.toContain(heavy);
    }
    const scripts = files.map((f) => path.basename(f));
    expect(scripts).toContain('connector-codegen.js');
    for (const script of ['start.cjs', 'work.cjs']) expect(scripts, script).not.toContain(script);
  });
});
