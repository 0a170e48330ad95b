/**
 * The checks table as a contract: every id is exercised (by a corpus case or, for rule data the spec cannot carry
 * yet, here on IR), every row says why it has its severity, the docs and both JSON Schemas list exactly its ids,
 * and the config's severity overrides are checked against it.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../generator/config/config.js';
import { CHECKS, checksMarkdown, SEVERITY_ORDER } from '../generator/diff/checks.js';
import { compareSpecs } from '../generator/diff/compare.js';
import { RULE_KEYS } from '../generator/diff/compare-rules.js';
import { configSchemaText, outputSchemaText } from '../generator/diff/schema-ids.js';
import type { SpecIR } from '../generator/ir.js';
import { SpecError } from '../generator/spec/diagnostics.js';
import { sortElement } from '../generator/spec/normalize.js';
import { readSpec } from '../generator/spec/read.js';
import { buildSpec, loadCorpus, removeBuiltSpecs } from './fixtures/diff-corpus/harness.js';
import { loadRealCorpus } from './fixtures/diff-real-corpus/harness.js';

const repo = path.resolve(import.meta.dirname, '..');
afterAll(removeBuiltSpecs);

const mini: SpecIR = (await readSpec(await buildSpec([]))).ir;

/** A copy of the mini spec's IR with `edit` applied to its shop connector (IR keys the spec cannot write yet). */
function edited(edit: (shop: Record<string, any>) => void): SpecIR {
  const ir = structuredClone(mini);
  edit(ir.connectors[0] as unknown as Record<string, any>);
  return ir;
}
const list = (shop: Record<string, any>) => shop.entities[0].actions.find((a: { name: string }) => a.name === 'list');
const ids = (changes: { id: string; severity: string }[]) => changes.map((c) => `${c.id} ${c.severity}`);

/** Ids exercised below on IR: rule data of issue 11 and keys the walk does not know. */
const ON_IR = new Set<string>();

describe('rule data (issue 11 keys, compared generically)', () => {
  const cases: [string, (s: Record<string, any>) => void, (s: Record<string, any>) => void, string[]][] = [
    ['a default order stated', () => {}, (s) => (list(s).ordering = [{ field: 'created', direction: 'desc' }]), ['ordering-added non-breaking']],
    ['a default order reversed', (s) => (list(s).ordering = [{ field: 'created', direction: 'desc' }]), (s) => (list(s).ordering = [{ field: 'created', direction: 'asc' }]), ['ordering-changed breaking']],
    ['a default order no longer stated', (s) => (list(s).ordering = [{ field: 'created', direction: 'desc' }]), () => {}, ['ordering-changed breaking']],
    ['a default filter added', () => {}, (s) => (list(s).defaultFilter = { field: 'status', exclude: ['canceled'] }), ['default-filter-changed breaking']],
    ['a default filter reworded only', (s) => (list(s).defaultFilter = { field: 'status', exclude: ['canceled'], description: 'a' }), (s) => (list(s).defaultFilter = { field: 'status', exclude: ['canceled'], description: 'b' }), ['docs-changed non-breaking']],
    ['a param group added', () => {}, (s) => (list(s).paramGroups = [{ kind: 'oneOf', alternatives: [['email'], ['starting_after']] }]), ['param-group-added breaking']],
    ['a param group removed', (s) => (list(s).paramGroups = [{ kind: 'oneOf', alternatives: [['email'], ['starting_after']] }]), () => {}, ['param-group-removed non-breaking']],
    ['param groups listed in another order', (s) => (list(s).paramGroups = [{ kind: 'oneOf', alternatives: [['a']] }, { kind: 'atLeastOne', alternatives: [['b']] }]), (s) => (list(s).paramGroups = [{ kind: 'atLeastOne', alternatives: [['b']] }, { kind: 'oneOf', alternatives: [['a']] }]), []],
    ['an invariant added', () => {}, (s) => (s.records[0].invariants = [{ kind: 'compare', left: 'created', op: 'lte', right: 'updated' }]), ['invariant-added non-breaking']],
    ['an invariant removed', (s) => (s.records[0].invariants = [{ kind: 'compare', left: 'created', op: 'lte', right: 'updated' }]), () => {}, ['invariant-removed breaking']],
    ['a key the walk does not know', () => {}, (s) => (list(s).somethingNew = 'x'), ['attribute-changed warning']],
  ];
  test.each(cases)('%s', (_name, base, head, want) => {
    const changes = compareSpecs(edited(base), edited(head));
    expect(ids(changes)).toEqual(want);
    for (const w of want) ON_IR.add(w.split(' ')[0]!);
  });

  test('every registered rule key has its check ids in the table', () => {
    const table = new Set(CHECKS.map((c) => c.id));
    for (const rule of Object.values(RULE_KEYS).flat()) for (const id of Object.values(rule.ids)) expect(table.has(id), id).toBe(true);
  });
});

