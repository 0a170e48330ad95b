/**
 * The diff as JSON, described by the published JSON Schema generator/diff/diff-output.schema.json (its $id is
 * the output's `$schema`). Keys sorted at every level; arrays in the diff's sort order.
 */
import { stableJson } from '../lib/stable-json.js';
import { totals } from './format-text.js';
import type { DiffResult } from './model.js';

/** $id of the published schema of this output. */
export const DIFF_OUTPUT_SCHEMA_ID = 'https://connector-codegen.dev/schema/diff-output.schema.json';
/** Version of the output format; raised on any incompatible change to it. */
export const DIFF_OUTPUT_VERSION = 2;

/** The diff as a JSON document. */
export function diffJson(result: DiffResult): object {
  const counts = totals(result);
  return {
    $schema: DIFF_OUTPUT_SCHEMA_ID,
    formatVersion: DIFF_OUTPUT_VERSION,
    base: result.base,
    head: result.head,
    summary: { changes: result.changes.length, ...counts },
    connectors: result.connectors,
    ...(result.overrides ? { overrides: result.overrides } : {}),
    changes: result.changes,
  };
}

/** The diff as JSON text. */
export function formatJson(result: DiffResult): string {
  return stableJson(diffJson(result));
}
