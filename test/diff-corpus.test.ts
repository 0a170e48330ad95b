/**
 * The diff corpus (test/fixtures/diff-corpus/*.yaml): base/head spec pairs, one or more per check, each
 * asserting exactly which changes the diff reports (check id, severity, where, location) and the bump and
 * next version of the connector. Plus: a spec against itself, or against a reordered copy, has no change.
 */
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { CHECKS } from '../generator/diff/checks.js';
import { compareSpecs } from '../generator/diff/compare.js';
import { placeOf, placesOf } from '../generator/diff/model.js';
import { verdicts } from '../generator/diff/semver.js';
import { readSpec } from '../generator/spec/read.js';
import { buildSpec, loadCorpus, removeBuiltSpecs, type CorpusCase } from './fixtures/diff-corpus/harness.js';
import { realSpecDir, reversedSpecCopy } from './helpers/spec-copy.js';

const corpus = await loadCorpus();
afterAll(removeBuiltSpecs);

async function diffCase(c: CorpusCase) {
  const both = c.both ?? [];
  const [base, head] = await Promise.all([buildSpec(both), buildSpec([...both, ...c.head])]);
  return compareSpecs((await readSpec(base)).ir, (await readSpec(head)).ir);
}

describe('corpus', () => {
  test.each(corpus.map((c) => [`${c.source}: ${c.name}`, c] as const))('%s', async (_name, c) => {
    const changes = await diffCase(c);
    const actual = changes.map((ch, i) => {
      const want = c.expect[i];
      return {
        id: ch.id,
        severity: ch.severity,
        ...(want?.at !== undefined ? { at: placeOf(ch) } : {}),
        ...(want?.connector !== undefined ? { connector: ch.connector ?? 'service' } : {}),
        ...(want?.line !== undefined ? { line: ch.location.line } : {}),
        ...(want?.places !== undefined ? { places: placesOf(ch) } : {}),
      };
    });
    expect(actual).toEqual(c.expect);
    // Locations name the spec file the change is written in, relative to the spec's parent.
    for (const ch of changes) expect(ch.location.file).toMatch(/^spec\/(service\.yaml|connectors\/\w+\.yaml)$/);
    const connector = c.connector ?? 'shop';
    const verdict = verdicts(changes, () => '0.1.0', (id) => id).find((v) => v.connector === connector);
    expect(verdict?.bump ?? 'none').toBe(c.bump);
    if (c.version !== undefined) expect(verdict?.version.to).toBe(c.version);
  });

  test('has more than 30 pairs (every check id is covered by this corpus or the real-spec one: diff-checks.test.ts)', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(30);
  });

  test('every expected severity is the one the checks table gives', () => {
    const table = new Map(CHECKS.map((c) => [c.id, c.severity]));
    for (const c of corpus) for (const e of c.expect) expect(`${e.id} ${e.severity}`).toBe(`${e.id} ${table.get(e.id)}`);
  });
});

describe('no change, no output', () => {
  test('the mini spec against itself', async () => {
    const dir = await buildSpec([]);
    const { ir } = await readSpec(dir);
    expect(compareSpecs(ir, ir)).toEqual([]);
    expect(compareSpecs(ir, (await readSpec(await buildSpec([]))).ir)).toEqual([]);
  });

  test('the real spec against itself and against a copy with every map in reverse key order', async () => {
    const { ir } = await readSpec(realSpecDir);
    expect(compareSpecs(ir, ir)).toEqual([]);
    const reordered = (await readSpec(await reversedSpecCopy())).ir;
    expect(compareSpecs(ir, reordered)).toEqual([]);
    expect(path.basename(realSpecDir)).toBe('spec');
  });
});
