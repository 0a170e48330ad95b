/**
 * Incremental generation (issue 16): an edit to one connector regenerates only that connector's files (plus the shared
 * ones), and gives byte for byte what a cold run gives; a generator change or a deleted cache never changes output.
 * Each test uses cache directories of its own (GenerateOptions.cacheDir), so parallel test files do not share one.
 */
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { isMap, isScalar, parseDocument, type Document, type YAMLMap, type YAMLSeq } from 'yaml';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { Random } from '../generator/emitters/fixtures/random.js';
import { generate, type GenerateOptions } from '../generator/generate.js';
import type { Timings } from '../generator/lib/timings.js';
import { SpecError } from '../generator/spec/diagnostics.js';
import { forgetShownPaths, rememberShownPath } from '../generator/lib/display-path.js';
import { readSpec } from '../generator/spec/read.js';
import { emitterEntries } from '../generator/emitters/index.js';
import { onlyConnector } from '../generator/emitters/types.js';
import { DEFAULT_PACKAGES } from '../generator/config/config.js';
import { readOutputTree } from './helpers/output-tree.js';

const realSpec = path.resolve(import.meta.dirname, '../spec');
const tmp = (name: string) => mkdtemp(path.join(os.tmpdir(), `codegen-incr-${name}-`));

/** One element (or undefined of an empty list), from the seeded stream: a failing edit replays from its seed. */
const pick = <T>(random: Random, items: readonly T[]): T => random.pick(items);

type Edit = (doc: Document, random: Random, tag: string) => string | undefined;

const mapAt = (doc: Document, ...keys: string[]) => {
  const node = doc.getIn(keys, true);
  return isMap(node) ? (node as YAMLMap) : undefined;
};
const keysOf = (map: YAMLMap | undefined) => (map ? map.items.map((p) => String(isScalar(p.key) ? p.key.value : p.key)) : []);

/** Edits a user makes to one connector: each says what it did, or undefined when it does not apply. */
const EDITS: Edit[] = [
  function describeAnew(doc, random, tag) {
    const entity = pick(random, keysOf(mapAt(doc, 'entities')));
    if (!entity) return undefined;
    doc.setIn(['entities', entity, 'description'], `Edited description ${tag}.`);
    return `description of ${entity}`;
  },
  function addParam(doc, random, tag) {
    const entity = pick(random, keysOf(mapAt(doc, 'entities')));
    const actions = mapAt(doc, 'entities', entity, 'actions');
    const action = pick(random, keysOf(actions).filter((a) => isMap(doc.getIn(['entities', entity, 'actions', a, 'params']))));
    if (!action) return undefined;
    doc.setIn(['entities', entity, 'actions', action, 'params', `extra_${tag}`], doc.createNode({ type: 'boolean', description: `An added flag (${tag}).` }));
    return `param extra_${tag} on ${entity}.${action}`;
  },
  function removeAction(doc, random) {
    const entities = keysOf(mapAt(doc, 'entities')).filter((e) => keysOf(mapAt(doc, 'entities', e, 'actions')).length > 1);
    const entity = pick(random, entities);
    if (!entity) return undefined;
    const action = pick(random, keysOf(mapAt(doc, 'entities', entity, 'actions')));
    doc.deleteIn(['entities', entity, 'actions', action]);
    return `removed ${entity}.${action}`;
  },
  function addRecordField(doc, random, tag) {
    const record = pick(random, keysOf(mapAt(doc, 'records')).filter((r) => isMap(doc.getIn(['records', r, 'fields']))));
    if (!record) return undefined;
    doc.setIn(['records', record, 'fields', `extra_${tag}`], 'string|null');
    return `field extra_${tag} on record ${record}`;
  },
  function retypeRecordField(doc, random) {
    // Fields written as a type text (`string|null`), the key aside.
    const retypable = (record: string) => keysOf(mapAt(doc, 'records', record, 'fields')).filter((f) => f !== 'id' && typeof doc.getIn(['records', record, 'fields', f]) === 'string');
    const record = pick(random, keysOf(mapAt(doc, 'records')).filter((r) => retypable(r).length > 0));
    if (!record) return undefined;
    const field = pick(random, retypable(record));
    const type = String(doc.getIn(['records', record, 'fields', field]));
    doc.setIn(['records', record, 'fields', field], type === 'integer|null' ? 'boolean' : 'integer|null');
    return `field ${field} of record ${record} retyped from ${type}`;
  },
  function removeRecordField(doc, random) {
    const record = pick(random, keysOf(mapAt(doc, 'records')).filter((r) => keysOf(mapAt(doc, 'records', r, 'fields')).length > 2));
    if (!record) return undefined;
    const field = pick(random, keysOf(mapAt(doc, 'records', record, 'fields')).filter((f) => f !== 'id'));
    doc.deleteIn(['records', record, 'fields', field]);
    return `field ${field} removed from record ${record}`;
  },
];

