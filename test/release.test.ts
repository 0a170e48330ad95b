/**
 * `connector-codegen release`: in a temp git repository holding the mini spec and its own release state, a
 * spec edit is released — version bumped by semver, a changelog entry with breaking changes first and check
 * ids, both recorded in the release state and carried into generated/<id>/package.json and CHANGELOG.md by
 * every later `generate`. A second release of the same spec changes nothing. Plus the semver rules.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseDocument } from 'yaml';
import { nextVersion } from '../generator/diff/semver.js';
import { miniServiceYaml, SHOP_YAML } from './helpers/mini-spec.js';

const repo = path.resolve(import.meta.dirname, '..');
const bin = path.join(repo, 'bin/connector-codegen.js');
const exec = promisify(execFile);

let work: string;
const releaseDir = () => path.join(work, 'release');
/** No CONNECTOR_CODEGEN_RELEASE_DIR: the release state is the project's own, release/ beside its spec. */
const env = () => {
  const { CONNECTOR_CODEGEN_RELEASE_DIR: _dir, ...rest } = process.env;
  return rest;
};
const toolRelease = path.join(repo, 'release');

async function git(args: string[]): Promise<void> {
  await exec('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', '-c', 'commit.gpgsign=false', ...args], { cwd: work });
}

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(process.execPath, [bin, ...args], { cwd: work, env: env(), maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Applies path → value edits to spec/connectors/shop.yaml (undefined deletes). */
async function editShop(edits: [string, unknown][]): Promise<void> {
  const file = path.join(work, 'spec/connectors/shop.yaml');
  const doc = parseDocument(await readFile(file, 'utf8'));
  for (const [at, value] of edits) {
    if (value === undefined) doc.deleteIn(at.split('/'));
    else doc.setIn(at.split('/'), doc.createNode(value));
  }
  await writeFile(file, doc.toString({ lineWidth: 0 }));
}

const read = (rel: string) => readFile(path.join(work, rel), 'utf8');
const versions = async () => JSON.parse(await read('release/versions.json')).packages as Record<string, { version: string; fingerprint?: string }>;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), 'codegen-release-'));
  await mkdir(path.join(work, 'spec/connectors'), { recursive: true });
  await mkdir(releaseDir());
  await writeFile(path.join(work, 'spec/service.yaml'), await miniServiceYaml());
  await writeFile(path.join(work, 'spec/connectors/shop.yaml'), SHOP_YAML);
  await writeFile(path.join(releaseDir(), 'versions.json'), JSON.stringify({ packages: { shop: { version: '0.1.0' } } }));
  await git(['init', '-q']);
  await git(['add', '.']);
  await git(['commit', '-q', '-m', 'shop 0.1.0']);
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('release', () => {
  test('a breaking edit: 0.1.0 → 0.2.0, a changelog entry with breaking changes first, generated package carries both', async () => {
    await editShop([
      ['records/customer/fields/name', 'string'], // response-field-added
      ['entities/customers/actions/list/params/region', { type: 'string', required: true }], // param-required-added
      ['entities/customers/actions/get/params/id/deprecated', 'Use list.'], // param-deprecated
    ]);
    const r = await cli(['release', '--out', 'generated']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('shop: 0.1.0 → 0.2.0 (major; 3 changes)\n');

    expect((await versions()).shop).toMatchObject({ version: '0.2.0', fingerprint: expect.stringMatching(/^[0-9a-f]{64}$/) });
    const entries = await read('release/changelogs/shop.md');
    expect(entries).toBe(
      [
        '## 0.2.0',
        '',
        '### Breaking changes',
        '',
        '- `param-required-added` — customers.list: param `region` was added as required (spec/connectors/shop.yaml:46)',
        '',
        '### Warnings',
        '',
        '- `param-deprecated` — customers.get: param `id` was deprecated: Use list. (spec/connectors/shop.yaml:51)',
        '',
        '### Other changes',
        '',
        '- `response-field-added` — 3 actions: customers.list, customers.get, customers.create: record `customer` field `name` was added (spec/connectors/shop.yaml:34)',
        '',
        '## 0.1.0',
        '',
        '- First release, generated from the spec.',
        '',
      ].join('\n'),
    );
    const pkg = JSON.parse(await read('generated/shop/package.json'));
    expect(pkg.version).toBe('0.2.0');
    expect(pkg.files).toContain('CHANGELOG.md');
    const changelog = await read('generated/shop/CHANGELOG.md');
    expect(changelog).toContain('# Changelog of @connector-sdk/shop\n');
    expect(changelog).toContain(entries.trimEnd());
  });

  test('the version and changelog survive regeneration', async () => {
    const r = await cli(['generate', '--out', 'regenerated']);
    expect(r.code).toBe(0);
    expect(JSON.parse(await read('regenerated/shop/package.json')).version).toBe('0.2.0');
    expect(await read('regenerated/shop/CHANGELOG.md')).toBe(await read('generated/shop/CHANGELOG.md'));
  });

  test('releasing the same spec again changes nothing', async () => {
    const before = await read('release/versions.json');
    const r = await cli(['release', '--out', 'generated']);
    expect(r.stdout).toContain('shop: already released as 0.2.0 (spec unchanged since); skipped\n');
    expect(await read('release/versions.json')).toBe(before);
  });

  test('after a commit, an additive edit is a patch below 1.0.0; --dry-run writes nothing', async () => {
    await git(['add', '.']);
    await git(['commit', '-q', '-m', 'shop 0.2.0']);
    await editShop([['entities/customers/actions/list/params/email', 'string']]);
    const before = await read('release/versions.json');
    const dry = await cli(['release', '--dry-run']);
    expect(dry.stdout).toBe('[dry run] shop: 0.2.0 → 0.2.1 (minor; 1 change)\n');
    expect(await read('release/versions.json')).toBe(before);
    const r = await cli(['release', '--out', 'generated']);
    expect(r.stdout).toContain('shop: 0.2.0 → 0.2.1 (minor; 1 change)\n');
    expect((await read('release/changelogs/shop.md')).startsWith('## 0.2.1\n\n### Other changes\n\n- `param-added` — customers.list: param `email` was added (optional)')).toBe(true);
    expect(JSON.parse(await read('generated/shop/package.json')).version).toBe('0.2.1');
  });

  test('no change since the base: nothing to release', async () => {
    await git(['add', '.']);
    await git(['commit', '-q', '-m', 'shop 0.2.1']);
    const r = await cli(['release', '--dry-run']);
    expect(r).toMatchObject({ code: 0, stdout: 'Nothing to release: no semantic change from HEAD to the working tree.\n' });
  });

  test('the config\'s severity overrides decide the bump of a release as they do the diff\'s verdict', async () => {
    const shop = await read('spec/connectors/shop.yaml');
    const config = path.join(work, 'strict.config.json');
    await writeFile(config, JSON.stringify({ spec: 'spec', diff: { severity: { 'param-added': 'breaking' } } }));
    try {
      await editShop([['entities/customers/actions/list/params/country', 'string']]);
      expect((await cli(['release', '--dry-run'])).stdout).toBe('[dry run] shop: 0.2.1 → 0.2.2 (minor; 1 change)\n');
      expect((await cli(['release', '--dry-run', '--config', config])).stdout).toBe('[dry run] shop: 0.2.1 → 0.3.0 (major; 1 change)\n');
    } finally {
      await writeFile(path.join(work, 'spec/connectors/shop.yaml'), shop);
      await rm(config);
    }
  });

  test("the release state is the project's, where its config says; the generator's own is never touched", async () => {
    const tool = await readFile(path.join(toolRelease, 'versions.json'), 'utf8');
    const config = path.join(work, 'moved.config.json');
    await writeFile(config, JSON.stringify({ spec: 'spec', release: 'state' }));
    const shop = await read('spec/connectors/shop.yaml');
    try {
      await editShop([['entities/customers/actions/list/params/country', 'string']]);
      const r = await cli(['release', '--config', config, '--out', 'moved-out']);
      // The state at the new place is empty: shop starts from 0.1.0 there.
      expect(r.stdout).toContain('shop: 0.1.0 → 0.1.1 (minor; 1 change)');
      expect(r.stdout).toContain('release state written to state/');
      expect(JSON.parse(await read('state/versions.json')).packages.shop.version).toBe('0.1.1');
      expect(JSON.parse(await read('moved-out/shop/package.json')).version).toBe('0.1.1');
      // A changelog written by hand reaches the generated CHANGELOG.md at the next generate (the no-op check sees it).
      await writeFile(path.join(work, 'state/changelogs/shop.md'), '## 0.1.1\n\n- Written by hand.\n');
      expect((await cli(['generate', '--config', config, '--out', 'moved-out'])).stderr).toBe('');
      expect(await read('moved-out/shop/CHANGELOG.md')).toContain('- Written by hand.');
      expect((await cli(['generate', '--config', config, '--out', 'moved-out', '--check'])).code).toBe(0);
      expect(await readFile(path.join(toolRelease, 'versions.json'), 'utf8')).toBe(tool);
    } finally {
      await writeFile(path.join(work, 'spec/connectors/shop.yaml'), shop);
      await rm(config);
      await rm(path.join(work, 'state'), { recursive: true, force: true });
    }
  });

  test('a broken release state is a clear error, not a crash', async () => {
    const file = path.join(releaseDir(), 'versions.json');
    const good = await readFile(file, 'utf8');
    await writeFile(file, JSON.stringify({ packages: { shop: { version: 'one' } } }));
    try {
      await editShop([['records/customer/fields/phone', 'string']]);
      const r = await cli(['release', '--dry-run']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('versions.json: packages.shop.version must be MAJOR.MINOR.PATCH, not "one"');
      expect(r.stderr).not.toMatch(/\n\s+at /);
    } finally {
      await writeFile(file, good);
    }
  });
});

describe('semver', () => {
  test.each([
    ['0.1.0', 'major', '0.2.0'],
    ['0.1.3', 'minor', '0.1.4'],
    ['0.1.3', 'patch', '0.1.4'],
    ['1.2.3', 'major', '2.0.0'],
    ['1.2.3', 'minor', '1.3.0'],
    ['1.2.3', 'patch', '1.2.4'],
    ['1.2.3', 'none', '1.2.3'],
  ] as const)('%s + %s → %s', (from, bump, to) => {
    expect(nextVersion(from, bump)).toBe(to);
  });
});
