/**
 * The CLI behaves as users expect a tool to: --version, per-command help, usage errors that exit 2 with a
 * did-you-mean, global options anywhere, quiet ends of closed pipes, the paths users typed in messages, hints that
 * name the command that fixes the problem, spec discovery, and diagnostics drawn for a terminal or for a pipe.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { detectStyle } from '../generator/cli/style.js';
import { edit, SHOP_YAML, writeMiniSpec } from './helpers/mini-spec.js';
import { cliBin as bin, runCli } from './helpers/run-cli.js';

const repo = path.resolve(import.meta.dirname, '..');
const realSpec = path.join(repo, 'spec');
const { version } = JSON.parse(await readFile(path.join(repo, 'package.json'), 'utf8')) as { version: string };

const run = runCli;

describe('version and help', () => {
  test('--version and -v print the version and exit 0', async () => {
    for (const flag of ['--version', '-v']) expect(await run([flag])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  test('--help and `help` list every command; no arguments at all is a usage error with the same list', async () => {
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    for (const name of ['validate', 'describe', 'generate', 'build', 'publish', 'mock', 'diff', 'release', 'openapi', 'mcp', 'help']) expect(help.stdout).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
    expect(await run(['help'])).toEqual(help);
    const bare = await run([]);
    expect(bare).toMatchObject({ code: 2, stdout: '', stderr: help.stdout });
  });

  test('`help <command>` and `<command> --help` print that command\'s own usage, options and examples', async () => {
    const viaHelp = await run(['help', 'validate']);
    const viaFlag = await run(['validate', '--help']);
    expect(viaHelp.code).toBe(0);
    expect(viaFlag).toEqual(viaHelp);
    expect(viaHelp.stdout).toMatch(/^Usage: connector-codegen validate \[options\]\n/);
    expect(viaHelp.stdout).toContain('--format F');
    expect(viaHelp.stdout).toMatch(/Examples:\n  connector-codegen validate/);
    const diff = await run(['diff', '-h']);
    expect(diff.stdout).toMatch(/^Usage: connector-codegen diff <base> \[<head>\] \[options\]\n/);
    expect(diff.stdout).not.toEqual(viaHelp.stdout);
  });

  test('`help mcp` and `mcp --help`: the server\'s flags with their environment variables, choices and examples', async () => {
    const viaHelp = await run(['help', 'mcp']);
    expect(viaHelp.code).toBe(0);
    expect(await run(['mcp', '--help'])).toEqual(viaHelp);
    expect(viaHelp.stdout).toMatch(/^Usage: connector-codegen mcp \[options\]\n/);
    for (const flag of ['--base-url URL', '--source C=ID', '--connectors A,B', '--entities', '--actions', '--read-only', '--tools MODE', '--transport T', '--host H', '--port N', '--max-chars N', '--out DIR']) expect(viaHelp.stdout).toContain(flag);
    expect(viaHelp.stdout).toContain('CONNECTOR_TOKEN');
    expect(viaHelp.stdout).toContain('One of: static, dynamic, auto.');
    expect(viaHelp.stdout).toMatch(/Examples:\n  connector-codegen mcp --base-url /);
  });
});

describe('usage errors exit 2 with one line and a did-you-mean', () => {
  test.each([
    [['valdate'], "unknown command 'valdate'; did you mean 'validate'?"],
    [['help', 'genrate'], "unknown command 'genrate'; did you mean 'generate'?"],
    [['help', '--bogus'], "unknown option '--bogus' for help"],
    [['--frob'], "unknown option '--frob'"],
    [['--confg', 'x.json', 'generate'], "unknown option '--confg'; did you mean '--config'?"],
    [['--spc', 'spec', 'validate'], "unknown option '--spc'; did you mean '--spec'?"],
    [['describe', '--jsn'], "unknown option '--jsn' for describe; did you mean '--json'?"],
    [['generate', '--chek'], "unknown option '--chek' for generate; did you mean '--check'?"],
    [['validate', 'extra-arg'], "validate takes no arguments, got 'extra-arg'"],
    [['generate', 'check'], "generate takes no arguments, got 'check'; did you mean '--check'?"],
    [['diff'], 'missing argument <base> (diff takes <base> [<head>])'],
    [['diff', 'a', 'b', 'c'], "unexpected argument 'c' (diff takes <base> [<head>])"],
    [['validate', '--format', 'jsn'], "option '--format' must be one of text, json, github, not 'jsn'; did you mean 'json'?"],
    [['validate', "--format='json"], "option '--format' must be one of text, json, github, not ''json'; did you mean 'json'?"],
    [['validate', '--spec'], "option '--spec' needs a value: --spec DIR"],
    [['generate', '--out', '--check'], "option '--out' needs a value, got the option '--check' (write --out=--check if that is the value)"],
    [['describe', '--json=yes'], "option '--json' takes no value (got 'yes')"],
    [['mcp', '--tools', 'dinamic'], "option '--tools' must be one of static, dynamic, auto, not 'dinamic'; did you mean 'dynamic'?"],
    [['mcp', '--transport', 'htp'], "option '--transport' must be one of stdio, http, not 'htp'; did you mean 'http'?"],
    [['mcp', '--read-onyl'], "unknown option '--read-onyl' for mcp; did you mean '--read-only'?"],
    [['mcp', 'payments'], "mcp takes no arguments, got 'payments'"],
    [['mcp', '--token', 'sk_live_secret'], 'refusing --token: a token on the command line shows in process lists and shell history; set CONNECTOR_TOKEN instead'],
    [['generate', '--out', ''], "option '--out' needs a non-empty value: --out DIR"],
    [['validate', '--spec='], "option '--spec' needs a non-empty value: --spec DIR"],
    // A negative number is the option's value, checked by the command; a port is at most 65535.
    [['mock', '--records', '-5'], "option '--records' must be an integer ≥ 1, not '-5'"],
    [['mock', '--port', '70000'], "option '--port' must be at most 65535 (a TCP port), not 70000"],
    [['mock', '--port', '0x10'], "option '--port' must be an integer ≥ 0, not '0x10'"],
    // npm would take these without a word and publish to another registry.
    [['publish', '--registry', 'notaurl'], "option '--registry' must be an absolute http(s) URL such as https://npm.acme.dev/, not 'notaurl'"],
    [['publish', '--registry', '127.0.0.1:4873'], "option '--registry' must be an absolute http(s) URL such as https://npm.acme.dev/, not '127.0.0.1:4873'"],
  ])('%j', async (args, message) => {
    const r = await run(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toBe(`connector-codegen: ${message}`);
    expect(r.stderr).toMatch(/\nRun 'connector-codegen (\w+ )?--help' for usage\.\n$/);
  });
});

describe('the same mistake, the same exit code', () => {
  test('a --base of release that is no directory or git ref is a usage error (exit 2), as a diff side is', async () => {
    const released = await run(['release', '--base', 'nope', '--dry-run']);
    const diffed = await run(['diff', 'nope']);
    expect([released.code, diffed.code]).toEqual([2, 2]);
    // The reason depends on where it runs (a git checkout or not): the line names the option either way.
    expect(released.stderr, released.stderr).toMatch(/^connector-codegen: option '--base': .* is neither a directory nor/);
  });

  test('help help is the overview, exit 0', async () => {
    const r = await run(['help', 'help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Usage: connector-codegen <command> [options]');
  });
});

describe('global options before or after the command', () => {
  test('--spec works on either side of the command', async () => {
    const before = await run(['--spec', realSpec, 'validate']);
    const after = await run(['validate', '--spec', realSpec]);
    expect(before).toMatchObject({ code: 0, stdout: 'spec is valid: 15 connectors, 346 entity-action pairs\n' });
    expect(after).toEqual(before);
  });
});

describe('pipes closed by the reader end the run quietly', () => {
  /** Runs the CLI, reads `bytes` bytes of its stdout, then closes the pipe as `head -c` does. */
  function headOf(args: string[], bytes: number): Promise<{ code: number | null; head: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [bin, ...args], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
      let head = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        head += chunk.toString('utf8');
        if (head.length >= bytes) child.stdout.destroy();
      });
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, head: head.slice(0, bytes), stderr }));
    });
  }

  test.each([
    [['describe', '--json']],
    [['openapi', '--connector', 'payments']],
  ])('%j | head -c 10', async (args) => {
    const r = await headOf(args, 10);
    expect(r.head).toHaveLength(10);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});

