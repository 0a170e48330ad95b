// A worker thread's entry that runs a CommonJS script of the CLI build (workerData.script) with its code cache
// (code-cache.cjs). The script calls globalThis.connectorCodegenJobDone(kind) after each job it answers; the first job
// of each kind adds what it compiled to the cache. The worker gets the run's command line (Worker option `argv`), so
// it knows a one-shot run from a long-running one as the main thread does.
'use strict';
const { workerData } = require('node:worker_threads');
const { runScript, saveCodeCache } = require('./code-cache.cjs');

globalThis.connectorCodegenJobDone = saveCodeCache;
runScript(workerData.script);
