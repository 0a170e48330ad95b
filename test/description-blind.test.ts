/**
 * Emitters that read no description (EmitterEntry.readsDescriptions: false) keep a connector's files from the cache's
 * structure entries when only descriptions changed (cache/connector-cache.ts). These tests hold the declaration to the
 * emitters' real behaviour, the structure key to what it must and must not see, and a description edit to cold output.
 */
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { connectorKeys } from '../generator/cache/connector-cache.js';
import { emitterEntries } from '../generator/emitters/index.js';
import { onlyConnector, type Emitter } from '../generator/emitters/types.js';
import { generate } from '../generator/generate.js';
import type { SpecIR } from '../generator/ir.js';
import type { Timings } from '../generator/lib/timings.js';
import { readSpec } from '../generator/spec/read.js';
import { readOutputTree } from './helpers/output-tree.js';

const realSpec = path.resolve(import.meta.dirname, '../spec');
const tmp = (name: string) => mkdtemp(path.join(os.tmpdir(), `codegen-blind-${name}-`));

/** A copy of `ir` with every description changed, the common contract's and every connector's (how many: `count`). */
function describedAnew(ir: SpecIR): { ir: SpecIR; count: number } {
  const copy = structuredClone(ir);
  let count = 0;
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'description' && typeof inner === 'string') {
          (value as Record<string, unknown>)[key] = `${inner} Said again, otherwise.`;
          count++;
        } else visit(inner);
      }
    }
  };
  copy.connectors.forEach(visit);
  visit(copy.service);
  return { ir: copy, count };
}

/** Every connector's files and fragment of `emitter`, path → text (fragments under `<id>#fragment`). */
async function connectorOutputs(emitter: Emitter, ir: SpecIR): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const c of ir.connectors) {
    const view = onlyConnector(ir, c);
    for (const [rel, text] of await emitter.split!.connector(view, c)) out.set(rel, text);
    if (emitter.split!.fragment) out.set(`${c.id}#fragment`, emitter.split!.fragment(view, c));
  }
  return out;
}

describe('the declaration of emitters that read no description', () => {
  let ir: SpecIR;
  let changed: { ir: SpecIR; count: number };
  beforeAll(async () => {
    ir = (await readSpec(realSpec)).ir;
    changed = describedAnew(ir);
  }, 60_000);

  const loaded = async (name: string) => emitterEntries.find((e) => e.name === name)!.load();

  test.each(emitterEntries.filter((e) => e.readsDescriptions === false).map((e) => e.name))(
    '%s makes the same files and fragments when every description changes',
    async (name) => {
      expect(changed.count).toBeGreaterThan(100);
      const emitter = await loaded(name);
      expect(emitter.split, `${name} must have a split to be cached by connector`).toBeDefined();
      expect(await connectorOutputs(emitter, changed.ir)).toEqual(await connectorOutputs(emitter, ir));
    },
    60_000,
  );

  test('the others do read descriptions: each one changes some file (else it could be declared blind)', async () => {
    for (const entry of emitterEntries.filter((e) => e.readsDescriptions !== false && e.split)) {
      const emitter = await entry.load();
      expect(await connectorOutputs(emitter, changed.ir), entry.name).not.toEqual(await connectorOutputs(emitter, ir));
    }
  }, 60_000);

  test("every entry's split says what its emitter's split is", async () => {
    for (const entry of emitterEntries) {
      const emitter = await entry.load();
      expect({ name: entry.name, split: entry.split }).toEqual({
        name: entry.name,
        split: emitter.split ? { shared: emitter.split.shared !== undefined, ...(emitter.split.service ? { service: true } : {}) } : undefined,
      });
    }
  });
});

describe('the structure key', () => {
  let ir: SpecIR;
  beforeAll(async () => {
    ir = (await readSpec(realSpec)).ir;
  }, 60_000);
  const keysOf = (of: SpecIR) =>
    connectorKeys('v', of, new Map(of.connectors.map((c) => [c.id, 'input']))).structure(
      of.connectors.map((c) => c.id),
    );

  test('ignores descriptions, and nothing else', () => {
    const before = keysOf(ir);
    expect(keysOf(describedAnew(ir).ir)).toEqual(before);
    // Of the common contract, only descriptions are left out: any other change there changes every key.
    const otherSegment = structuredClone(ir);
    otherSegment.service.versioning.pathSegment = 'v9';
    const afterSegment = keysOf(otherSegment);
    expect([...afterSegment].filter(([c, key]) => key === before.get(c))).toEqual([]);
    // A record field named `description` is structure: its name is a value, not a key.
    const withField = structuredClone(ir);
    const record = withField.connectors[0]!.records[0]!;
    record.properties.push({ ...record.properties[0]!, name: 'description' });
    expect(keysOf(withField).get(ir.connectors[0]!.id)).not.toBe(before.get(ir.connectors[0]!.id));
    // Each connector's own assumptions are in its key (the common part leaves the list out); another's are not.
    const id = ir.connectors[1]!.id;
    const assumed = structuredClone(ir);
    const own = assumed.service.assumptions.find((a) => a.id.startsWith(`${id}/`))!;
    own.value = ['another value'];
    const after = keysOf(assumed);
    expect(after.get(id)).not.toBe(before.get(id));
    expect([...after].filter(([c, key]) => c !== id && key !== before.get(c))).toEqual([]);
  });

  test('is computed only for the connectors asked for', () => {
    const keys = connectorKeys('v', ir, new Map(ir.connectors.map((c) => [c.id, 'input'])));
    expect([...keys.structure([ir.connectors[2]!.id]).keys()]).toEqual([ir.connectors[2]!.id]);
    expect(keys.structure([]).size).toBe(0);
  });
});

