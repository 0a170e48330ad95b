/**
 * The project config: defaults equal to the built-in behaviour, discovery by walking up, flags over the file,
 * located diagnostics for a broken file, and what its keys do to generation — a new scope reaches every file and
 * changes nothing else; `connectors` narrows the packages.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import { CONFIG_FILE, DEFAULT_PACKAGES } from '../generator/config/config.js';
import { loadConfig } from '../generator/config/load.js';
import { SpecError, type Diagnostic } from '../generator/spec/diagnostics.js';
import { generate } from '../generator/generate.js';
import { runCli } from './helpers/run-cli.js';
import { readOutputTree } from './helpers/output-tree.js';

const repo = path.resolve(import.meta.dirname, '..');
const specDir = path.join(repo, 'spec');
const exec = promisify(execFile);

async function project(config: unknown): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'codegen-config-'));
  await writeFile(path.join(dir, CONFIG_FILE), typeof config === 'string' ? config : JSON.stringify(config, null, 2));
  return dir;
}

function diagnosticsOf(fn: () => unknown): Diagnostic[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof SpecError) return error.diagnostics;
    throw error;
  }
  throw new Error('expected a SpecError');
}

describe('loading', () => {
  test('without a file, everything is the built-in default: spec/ and generated/ in the working directory, @connector-sdk', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'codegen-noconfig-'));
    const config = loadConfig(dir);
    expect(config).toEqual({ specDir: path.join(dir, 'spec'), specFrom: 'default', outDir: path.join(dir, 'generated'), releaseDir: path.join(dir, 'release'), packages: DEFAULT_PACKAGES, diff: { severity: {}, deprecation: 'released' } });
  });

  test('is found walking up from a subdirectory; its paths are relative to the file', async () => {
    const dir = await project({ spec: 'contract', output: 'sdk', release: 'versions', packages: { scope: '@acme' } });
    const deep = path.join(dir, 'a/b/c');
    await mkdir(deep, { recursive: true });
    const config = loadConfig(deep);
    expect(config.file).toBe(path.join(dir, CONFIG_FILE));
    expect(config.specDir).toBe(path.join(dir, 'contract'));
    expect(config.outDir).toBe(path.join(dir, 'sdk'));
    expect(config.releaseDir).toBe(path.join(dir, 'versions'));
    expect(config.packages.scope).toBe('@acme');
  });

  test('flags win over the file and are relative to the working directory; --config names the file', async () => {
    const dir = await project({ spec: 'contract', output: 'sdk' });
    const elsewhere = await mkdtemp(path.join(os.tmpdir(), 'codegen-cwd-'));
    const config = loadConfig(elsewhere, { config: path.join(dir, CONFIG_FILE), spec: 'other-spec', out: 'other-out' });
    expect(config.file).toBe(path.join(dir, CONFIG_FILE));
    expect(config).toMatchObject({ specDir: path.join(elsewhere, 'other-spec'), outDir: path.join(elsewhere, 'other-out') });
  });

  test('broken JSON is located', async () => {
    const dir = await project('{\n  "spec": "spec",\n  "output" "generated"\n}\n');
    const [d] = diagnosticsOf(() => loadConfig(dir));
    expect(d).toMatchObject({ code: 'CFG001', line: 3 });
    expect(d!.message).toMatch(/not valid JSON/);
  });

  test('an unknown key is located at the key and lists the allowed ones', async () => {
    const dir = await project({ spec: 'spec', packages: { scope: '@acme', licence: 'MIT' } });
    const [d] = diagnosticsOf(() => loadConfig(dir));
    expect(d).toMatchObject({ code: 'CFG002', line: 5 });
    expect(d!.message).toBe("unknown key 'licence' in packages (allowed: scope, name, runtimeName, license, author, homepage, repository, registry, access)");
  });

  test('a scope that is not an npm scope, and a name pattern that gives no valid package name, are refused', async () => {
    const scope = diagnosticsOf(() => loadConfig(loadDir));
    expect(scope).toEqual([expect.objectContaining({ code: 'CFG003', message: expect.stringContaining('packages.scope must match') })]);
    const dir = await project({ packages: { name: '{scope}/SDK-{connector}' } });
    const [d] = diagnosticsOf(() => loadConfig(dir));
    expect(d).toMatchObject({ code: 'CFG005', line: 3 });
    expect(d!.message).toContain("'@connector-sdk/SDK-sample-id'");
  });

  let loadDir: string;
  beforeAll(async () => {
    loadDir = await project({ packages: { scope: 'acme' } });
  });

  test('through the CLI: located, exit 1, said to be in the config', async () => {
    const dir = await project({ spec: 'spec', outputs: 'x' });
    const result = await exec(process.execPath, [path.join(repo, 'bin/connector-codegen.js'), 'validate'], { cwd: dir }).then(
      () => ({ code: 0, stderr: '' }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${CONFIG_FILE}:3:3 error CFG002 unknown key 'outputs' in the config`);
    expect(result.stderr).toContain('1 error in the config');
  });
});

describe('generation', () => {
  test('a new scope reaches every package, import, README and doc, and changes nothing else', async () => {
    const [plain, acme] = await Promise.all([mkdtemp(path.join(os.tmpdir(), 'codegen-plain-')), mkdtemp(path.join(os.tmpdir(), 'codegen-acme-'))]);
    const packages = { ...DEFAULT_PACKAGES, scope: '@acme' };
    await Promise.all([generate({ specDir, outDir: plain }), generate({ specDir, outDir: acme, config: { packages } })]);
    const [before, after] = await Promise.all([readOutputTree(plain), readOutputTree(acme)]);
    expect([...after.keys()]).toEqual([...before.keys()]);
    let renamed = 0;
    for (const [file, text] of after) {
      expect(text, file).not.toContain('@connector-sdk');
      if (text.includes('@acme/')) renamed++;
      expect(text.replaceAll('@acme/', '@connector-sdk/'), file).toBe(before.get(file));
    }
    expect(renamed).toBeGreaterThan(100);
  });

  test('connectors narrows the packages (and every index) to those named; an unknown one is a located error', async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'codegen-some-'));
    await generate({ specDir, outDir: out, config: { packages: DEFAULT_PACKAGES, connectors: ['crm', 'payments'] } });
    const tree = await readOutputTree(out);
    const packages = [...new Set([...tree.keys()].filter((f) => f.endsWith('/package.json')).map((f) => f.split('/')[0]))].sort();
    expect(packages).toEqual(['crm', 'mcp', 'payments', 'runtime']);
    expect(tree.get('tsconfig.json')).not.toContain('support_desk');
    // The MCP server serves the selected connectors only.
    expect(tree.get('mcp/src/connectors.ts')).toContain("id: 'crm'");
    expect(tree.get('mcp/src/connectors.ts')).not.toContain('support_desk');
    const dir = await project({ spec: specDir, connectors: ['crm', 'paymnts'] });
    const config = loadConfig(dir);
    const error = await generate({ specDir, outDir: out, config }).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(SpecError);
    expect((error as SpecError).diagnostics).toEqual([expect.objectContaining({ code: 'CFG004', line: 5, message: expect.stringContaining("'paymnts', which is not a connector of the spec; did you mean 'payments'?") })]);
    // validate refuses what generate refuses.
    const validated = await runCli(['validate'], { cwd: dir });
    expect(validated.code).toBe(1);
    expect(validated.stderr).toContain("error CFG004 connectors names 'paymnts', which is not a connector of the spec; did you mean 'payments'?");
  });
});
