/**
 * Mutation fuzzing of the spec front end and of generation (seeded, bounded): 1,000 mutants of two base specs (the
 * mini spec, and the real service with two real connectors), each with 1–3 edits (helpers/spec-mutants.ts). For every
 * mutant, reading the spec either succeeds — and then `generate` (every emitter, in this thread) must succeed too —
 * or fails with located diagnostics only: a known code, a position inside the file it names, a message. Anything
 * else (a TypeError, a crash, a generate failure for a spec that validates, generated TypeScript that does not parse)
 * fails the test with the mutant's edits.
 * A sample also runs through the real CLI: exit 0 or 1, never a stack trace. FUZZ_SEED and FUZZ_COUNT override.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as prettier from 'prettier';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { loadEmitters } from '../generator/emitters/index.js';
import { validatorsEmitterInThread } from '../generator/emitters/validators/index.js';
import { generate } from '../generator/generate.js';
import { DIAGNOSTIC_CODES, SpecError, type Diagnostic } from '../generator/spec/diagnostics.js';
import { readSpec } from '../generator/spec/read.js';
import { GENERATED_STYLE } from '../generator/format/style.js';
import { miniServiceYaml, SHOP_YAML } from './helpers/mini-spec.js';
import { runCli } from './helpers/run-cli.js';
import { mutants, trimmedServiceYaml, type Mutant, type SpecFiles } from './helpers/spec-mutants.js';
import { realSpecDir } from './helpers/spec-copy.js';

const SEED = Number(process.env.FUZZ_SEED ?? 13);
const COUNT = Number(process.env.FUZZ_COUNT ?? 1000);
/** A mutant that takes longer than this is reported as a near-hang. */
const SLOW_MS = 10_000;

async function bases(): Promise<[string, SpecFiles][]> {
  const real = ['issue_tracking', 'file_storage'];
  const service = await readFile(path.join(realSpecDir, 'service.yaml'), 'utf8');
  return [
    ['mini', new Map([['service.yaml', Buffer.from(await miniServiceYaml())], ['connectors/shop.yaml', Buffer.from(SHOP_YAML)]])],
    [
      'real',
      new Map([
        ['service.yaml', Buffer.from(trimmedServiceYaml(service, real))],
        ...(await Promise.all(real.map(async (id): Promise<[string, Buffer]> => [`connectors/${id}.yaml`, await readFile(path.join(realSpecDir, `connectors/${id}.yaml`))]))),
      ]),
    ],
  ];
}

/** Writes a mutant's files into `root/spec/` (emptied first: one path for all, so unchanged files hit the parse cache). */
async function writeMutant(root: string, mutant: Mutant): Promise<string> {
  const dir = path.join(root, 'spec');
  await rm(dir, { recursive: true, force: true });
  await mkdir(path.join(dir, 'connectors'), { recursive: true });
  for (const [file, bytes] of mutant.files) await writeFile(path.join(dir, file), bytes);
  return dir;
}

/** What is wrong with a diagnostic as a located report, or undefined. */
function badLocation(d: Diagnostic, dir: string, mutant: Mutant): string | undefined {
  const rel = path.relative(dir, path.resolve(d.file)).split(path.sep).join('/');
  const bytes = mutant.files.get(rel);
  if (!bytes) return `names a file that is not a spec file: ${d.file}`;
  if (!(d.code in DIAGNOSTIC_CODES)) return `unknown code ${d.code}`;
  const lines = bytes.toString('utf8').split('\n');
  if (!Number.isInteger(d.line) || d.line < 1 || d.line > lines.length + 1) return `line ${d.line} outside the file (${lines.length} lines)`;
  if (!Number.isInteger(d.col) || d.col < 1 || d.col > (lines[d.line - 1]?.length ?? 0) + 2) return `column ${d.col} outside line ${d.line}`;
  if (!d.message || /\[object Object\]|\bundefined\b|\bNaN\b/.test(d.message)) return `message '${d.message}'`;
  return undefined;
}

/** Valid mutants whose generated TypeScript is also checked with prettier. */
const PRETTIER_SAMPLE = 25;

/** Generated TypeScript (of the emitters that print it themselves) that prettier would change. */
async function unformatted(out: string): Promise<string[]> {
  const bad: string[] = [];
  for (const entry of await readdir(out, { recursive: true })) {
    const file = String(entry).split(path.sep).join('/');
    if (!/^([^/]+\/src\/(client|types|params|index|validators)|contract-tests\/[^/]+)\.ts$/.test(file) || file.startsWith('runtime/')) continue;
    const text = await readFile(path.join(out, file), 'utf8');
    if (!(await prettier.check(text, { parser: 'typescript', ...GENERATED_STYLE }))) bad.push(file);
  }
  return bad;
}

