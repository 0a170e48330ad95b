/** writeSyntheticSpec: a spec of `factor` × the connectors that validates as the real one does (bench input). */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from 'vitest';
import { writeSyntheticSpec } from '../generator/lib/synthetic-spec.js';
import { readSpec } from '../generator/spec/read.js';

const realSpec = path.resolve(import.meta.dirname, '../spec');

test('a 3× spec has every connector three times, under new ids, and validates', async () => {
  const dest = path.join(await mkdtemp(path.join(os.tmpdir(), 'codegen-synthetic-')), 'spec');
  const { connectors } = await writeSyntheticSpec(realSpec, dest, 3);
  const real = (await readSpec(realSpec)).ir.connectors.map((c) => c.id);
  expect(connectors).toHaveLength(real.length * 3);
  expect(connectors).toContain(`${real[0]}_x3`);
  const { ir } = await readSpec(dest);
  expect(ir.connectors.map((c) => c.id).sort()).toEqual(connectors);
}, 60_000);

test('a factor that is not a positive integer is refused', async () => {
  await expect(writeSyntheticSpec(realSpec, os.tmpdir(), 0)).rejects.toThrow('factor must be an integer');
});
