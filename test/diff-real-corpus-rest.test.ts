/**
 * The diff corpus on the real spec, the rest (test/fixtures/diff-real-corpus/: formatting-only rewrites, safe
 * edits, deprecations and severity overrides): each through the CLI, its exact check ids and severities.
 */
import { describe } from 'vitest';
import { defineCorpusTests } from './fixtures/diff-real-corpus/run.js';

const REST = new Set(['formatting.yaml', 'safe.yaml', 'deprecation.yaml']);

describe('diff corpus on the real spec: formatting, safe edits, deprecations, overrides', async () => {
  await defineCorpusTests((file) => REST.has(file));
});
