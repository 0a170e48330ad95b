/**
 * The checks table as a contract: every id is exercised (by a corpus case or, for the fine points of a rule
 * change, here on IR), every row says why it has its severity, the docs and both JSON Schemas list exactly its ids,
 * and the config's severity overrides are checked against it.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { loadConfig } from '../generator/config/load.js';
import { CHECKS, checksMarkdown, SEVERITY_ORDER } from '../generator/diff/checks.js';
import { compareSpecs } from '../generator/diff/compare.js';
import { RULE_KEYS, SCHEMA_RULE_KINDS } from '../generator/diff/compare-rules.js';
import { configSchemaText, outputSchemaText } from '../generator/diff/schema-ids.js';
import type { SpecIR } from '../generator/ir.js';
import { SpecError } from '../generator/spec/diagnostics.js';
import { sortElement } from '../generator/spec/normalize.js';
import { readSpec } from '../generator/spec/read.js';
import { buildSpec, loadCorpus, removeBuiltSpecs } from './fixtures/diff-corpus/harness.js';
import { loadRealCorpus } from './fixtures/diff-real-corpus/harness.js';
import { realSpecDir } from './helpers/spec-copy.js';

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
const get = (shop: Record<string, any>) => shop.entities[0].actions.find((a: { name: string }) => a.name === 'get');
const cursor = (shop: Record<string, any>) => list(shop).params.find((p: { name: string }) => p.name === 'starting_after');
const ids = (changes: { id: string; severity: string }[]) => changes.map((c) => `${c.id} ${c.severity}`);

/** Ids exercised below on IR. */
const ON_IR = new Set<string>();

