/** The loader validates spec files with ajv standalone code compiled from the meta-schemas; it must match them. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { metaSchemaValidatorsSource } from '../generator/schema/build-validators.js';

test('generator/schema/validators.ts is what the meta-schemas compile to (npm run build:schemas)', () => {
  const committed = readFileSync(path.resolve(import.meta.dirname, '../generator/schema/validators.ts'), 'utf8');
  expect(committed === metaSchemaValidatorsSource(), 'out of date: run npm run build:schemas').toBe(true);
});