describe('paths and hints as the user gave them', () => {
  test('a relative --spec is named as typed in the missing-directory message and in diagnostics', async () => {
    const parent = await mkdtemp(path.join(os.tmpdir(), 'codegen-typed-'));
    const missing = await run(['validate', '--spec', '../nowhere/spec'], { cwd: parent });
    expect(missing.stderr).toBe('connector-codegen validate: no spec directory at ../nowhere/spec (it does not exist)\n');
    const dir = await writeMiniSpec({ shop: edit(SHOP_YAML, '    record: customer\n', '    record: custmer\n') });
    const typed = path.relative(parent, dir);
    const r = await run(['validate', '--spec', typed], { cwd: parent });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${path.join(typed, 'connectors/shop.yaml')}:36:5 error SPEC018 entity 'customers' names unknown record 'custmer'; did you mean 'customer'?`);
  });

  test('generate --check --out DIR names the command that regenerates DIR', async () => {
    const spec = await writeMiniSpec();
    const out = path.join(await mkdtemp(path.join(os.tmpdir(), 'codegen-check-')), 'sdk');
    const r = await run(['generate', '--check', '--spec', spec, '--out', out]);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe(`${out}/ is out of date (${r.stderr.split('\n').length - 2} files); to regenerate it, run: npx connector-codegen generate --spec ${spec} --out ${out}`);
    expect((await run(['generate', '--spec', spec, '--out', out])).code).toBe(0);
    expect(await run(['generate', '--check', '--spec', spec, '--out', out])).toMatchObject({ code: 0, stdout: `${out}/ is up to date (${r.stderr.split('\n').length - 2} files)\n` });
  });

  test('an --out typed with a trailing slash is shown with one: written, up to date (the fast answer too), out of date', async () => {
    const spec = await writeMiniSpec();
    const parent = await mkdtemp(path.join(os.tmpdir(), 'codegen-slash-'));
    const written = await run(['generate', '--spec', spec, '--out', 'sdk/'], { cwd: parent });
    expect(written.stdout).toMatch(/^generated \d+ files into sdk\/ \(\d+ written, 0 removed\)\n$/);
    expect((await run(['generate', '--spec', spec, '--out', 'sdk/'], { cwd: parent })).stdout).toMatch(/^sdk\/ is up to date \(\d+ files\)\n$/);
    expect((await run(['generate', '--spec', spec, '--out', 'sdk//', '--no-color'], { cwd: parent })).stdout).toMatch(/^sdk\/ is up to date \(\d+ files\)\n$/);
    await writeFile(path.join(parent, 'sdk/extra.txt'), 'not generated\n');
    expect((await run(['generate', '--check', '--spec', spec, '--out', 'sdk/'], { cwd: parent })).stderr).toMatch(/^sdk\/ holds 1 file generate did not write \(not in sdk\/\.codegen-files\)/);
    await writeFile(path.join(parent, 'sdk/shop/README.md'), 'edited\n');
    expect((await run(['generate', '--check', '--spec', spec, '--out', 'sdk/'], { cwd: parent })).stderr).toMatch(/^sdk\/ is out of date \(1 file\)/);
  });
});

describe('spec discovery', () => {
  test('without a config, the nearest spec/ up from the working directory, with the output beside it', async () => {
    const project = await mkdtemp(path.join(os.tmpdir(), 'codegen-discover-'));
    await cp(await writeMiniSpec(), path.join(project, 'spec'), { recursive: true });
    const deep = path.join(project, 'src/deep/er');
    await mkdir(deep, { recursive: true });
    expect(await run(['validate'], { cwd: deep })).toMatchObject({ code: 0, stdout: 'spec is valid: 1 connectors, 4 entity-action pairs\n' });
    const generated = await run(['generate'], { cwd: deep });
    expect(generated.code).toBe(0);
    expect(generated.stdout).toMatch(new RegExp(`^generated \\d+ files into ${path.join(project, 'generated').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/`));
  });

  test('nothing to find: one line saying where it looked and what to do', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'codegen-nospec-'));
    const r = await run(['validate'], { cwd: empty });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `connector-codegen validate: no spec directory found: no spec/service.yaml in ${empty} or a directory above it; give --spec DIR, or write a connector-codegen.config.json\n`,
    );
  });
});

describe('diagnostics for a terminal and for a pipe', () => {
  const broken = () => writeMiniSpec({ shop: edit(SHOP_YAML, '    default: 10\n', '    default: ten\n') });

  test('piped: plain lines, no colour, no frame', async () => {
    const r = await run(['validate', '--spec', await broken()]);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('\u001b[');
    expect(r.stderr).not.toContain(' | ');
    expect(r.stderr).toMatch(/shop\.yaml:28:5 error SPEC015 param 'limit': default "ten" is not a integer\n  hint: /);
  });

  test('FORCE_COLOR: colour and a code frame with a caret under the offending key', async () => {
    const r = await run(['validate', '--spec', await broken()], { env: { FORCE_COLOR: '1' } });
    expect(r.stderr).toContain('\u001b[31m');
    const plain = r.stderr.replace(/\u001b\[\d+m/g, '');
    expect(plain).toContain('  27 |     maximum: 100\n> 28 |     default: ten\n     |     ^^^^^^^\n');
  });

  test('on a terminal: colour and frames; FORCE_COLOR=0 or false turns colour off, as Node and chalk read it', () => {
    expect(detectStyle(true, {})).toEqual({ color: true, frames: true });
    expect(detectStyle(true, { FORCE_COLOR: '0' })).toEqual({ color: false, frames: true });
    expect(detectStyle(true, { FORCE_COLOR: 'false' })).toEqual({ color: false, frames: true });
    expect(detectStyle(false, { FORCE_COLOR: '0' })).toEqual({ color: false, frames: false });
    expect(detectStyle(false, { FORCE_COLOR: '1' })).toEqual({ color: true, frames: true });
  });

  test('--no-color wins over FORCE_COLOR; NO_COLOR keeps frames only on a terminal', async () => {
    const flag = await run(['validate', '--no-color', '--spec', await broken()], { env: { FORCE_COLOR: '1' } });
    expect(flag.stderr).not.toContain('\u001b[');
    expect(flag.stderr).toContain('> 28 |');
    const env = await run(['validate', '--spec', await broken()], { env: { NO_COLOR: '1' } });
    expect(env.stderr).not.toContain('\u001b[');
    expect(env.stderr).not.toContain('> 28 |');
  });

  test('--format json: one document on stdout with every diagnostic and what was folded into it', async () => {
    const r = await run(['validate', '--format', 'json', '--spec', await broken()]);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ valid: false, errors: 1, warnings: 0 });
    expect(report.diagnostics[0]).toMatchObject({ line: 28, col: 5, severity: 'error', code: 'SPEC015', title: 'value outside constraints' });
    expect(report.diagnostics[0].related).toEqual([expect.objectContaining({ code: 'SPEC021', kind: 'follow-on' })]);
    const ok = JSON.parse((await run(['validate', '--format', 'json', '--spec', realSpec])).stdout);
    expect(ok).toMatchObject({ valid: true, errors: 0, connectors: 15, pairs: 346 });
  });

  test('--format github: workflow annotations with escaped newlines', async () => {
    const dir = await broken();
    const r = await run(['validate', '--format', 'github', '--spec', dir]);
    expect(r.code).toBe(1);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^::error file=[^,]+shop\.yaml,line=28,col=5,title=SPEC015 value outside constraints::param 'limit': default "ten" is not a integer%0Ahint: /);
  });
});

describe('reading the config', () => {
  test('a config file given with --config that does not exist: a located one-line diagnostic, exit 1', async () => {
    const r = await run(['validate', '--config', 'nope.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^nope\.json:1:1 error CFG001 cannot read the config given with --config: no such file\n/);
  });

  test('a --config that is a FIFO, a device or a directory is refused unread (it blocked, or never ended)', async () => {
    const fifo = path.join(await mkdtemp(path.join(os.tmpdir(), 'codegen-cfg-fifo-')), 'config.json');
    execFileSync('mkfifo', [fifo]);
    for (const [file, why] of [[fifo, 'it is not a regular file (a FIFO, a device or a socket)'], ['/dev/zero', 'it is not a regular file (a FIFO, a device or a socket)'], [os.tmpdir(), 'it is a directory']] as const) {
      const r = await runCli(['validate', '--config', file], { timeoutMs: 20_000 });
      expect(r.code, file).toBe(1);
      expect(r.stderr, file).toContain(`error CFG001 cannot read the config given with --config: ${why}\n`);
    }
  });

  test('writing a config file for a spec elsewhere works from any directory', async () => {
    const project = await mkdtemp(path.join(os.tmpdir(), 'codegen-cfg-'));
    await cp(await writeMiniSpec(), path.join(project, 'contract'), { recursive: true });
    await writeFile(path.join(project, 'connector-codegen.config.json'), JSON.stringify({ spec: 'contract' }));
    await mkdir(path.join(project, 'sub'));
    expect(await run(['validate'], { cwd: path.join(project, 'sub') })).toMatchObject({ code: 0 });
  });
});