describe('the table', () => {
  test('every check id is exercised by a corpus case (mini spec or real spec through the CLI) or on IR above', async () => {
    const covered = new Set([
      ...(await loadCorpus()).flatMap((c) => c.expect.map((e) => e.id)),
      ...(await loadRealCorpus()).flatMap((c) => c.expect.map((e) => e.split(' ')[0]!)),
      ...ON_IR,
    ]);
    expect(CHECKS.map((c) => c.id).filter((id) => !covered.has(id))).toEqual([]);
  });

  test('every expected severity of both corpora is the table\'s (or the case\'s configured one)', async () => {
    const table = new Map(CHECKS.map((c) => [c.id, c.severity]));
    for (const c of await loadCorpus()) for (const e of c.expect) expect(`${e.id} ${e.severity}`).toBe(`${e.id} ${table.get(e.id)}`);
    for (const c of await loadRealCorpus()) {
      const overrides = (c.config?.['severity'] ?? {}) as Record<string, string>;
      for (const e of c.expect) {
        const [id, severity] = e.split(' ');
        expect(`${c.name}: ${id} ${severity}`).toBe(`${c.name}: ${id} ${overrides[id!] ?? table.get(id!)}`);
      }
    }
  });

  test('ids are unique and kebab-case; every row says why; every warning says why it is not breaking', () => {
    const all = CHECKS.map((c) => c.id);
    expect(new Set(all).size).toBe(all.length);
    for (const c of CHECKS) {
      expect(c.id).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(SEVERITY_ORDER).toContain(c.severity);
      expect(c.why.length, c.id).toBeGreaterThan(15);
      expect(c.summary.length, c.id).toBeGreaterThan(15);
    }
  });

  test('CHECKS.md is the table rendered, and starts with the rule', async () => {
    const docs = await readFile(path.join(repo, 'generator/diff/CHECKS.md'), 'utf8');
    expect(docs).toBe(checksMarkdown());
    expect(docs).toContain('## The rule\n\nA change is **breaking** when a client generated from the base spec, unchanged, stops compiling or behaves differently against a service that follows the head spec.');
  });

  test('the output schema and the config schema list exactly the check ids (npm run build:schemas writes them)', async () => {
    expect(await readFile(path.join(repo, 'generator/diff/diff-output.schema.json'), 'utf8')).toBe(outputSchemaText());
    expect(await readFile(path.join(repo, 'generator/config/config.schema.json'), 'utf8')).toBe(configSchemaText());
    const output = JSON.parse(outputSchemaText());
    expect(output.properties.changes.items.properties.id.enum).toEqual(CHECKS.map((c) => c.id));
    const config = JSON.parse(configSchemaText());
    expect(config.properties.diff.properties.severity.propertyNames.enum).toEqual(CHECKS.map((c) => c.id));
  });
});

describe('config', () => {
  async function configWith(diff: unknown): Promise<string> {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'codegen-diffconfig-'));
    await writeFile(path.join(dir, 'connector-codegen.config.json'), `{\n  "diff": ${JSON.stringify(diff)}\n}\n`);
    return dir;
  }

  test('diff.severity and diff.deprecation are read; the defaults are no overrides and released', async () => {
    const config = loadConfig(await configWith({ severity: { 'param-default-changed': 'warning' }, deprecation: 'any' }));
    expect(config.diff).toEqual({ severity: { 'param-default-changed': 'warning' }, deprecation: 'any' });
    expect(loadConfig(await configWith({})).diff).toEqual({ severity: {}, deprecation: 'released' });
  });

  test('an unknown check id or severity is a located config error', async () => {
    const dir = await configWith({ severity: { 'param-defualt-changed': 'warning', 'docs-changed': 'fatal' } });
    let error: unknown;
    try {
      loadConfig(dir);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SpecError);
    const messages = (error as SpecError).diagnostics.map((d) => `${d.code} ${d.message}`);
    expect(messages).toContain("CFG002 unknown check id 'param-defualt-changed' in diff.severity (connector-codegen diff --list-checks lists them)");
    expect(messages.some((m) => m.startsWith('CFG003 diff.severity.docs-changed must be one of breaking, warning, non-breaking'))).toBe(true);
  });
});

describe('normalized facts', () => {
  test('the sort element: whitespace never counts; key and directions when it has the { "<key>": "a" | "b" } form', () => {
    expect(sortElement('{ "<searchable field>": "asc" | "desc" }')).toEqual({ text: '{"<searchablefield>":"asc"|"desc"}', key: '<searchablefield>', directions: ['asc', 'desc'] });
    expect(sortElement('{"<searchable field>":"desc"|"asc"}')).toEqual(sortElement('{ "<searchable field>": "asc" | "desc" }'));
    expect(sortElement('[field, direction]')).toEqual({ text: '[field,direction]' });
  });

  test('the error body sketch is typed fields: message, errors[] with field, message, error_code', () => {
    const errors = mini.service.errors.fields;
    expect(errors.map((f) => `${f.name}:${f.types.join('|')}`)).toEqual(['errors:array', 'message:string']);
    expect(errors[0]!.items?.properties?.map((p) => p.name)).toEqual(['error_code', 'field', 'message']);
  });
});