describe('rules on IR: the semantics of a change, case by case', () => {
  const oneOf = { kind: 'oneOf', alternatives: [['email'], ['starting_after']] };
  const cmp = (left: string, op: string, right: string) => ({ kind: 'compare', left, op, right });
  const cases: [string, (s: Record<string, any>) => void, (s: Record<string, any>) => void, string[]][] = [
    ['param groups listed in another order', (s) => (list(s).paramGroups = [{ kind: 'oneOf', alternatives: [['a']] }, { kind: 'atLeastOne', alternatives: [['b']] }]), (s) => (list(s).paramGroups = [{ kind: 'atLeastOne', alternatives: [['b']] }, { kind: 'oneOf', alternatives: [['a']] }]), []],
    ['a param group reworded only', (s) => (list(s).paramGroups = [{ ...oneOf, description: 'a' }]), (s) => (list(s).paramGroups = [{ ...oneOf, description: 'b' }]), ['docs-changed non-breaking']],
    ['oneOf → atLeastOne over the same alternatives', (s) => (list(s).paramGroups = [oneOf]), (s) => (list(s).paramGroups = [{ ...oneOf, kind: 'atLeastOne' }]), ['param-group-loosened non-breaking']],
    ['atLeastOne → oneOf', (s) => (list(s).paramGroups = [{ ...oneOf, kind: 'atLeastOne' }]), (s) => (list(s).paramGroups = [oneOf]), ['param-group-changed breaking']],
    ['an atLeastOne group gains an alternative', (s) => (list(s).paramGroups = [{ kind: 'atLeastOne', alternatives: [['email']] }]), (s) => (list(s).paramGroups = [{ kind: 'atLeastOne', alternatives: [['email'], ['limit']] }]), ['param-group-loosened non-breaking']],
    ['an atLeastOne alternative needs one param fewer', (s) => (list(s).paramGroups = [{ kind: 'atLeastOne', alternatives: [['email', 'limit']] }]), (s) => (list(s).paramGroups = [{ kind: 'atLeastOne', alternatives: [['email']] }]), ['param-group-loosened non-breaking']],
    ['a oneOf group gains an alternative (two given can now both be complete)', (s) => (list(s).paramGroups = [oneOf]), (s) => (list(s).paramGroups = [{ kind: 'oneOf', alternatives: [['email'], ['limit'], ['starting_after']] }]), ['param-group-changed breaking']],
    ['an unrelated group replaces another', (s) => (list(s).paramGroups = [oneOf]), (s) => (list(s).paramGroups = [{ kind: 'atLeastOne', alternatives: [['limit']] }]), ['param-group-added breaking', 'param-group-removed non-breaking']],
    ['a compare invariant written the other way round', (s) => (s.records[0].invariants = [cmp('created', 'lte', 'updated')]), (s) => (s.records[0].invariants = [cmp('updated', 'gte', 'created')]), []],
    ['a compare invariant strengthened (lte → lt)', (s) => (s.records[0].invariants = [cmp('created', 'lte', 'updated')]), (s) => (s.records[0].invariants = [cmp('created', 'lt', 'updated')]), ['invariant-added non-breaking']],
    ['a compare invariant weakened (lt → lte)', (s) => (s.records[0].invariants = [cmp('created', 'lt', 'updated')]), (s) => (s.records[0].invariants = [cmp('created', 'lte', 'updated')]), ['invariant-removed breaking']],
    ['an accountOnly invariant covers one more field', (s) => (s.records[0].invariants = [{ kind: 'accountOnly', account: 'platform', fields: ['a'] }]), (s) => (s.records[0].invariants = [{ kind: 'accountOnly', account: 'platform', fields: ['a', 'b'] }]), ['invariant-added non-breaking']],
    ['an iff invariant on another condition', (s) => (s.records[0].invariants = [{ ...cmp('a', 'eq', 'b'), kind: 'iff', field: 'f' }]), (s) => (s.records[0].invariants = [{ ...cmp('a', 'lte', 'b'), kind: 'iff', field: 'f' }]), ['invariant-removed breaking']],
    ['a tie-breaker appended to the order', (s) => (list(s).ordering = [{ field: 'created', direction: 'desc' }]), (s) => (list(s).ordering = [{ field: 'created', direction: 'desc' }, { field: 'id', direction: 'asc' }]), ['ordering-refined non-breaking']],
    ['a tie-breaker dropped', (s) => (list(s).ordering = [{ field: 'created', direction: 'desc' }, { field: 'id', direction: 'asc' }]), (s) => (list(s).ordering = [{ field: 'created', direction: 'desc' }]), ['ordering-changed breaking']],
    ['the key written out as the field it was (id)', () => {}, (s) => (s.records[0].key = 'id'), ['docs-changed non-breaking']],
    ['a key param renamed with its param is the params\' change', (s) => (get(s).keyParam = 'id'), (s) => {
      get(s).keyParam = 'customer_id';
      get(s).params = get(s).params.map((p: { name: string }) => ({ ...p, name: 'customer_id' }));
    }, ['param-removed breaking', 'param-required-added breaking']],
    ['a key the walk does not know', () => {}, (s) => (list(s).somethingNew = 'x'), ['attribute-changed warning']],
    ["a param's pattern stated as the format of that pattern: no value changes", (s) => (cursor(s).pattern = '^[^A-Z\\s]*$'), (s) => (cursor(s).format = 'lowercase_name'), ['docs-changed non-breaking']],
    ["a param's format stated as its pattern", (s) => (cursor(s).format = 'lowercase_name'), (s) => (cursor(s).pattern = '^[^A-Z\\s]*$'), ['docs-changed non-breaking']],
    ['a format replacing another pattern is a format added (and the pattern dropped)', (s) => (cursor(s).pattern = '^[a-z]+$'), (s) => (cursor(s).format = 'lowercase_name'), ['param-format-added breaking', 'param-limit-loosened non-breaking']],
  ];
  test.each(cases)('%s', (_name, base, head, want) => {
    const changes = compareSpecs(edited(base), edited(head));
    expect(ids(changes).sort()).toEqual([...want].sort());
    for (const w of want) ON_IR.add(w.split(' ')[0]!);
  });

  test('every registered rule key reports check ids of the table (schema keys: the facets of each kind that carries them)', () => {
    const table = new Set(CHECKS.map((c) => c.id));
    for (const node of ['action', 'shape', 'entity', 'variable'] as const) {
      for (const ids of Object.values(RULE_KEYS[node]) as (readonly string[])[]) for (const id of ids) expect(table.has(id), id).toBe(true);
    }
    for (const [key, facets] of Object.entries(RULE_KEYS.schema)) {
      for (const kind of SCHEMA_RULE_KINDS[key as keyof typeof RULE_KEYS.schema]) for (const facet of facets) expect(table.has(`${kind}-${facet}`), `${kind}-${facet}`).toBe(true);
    }
  });

  test('no key of the real spec\'s IR falls through to attribute-changed: dropping every optional key is classified', async () => {
    const { ir } = await readSpec(realSpecDir);
    const stripped = structuredClone(ir);
    const keep = (o: Record<string, unknown>, keys: readonly string[]) => {
      for (const k of Object.keys(o)) if (!keys.includes(k)) delete o[k];
    };
    const FIELD = ['name', 'required', 'source', 'types', 'nullable', 'properties', 'items'];
    const field = (p: Record<string, any>) => {
      keep(p, FIELD);
      for (const q of p.properties ?? []) field(q);
      if (p.items) field(p.items);
    };
    for (const c of stripped.connectors as unknown as Record<string, any>[]) {
      for (const v of [...c.auth.variables, ...c.auth.fields]) field(v);
      for (const shape of [...c.records, ...c.meta]) {
        keep(shape, ['name', 'properties', 'source']);
        for (const p of shape.properties) field(p);
      }
      for (const e of c.entities) {
        keep(e, ['name', 'actions', 'searchable', 'source']);
        for (const p of e.searchable?.properties ?? []) field(p);
        for (const a of e.actions) {
          keep(a, ['name', 'kind', 'description', 'params', 'result', 'pagination', 'source']);
          for (const p of a.params) field(p);
        }
      }
    }
    const found = new Set(compareSpecs(ir, stripped).map((c) => c.id));
    expect([...found].filter((id) => id === 'attribute-changed')).toEqual([]);
    // The rules the real spec states are among what was dropped, each by its own check.
    for (const id of ['ordering-removed', 'default-filter-removed', 'param-group-removed', 'key-param-changed', 'update-semantics-changed', 'record-key-changed', 'invariant-removed', 'records-from-changed', 'auth-variable-supplied-removed', 'param-format-removed', 'response-field-format-removed', 'param-matches-removed', 'param-range-removed', 'param-bound-removed', 'response-field-derive-changed', 'searchable-field-derive-changed']) {
      expect(found.has(id), id).toBe(true);
    }
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

describe('the Limits table', () => {
  test("a row's words reach the packages of the connectors it constrains (a search row: those with search)", async () => {
    const { ir } = await readSpec(realSpecDir);
    const reworded = (where: (row: SpecIR['service']['limits'][number]) => boolean) => {
      const head = structuredClone(ir);
      const row = head.service.limits.find(where)!;
      row.limit = `${row.limit} (reworded)`;
      return compareSpecs(ir, head).map((c) => `${c.id} ${c.affects.join('+')}`);
    };
    expect(reworded((r) => r.appliesTo[0]?.startsWith('payments/') ?? false)).toEqual(['docs-changed payments']);
    const searching = ir.connectors.filter((c) => c.entities.some((e) => e.actions.some((a) => a.name === 'search'))).map((c) => c.id);
    expect(reworded((r) => r.appliesTo[0]?.startsWith('search/') ?? false)).toEqual([`docs-changed ${searching.sort().join('+')}`]);
    // Rows in another order are the same table.
    const reordered = structuredClone(ir);
    reordered.service.limits.reverse();
    expect(compareSpecs(ir, reordered)).toEqual([]);
  });
});
