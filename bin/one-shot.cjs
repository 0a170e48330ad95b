// Whether a run is one-shot (generate, validate, diff, build, …) or keeps running (the mock server, the MCP server,
// `--watch`), told from its command line. One-shot runs get a V8 budget of their own (v8-tuning.cjs) and keep code
// caches (code-cache.cjs); a wrong guess changes speed only, never output.
'use strict';

/** Commands and flags that keep a process running. */
const LONG_RUNNING = new Set(['mock', 'mcp', '--watch', '-w']);

/**
 * Whether the command line `args` (process.argv without node and the script) runs a one-shot command.
 * @param {readonly string[]} [args]
 */
function isOneShot(args = process.argv.slice(2)) {
  return !args.some((arg) => LONG_RUNNING.has(arg));
}

/**
 * The V8 flags of one-shot runs (v8-tuning.cjs says why): V8's interrupt budget is 66 KB of bytecode executed (Node
 * 20), theirs is 1 MB; allocation-site pretenuring is off.
 */
const ONE_SHOT_V8_FLAGS = Object.freeze(['--interrupt-budget=1000000', '--no-allocation-site-pretenuring']);

exports.isOneShot = isOneShot;
exports.ONE_SHOT_V8_FLAGS = ONE_SHOT_V8_FLAGS;
