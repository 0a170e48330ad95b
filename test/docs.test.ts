/**
 * The generated Markdown reference, checked against the spec: every entity–action pair and every record field
 * is named, every silence of the contract is said, the index counts what the spec has, every relative link
 * resolves (in the repository and inside each published package), and the READMEs keep a short quickstart.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { PropertyIR, SpecIR } from '../generator/ir.js';
import { readSpec } from '../generator/spec/read.js';
import { anchors, codeBlocks, firstColumn, generatedDir, links, markdownFiles, sections } from './helpers/generated-markdown.js';

let ir: SpecIR;
let md: Map<string, string>;
beforeAll(async () => {
  ir = (await readSpec(path.resolve(import.meta.dirname, '../spec'))).ir;
  md = markdownFiles();
});

/** The two copies of a connector's reference: the docs tree and the package. */
const pagesOf = (id: string) => [`docs/connectors/${id}.md`, `${id}/REFERENCE.md`];

/** Field paths as the reference names them: `a`, `a.b` (object fields), `a[].b` (fields of array elements). */
function fieldPaths(props: PropertyIR[], prefix = ''): string[] {
  return props.flatMap((p) => [
    `${prefix}${p.name}`,
    ...(p.properties ? fieldPaths(p.properties, `${prefix}${p.name}.`) : []),
    ...(p.items?.properties ? fieldPaths(p.items.properties, `${prefix}${p.name}[].`) : []),
  ]);
}