/** Syntax errors in the generated TypeScript of the connector packages (parsed, not type-checked: that is fast). */
async function syntaxErrors(out: string): Promise<string[]> {
  const problems: string[] = [];
  for (const entry of await readdir(out, { recursive: true })) {
    const file = String(entry);
    if (!/^[^/]+\/src\/(client|types|params|index)\.ts$/.test(file.split(path.sep).join('/'))) continue;
    const source = ts.createSourceFile(file, await readFile(path.join(out, file), 'utf8'), ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
    for (const d of (source as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics) {
      problems.push(`${file}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`);
    }
  }
  return problems;
}

describe('mutation fuzzing', () => {
  test(`${COUNT} seeded mutants: valid ones generate, invalid ones get located diagnostics, nothing crashes`, async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'codegen-fuzz-'));
    const emitters = (await loadEmitters()).map((e) => (e.name === 'validators' ? validatorsEmitterInThread : e));
    const failures: string[] = [];
    const counts = { valid: 0, invalid: 0 };
    const codes = new Set<string>();
    const started = performance.now();
    let generating = 0;
    for (const [name, base] of await bases()) {
      for (const mutant of mutants(base, SEED, COUNT / 2)) {
        const t0 = performance.now();
        const dir = await writeMutant(root, mutant);
        const label = `${name} #${mutant.index}: ${mutant.edits.join('; ')}`;
        try {
          await readSpec(dir);
          counts.valid++;
          const g0 = performance.now();
          const out = path.join(root, 'out');
          const generated = await generate({ specDir: dir, outDir: out, emitters }).then(
            () => true,
            (error: Error) => failures.push(`${label}\n  validates but generate fails: ${error.stack}`) && false,
          );
          if (generated) for (const problem of await syntaxErrors(out)) failures.push(`${label}\n  generated code does not parse: ${problem}`);
          // Formatting holds for hostile text too (checked on a sample: prettier is slow).
          if (generated && counts.valid <= PRETTIER_SAMPLE) for (const file of await unformatted(out)) failures.push(`${label}\n  not formatted as prettier formats it: ${file}`);
          generating += performance.now() - g0;
        } catch (error) {
          if (!(error instanceof SpecError)) failures.push(`${label}\n  ${(error as Error).stack}`);
          else {
            counts.invalid++;
            for (const d of error.diagnostics) {
              codes.add(d.code);
              const problem = badLocation(d, dir, mutant);
              if (problem) failures.push(`${label}\n  ${d.file}:${d.line}:${d.col} ${d.code}: ${problem}`);
            }
          }
        }
        const ms = performance.now() - t0;
        if (ms > SLOW_MS) failures.push(`${label}\n  took ${ms.toFixed(0)} ms`);
        await rm(path.join(root, 'out'), { recursive: true, force: true });
      }
    }
    await rm(root, { recursive: true, force: true });
    console.log(`spec fuzz: ${counts.valid} valid (generated), ${counts.invalid} invalid, ${codes.size} diagnostic codes seen, ${((performance.now() - started) / 1000).toFixed(1)} s (generating ${(generating / 1000).toFixed(1)} s)`);
    expect(failures.slice(0, 20)).toEqual([]);
    // The corpus reaches both outcomes and many diagnostic classes (else the mutations are too weak to mean much).
    expect(counts.valid).toBeGreaterThan(COUNT / 20);
    expect(codes.size).toBeGreaterThan(15);
  }, 600_000);

  test('through the real CLI: exit 0, or exit 1 with located diagnostics, never a stack trace', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'codegen-fuzz-cli-'));
    const base = (await bases())[0]![1];
    for (const mutant of mutants(base, SEED + 1, 6)) {
      const dir = await writeMutant(root, mutant);
      for (const args of [['validate'], ['generate', '--out', path.join(root, 'out')]]) {
        const r = await runCli([...args, '--spec', dir]);
        expect([0, 1], mutant.edits.join('; ')).toContain(r.code);
        expect(r.stderr).not.toMatch(/\n\s+at |internal error|TypeError/);
        if (r.code === 1) expect(r.stderr).toMatch(/^\S+\.yaml:\d+:\d+ error [A-Z]+\d+ /m);
      }
    }
    await rm(root, { recursive: true, force: true });
  }, 120_000);
});
