// V8 settings for the CLI's one-shot commands (generate, validate, diff, build, …), set before anything else loads.
//
// V8 recompiles a function with its optimizing compiler (TurboFan, on background threads) once the function has run
// "enough" (the interrupt budget). A `generate` run lasts one to a few seconds and runs most of its code a few
// times only: on 2 cores that background compilation was about a quarter of the run's CPU (~0.7 s of ~3 s) and
// competed with the run's own threads. A budget 15× V8's default lets only the code that stays hot be optimised:
// `npm run bench` measures cold generate, the one-connector edit and the 8× spec with it.
// Allocation-site pretenuring is off for them too: V8 marks sites whose objects survived a scavenge or two to
// allocate straight into the old generation, but a run's emitters make each connector's texts and documents, which live
// for that connector only — so they died there, grew the old generation (~90 MB at 8× the spec) and cost mark-compacts.
// Without it they die young: about 5–10% less CPU at 8× the spec, the same at 1× and for a one-connector edit (blocks of
// runs, each block's flags with their own code cache: V8 refuses a code cache made under other flags).
// The young generation's size is not set here: V8 sizes its heap as it starts, so `npm run generate` passes it on
// Node's command line (package.json; README "Benchmarks").
// Long-running commands (the mock server, the MCP server, `--watch`) keep V8's defaults: for them optimised code pays
// back. The check is a plain look at the arguments; a wrong guess changes speed only, never output.
//
// They are set once the run is known to have work (tuneV8, from cli-build.cjs runCli), not as the process starts: a
// `generate` with nothing to do never loads node:v8, which brings in Node's whole streams library (~20 modules: ~3 ms to
// load, measured in-process; a no-op run 4–9 ms less CPU in interleaved runs). The few small scripts that run before (this bin, the no-op check)
// run under V8's defaults; a code cache is made under the flags its script was compiled with (code-cache.cjs).
'use strict';
const { isOneShot, ONE_SHOT_V8_FLAGS } = require('./one-shot.cjs');

let tuned = false;

/** Sets the V8 flags of a one-shot run (once; a long-running command keeps V8's defaults). */
function tuneV8() {
  if (tuned || !isOneShot()) return;
  tuned = true;
  const v8 = require('node:v8');
  for (const flag of ONE_SHOT_V8_FLAGS) v8.setFlagsFromString(flag);
}

/** Whether this thread has set the flags: code compiled since then was compiled under them. */
function v8Tuned() {
  return tuned;
}

exports.tuneV8 = tuneV8;
exports.v8Tuned = v8Tuned;