describe('the reference names everything the spec has', () => {
  test('every one of the entity–action pairs has its section, and nothing else does', () => {
    let total = 0;
    for (const c of ir.connectors) {
      const expected = c.entities.flatMap((e) => e.actions.map((a) => `${e.name} ${a.name}`)).sort();
      total += expected.length;
      for (const page of pagesOf(c.id)) {
        const named = [...md.get(page)!.matchAll(/^#### `([^`]+)` · `([^`]+)`$/gm)].map((m) => `${m[1]} ${m[2]}`).sort();
        expect(named, page).toEqual(expected);
      }
    }
    expect(total).toBe(346);
  });

  test('every record field (nested fields by path) is a row of its record table', () => {
    let total = 0;
    for (const c of ir.connectors) {
      for (const page of pagesOf(c.id)) {
        const records = sections(md.get(page)!, /^### Record `([^`]+)`$/);
        expect([...records.keys()].sort(), page).toEqual(c.records.map((r) => r.name).sort());
        for (const r of c.records) {
          expect(firstColumn(records.get(r.name)!), `${page} record ${r.name}`).toEqual(fieldPaths(r.properties));
        }
      }
      total += c.records.reduce((n, r) => n + r.properties.length, 0);
    }
    expect(total).toBeGreaterThan(1000);
  });

  test('every param, meta key and searchable field is a table row of its section', () => {
    for (const c of ir.connectors) {
      const page = md.get(`docs/connectors/${c.id}.md`)!;
      const actions = sections(page, /^#### (`[^`]+` · `[^`]+`)$/);
      const entities = sections(page, /^### `([^`]+)`$/);
      const metas = sections(page, /^#### Meta `([^`]+)`$/);
      for (const e of c.entities) {
        for (const a of e.actions) {
          const section = actions.get(`\`${e.name}\` · \`${a.name}\``)!;
          expect(firstColumn(section), `${c.id} ${e.name} ${a.name}`).toEqual(fieldPaths(a.params));
        }
        // The entity's own text, before its first action section: its searchable fields table.
        const own = entities.get(e.name)!.split(/^#### /m)[0]!;
        expect(firstColumn(own), `${c.id} ${e.name} searchable fields`).toEqual((e.searchable?.properties ?? []).map((p) => p.name));
      }
      for (const m of c.meta) expect(firstColumn(metas.get(m.name)!), `${c.id} meta ${m.name}`).toEqual(fieldPaths(m.properties));
    }
  });

  test('wherever the seeds are silent the page says "not specified by the contract" with their words', () => {
    for (const c of ir.connectors) {
      const page = md.get(`docs/connectors/${c.id}.md`)!;
      const actions = sections(page, /^#### (`[^`]+` · `[^`]+`)$/);
      const records = sections(page, /^### Record `([^`]+)`$/);
      const silent = (text: string, words: string, where: string) => {
        expect(text, where).toMatch(/not specified by the contract/i);
        expect(text.replace(/\\\|/g, '|'), where).toContain(words);
      };
      for (const r of c.records) if (r.unspecified) silent(records.get(r.name)!, r.unspecified, `${c.id} record ${r.name}`);
      for (const e of c.entities) {
        for (const a of e.actions) if (a.paramsUnspecified) silent(actions.get(`\`${e.name}\` · \`${a.name}\``)!, a.paramsUnspecified, `${c.id} ${e.name} ${a.name} params`);
        if (e.searchable?.unspecified) silent(sections(page, /^### `([^`]+)`$/).get(e.name)!, e.searchable.unspecified, `${c.id} ${e.name} searchable fields`);
      }
      if (c.auth.unspecified) silent(sections(page, /^## (Authentication)$/).get('Authentication')!, c.auth.unspecified, `${c.id} auth`);
    }
  });

  test('the common contract lists every assumption, limit row, operator, status and endpoint', () => {
    const service = md.get('docs/service.md')!;
    const assumptions = sections(service, /^## (Assumptions)$/).get('Assumptions')!;
    expect(firstColumn(assumptions)).toEqual(ir.service.assumptions.map((a) => a.id));
    const limits = sections(service, /^## (Limits)$/).get('Limits')!;
    expect(limits.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| where'))).toHaveLength(ir.service.limits.length);
    const operators = sections(service, /^### (Operators)$/).get('Operators')!;
    expect(firstColumn(operators).sort()).toEqual(ir.service.search.operators.map((o) => o.name).sort());
    const errors = sections(service, /^## (Errors)$/).get('Errors')!;
    // The statuses table (the section's other tables list the SDK's error classes and fields).
    expect(firstColumn(errors).filter((c) => /^[1-5](\d\d|xx)$/.test(c)).sort()).toEqual(Object.keys(ir.service.errors.statuses).sort());
    for (const e of [ir.service.execute, ir.service.createSource]) expect(service).toContain(`### \`${e.method}\` \`${e.path}\``);
    expect(service).toContain(`under \`${ir.service.envelope.records}\``);
    expect(service).toContain(`under \`${ir.service.envelope.meta}\``);
  });

  test('the index counts each connector\'s entities, actions and writable entities', () => {
    const index = md.get('docs/README.md')!;
    for (const c of ir.connectors) {
      const row = index.split('\n').find((l) => l.startsWith(`| [${c.title}](connectors/${c.id}.md) |`));
      const cells = row!.split(' | ');
      const actions = c.entities.flatMap((e) => e.actions);
      expect(cells.slice(3, 7).map(Number), c.id).toEqual([c.entities.length, actions.length, actions.filter((a) => a.kind === 'write').length, c.entities.filter((e) => e.actions.some((a) => a.kind === 'write')).length]);
    }
    expect(index).toMatch(/\| \*\*total\*\* \(15\) \|\s+\|\s+\| \d+ \| 346 \|/);
  });
});

describe('links', () => {
  test('every relative link in the generated Markdown resolves, anchors included', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const [rel, text] of md) {
      for (const { target, line } of links(text)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        checked++;
        const [file, fragment] = target.split('#') as [string, string | undefined];
        const resolved = file ? path.posix.normalize(path.posix.join(path.posix.dirname(rel), file)) : rel;
        if (resolved.startsWith('../')) problems.push(`${rel}:${line}: ${target} leaves generated/`);
        else if (!existsSync(path.join(generatedDir, resolved))) problems.push(`${rel}:${line}: ${target} → ${resolved} does not exist`);
        else if (fragment !== undefined) {
          const target = md.get(resolved);
          if (!target || !anchors(target).has(fragment)) problems.push(`${rel}:${line}: no anchor #${fragment} in ${resolved}`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(5000);
  });

  test('inside each package, the Markdown links only to files the package publishes', () => {
    for (const c of ir.connectors) {
      const pkg = JSON.parse(readFileSync(path.join(generatedDir, c.id, 'package.json'), 'utf8')) as { files: string[] };
      for (const name of ['README.md', 'REFERENCE.md']) {
        expect(pkg.files, `${c.id} publishes ${name}`).toContain(name);
        for (const { target, line } of links(md.get(`${c.id}/${name}`)!)) {
          const file = target.split('#')[0]!;
          if (file) expect(pkg.files, `${c.id}/${name}:${line} links to ${target}`).toContain(file);
        }
      }
    }
  });
});

describe('package READMEs', () => {
  test('install, a quickstart of at most 15 lines (client, list iterator, search, errors), a link to the reference', () => {
    for (const c of ir.connectors) {
      const readme = md.get(`${c.id}/README.md`)!;
      expect(readme).toContain('npm install @connector-sdk/');
      const [quickstart] = codeBlocks(readme, 'ts');
      const lines = quickstart!.code.trimEnd().split('\n');
      expect(lines.length, c.id).toBeLessThanOrEqual(15);
      expect(quickstart!.code).toMatch(/new \w+Client\(/);
      expect(quickstart!.code).toMatch(/for await \(const \w+ of \w+\.\w+\.(list|apiSearch)\(/);
      if (c.entities.some((e) => e.actions.some((a) => a.name === 'search'))) expect(quickstart!.code).toMatch(/\.search\(\{ query:/);
      expect(quickstart!.code).toContain('instanceof ApiError');
      expect(readme).toContain('](REFERENCE.md)');
    }
  });
});