/** A copy of the spec, generated once into an output and a cache of its own. */
async function generatedCopy(): Promise<{ specDir: string; cacheDir: string; outDir: string }> {
  const specDir = path.join(await tmp('spec'), 'spec');
  await cp(realSpec, specDir, { recursive: true });
  const cacheDir = await tmp('cache');
  const outDir = path.join(await tmp('out'), 'out');
  await generate({ specDir, outDir, cacheDir });
  return { specDir, cacheDir, outDir };
}

describe('an edit of descriptions only', () => {
  test('runs no description-blind emitter, stores no structure entry, and gives the cold output', async () => {
    const { specDir, cacheDir, outDir } = await generatedCopy();
    const structureEntries = async () =>
      (await readdir(path.join(cacheDir, 'structure'))).filter((n) => n.endsWith('.entry')).sort();
    const stored = await structureEntries();
    expect(stored.length).toBe((await readdir(path.join(specDir, 'connectors'))).length);
    const blind = emitterEntries.filter((e) => e.readsDescriptions === false).map((e) => `emit:${e.name}`);
    const run = async () => {
      const timings: Timings = [];
      const result = await generate({ specDir, outDir, cacheDir, timings });
      return { result, emitted: timings.map((t) => t.phase).filter((p) => p.startsWith('emit:')) };
    };

    const file = path.join(specDir, 'connectors/crm.yaml');
    const text = await readFile(file, 'utf8');
    const described = text.replace(/^(description: >-\n(?: {2}.*\n)*)/m, (block) => `${block}  Edited for the test.\n`);
    expect(described).not.toBe(text);
    await writeFile(file, described);
    const descriptionEdit = await run();
    expect(descriptionEdit.result.written).toBeGreaterThan(0);
    expect(descriptionEdit.emitted.filter((p) => blind.includes(p))).toEqual([]);
    expect(await structureEntries()).toEqual(stored);
    const coldCache = await tmp('cold-cache');
    const cold = async () => {
      const coldOut = path.join(await tmp('cold'), 'out');
      await generate({ specDir, outDir: coldOut, cacheDir: coldCache });
      return readOutputTree(coldOut);
    };
    expect(await readOutputTree(outDir)).toEqual(await cold());

    // A record field named `description` is structure: every emitter runs for it, and the output is the cold one.
    await writeFile(file, described.replace(/^( {4}fields:\n)/m, '$1      description: string|null\n'));
    const fieldEdit = await run();
    expect(fieldEdit.emitted).toEqual(expect.arrayContaining(blind));
    expect((await structureEntries()).length).toBe(stored.length + 1);
    expect(await readOutputTree(outDir)).toEqual(await cold());
  }, 180_000);

  test("an edit of service.yaml's descriptions runs no description-blind emitter either, and gives the cold output", async () => {
    const { specDir, cacheDir, outDir } = await generatedCopy();
    const file = path.join(specDir, 'service.yaml');
    const text = await readFile(file, 'utf8');
    const described = text.replace(/^( {4}description: Returns one record by identifier\.)$/m, '$1 Edited for the test.');
    expect(described).not.toBe(text);
    await writeFile(file, described);
    const timings: Timings = [];
    const result = await generate({ specDir, outDir, cacheDir, timings });
    expect(result.written).toBeGreaterThan(0);
    const emitted = timings.map((t) => t.phase).filter((p) => p.startsWith('emit:'));
    const blind = emitterEntries.filter((e) => e.readsDescriptions === false).map((e) => `emit:${e.name}`);
    expect(emitted).toContain('emit:docs');
    expect(emitted.filter((p) => blind.includes(p))).toEqual([]);
    const coldOut = path.join(await tmp('cold'), 'out');
    await generate({ specDir, outDir: coldOut, cacheDir: await tmp('cold-cache') });
    expect(await readOutputTree(outDir)).toEqual(await readOutputTree(coldOut));
  }, 180_000);

  test('a structure entry gone (trimmed, deleted) is made again, for its connector alone, and the output stays the same', async () => {
    const { specDir, cacheDir, outDir } = await generatedCopy();
    const first = await readOutputTree(outDir);
    const dir = path.join(cacheDir, 'structure');
    const [gone] = (await readdir(dir)).filter((n) => n.endsWith('.entry')).sort();
    await rm(path.join(dir, gone!));
    // The stamps gone: the run reads every entry (whose files are the output's), and must write what it holds.
    await rm(path.join(cacheDir, 'stamps'), { recursive: true, force: true });
    const timings: Timings = [];
    await generate({ specDir, outDir, cacheDir, timings });
    // One connector to emit: the blind emitters run here (not on the emitter host), the others not at all.
    const emitted = timings.map((t) => t.phase).filter((p) => p.startsWith('emit:'));
    const blind = emitterEntries.filter((e) => e.readsDescriptions === false).map((e) => `emit:${e.name}`);
    expect(emitted).toEqual(expect.arrayContaining(blind));
    expect(emitted).not.toContain('emit:clients');
    expect((await readdir(dir)).filter((n) => n.endsWith('.entry'))).toContain(gone);
    expect(await readOutputTree(outDir)).toEqual(first);
  }, 180_000);
});
