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