async function copySpec(): Promise<string> {
  const dir = path.join(await tmp('spec'), 'spec'); // named spec/, as generated headers name it
  await cp(realSpec, dir, { recursive: true });
  return dir;
}

/** A cold run: empty cache, empty output. */
async function coldTree(specDir: string, extra: Partial<GenerateOptions> = {}): Promise<Map<string, string>> {
  const outDir = path.join(await tmp('cold'), 'out');
  await generate({ specDir, outDir, cacheDir: await tmp('cold-cache'), ...extra });
  return readOutputTree(outDir);
}

/** A spec copy generated once into an output and a cache of its own. */
async function generatedOnce(): Promise<{ specDir: string; cacheDir: string; outDir: string }> {
  const specDir = await copySpec();
  const cacheDir = await tmp('cache');
  const outDir = path.join(await tmp('out'), 'out');
  await generate({ specDir, outDir, cacheDir });
  return { specDir, cacheDir, outDir };
}

const entryCount = async (cacheDir: string, kind: 'connectors' | 'structure' = 'connectors') =>
  (await readdir(path.join(cacheDir, kind)).catch(() => [])).filter((n) => n.endsWith('.entry')).length;

describe('an edit to one connector', () => {
  let specDir: string;
  let outDir: string;
  let cacheDir: string;
  beforeAll(async () => {
    specDir = await copySpec();
    outDir = path.join(await tmp('out'), 'out');
    cacheDir = await tmp('cache');
    await generate({ specDir, outDir, cacheDir });
  }, 120_000);

  // Every kind of edit, each on a seeded connector and on the output and cache of the edit before.
  test.each(EDITS.map((edit, i) => [edit.name, 11 + 18 * i, edit] as const))('regenerates what a cold run generates (%s, seed %i)', async (_name, seed, edit) => {
    const random = new Random(seed);
    const files = (await readdir(path.join(specDir, 'connectors'))).sort();
    let done: string | undefined;
    let file = '';
    let before = '';
    for (let attempt = 0; attempt < 20 && !done; attempt++) {
      file = path.join(specDir, 'connectors', pick(random, files));
      before = await readFile(file, 'utf8');
      const doc = parseDocument(before);
      done = edit(doc, random, `s${seed}`);
      if (!done) continue;
      await writeFile(file, doc.toString());
      const entriesBefore = await entryCount(cacheDir);
      const structureBefore = await entryCount(cacheDir, 'structure');
      try {
        const result = await generate({ specDir, outDir, cacheDir });
        expect(result.written, done).toBeGreaterThan(0);
      } catch (error) {
        // An edit the contract does not allow (a removed action another one needs): undo it, try another.
        if (!(error instanceof SpecError)) throw error;
        await writeFile(file, before);
        done = undefined;
        continue;
      }
      // Only the edited connector was emitted: one new cache entry.
      expect(await entryCount(cacheDir), done).toBe(entriesBefore + 1);
      // Its structure (the IR without descriptions) changed unless only a description did.
      expect(await entryCount(cacheDir, 'structure'), done).toBe(structureBefore + (done.startsWith('description of') ? 0 : 1));
    }
    expect(done, 'no applicable edit found').toBeDefined();
    expect(await readOutputTree(outDir)).toEqual(await coldTree(specDir));
  }, 120_000);
});

