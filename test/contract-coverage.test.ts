/** The generated contract tests cover every entity–action pair of the spec, each with at least one test. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import type { Catalogue } from '../generator/emitters/catalogue/describe.js';

const root = path.resolve(import.meta.dirname, '..');
const catalogue: Catalogue = JSON.parse(readFileSync(path.join(root, 'generated/catalogue.json'), 'utf8'));

test('all 346 entity–action pairs have a contract test block with a test that calls the pair and expects success', () => {
  const missing: string[] = [];
  let pairs = 0;
  for (const c of catalogue.connectors) {
    const text = readFileSync(path.join(root, 'generated/contract-tests', `${c.id}.test.ts`), 'utf8');
    const blocks = new Map([...text.matchAll(/^describe\('([a-z0-9_]+) ([a-z_]+)', \(\) => \{([\s\S]*?)^\}\);/gm)].map((m) => [`${m[1]} ${m[2]}`, m[3]!]));
    for (const e of c.entities) {
      for (const a of e.actions) {
        pairs++;
        const block = blocks.get(`${e.name} ${a.name}`);
        // Besides "invalid params are rejected", a test that calls the method and expects an answer (no rejection).
        const succeeding = [...(block ?? '').matchAll(/\n  test\('([^']*)'/g)].map((m) => m[1]!).filter((name) => !/^invalid params/.test(name));
        if (!block || succeeding.length === 0) missing.push(`${c.id} ${e.name} ${a.name}`);
      }
    }
  }
  expect(missing).toEqual([]);
  expect(pairs).toBe(346);
});

test('every rule of the spec has a contract test that checks it against the mock', () => {
  const missing: string[] = [];
  let rules = 0;
  for (const c of catalogue.connectors) {
    const text = readFileSync(path.join(root, 'generated/contract-tests', `${c.id}.test.ts`), 'utf8');
    const blocks = new Map([...text.matchAll(/^describe\('([a-z0-9_]+) ([a-z_]+)', \(\) => \{([\s\S]*?)^\}\);/gm)].map((m) => [`${m[1]} ${m[2]}`, m[3]!]));
    const expectTest = (pair: string, pattern: RegExp, what: string) => {
      rules++;
      if (!pattern.test(blocks.get(pair) ?? '')) missing.push(`${c.id} ${pair}: ${what}`);
    };
    for (const e of c.entities) {
      for (const a of e.actions) {
        const pair = `${e.name} ${a.name}`;
        if (a.ordering) expectTest(pair, /test\('results come in the default order/, 'ordering');
        if (a.defaultFilter) expectTest(pair, /test\('the default filter leaves out/, 'defaultFilter');
        for (const [i] of (a.paramGroups ?? []).entries()) expectTest(pair, new RegExp(`test\\('param group ${i + 1} `), 'paramGroups');
        if (a.updateSemantics === 'partial') expectTest(pair, /what it does not name keeps its value/, 'updateSemantics');
        for (const field of a.alternateKeys ?? []) expectTest(pair, new RegExp(`test\\('${a.keyParam} also finds the record by its ${field}'`), 'alternateKeys');
        if (a.name !== 'list' && a.name !== 'api_search') continue;
        for (const p of a.params) {
          if (p.matches) expectTest(pair, new RegExp(`test\\('${p.name.replace('.', '\\.')} matches `), `matches of ${p.name}`);
          if (p.rangeOf) expectTest(pair, new RegExp(`test\\('${p.name.replace('.', '\\.')} bounds `), `bounds of ${p.name}`);
        }
        const shape = a.result;
        if (a.name === 'list' && 'invariants' in shape && (shape.invariants as unknown[] | undefined)?.length) expectTest(pair, /test\('every record holds its invariants/, 'invariants');
      }
    }
  }
  expect(missing).toEqual([]);
  expect(rules).toBeGreaterThan(20);
});
