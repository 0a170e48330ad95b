/**
 * Change detection of the caches (issue 16): file stats as one string (lib/file-stats.cjs: the CLI build and the
 * generator version) change with every added, removed or touched file; the generator version follows its inputs'
 * content, and is remembered only while their stats are unchanged.
 */
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { filesUnder, statLines } from '../generator/lib/file-stats.cjs';
import { generatorVersion } from '../generator/cache/version.js';
import { handOverVersion } from '../generator/lib/generator-inputs.cjs';

const tmp = (name: string) => mkdtemp(path.join(os.tmpdir(), `codegen-change-${name}-`));
const snapshot = (root: string, options?: Parameters<typeof filesUnder>[1]) => statLines('src', root, filesUnder(root, options));

describe('file stats', () => {
  test('list files in a stable order, skipping the directories and names asked', async () => {
    const root = await tmp('tree');
    for (const file of ['b.ts', 'a/z.ts', 'a.ts', 'a/notes.md', 'dist/out.js', 'a/node_modules/x.ts']) {
      await mkdir(path.dirname(path.join(root, file)), { recursive: true });
      await writeFile(path.join(root, file), file);
    }
    expect(filesUnder(root)).toEqual(['a/node_modules/x.ts', 'a/notes.md', 'a/z.ts', 'a.ts', 'b.ts', 'dist/out.js']);
    expect(filesUnder(root, { skip: new Set(['node_modules', 'dist']), include: (n) => n.endsWith('.ts') })).toEqual(['a/z.ts', 'a.ts', 'b.ts']);
    expect(filesUnder(path.join(root, 'b.ts'))).toEqual(['']);
    expect(filesUnder(path.join(root, 'missing'))).toEqual([]);
  });

  test('change with every added, removed, rewritten or touched file, and only then', async () => {
    const root = await tmp('stats');
    await writeFile(path.join(root, 'a.ts'), 'one');
    await writeFile(path.join(root, 'b.ts'), 'two');
    const seen = [snapshot(root)];
    expect(snapshot(root)).toBe(seen[0]);
    await writeFile(path.join(root, 'a.ts'), 'One'); // same size
    await utimes(path.join(root, 'a.ts'), new Date(2001, 1, 1), new Date(2001, 1, 1));
    seen.push(snapshot(root));
    await utimes(path.join(root, 'a.ts'), new Date(2002, 1, 1), new Date(2002, 1, 1)); // touched only
    seen.push(snapshot(root));
    await writeFile(path.join(root, 'c.ts'), 'three');
    seen.push(snapshot(root));
    await rm(path.join(root, 'b.ts'));
    seen.push(snapshot(root));
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe('the generator version', () => {
  const before = process.env.CONNECTOR_CODEGEN_RELEASE_DIR;
  afterEach(() => {
    if (before === undefined) delete process.env.CONNECTOR_CODEGEN_RELEASE_DIR;
    else process.env.CONNECTOR_CODEGEN_RELEASE_DIR = before;
  });

  test('follows the content of its inputs (here the release state), remembered while their stats are unchanged', async () => {
    const release = await tmp('release');
    const cacheDir = await tmp('cache');
    process.env.CONNECTOR_CODEGEN_RELEASE_DIR = release;
    await writeFile(path.join(release, 'versions.json'), '{"packages":{}}\n');
    const first = generatorVersion(cacheDir);
    expect(generatorVersion(cacheDir)).toBe(first);
    await writeFile(path.join(release, 'versions.json'), '{"packages":{"crm":{"version":"0.2.0"}}}\n');
    const second = generatorVersion(cacheDir);
    expect(second).not.toBe(first);
    // Back to the first content (another time): the first version again, by content.
    await writeFile(path.join(release, 'versions.json'), '{"packages":{}}\n');
    expect(generatorVersion(cacheDir)).toBe(first);
    await writeFile(path.join(release, 'CHANGELOG.md'), '# Changes\n');
    expect(generatorVersion(cacheDir)).not.toBe(first);
    // A fresh cache computes the same digest.
    expect(generatorVersion(await tmp('cache'))).toBe(generatorVersion(cacheDir));
  });

  test('handed over by the CLI (which checked its inputs at start), serves the first run only, while the release state is unchanged', async () => {
    const release = await tmp('release');
    const cacheDir = await tmp('cache');
    const repo = path.resolve(import.meta.dirname, '..');
    process.env.CONNECTOR_CODEGEN_RELEASE_DIR = release;
    await writeFile(path.join(release, 'versions.json'), '{"packages":{}}\n');
    const own = generatorVersion(cacheDir);
    handOverVersion(repo, 'handed');
    expect(generatorVersion(cacheDir)).toBe('handed');
    expect(generatorVersion(cacheDir)).toBe(own);
    // A release between the start and the run (the release command generates after releasing): not the handed one.
    handOverVersion(repo, 'handed');
    await writeFile(path.join(release, 'versions.json'), '{"packages":{"crm":{"version":"0.2.0"}}}\n');
    expect(generatorVersion(cacheDir)).not.toBe('handed');
    handOverVersion(path.join(repo, 'elsewhere'), 'handed');
    expect(generatorVersion(cacheDir)).not.toBe('handed');
  });
});