describe('an edit outside the connectors', () => {
  test('of the service spec regenerates what a cold run generates', async () => {
    const { specDir, cacheDir, outDir } = await generatedOnce();
    const file = path.join(specDir, 'service.yaml');
    const doc = parseDocument(await readFile(file, 'utf8'));
    doc.setIn(['service', 'description'], 'An edited description of the service.');
    doc.setIn(['assumptions', 'errorStatuses', 'value', '409'], 'A conflicting write.');
    await writeFile(file, doc.toString());
    await generate({ specDir, outDir, cacheDir });
    const tree = await readOutputTree(outDir);
    expect([...tree.values()].some((c) => c.includes('A conflicting write.'))).toBe(true);
    expect(tree).toEqual(await coldTree(specDir));
  }, 120_000);

  test('a connector removed from the spec takes its files away; added back, they come back as a cold run makes them', async () => {
    const { specDir, cacheDir, outDir } = await generatedOnce();
    const first = await readOutputTree(outDir);
    const serviceFile = path.join(specDir, 'service.yaml');
    const connectorFile = path.join(specDir, 'connectors', 'advertising.yaml');
    const [service, connector] = await Promise.all([readFile(serviceFile, 'utf8'), readFile(connectorFile, 'utf8')]);
    // Every mention of the connector in service.yaml goes with it (its list entry, its authentication).
    const doc = parseDocument(service);
    const connectors = doc.get('connectors') as YAMLSeq;
    connectors.items = connectors.items.filter((item) => !(isScalar(item) && item.value === 'advertising'));
    doc.deleteIn(['authentication', 'connectors', 'advertising']);
    expect(doc.toString()).not.toMatch(/\badvertising\b:|- advertising\b/);
    await writeFile(serviceFile, doc.toString());
    await rm(connectorFile);
    const removed = await generate({ specDir, outDir, cacheDir });
    expect(removed.removed).toBeGreaterThan(0);
    const without = await readOutputTree(outDir);
    expect([...without.keys()].filter((f) => f.startsWith('advertising/') || f.includes('/advertising.'))).toEqual([]);
    expect(without).toEqual(await coldTree(specDir));
    await Promise.all([writeFile(serviceFile, service), writeFile(connectorFile, connector)]);
    const entriesBefore = await entryCount(cacheDir);
    await generate({ specDir, outDir, cacheDir });
    // Its entry was kept: the connector comes back from the cache, not emitted again.
    expect(await entryCount(cacheDir)).toBe(entriesBefore);
    expect(await readOutputTree(outDir)).toEqual(first);
  }, 120_000);

  test('of the config (package naming, connectors chosen) regenerates what a cold run generates', async () => {
    const { specDir, cacheDir, outDir } = await generatedOnce();
    const config = { packages: { ...DEFAULT_PACKAGES, scope: '@acme' }, connectors: ['crm', 'payments'] };
    await generate({ specDir, outDir, cacheDir, config });
    const tree = await readOutputTree(outDir);
    expect([...tree.keys()].some((f) => f.includes('issue-tracking'))).toBe(false);
    expect(tree).toEqual(await coldTree(specDir, { config }));
  }, 120_000);
});

describe('the files that read no connector (copies of the runtime and of the MCP server)', () => {
  test('come from their entry after a connector edit; another packaging or an output without them makes them again', async () => {
    const { packagesEmitter } = await import('../generator/emitters/packages/emitter.js');
    const made = vi.spyOn(packagesEmitter.split!, 'service');
    try {
      const { specDir, cacheDir, outDir } = await generatedOnce();
      expect(made).toHaveBeenCalledTimes(1);
      const crm = path.join(specDir, 'connectors/crm.yaml');
      await writeFile(crm, (await readFile(crm, 'utf8')).replace(/^title: .*$/m, 'title: CRM (edited)'));
      await generate({ specDir, outDir, cacheDir });
      expect(made).toHaveBeenCalledTimes(1);
      // A copy gone from the output: the entry is a miss, and the copies are made again.
      await rm(path.join(outDir, 'runtime/src/client.ts'));
      await generate({ specDir, outDir, cacheDir });
      expect(made).toHaveBeenCalledTimes(2);
      expect(await readOutputTree(outDir)).toEqual(await coldTree(specDir));
      // Another packaging: the runtime's copies carry its name.
      const config = { packages: { ...DEFAULT_PACKAGES, scope: '@acme' }, connectors: ['crm', 'payments'] };
      const before = made.mock.calls.length;
      await generate({ specDir, outDir, cacheDir, config });
      expect(made.mock.calls.length).toBe(before + 1);
      const tree = await readOutputTree(outDir);
      expect(JSON.parse(tree.get('runtime/package.json')!).name).toBe('@acme/runtime');
      expect(tree).toEqual(await coldTree(specDir, { config }));
    } finally {
      made.mockRestore();
    }
  }, 120_000);
});

describe('files the output already holds', () => {
  test('are kept only under the same output style: a new prettier config formats every file again', async () => {
    const specDir = await copySpec();
    const cacheDir = await tmp('cache');
    const config = { packages: DEFAULT_PACKAGES, connectors: ['crm', 'payments'] };
    const project = await tmp('project');
    const outDir = path.join(project, 'out');
    await generate({ specDir, outDir, cacheDir, config });
    // Another style, and an edit to one connector: the other's files come from the cache, formatted anew.
    const style = JSON.stringify({ printWidth: 80, semi: false });
    await writeFile(path.join(project, '.prettierrc.json'), style);
    const connector = path.join(specDir, 'connectors/crm.yaml');
    await writeFile(connector, (await readFile(connector, 'utf8')).replace(/^title: .*$/m, 'title: CRM (edited)'));
    await generate({ specDir, outDir, cacheDir, config });
    const tree = await readOutputTree(outDir);
    expect(tree.get('payments/src/client.ts')).not.toMatch(/^import .*;$/m);
    const coldProject = await tmp('cold-project');
    await writeFile(path.join(coldProject, '.prettierrc.json'), style);
    await generate({ specDir, outDir: path.join(coldProject, 'out'), cacheDir: await tmp('cold-cache'), config });
    expect(tree).toEqual(await readOutputTree(path.join(coldProject, 'out')));
  }, 180_000);
});

