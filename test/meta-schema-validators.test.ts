/** The loader validates spec files with ajv standalone code compiled from the meta-schemas; it must match them. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from 'vitest';
import { metaSchemaValidatorsSource } from '../generator/spec/schema/build-validators.js';

test('generator/spec/schema/validators.generated.ts is what the meta-schemas compile to (npm run build:schemas)', () => {
  const committed = readFileSync(path.resolve(import.meta.dirname, '../generator/spec/schema/validators.generated.ts'), 'utf8');
  expect(committed === metaSchemaValidatorsSource(), 'out of date: run npm run build:schemas').toBe(true);
});
