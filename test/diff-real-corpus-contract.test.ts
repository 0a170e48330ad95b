/**
 * The diff corpus on the real spec, common contract half (test/fixtures/diff-real-corpus/: transport, search,
 * errors): every edit through the CLI, its exact check ids and severities, and the exit code of --fail-on.
 */
import { describe } from 'vitest';
import { defineCorpusTests } from './fixtures/diff-real-corpus/run.js';

const CONTRACT = new Set(['transport.yaml', 'search.yaml', 'errors.yaml']);

describe('diff corpus on the real spec: the common contract', async () => {
  await defineCorpusTests((file) => CONTRACT.has(file));
});