describe('the parse cache', () => {
  /**
   * What reading the spec gives: its IR and warnings, or its diagnostics, with the spec directory's path written as
   * SPEC (each read below has a spec copy of its own: a process also keeps the files it read in memory, by path).
   */
  const outcome = async (specDir: string, cacheDir?: string, version = 'version-a') => {
    let result;
    try {
      const { ir, warnings } = await readSpec(specDir, undefined, cacheDir ? { dir: cacheDir, version } : undefined);
      result = { ir, warnings };
    } catch (error) {
      if (!(error instanceof SpecError)) throw error;
      result = { diagnostics: error.diagnostics };
    }
    return JSON.parse(JSON.stringify(result).replaceAll(path.dirname(specDir), 'SPEC')) as unknown;
  };

  test('gives what a fresh read gives, through edits, errors in unchanged files and fixes', async () => {
    const cacheDir = await tmp('cache');
    const [serviceText, crmText] = await Promise.all([readFile(path.join(realSpec, 'service.yaml'), 'utf8'), readFile(path.join(realSpec, 'connectors/crm.yaml'), 'utf8')]);
    const steps: [string, { service?: string; crm?: string }][] = [
      ['the first read (fills the cache)', {}],
      ['a read from the cache', {}],
      ['an edited connector', { crm: crmText.replace(/^title: .*$/m, 'title: CRM (edited)') }],
      // crm.yaml is unchanged and cached: the error located in it needs a position not asked before.
      ['a connector the service no longer lists', { service: serviceText.replace(/^  - crm\n/m, '') }],
      ['the service back', { service: serviceText }],
      ['a syntax error', { crm: `${crmText}\n  bad: [\n` }],
      ['a schema error', { crm: crmText.replace(/^title: .*$/m, 'title: [not, a, string]') }],
      ['the connector back', { crm: crmText }],
    ];
    let errors = 0;
    let current = {};
    for (const [step, edit] of steps) {
      current = { ...current, ...edit };
      const [fresh, cached] = [await copySpec(), await copySpec()];
      for (const dir of [fresh, cached]) {
        if ('service' in current) await writeFile(path.join(dir, 'service.yaml'), current.service as string);
        if ('crm' in current) await writeFile(path.join(dir, 'connectors/crm.yaml'), current.crm as string);
      }
      const expected = await outcome(fresh);
      if ('diagnostics' in (expected as object)) errors++;
      expect(await outcome(cached, cacheDir), step).toEqual(expected);
    }
    expect(errors).toBe(3);
    // An entry per clean file text seen: the 16 files, the edited connector and the service without crm.
    expect((await readdir(path.join(cacheDir, 'spec'))).length).toBe(18);
  }, 120_000);

  test('is read only by the version that wrote it', async () => {
    const cacheDir = await tmp('cache');
    const fresh = await outcome(await copySpec(), cacheDir, 'version-a');
    // Poison every entry: a read that uses them shows it.
    const dir = path.join(cacheDir, 'spec');
    for (const name of await readdir(dir)) {
      const entry = deserialize(await readFile(path.join(dir, name))) as { data: { title?: string; service?: { title: string } } };
      if (entry.data.service) entry.data.service.title = 'POISONED';
      else entry.data.title = 'POISONED';
      await writeFile(path.join(dir, name), serialize(entry));
    }
    expect(JSON.stringify(await outcome(await copySpec(), cacheDir, 'version-a'))).toContain('POISONED');
    expect(await outcome(await copySpec(), cacheDir, 'version-b')).toEqual(fresh);
  }, 120_000);
});

