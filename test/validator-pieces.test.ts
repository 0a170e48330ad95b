/**
 * Validators are compiled once per distinct schema into pieces (generator/emitters/validators/piece.mjs), cached by
 * schema, and joined into each package's file under names of the file's own (assemble.ts). The joined code must
 * validate as ajv's own does, whatever compiled which piece, and the cache must give what compiling gives.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv } from 'ajv';
import { afterAll, describe, expect, test } from 'vitest';
import { assemblePieces } from '../generator/emitters/validators/assemble.js';
import { compilePieces } from '../generator/emitters/validators/compile.mjs';
import { topLevelStatements, type Piece } from '../generator/emitters/validators/piece.mjs';
import { compileInThread, compileNearby, IN_THREAD_MAX_SCHEMAS, PieceSource } from '../generator/emitters/validators/pieces.js';
import { workerThreads } from '../generator/lib/worker-threads.js';

const dirs: string[] = [];
const tmp = async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'validator-pieces-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

/** Property names that read like ajv's own top-level names: they must stay as they are. */
const record = {
  type: 'object',
  properties: { schema1: { type: 'string', maxLength: 5 }, validate0: { type: 'integer' }, pattern0: { type: 'string', pattern: '^[a-z]{3}$' } },
  required: ['schema1'],
  additionalProperties: true,
};
/** The same pattern as the record (declared once per file) and one of its own; ucs2length again. */
const params = {
  type: 'object',
  properties: { currency: { type: 'string', pattern: '^[a-z]{3}$' }, id: { type: 'string', pattern: '^[0-9]+$', maxLength: 10 }, note: { type: 'string', minLength: 2 } },
  additionalProperties: false,
};
/** No pattern, no length: a piece with nothing to share. */
const plain = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false };

const inputs: unknown[] = [
  {},
  { schema1: 'abc' },
  { schema1: 'abcdef', validate0: 1.5, pattern0: 'ABC' },
  { schema1: '😀😀😀😀😀', pattern0: 'abc', extra: 1 },
  { currency: 'usd', id: '123', note: 'hi' },
  { currency: 'USD', id: '12345678901', note: 'x', other: true },
  { ok: 'yes', more: 1 },
  null,
  [],
  'text',
];

let loaded = 0;
/** Imports the joined code as a module (written to a file, as a package ships it). */
async function load(code: string): Promise<Record<string, (data: unknown) => boolean>> {
  const file = path.join(await tmp(), `validators-${loaded++}.mjs`);
  await writeFile(file, code);
  return (await import(pathToFileURL(file).href)) as Record<string, (data: unknown) => boolean>;
}

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

describe('joining pieces into one file', () => {
  const exports: [string, object][] = [
    ['params_search', plain],
    ['params_items_list', params],
    ['record_item', record],
  ];
  const pieces = compilePieces(exports.map(([, s]) => s));
  const code = assemblePieces(
    exports.map(([name], i) => [name, pieces[i]!] as const),
    'test',
  );

  test('every top-level name is declared once; shared values (a pattern, a helper) once per file', () => {
    const declared = [...code.matchAll(/^\/\/ prettier-ignore\n(?:const|function) ([\w$]+)/gm)].map((m) => m[1]);
    expect(declared.length).toBeGreaterThan(6);
    expect(new Set(declared).size).toBe(declared.length);
    expect(code.split('new RegExp("^[a-z]{3}$", "u")').length - 1).toBe(1);
    expect(code.split('new RegExp("^[0-9]+$", "u")').length - 1).toBe(1);
    expect(code.split('function ucs2length(').length - 1).toBe(1);
    expect(code.split('= ucs2length;').length - 1).toBe(1);
    // Numbered by first appearance in the file, without gaps.
    expect(declared.filter((n) => n!.startsWith('validate'))).toEqual(['validate0', 'validate1', 'validate2']);
    expect(declared.filter((n) => n!.startsWith('pattern'))).toEqual(['pattern0', 'pattern1']);
  });

  test('property names and strings that read like top-level names are kept', () => {
    // record_item's function is validate2; its property validate0 is still read as data.validate0.
    expect(code).toContain('export const record_item = validate2;');
    expect(code).toMatch(/data\.validate0\b/);
    expect(code).toMatch(/data\.schema1\b/);
    expect(code).toContain('"schema1"');
    expect(code).toContain('missingProperty: "schema1"');
  });

  test('each statement is marked for prettier, and nothing else is there', () => {
    const statements = topLevelStatements(code.replace(/^\/\/ prettier-ignore$/gm, ''))!;
    expect(code.split('// prettier-ignore\n').length - 1).toBe(statements.length);
  });

  test('the joined validators give the errors ajv gives (instancePath, schemaPath, keyword, params, message)', async () => {
    const module = await load(code);
    const ajv = new Ajv({ allErrors: true, strict: false });
    for (const [name, schema] of exports) {
      const ours = module[name] as Validate;
      const theirs = ajv.compile(schema);
      for (const data of inputs) {
        expect(ours(data), `${name} ${JSON.stringify(data)}`).toBe(theirs(data));
        expect(ours.errors ?? null, `${name} ${JSON.stringify(data)}`).toEqual(theirs.errors ?? null);
      }
    }
  });

  test('a piece does not depend on what was compiled with it, nor a file on other files', () => {
    const alone = compilePieces([record])[0]!;
    expect(alone).toEqual(pieces[2]);
    expect(compilePieces([params, plain, record])[2]).toEqual(alone);
    const once = assemblePieces([['record_item', alone]], 'a');
    const again = assemblePieces([['record_item', compilePieces([plain, record])[1]!]], 'b');
    expect(again).toBe(once);
    expect(once).toContain('export const record_item = validate0;');
  });

  test('code ajv does not write is refused rather than renamed wrongly', () => {
    expect(topLevelStatements('const a = `x`;')).toBeUndefined();
    expect(topLevelStatements('const a = 1; // note')).toBeUndefined();
    expect(topLevelStatements('const a = "unterminated;')).toBeUndefined();
    expect(topLevelStatements('function f(){ return "}"; }\nconst b = f();')).toEqual(['function f(){ return "}"; }', 'const b = f();']);
  });
});

