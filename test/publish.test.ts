/**
 * Publishing for real, on loopback only: a local Verdaccio registry (no uplinks), the runtime and every
 * connector package built from temp copies with their own tsconfig, packed, linted (publint, attw) and
 * published with npm; then a fresh consumer project installs them all from the registry, compiles a program
 * with `tsc --strict` under moduleResolution node16 and bundler, and runs it against the mock service.
 * npm runs with a temp cache and userconfig, and with a dead proxy for anything but 127.0.0.1, so a request
 * that would leave the machine fails instead of going out.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { clientClassName } from '../generator/emitters/clients/client-file.js';
import { camelCase, packageName } from '../generator/emitters/naming.js';
import type { SpecIR } from '../generator/ir.js';
import { readSpec } from '../generator/spec/read.js';

const repo = path.resolve(import.meta.dirname, '..');
const bin = (name: string) => path.join(repo, 'node_modules/.bin', name);
const exec = promisify(execFile);

/** One package as built and packed. */
interface Packed {
  name: string;
  dir: string;
  tarball: string;
  files: string[];
}

let work: string;
let ir: SpecIR;
let registry: { url: string; process: ChildProcess };
let npmEnv: NodeJS.ProcessEnv;
const packed: Packed[] = [];
const started: ChildProcess[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function run(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  try {
    return (await exec(file, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${path.basename(file)} ${args.join(' ')} (in ${cwd}) failed:\n${e.stdout ?? ''}${e.stderr ?? e.message}`);
  }
}

const npm = (args: string[], cwd: string) => run('npm', args, cwd, npmEnv);

/** Starts a process and resolves with the first stdout match of `ready`. */
function startProcess(file: string, args: string[], ready: RegExp, env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  const child = spawn(file, args, { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${file} did not start in 60 s:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(ready);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited with ${code}:\n${output}`));
    });
  });
}

async function startRegistry(): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const config = path.join(work, 'verdaccio.yaml');
  await writeFile(
    config,
    [
      `storage: ${path.join(work, 'storage')}`,
      'auth:',
      '  htpasswd:',
      `    file: ${path.join(work, 'htpasswd')}`,
      '    max_users: 1',
      'uplinks: {}', // nothing is proxied: a package not published here does not exist
      'packages:',
      "  '**':",
      '    access: $all',
      '    publish: $authenticated',
      'web: { enable: false }',
      'log: { type: stdout, format: pretty, level: warn }',
      '',
    ].join('\n'),
  );
  const { child } = await startProcess(bin('verdaccio'), ['-c', config, '-l', `127.0.0.1:${port}`], /http address/, process.env);
  return { url: `http://127.0.0.1:${port}`, process: child };
}

/** Creates the registry's one user and writes a temp npm userconfig holding its token. */
async function login(url: string): Promise<void> {
  const response = await fetch(`${url}/-/user/org.couchdb.user:publisher`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'publisher', password: 'publish-test-only', type: 'user', roles: [] }),
  });
  const { token } = (await response.json()) as { token?: string };
  if (!token) throw new Error(`registry refused the test user: ${response.status}`);
  const userconfig = path.join(work, 'npmrc');
  const host = url.replace(/^http:/, '');
  await writeFile(userconfig, `registry=${url}/\n${host}/:_authToken=${token}\naudit=false\nfund=false\nupdate-notifier=false\n`);
  const dead = 'http://127.0.0.1:9';
  npmEnv = {
    ...process.env,
    npm_config_userconfig: userconfig,
    npm_config_cache: path.join(work, 'npm-cache'),
    npm_config_registry: `${url}/`,
    npm_config_proxy: dead,
    npm_config_https_proxy: dead,
    npm_config_noproxy: '127.0.0.1,localhost',
  };
}

/** Packs `dir` into work/tarballs and records the file list npm packed. */
async function pack(dir: string): Promise<Packed> {
  const out = path.join(work, 'tarballs');
  await mkdir(out, { recursive: true });
  const [info] = JSON.parse(await npm(['pack', '--json', '--pack-destination', out], dir)) as { name: string; filename: string; files: { path: string }[] }[];
  return { name: info!.name, dir, tarball: path.join(out, info!.filename), files: info!.files.map((f) => f.path).sort() };
}