describe('the IR cache', () => {
  /** Every location in the IR (an object with `file` and `line`), with its line, in the order a walk meets them. */
  const lines = (value: unknown, out: string[] = []): string[] => {
    if (Array.isArray(value)) for (const v of value) lines(v, out);
    else if (value !== null && typeof value === 'object') {
      if ('file' in value && 'line' in value && Object.keys(value).length === 1) out.push(`${String(value.file)}:${String(value.line)}`);
      for (const v of Object.values(value)) lines(v, out);
    }
    return out;
  };
  const irEntries = async (cacheDir: string) => (await readdir(path.join(cacheDir, 'ir')).catch(() => [])).filter((n) => n.endsWith('.v8'));
  /** An entry's two parts (cache/ir-cache.ts): the head, then the whole entry, the head's length first. */
  const entryParts = (bytes: Buffer) => {
    const length = bytes.readUInt32LE(0);
    return { head: deserialize(bytes.subarray(4, 4 + length)) as { connector: { title: string } }, whole: deserialize(bytes.subarray(4 + length)) as { connector: { title: string; entities: { description?: string }[] } } };
  };
  const entryBytes = (head: unknown, whole: Buffer) => {
    const headBytes = serialize(head);
    const length = Buffer.alloc(4);
    length.writeUInt32LE(headBytes.length, 0);
    return Buffer.concat([length, headBytes, whole]);
  };

  test('gives the IR, warnings and lines of a fresh read: normalize and checks run for the edited connector only', async () => {
    const specDir = await copySpec();
    const cacheDir = await tmp('cache');
    // Warnings of both kinds, in one file: one from normalizing it (a download without rangeParam), one from checking it (an unused record).
    const file = path.join(specDir, 'connectors/file_storage.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace(/^ {8}rangeParam: range_header\n/m, '').replace(/^records:\n/m, 'records:\n  unused_thing:\n    description: Used by no action.\n    fields:\n      id: string\n'));
    const read = async (cache: boolean) => {
      const { ir, warnings, inputKeys } = await readSpec(specDir, undefined, cache ? { dir: cacheDir, version: 'version-a' } : undefined);
      return { ir, json: JSON.stringify(ir), lines: lines(ir), warnings, inputKeys };
    };
    const fresh = await read(false);
    expect(fresh.warnings.map((w) => w.code).sort()).toEqual(['SPEC018', 'SPEC029']);
    expect(fresh.lines.length).toBeGreaterThan(1000);
    expect((await read(true)).json).toBe(fresh.json); // fills the cache
    expect(await irEntries(cacheDir)).toHaveLength(15);
    // A connector file the IR cache knows needs no parse: without the parse cache, only service.yaml's entry is made again.
    await rm(path.join(cacheDir, 'spec'), { recursive: true });
    const cached = await read(true);
    expect(await readdir(path.join(cacheDir, 'spec'))).toHaveLength(1);
    expect(cached.json).toBe(fresh.json);
    expect(cached.warnings).toEqual(fresh.warnings);
    expect(cached.lines).toEqual(fresh.lines);
    // An auth variable is written in service.yaml, and located there (from the cache too).
    const serviceLines = (await readFile(path.join(specDir, 'service.yaml'), 'utf8')).split('\n');
    const variables = cached.ir.connectors.flatMap((c) => c.auth.variables);
    expect(variables.length).toBeGreaterThan(0);
    for (const v of variables) {
      expect(v.source.file).toBe('spec/service.yaml');
      expect(serviceLines[v.source.line - 1]).toMatch(new RegExp(`^\\s+${v.name}:`));
    }
    // An edit: that connector alone is normalized again (one new entry), and its input key alone changes.
    const crm = path.join(specDir, 'connectors/crm.yaml');
    await writeFile(crm, (await readFile(crm, 'utf8')).replace(/^title: .*$/m, 'title: CRM (edited)'));
    const edited = await read(true);
    expect(await irEntries(cacheDir)).toHaveLength(16);
    expect([...edited.inputKeys!].filter(([id, key]) => cached.inputKeys!.get(id) !== key).map(([id]) => id)).toEqual(['crm']);
    const editedFresh = await read(false);
    expect([edited.json, edited.lines, edited.warnings]).toEqual([editedFresh.json, editedFresh.lines, editedFresh.warnings]);
  }, 120_000);

  test("a one-connector edit reads the other connectors' outlines, not their nodes: checks and shared files alike", async () => {
    const specDir = await copySpec();
    const cacheDir = await tmp('cache');
    const cache = { dir: cacheDir, version: 'version-a' };
    await readSpec(specDir, undefined, cache); // fills the cache
    const crm = path.join(specDir, 'connectors/crm.yaml');
    await writeFile(crm, (await readFile(crm, 'utf8')).replace(/^title: .*$/m, 'title: CRM (edited)'));
    const { ir } = await readSpec(specDir, undefined, cache); // normalized and checked: the Limits table names several connectors
    const { ir: fresh } = await readSpec(specDir);
    /** The connectors whose nodes are loaded (a cached connector's are an accessor until read). */
    const loaded = () => ir.connectors.filter((c) => Object.getOwnPropertyDescriptor(c, 'entities')!.get === undefined).map((c) => c.id);
    expect(loaded()).toEqual(['crm']);
    // Every emitter's shared files, from the fragments a run keeps (made here from a fresh read: the same texts).
    for (const entry of emitterEntries) {
      const { split } = await entry.load({ cacheDir });
      if (!split?.shared) continue;
      const fragments = new Map(split.fragment ? fresh.connectors.map((c) => [c.id, split.fragment!(onlyConnector(fresh, c), c)]) : []);
      const files = await split.shared(ir, fragments);
      const freshFiles = await split.shared(fresh, fragments);
      expect(files).toEqual(freshFiles);
    }
    // The docs' client guide shows the first connector's methods: that one is read too.
    expect(loaded()).toEqual([...new Set([ir.connectors[0]!.id, 'crm'])]);
    // Read whole, the IR is a fresh read's.
    expect(JSON.stringify(ir)).toBe(JSON.stringify(fresh));
  }, 120_000);

  test("a drift from the Limits table is reported with the cache too: in the edited connector, or after an edit of the table", async () => {
    const specDir = await copySpec();
    const cache = { dir: await tmp('cache'), version: 'version-a' };
    await readSpec(specDir, undefined, cache); // fills the cache
    const errors = async () => {
      try {
        await readSpec(specDir, undefined, cache);
        return [];
      } catch (error) {
        if (!(error instanceof SpecError)) throw error;
        return error.diagnostics.filter((d) => d.code === 'SPEC021').map((d) => d.message);
      }
    };
    const edit = async (file: string, from: string, to: string) => {
      const text = await readFile(path.join(specDir, file), 'utf8');
      expect(text).toContain(from);
      await writeFile(path.join(specDir, file), text.replace(from, to));
    };
    // The connector edited: checked in this run.
    await edit('connectors/file_storage.yaml', 'maxBytes: 10485760', 'maxBytes: 5242880');
    expect(await errors()).toEqual(["limit 'file storage export of a workspace document': files_export download has maxBytes 5242880, expected 10485760"]);
    await edit('connectors/file_storage.yaml', 'maxBytes: 5242880', 'maxBytes: 10485760');
    expect(await errors()).toEqual([]);
    // The table edited: every connector is read again (service.yaml keys every entry), and the drift is found.
    await edit('service.yaml', 'expect: { maxBytes: 10485760 }', 'expect: { maxBytes: 1048576 }');
    expect(await errors()).toEqual(["limit 'file storage export of a workspace document': files_export download has maxBytes 10485760, expected 1048576"]);
  }, 120_000);

  test('an entry is read only under its key, and a damaged one is a miss', async () => {
    const specDir = await copySpec();
    const cacheDir = await tmp('cache');
    const read = async (version: string) => JSON.stringify((await readSpec(specDir, undefined, { dir: cacheDir, version })).ir);
    const fresh = await read('version-a');
    const dir = path.join(cacheDir, 'ir');
    const names = await irEntries(cacheDir);
    // Poisoned (well-formed): the same version shows it, another does not read it.
    for (const name of names) {
      const bytes = await readFile(path.join(dir, name));
      const { head } = entryParts(bytes);
      head.connector.title = 'POISONED';
      await writeFile(path.join(dir, name), entryBytes(head, bytes.subarray(4 + bytes.readUInt32LE(0))));
    }
    expect(await read('version-a')).toContain('"title":"POISONED"');
    expect(await read('version-b')).toBe(fresh);
    // Truncated, or not an entry: a miss, and the read is a fresh one.
    const [first, second, third] = names;
    await writeFile(path.join(dir, first!), (await readFile(path.join(dir, first!))).subarray(0, 100));
    await writeFile(path.join(dir, second!), serialize({ connector: null }));
    // A head with a damaged rest: the connector's nodes are built again from its file (its head's title stays).
    const thirdBytes = await readFile(path.join(dir, third!));
    await writeFile(path.join(dir, third!), entryBytes(entryParts(thirdBytes).head, Buffer.from('not an entry')));
    const poisonedLeft = (await read('version-a')).split('"title":"POISONED"').length - 1;
    expect(poisonedLeft).toBe(names.length - 2);
    expect(JSON.parse(await read('version-a')).connectors.map((c: { entities: unknown }) => c.entities)).toEqual(JSON.parse(fresh).connectors.map((c: { entities: unknown }) => c.entities));
  }, 120_000);
});

/**
 * Rewrites every entry of `dir` with each catalogue fragment's titles prefixed `POISONED `, the entry still well-formed
 * (lengths and hashes of the index made anew). Also checks the layout readers rely on: the pointer to the structure
 * entry and the fragments come first, and output files have no body in the entry (their content is the output's).
 */
async function poisonFragments(dir: string): Promise<void> {
  for (const name of await readdir(dir)) {
    const bytes = await readFile(path.join(dir, name));
    const end = bytes.indexOf(0x0a);
    const index = JSON.parse(bytes.toString('utf8', 0, end)) as [string, number, unknown, string][];
    expect(index.slice(0, 2).map(([rel]) => rel)).toEqual(['#structure', '#fragment/catalogue']);
    expect(index.filter(([rel, length]) => !rel.startsWith('#') && length !== 0)).toEqual([]);
    let at = end + 1;
    const poisoned = index.map(([rel, length, formatted, hash]) => {
      if (!rel.startsWith('#')) return { row: [rel, length, formatted, hash], body: '' };
      const text = bytes.toString('utf8', at, (at += length));
      const body = rel === '#fragment/catalogue' ? text.replace('"title": "', '"title": "POISONED ') : text;
      return { row: [rel, Buffer.byteLength(body), formatted, createHash('sha256').update(body).digest('hex')], body };
    });
    await writeFile(path.join(dir, name), `${JSON.stringify(poisoned.map((p) => p.row))}\n${poisoned.map((p) => p.body).join('')}`);
  }
}

describe('the cache is never trusted beyond its key', () => {
  test('a generator change (another version) does not read the entries of the old one', async () => {
    const specDir = await copySpec();
    const cacheDir = await tmp('cache');
    const outDir = path.join(await tmp('out'), 'out');
    // The stamps go first: each run then reads the cache (its entries find their files in the output, by content).
    const run = async (generatorVersion: string) => {
      await rm(path.join(cacheDir, 'stamps'), { recursive: true, force: true });
      await generate({ specDir, outDir, cacheDir, generatorVersion });
      return readOutputTree(outDir);
    };
    const cold = await run('version-a');
    // Poison every entry's fragments, keeping it well-formed (lengths and hashes made anew): a run that reads them shows it.
    await poisonFragments(path.join(cacheDir, 'connectors'));
    const sameVersion = await run('version-a');
    expect(sameVersion.get('catalogue.json'), 'the same version reads the cache').toContain('"title": "POISONED ');
    expect(await run('version-b')).toEqual(cold);
  }, 120_000);

  test("an edit makes the shared catalogue from the other connectors' fragments as cached, and only the same version reads them", async () => {
    const { specDir, cacheDir, outDir } = await generatedOnce();
    await poisonFragments(path.join(cacheDir, 'connectors'));
    const connector = path.join(specDir, 'connectors/crm.yaml');
    await writeFile(connector, (await readFile(connector, 'utf8')).replace(/^title: .*$/m, 'title: CRM (edited)'));
    await generate({ specDir, outDir, cacheDir });
    const titles = (JSON.parse(await readFile(path.join(outDir, 'catalogue.json'), 'utf8')) as { connectors: { id: string; title: string }[] }).connectors;
    expect(titles.find((c) => c.id === 'crm')!.title).toBe('CRM (edited)');
    expect(titles.filter((c) => c.title.startsWith('POISONED ')).length).toBe(titles.length - 1);
    await generate({ specDir, outDir, cacheDir, generatorVersion: 'another' });
    expect(await readOutputTree(outDir)).toEqual(await coldTree(specDir));
  }, 120_000);

  test('a spec reached by another path (as messages show it) emits only the edited connector again', async () => {
    const { specDir, cacheDir, outDir } = await generatedOnce();
    const connector = path.join(specDir, 'connectors/crm.yaml');
    await writeFile(connector, (await readFile(connector, 'utf8')).replace(/^title: .*$/m, 'title: CRM (edited)'));
    const entriesBefore = await entryCount(cacheDir);
    // As `--spec ../elsewhere/spec` would: every diagnostic names the files that way, the generated files do not.
    rememberShownPath(specDir, '../elsewhere/spec');
    try {
      await generate({ specDir, outDir, cacheDir });
    } finally {
      forgetShownPaths();
    }
    expect(await entryCount(cacheDir)).toBe(entriesBefore + 1);
    expect(await readOutputTree(outDir)).toEqual(await coldTree(specDir));
  }, 120_000);

  test('a deleted cache gives the same output, and an emptied output is written again', async () => {
    const { specDir, cacheDir, outDir } = await generatedOnce();
    const first = await readOutputTree(outDir);
    await rm(cacheDir, { recursive: true, force: true });
    const again = await generate({ specDir, outDir, cacheDir });
    expect(again.written).toBe(0);
    expect(await readOutputTree(outDir)).toEqual(first);
    // Cache kept, output removed: its entries find no files (they hold none), so every connector is emitted again.
    await rm(outDir, { recursive: true, force: true });
    const timings: Timings = [];
    await generate({ specDir, outDir, cacheDir, timings });
    expect(timings.map((t) => t.phase)).toContain('emit:clients');
    expect(await readOutputTree(outDir)).toEqual(first);
  }, 120_000);

  test('entries hold no copy of output files: a file changed in the output makes its connector a miss, emitted again', async () => {
    const { specDir, cacheDir, outDir } = await generatedOnce();
    const first = await readOutputTree(outDir);
    const entryBytes = (await Promise.all(['connectors', 'structure'].map(async (kind) => {
      const dir = path.join(cacheDir, kind);
      return (await Promise.all((await readdir(dir)).map(async (n) => (await stat(path.join(dir, n))).size))).reduce((a, b) => a + b, 0);
    }))).reduce((a, b) => a + b, 0);
    const outputBytes = [...first.values()].reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    expect(entryBytes).toBeLessThan(outputBytes / 4);
    // Another content of the same size, the stamps gone: nothing vouches for the file, and its content is not the entry's.
    const rel = 'payments/src/client.ts';
    await writeFile(path.join(outDir, rel), first.get(rel)!.replace('Generated by', 'GENERATED by'));
    await rm(path.join(cacheDir, 'stamps'), { recursive: true, force: true });
    const timings: Timings = [];
    const result = await generate({ specDir, outDir, cacheDir, timings });
    expect(result.written).toBe(1);
    expect(timings.map((t) => t.phase)).toContain('emit:clients');
    expect(await readOutputTree(outDir)).toEqual(first);
  }, 120_000);

  test('a damaged entry is a miss: truncated, padded, or a content changed behind its index', async () => {
    const { specDir, cacheDir, outDir } = await generatedOnce();
    const first = await readOutputTree(outDir);
    const dir = path.join(cacheDir, 'connectors');
    const entries = (await readdir(dir)).filter((f) => f.endsWith('.entry')).sort();
    expect(entries.length).toBeGreaterThan(2);
    const [a, b, c] = entries.map((f) => path.join(dir, f));
    const intact = await Promise.all([a!, b!, c!].map((f) => readFile(f)));
    await writeFile(a!, intact[0]!.subarray(0, -10));
    await writeFile(b!, Buffer.concat([intact[1]!, Buffer.from('padding')]));
    const bytes = Buffer.from(intact[2]!);
    bytes[bytes.length - 2]! ^= 1; // the same length: the index still fits, the fragment's hash does not
    await writeFile(c!, bytes);
    // The stamps gone, the output emptied of its docs: the run reads every entry, and must write what a cold run writes.
    await rm(path.join(cacheDir, 'stamps'), { recursive: true, force: true });
    await rm(path.join(outDir, 'docs'), { recursive: true, force: true });
    await generate({ specDir, outDir, cacheDir });
    expect(await readOutputTree(outDir)).toEqual(first);
    // Each damaged entry was a miss: its connector was emitted again, and the entry stored anew.
    expect(await Promise.all([a!, b!, c!].map((f) => readFile(f)))).toEqual(intact);
  }, 120_000);

  test('a no-op run notices an output file changed behind its back (same size, other time)', async () => {
    const { specDir, cacheDir, outDir } = await generatedOnce();
    const file = path.join(outDir, 'catalogue.json');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('Generated', 'GENERATED'));
    const result = await generate({ specDir, outDir, cacheDir, check: true });
    expect(result.outOfDate).toEqual(['catalogue.json']);
    await generate({ specDir, outDir, cacheDir });
    expect(await readFile(file, 'utf8')).toBe(text);
  }, 120_000);

  test('a run with work to do reads again the output files changed since the last run (the others it knows)', async () => {
    const { specDir, cacheDir, outDir } = await generatedOnce();
    const first = await readOutputTree(outDir);
    // Same size, another time: what the last run recorded no longer vouches for it.
    const file = path.join(outDir, 'payments/README.md');
    await writeFile(file, first.get('payments/README.md')!.replace('payments', 'PAYMENTS'));
    const connector = path.join(specDir, 'connectors/crm.yaml');
    await writeFile(connector, (await readFile(connector, 'utf8')).replace(/^title: .*$/m, 'title: CRM (edited)'));
    const checked = await generate({ specDir, outDir, cacheDir, check: true });
    expect(checked.outOfDate).toContain('payments/README.md');
    await generate({ specDir, outDir, cacheDir });
    const after = await readOutputTree(outDir);
    expect(after.get('payments/README.md')).toBe(first.get('payments/README.md'));
    expect(after).toEqual(await coldTree(specDir));
  }, 120_000);
});
