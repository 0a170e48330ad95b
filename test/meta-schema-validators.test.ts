/** Spec and config files are validated with ajv standalone code compiled from their JSON Schemas; it must match them. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { validatorModules } from '../generator/spec/schema/build-validators.js';

test('every *.generated.ts validator module is what its JSON Schemas compile to (npm run build:schemas)', () => {
  const modules = validatorModules();
  expect(modules.size).toBe(2);
  for (const [url, text] of modules) {
    const file = fileURLToPath(url);
    expect(readFileSync(file, 'utf8') === text, `${file} is out of date: run npm run build:schemas`).toBe(true);
  }
});
