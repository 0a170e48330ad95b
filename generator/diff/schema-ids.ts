/**
 * The check ids in the two JSON Schemas that enumerate them: the diff output's `changes[].id` and the config's
 * `diff.severity` keys (so editors complete and check them). `npm run build:schemas` writes both from the checks
 * table; a test keeps the committed files equal to what this returns.
 */
import { readFileSync } from 'node:fs';
import { CHECKS } from './checks.js';

/** generator/diff/diff-output.schema.json. */
export const OUTPUT_SCHEMA_URL = new URL('./diff-output.schema.json', import.meta.url);
/** generator/config/config.schema.json. */
export const CONFIG_SCHEMA_URL = new URL('../config/config.schema.json', import.meta.url);

/** The output schema's text with the id enum of the checks table. */
export function outputSchemaText(): string {
  const schema = JSON.parse(readFileSync(OUTPUT_SCHEMA_URL, 'utf8')) as { properties: { changes: { items: { properties: { id: { enum: string[] } } } } } };
  schema.properties.changes.items.properties.id.enum = CHECKS.map((c) => c.id);
  return `${JSON.stringify(schema, null, 2)}\n`;
}

/** The config schema's text (hand-formatted: only the enum block of `diff.severity` is rewritten). */
export function configSchemaText(): string {
  const text = readFileSync(CONFIG_SCHEMA_URL, 'utf8');
  const block = /("severity": \{[\s\S]*?\n(\s*)"propertyNames": )\{[\s\S]*?\]\s*\}/;
  const match = block.exec(text);
  if (!match) throw new Error('config.schema.json: diff.severity.propertyNames not found');
  const indent = match[2]!;
  const ids = CHECKS.map((c) => `${indent}    ${JSON.stringify(c.id)}`).join(',\n');
  return text.replace(block, `$1{\n${indent}  "enum": [\n${ids}\n${indent}  ]\n${indent}}`);
}
