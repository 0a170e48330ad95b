/**
 * `build` and `publish` on a small output directory (the runtime and two connectors, generated from the real
 * spec): dual output, incremental rebuilds, removed sources, type errors; publish order, skipping, flags, partial
 * failure — with npm replaced by a recorder, so nothing leaves the machine (test/publish.test.ts uses a registry).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_PACKAGES } from '../generator/config/config.js';
import { generate } from '../generator/generate.js';
import { buildPackages } from '../generator/release/build.js';
import { npmErrorSummary, publishPackages, type NpmRunner } from '../generator/release/publish.js';
import { contentDigest, tarballDigests } from '../generator/release/tarball.js';

const repo = path.resolve(import.meta.dirname, '..');
const exec = promisify(execFile);
let out: string;

beforeAll(async () => {
  out = await mkdtemp(path.join(os.tmpdir(), 'codegen-build-'));
  await generate({ specDir: path.join(repo, 'spec'), outDir: out, config: { packages: DEFAULT_PACKAGES, connectors: ['advertising', 'crm'] } });
  await buildPackages(out);
}, 120_000);

describe('build', () => {
  test('writes ESM and CommonJS with declarations for both, and each format loads in Node', async () => {
    for (const file of ['dist/esm/index.js', 'dist/esm/index.d.ts', 'dist/cjs/index.js', 'dist/cjs/index.d.ts', 'dist/cjs/package.json']) {
      expect(existsSync(path.join(out, 'crm', file)), file).toBe(true);
    }
    expect(JSON.parse(await readFile(path.join(out, 'crm/dist/cjs/package.json'), 'utf8'))).toEqual({ type: 'commonjs' });
    // Installed by link, a package finds the runtime through <output>/node_modules, which build links.
    const script = `const { CrmClient } = require(${JSON.stringify(path.join(out, 'crm'))}); console.log(typeof CrmClient);`;
    expect((await exec(process.execPath, ['-e', script])).stdout.trim()).toBe('function');
    const esm = `const { CrmClient } = await import(${JSON.stringify(path.join(out, 'crm/dist/esm/index.js'))}); console.log(typeof CrmClient);`;
    expect((await exec(process.execPath, ['--input-type=module', '-e', esm])).stdout.trim()).toBe('function');
  });

  test('a second build changes nothing; a changed source rebuilds its package only', async () => {
    expect((await buildPackages(out)).filter((p) => p.changed)).toEqual([]);
    const types = path.join(out, 'advertising/src/types.ts');
    await writeFile(types, `${await readFile(types, 'utf8')}\nexport type LocalEdit = 1;\n`);
    const rebuilt = (await buildPackages(out)).filter((p) => p.changed).map((p) => p.name);
    expect(rebuilt).toEqual(['@connector-sdk/advertising']);
    expect(await readFile(path.join(out, 'advertising/dist/cjs/types.d.ts'), 'utf8')).toContain('LocalEdit');
  });

  test('a removed source takes its output with it, in both formats', async () => {
    const extra = path.join(out, 'crm/src/extra.ts');
    await writeFile(extra, 'export const extra = 1;\n');
    await buildPackages(out);
    expect(existsSync(path.join(out, 'crm/dist/cjs/extra.js'))).toBe(true);
    await rm(extra);
    await buildPackages(out);
    for (const file of ['dist/esm/extra.js', 'dist/esm/extra.d.ts', 'dist/cjs/extra.js', 'dist/cjs/extra.d.ts']) expect(existsSync(path.join(out, 'crm', file)), file).toBe(false);
  });

  test('a type error fails the build with the located TypeScript message, through the CLI', async () => {
    const broken = path.join(out, 'crm/src/broken.ts');
    await writeFile(broken, "export const n: number = 'text';\n");
    const result = await exec(process.execPath, [path.join(repo, 'bin/connector-codegen.js'), 'build', '--out', out]).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    await rm(broken);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/crm\/src\/broken\.ts\(1,14\): error TS2322/);
  });

  test('an output directory without generated packages says what to run', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'codegen-empty-'));
    await expect(buildPackages(empty)).rejects.toThrow(/holds no generated packages .*run `npx connector-codegen generate --out .*codegen-empty-\w+` first/);
  });
});

/** The npm on PATH, for what never leaves the machine (packing a local directory). */
const realNpm: NpmRunner = async (args, cwd) => {
  try {
    const { stdout, stderr } = await exec('npm', args, { cwd, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
};

/**
 * An npm stand-in for a registry: records every call; `published` lists name@version the registry holds; `failing`
 * fail to publish. A publish packs the directory with the real npm and keeps the tarball, which `view … dist` and
 * `pack name@version` then serve; `integrityOf` may replace the integrity the registry reports (packed otherwise).
 */
function recorder(published: Set<string>, failing = new Set<string>(), integrityOf?: (spec: string) => string | undefined): { npm: NpmRunner; calls: string[][] } {
  const calls: string[][] = [];
  const tarballs = new Map<string, { file: string; integrity: string }>();
  const npm: NpmRunner = async (args, cwd) => {
    calls.push([...args, `@${path.basename(cwd)}`]);
    if (args[0] === 'view') {
      const tarball = tarballs.get(args[1]!);
      return tarball ? { code: 0, stdout: JSON.stringify({ integrity: integrityOf?.(args[1]!) ?? tarball.integrity }), stderr: '' } : { code: 1, stdout: '', stderr: 'npm error code E404\n404 Not Found' };
    }
    if (args[0] === 'pack' && args.includes('--dry-run')) return realNpm(args, cwd);
    if (args[0] === 'pack') {
      const tarball = tarballs.get(args[2]!)!;
      await cp(tarball.file, path.join(args[args.indexOf('--pack-destination') + 1]!, path.basename(tarball.file)));
      return { code: 0, stdout: JSON.stringify([{ filename: path.basename(tarball.file) }]), stderr: '' };
    }
    const name = JSON.parse(await readFile(path.join(cwd, 'package.json'), 'utf8')) as { name: string; version: string };
    if (failing.has(name.name)) return { code: 1, stdout: '', stderr: 'npm error code E403\nforbidden' };
    const spec = `${name.name}@${name.version}`;
    published.add(spec);
    if (!args.includes('--dry-run')) {
      const store = await mkdtemp(path.join(os.tmpdir(), 'codegen-registry-'));
      const [report] = JSON.parse((await realNpm(['pack', '--json', '--ignore-scripts', '--pack-destination', store], cwd)).stdout) as { filename: string; integrity: string }[];
      tarballs.set(spec, { file: path.join(store, report!.filename), integrity: report!.integrity });
    }
    return { code: 0, stdout: '', stderr: '' };
  };
  return { npm, calls };
}

describe('publish', () => {
  test('the runtime first, every package once; a second run publishes nothing', async () => {
    const registry = new Set<string>();
    const { npm, calls } = recorder(registry);
    const first = await publishPackages({ outDir: out, npm, registry: 'http://registry.test/' });
    // The MCP server depends on every connector: it comes last.
    expect(first.map((o) => `${o.name} ${o.status}`)).toEqual(['@connector-sdk/runtime published', '@connector-sdk/crm published', '@connector-sdk/advertising published', '@connector-sdk/mcp published']);
    const publishes = calls.filter((c) => c[0] === 'publish');
    expect(publishes[0]!.at(-1)).toBe('@runtime');
    expect(publishes.every((c) => c.includes('--registry') && c.includes('http://registry.test/'))).toBe(true);
    const second = await publishPackages({ outDir: out, npm });
    expect(second.every((o) => o.status === 'skipped')).toBe(true);
    expect(calls.filter((c) => c[0] === 'publish')).toHaveLength(4);
  });

  test('a version on the registry with other contents fails, naming the files; the same files packed anew are skipped', async () => {
    let reported: string | undefined; // the integrity the registry reports, when not that of the tarball it holds
    const { npm, calls } = recorder(new Set(), new Set(), () => reported);
    await publishPackages({ outDir: out, npm });
    // The same files packed into other bytes (another npm version, another umask): compared file by file, skipped.
    reported = 'sha512-packed-by-another-npm';
    const same = await publishPackages({ outDir: out, npm });
    expect(same.map((o) => o.status)).toEqual(['skipped', 'skipped', 'skipped', 'skipped']);
    expect(calls.filter((c) => c[0] === 'pack' && !c.includes('--dry-run'))).toHaveLength(4);
    reported = undefined;
    const readme = path.join(out, 'advertising/README.md');
    const text = await readFile(readme, 'utf8');
    await writeFile(readme, `${text}\nChanged after the release.\n`);
    try {
      const error = await publishPackages({ outDir: out, npm }).then(() => undefined, (e: Error) => e);
      const version = JSON.parse(await readFile(path.join(out, 'advertising/package.json'), 'utf8')).version;
      expect(error?.message).toContain(`@connector-sdk/advertising@${version} is already on the registry with other contents (1 file differs: README.md). A registry never replaces a published version: raise the version`);
      // The MCP server depends on it and waits; retrying cannot help.
      expect(error?.message).toMatch(/2 packages failed; 0 published in this run\.$/);
    } finally {
      await writeFile(readme, text);
    }
  });

  test('tag, dry run and npm flags are handed to npm publish', async () => {
    const { npm, calls } = recorder(new Set());
    const outcomes = await publishPackages({ outDir: out, npm, tag: 'next', dryRun: true, npmArgs: ['--otp', '123456', '--provenance'] });
    expect(outcomes.every((o) => o.status === 'would-publish')).toBe(true);
    for (const call of calls.filter((c) => c[0] === 'publish')) expect(call.slice(0, -1)).toEqual(['publish', '--tag', 'next', '--dry-run', '--otp', '123456', '--provenance']);
  });

  test('one failing package does not stop the others (but those depending on it); the error names it and says how to retry', async () => {
    const registry = new Set<string>();
    const { npm } = recorder(registry, new Set(['@connector-sdk/crm']));
    const error = await publishPackages({ outDir: out, npm }).then(() => undefined, (e: Error) => e);
    expect(error?.message).toContain('npm publish failed for @connector-sdk/crm@');
    // The MCP server depends on crm: it is held back rather than published against a version the registry lacks.
    expect(error?.message).toMatch(/@connector-sdk\/mcp@[\d.]+ was not published: a package it depends on failed/);
    expect(error?.message).toContain('2 packages failed; 2 published in this run. Run publish again to retry');
    expect([...registry].some((p) => p.startsWith('@connector-sdk/mcp@'))).toBe(false);
    expect(registry.has(`@connector-sdk/advertising@${JSON.parse(await readFile(path.join(out, 'advertising/package.json'), 'utf8')).version}`)).toBe(true);
  });

  test('a registry lookup that fails for another reason than 404 stops before publishing anything', async () => {
    const calls: string[][] = [];
    const npm: NpmRunner = async (args) => {
      calls.push(args);
      return { code: 1, stdout: '', stderr: 'npm error code E401\nUnable to authenticate' };
    };
    await expect(publishPackages({ outDir: out, npm })).rejects.toThrow(/npm could not look up @connector-sdk\/runtime@.*Unable to authenticate\n\(E401\)/s);
    expect(calls.filter((c) => c[0] === 'publish')).toEqual([]);
  });

  test('a registry that is down: the reason in one line, found with one quick retry, and nothing else attempted', async () => {
    const calls: string[][] = [];
    // What npm 11 writes for a refused connection: its JSON error on stdout, an object dump and advice on stderr.
    const refused = {
      code: 1,
      stdout: JSON.stringify({ error: { code: 'ECONNREFUSED', summary: 'FetchError: request to http://127.0.0.1:4999/@connector-sdk%2fruntime failed, reason: connect ECONNREFUSED 127.0.0.1:4999', detail: 'If you are behind a proxy…' } }),
      stderr: "npm error code ECONNREFUSED\nnpm error   errno: -111,\nnpm error   syscall: 'connect',\nnpm error }\nnpm error If you are behind a proxy, please make sure\nnpm error A complete log of this run can be found in: /x.log",
    };
    const npm: NpmRunner = async (args) => {
      calls.push(args);
      return refused;
    };
    const error = await publishPackages({ outDir: out, npm, registry: 'http://127.0.0.1:4999/' }).then(() => undefined, (e: Error) => e);
    expect(error?.message).toBe(
      `npm could not look up @connector-sdk/runtime@${JSON.parse(await readFile(path.join(out, 'runtime/package.json'), 'utf8')).version} on http://127.0.0.1:4999/: FetchError: request to http://127.0.0.1:4999/@connector-sdk%2fruntime failed, reason: connect ECONNREFUSED 127.0.0.1:4999\n\nNothing else was published: the 3 other packages depend on @connector-sdk/runtime. Run publish again to retry.`,
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]).toEqual(expect.arrayContaining(['--fetch-retries=1']));
  });

  test('a tarball npm packs is read file by file, paths longer than the tar header holds included', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'codegen-tarball-'));
    // Deep (tar's prefix field) and a name of its own beyond 100 bytes (a pax header).
    const deep = `dist/${'nested-directory/'.repeat(8)}a-file-whose-path-is-longer-than-one-hundred-bytes.js`;
    const long = `dist/a-${'long-name-'.repeat(12)}.js`;
    const files: Record<string, string> = { 'package.json': JSON.stringify({ name: 'tarball-test', version: '1.0.0' }), 'index.js': 'export {};\n', [deep]: 'export const x = 1;\n', [long]: 'export const y = 2;\n' };
    for (const [file, content] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), content);
    }
    const [report] = JSON.parse((await realNpm(['pack', '--json', '--pack-destination', dir], dir)).stdout) as { filename: string }[];
    const digests = tarballDigests(await readFile(path.join(dir, report!.filename)));
    expect(Object.fromEntries(digests)).toEqual(Object.fromEntries(Object.entries(files).map(([file, content]) => [file, contentDigest(Buffer.from(content))])));
    await rm(dir, { recursive: true, force: true });
    // What a hostile or broken registry serves is an error, never a hang or a crash.
    expect(() => tarballDigests(Buffer.from('not a tarball'))).toThrow(/incorrect header check/);
  });

  test("npm's error block is cut to what went wrong: no object dump, no advice on logs and proxies", () => {
    const stderr = 'npm notice package: @acme/runtime@0.1.0\nnpm error code ENEEDAUTH\nnpm error need auth This command requires you to be logged in to http://127.0.0.1:4873/\nnpm error need auth You need to authorize this machine using `npm adduser`\nnpm error A complete log of this run can be found in: /root/.npm/_logs/x.log';
    expect(npmErrorSummary('', stderr)).toBe('need auth This command requires you to be logged in to http://127.0.0.1:4873/\nneed auth You need to authorize this machine using `npm adduser`\n(ENEEDAUTH)');
    expect(npmErrorSummary('', '')).toBe('npm failed without saying why');
  });
});
