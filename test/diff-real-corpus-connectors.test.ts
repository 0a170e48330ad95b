/**
 * The diff corpus on the real spec, connector half (test/fixtures/diff-real-corpus/: paging, downloads, params,
 * records, structure): every edit through the CLI, its exact check ids and severities, and the exit code.
 */
import { describe } from 'vitest';
import { defineCorpusTests } from './fixtures/diff-real-corpus/run.js';

const CONNECTORS = new Set(['paging.yaml', 'downloads.yaml', 'params.yaml', 'records.yaml', 'structure.yaml']);

describe('diff corpus on the real spec: connectors', async () => {
  await defineCorpusTests((file) => CONNECTORS.has(file));
});