describe('the piece cache', () => {
  /** A source on `dir` whose compiler counts the schemas it compiles. */
  function counted(dir: string | undefined) {
    const compiled: string[] = [];
    const source = new PieceSource(dir, async (schemas) => {
      compiled.push(...schemas);
      return compileInThread(schemas);
    });
    return { source, compiled };
  }
  const json = [JSON.stringify(record), JSON.stringify(params), JSON.stringify(plain)];
  const joined = (pieces: Piece[]) => assemblePieces(pieces.map((p, i) => [`v${i}`, p] as const), 'cache test');

  test('each distinct schema is compiled once, however often it is asked for at once', async () => {
    const { source, compiled } = counted(await tmp());
    await Promise.all([...json, ...json, json[0]!].map((j) => source.piece(j)));
    expect(compiled.sort()).toEqual([...json].sort());
    await source.stored(); // before afterAll removes the directory
  });

  test('a hit gives what compiling gave; no compiler runs when every schema is cached', async () => {
    const dir = await tmp();
    const first = counted(dir);
    const cold = await Promise.all(json.map((j) => first.source.piece(j)));
    await first.source.stored();
    expect(first.compiled).toHaveLength(3);
    // One batch, one pack file (a file per piece cost more to create than the pieces cost to compile).
    expect((await readdir(path.join(dir, 'validators'))).filter((n) => n.endsWith('.pack'))).toHaveLength(1);
    // Another process: nothing in memory, everything on disk.
    const second = counted(dir);
    const warm = await Promise.all(json.map((j) => second.source.piece(j)));
    expect(second.compiled).toEqual([]);
    expect(warm).toEqual(cold);
    expect(joined(warm)).toBe(joined(cold));
  });

  test('a changed schema misses; the others still hit', async () => {
    const dir = await tmp();
    const first = counted(dir);
    await Promise.all(json.map((j) => first.source.piece(j)));
    await first.source.stored();
    const changed = JSON.stringify({ ...plain, required: [] });
    const next = counted(dir);
    await Promise.all([...json, changed].map((j) => next.source.piece(j)));
    expect(next.compiled).toEqual([changed]);
    await next.source.stored();
  });

  test('a deleted or damaged cache is compiled again, to the same pieces', async () => {
    const dir = await tmp();
    const first = counted(dir);
    const cold = await Promise.all(json.map((j) => first.source.piece(j)));
    await first.source.stored();
    const [pack] = (await readdir(path.join(dir, 'validators'))).filter((n) => n.endsWith('.pack'));
    const file = path.join(dir, 'validators', pack!);
    // One entry damaged in place (same length): that one misses, the others still hit.
    const text = await readFile(file, 'utf8');
    const second = text.indexOf('{"key":', text.indexOf('{"key":') + 1);
    await writeFile(file, `${text.slice(0, second)}X${text.slice(second + 1)}`);
    const oneDamaged = counted(dir);
    expect(await Promise.all(json.map((j) => oneDamaged.source.piece(j)))).toEqual(cold);
    expect(oneDamaged.compiled).toHaveLength(1);
    await oneDamaged.source.stored();
    // Every pack's index damaged or truncated: everything misses, compiled to the same pieces.
    for (const name of (await readdir(path.join(dir, 'validators'))).filter((n) => n.endsWith('.pack'))) {
      const full = path.join(dir, 'validators', name);
      await writeFile(full, (await readFile(full, 'utf8')).slice(0, 40));
    }
    const damaged = counted(dir);
    expect(await Promise.all(json.map((j) => damaged.source.piece(j)))).toEqual(cold);
    expect(damaged.compiled).toHaveLength(3);
    await damaged.source.stored();
    await rm(dir, { recursive: true, force: true });
    const deleted = counted(dir);
    expect(await Promise.all(json.map((j) => deleted.source.piece(j)))).toEqual(cold);
    expect(deleted.compiled).toHaveLength(3);
    await deleted.source.stored();
  });
});

describe('where schemas compile without an emitter host', () => {
  test('a few (a structural edit) compile in this thread, with no worker started; a large batch goes to a worker', async () => {
    const threads = workerThreads();
    const { Worker } = threads;
    let started = 0;
    threads.Worker = class extends Worker {
      constructor(...args: ConstructorParameters<typeof Worker>) {
        super(...args);
        started++;
      }
    };
    try {
      const few = [record, params].map((s) => JSON.stringify(s));
      expect(await compileNearby(few)).toEqual(await compileInThread(few));
      expect(started).toBe(0);
      // Distinct schemas, one more than this thread takes: compiled elsewhere, to what this thread would give.
      const many = Array.from({ length: IN_THREAD_MAX_SCHEMAS + 1 }, (_, i) => JSON.stringify({ ...plain, title: `schema ${i}` }));
      expect(await compileNearby(many)).toEqual(await compileInThread(many));
      expect(started).toBe(1);
    } finally {
      threads.Worker = Worker;
    }
  });
});