const connectorDirs = () => ir.connectors.map((c) => path.join(work, 'packages', c.id));

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'codegen-publish-'));
  ir = (await readSpec(path.join(repo, 'spec'))).ir;
  registry = await startRegistry();
  await login(registry.url);

  // The runtime first: the connector packages build and install against it.
  const runtimeDir = path.join(work, 'runtime');
  await cp(path.join(repo, 'runtime'), runtimeDir, { recursive: true, filter: (src) => !/[\\/](node_modules|dist)$/.test(src) });
  await run(bin('tsc'), ['-p', 'tsconfig.json'], runtimeDir);
  packed.push(await pack(runtimeDir));
  await npm(['publish', packed[0]!.tarball], work);

  // Each connector package from a temp copy of generated/<id>, built by its own tsconfig (tsc -b builds them
  // in one process), with @connector-sdk/runtime installed from the registry into their common parent.
  const packagesDir = path.join(work, 'packages');
  await mkdir(packagesDir);
  await writeFile(path.join(packagesDir, 'package.json'), JSON.stringify({ private: true, dependencies: { '@connector-sdk/runtime': '*' } }));
  await npm(['install'], packagesDir);
  for (const c of ir.connectors) await cp(path.join(repo, 'generated', c.id), path.join(packagesDir, c.id), { recursive: true });
  await run(bin('tsc'), ['-b', ...connectorDirs().map((d) => path.join(d, 'tsconfig.json'))], packagesDir);
  for (const dir of connectorDirs()) packed.push(await pack(dir));
  const queue = packed.slice(1);
  await Promise.all([0, 1, 2].map(async () => {
    for (let p = queue.shift(); p; p = queue.shift()) await npm(['publish', p.tarball], work);
  }));
}, 600_000);

afterAll(async () => {
  for (const child of started) child.kill();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('packages', () => {
  test('16 packages were built and published: the runtime and one per connector', async () => {
    expect(packed.map((p) => p.name).sort()).toEqual(['@connector-sdk/runtime', ...ir.connectors.map((c) => packageName(c.id))].sort());
    const published = await (await fetch(`${registry.url}/@connector-sdk%2fpayments`)).json() as { 'dist-tags': { latest: string } };
    expect(published['dist-tags'].latest).toMatch(/^\d+\.\d+\.\d+$/);
  });

  test('each tarball holds only dist/, package.json and its docs (README, REFERENCE, CHANGELOG): no sources, no tests', () => {
    for (const p of packed) {
      const outside = p.files.filter((f) => !/^dist\/[\w./-]+\.(js|d\.ts)$/.test(f) && !['README.md', 'REFERENCE.md', 'CHANGELOG.md', 'package.json', 'LICENSE'].includes(f));
      expect(outside, p.name).toEqual([]);
      expect(p.files, p.name).toContain('dist/index.js');
      expect(p.files, p.name).toContain('dist/index.d.ts');
      if (p.name !== '@connector-sdk/runtime') expect(p.files, p.name).toContain('CHANGELOG.md');
    }
  });

  test('publint reports nothing (no error, warning or suggestion) for any package', async () => {
    for (const p of packed) {
      const tarball = await readFile(p.tarball);
      // The packed tarball itself is linted (publint infers the package root inside it).
      const result = await publint({ pack: { tarball: tarball.buffer.slice(tarball.byteOffset, tarball.byteOffset + tarball.byteLength) }, level: 'suggestion', strict: true });
      const pkg = JSON.parse(await readFile(path.join(p.dir, 'package.json'), 'utf8'));
      expect(result.messages.map((m) => `${m.type}: ${formatMessage(m, pkg)}`), p.name).toEqual([]);
    }
  });

  test('arethetypeswrong finds no problem for ESM consumers (node16 from ESM, bundler) in any package', async () => {
    // The packages are ESM-only (type: module, an `import` condition only), so the rule is that of
    // `attw <tarball> --profile esm-only`: every problem counts except those of node10 and node16-from-CJS.
    const ignored: string[] = ['node10', 'node16-cjs'];
    for (const p of packed) {
      const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(await readFile(p.tarball))));
      if (!analysis.types) throw new Error(`${p.name}: attw found no types`);
      const problems = analysis.problems.filter((problem) => !('resolutionKind' in problem) || !ignored.includes(problem.resolutionKind));
      expect(problems, p.name).toEqual([]);
    }
    // The CLI itself agrees, on the largest package's tarball (exit code 0 means no problem under the profile).
    const payments = packed.find((p) => p.name === '@connector-sdk/payments')!;
    const cliReport = JSON.parse(await run(bin('attw'), [payments.tarball, '--profile', 'esm-only', '--format', 'json'], work)) as { problems?: unknown };
    expect(cliReport.problems ?? {}).toBeTypeOf('object');
  }, 120_000);
});

