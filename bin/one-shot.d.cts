/** Whether the command line `args` (process.argv without node and the script) runs a one-shot command. */
export function isOneShot(args?: readonly string[]): boolean;
/** The V8 flags of one-shot runs (v8-tuning.cjs says why). */
export const ONE_SHOT_V8_FLAGS: readonly string[];
