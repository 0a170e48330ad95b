#!/usr/bin/env node
// Runs the CLI from a build of itself (bin/cli-build.cjs: rebuilt when the sources change), else from source via tsx.
// CommonJS (bin/package.json), as is everything a start loads before the build's scripts: an ES module entry costs
// each run Node's ES module loader and, for every built-in module it imports, that module's whole namespace (node:fs
// brings in fs/promises and the streams) — ~7 ms of CPU, a quarter of what a no-op `generate` costs beyond bare Node.
'use strict';
const { runCli } = require('./cli-build.cjs'); // it sets the V8 flags of a run with work to do (v8-tuning.cjs)

// A reader that goes away (`connector-codegen describe --json | head`) ends the run quietly, as in other CLI tools,
// whether the run writes through a descriptor or a stream (generator/lib/fd-output.cjs).
require('../generator/lib/fd-output.cjs').endQuietlyWhenReaderGoes();

runCli(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