/** A consumer program that imports every package, calls a list action of each, and walks payments pages. */
function consumerProgram(): string {
  const lines = [
    "import { ApiError, NotFoundError, PaymentsClient } from '@connector-sdk/payments';",
    ...ir.connectors.filter((c) => c.id !== 'payments').map((c) => `import { ${clientClassName(c)} } from '${packageName(c.id)}';`),
    '',
    'declare const process: { env: Record<string, string | undefined>; exitCode?: number };',
    "const baseUrl: string = process.env.MOCK_URL ?? 'http://127.0.0.1:4010';",
    "const options = (sourceId: string) => ({ baseUrl, token: 'publish-test', sourceId });",
    'const report: Record<string, number> = {};',
    '',
    "const payments = new PaymentsClient(options('payments'));",
    'const page = await payments.customers.list({ limit: 5 });',
    'report.firstPage = page.records.length;',
    'let walked = 0;',
    'for await (const customer of payments.customers.list({ limit: 5 })) {',
    '  const id: string = customer.id;',
    '  if (id && ++walked === 12) break;',
    '}',
    'report.walked = walked;',
    'const first = page.records[0];',
    'if (first) report.got = (await payments.customers.get({ id: first.id })).id === first.id ? 1 : 0;',
    'try {',
    "  await payments.customers.get({ id: 'cus_does_not_exist' });",
    '} catch (error) {',
    '  report.notFound = error instanceof NotFoundError && error instanceof ApiError ? (error.status ?? 0) : -1;',
    '}',
  ];
  for (const c of ir.connectors.filter((x) => x.id !== 'payments')) {
    // A list action a caller can make without params: proves each package installs, imports and runs.
    const entity = c.entities.find((e) => e.actions.some((a) => a.name === 'list' && !a.params.some((p) => p.required)));
    const client = camelCase(c.id);
    lines.push(`const ${client} = new ${clientClassName(c)}(options('${c.id}'));`);
    if (entity) lines.push(`report.${client} = (await ${client}.${camelCase(entity.name)}.list()).records.length;`);
  }
  lines.push('console.log(JSON.stringify(report));', '');
  return lines.join('\n');
}

describe('a fresh consumer project', () => {
  let consumer: string;
  let mockUrl: string;

  beforeAll(async () => {
    consumer = path.join(work, 'consumer');
    await mkdir(consumer);
    const dependencies = Object.fromEntries(packed.map((p) => [p.name, '*']));
    await writeFile(path.join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies }, null, 2));
    const [, mock] = await Promise.all([
      npm(['install'], consumer),
      startProcess(process.execPath, [path.join(repo, 'bin/connector-codegen.js'), 'mock', '--port', '0', '--quiet'], /listening on (http:\/\/127\.0\.0\.1:\d+)/, process.env),
    ]);
    mockUrl = mock.match[1]!;
    await writeFile(path.join(consumer, 'program.ts'), consumerProgram());
  }, 300_000);

  const compilerOptions = { strict: true, target: 'ES2022', lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: [], skipLibCheck: false, noUncheckedIndexedAccess: true };

  test('installs every package from the registry alone: the exact tarballs packed above', async () => {
    const lock = JSON.parse(await readFile(path.join(consumer, 'package-lock.json'), 'utf8')) as { packages: Record<string, { integrity?: string }> };
    const installed = Object.entries(lock.packages).filter(([key]) => key.startsWith('node_modules/'));
    expect(installed.map(([key]) => key.slice('node_modules/'.length)).sort()).toEqual(packed.map((p) => p.name).sort());
    for (const p of packed) {
      const integrity = `sha512-${createHash('sha512').update(await readFile(p.tarball)).digest('base64')}`;
      expect(lock.packages[`node_modules/${p.name}`]?.integrity, p.name).toBe(integrity);
    }
  });

  test('the program compiles with tsc --strict under moduleResolution bundler', async () => {
    await writeFile(path.join(consumer, 'tsconfig.bundler.json'), JSON.stringify({ compilerOptions: { ...compilerOptions, module: 'ESNext', moduleResolution: 'bundler', noEmit: true }, files: ['program.ts'] }));
    await run(bin('tsc'), ['-p', 'tsconfig.bundler.json'], consumer);
  }, 120_000);

  test('the program compiles under moduleResolution node16 and runs against the mock service', async () => {
    await writeFile(path.join(consumer, 'tsconfig.node16.json'), JSON.stringify({ compilerOptions: { ...compilerOptions, module: 'Node16', moduleResolution: 'node16', outDir: 'out' }, files: ['program.ts'] }));
    await run(bin('tsc'), ['-p', 'tsconfig.node16.json'], consumer);
    const output = await run(process.execPath, [path.join(consumer, 'out/program.js')], consumer, { ...process.env, MOCK_URL: mockUrl });
    const report = JSON.parse(output) as Record<string, number>;
    expect(report).toMatchObject({ firstPage: 5, walked: 12, got: 1, notFound: 404 });
    const listed = ir.connectors.filter((c) => c.id !== 'payments' && c.entities.some((e) => e.actions.some((a) => a.name === 'list' && !a.params.some((p) => p.required))));
    for (const c of listed) expect(report[camelCase(c.id)], c.id).toBeGreaterThan(0);
  }, 120_000);
});
