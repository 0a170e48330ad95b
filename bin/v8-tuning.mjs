// V8 settings for the CLI's one-shot commands (generate, validate, diff, build, …), set before anything else loads.
//
// V8 recompiles a function with its optimizing compiler (TurboFan, on background threads) once the function has run
// "enough" (the interrupt budget). A `generate` run lasts one to a few seconds and runs most of its code a few
// times only: on 2 cores that background compilation was about a quarter of the run's CPU (~0.7 s of ~3 s) and
// competed with the run's own threads. A budget 15× V8's default lets only the code that stays hot be optimised:
// `npm run bench` measures cold generate, the one-connector edit and the 8× spec with it.
// Long-running commands (the mock server, the MCP server, `--watch`) keep V8's defaults: for them optimised code pays
// back. The check is a plain look at the arguments; a wrong guess changes speed only, never output.
import v8 from 'node:v8';
import { isOneShot } from './one-shot.mjs';

/** V8's interrupt budget is 66 KB of bytecode executed (Node 20); this is the budget for one-shot commands. */
const ONE_SHOT_INTERRUPT_BUDGET = 1_000_000;

if (isOneShot()) v8.setFlagsFromString(`--interrupt-budget=${ONE_SHOT_INTERRUPT_BUDGET}`);
