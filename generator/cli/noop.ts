/**
 * The fast answer of a `generate` (or `generate --check`) with nothing to do. The CLI's build bundles this module
 * alone (noop.mjs: one module, no code splitting), and bin/connector-codegen.js asks it before loading the CLI's main
 * module, whose loading (the command declarations, the config's validator, the generate chunks: ~20 modules) costs
 * a no-op run more than its checks do. It runs the same no-op check as generate (cache/no-op.ts) on the same config
 * and answers only "up to date", with generate's line; anything else — other arguments, a config text not known to
 * be valid (config/valid-texts.ts), leftovers of an interrupted run, work to do, any error — is left to the CLI,
 * which does it and reports as always.
 */
import { cacheDirOf } from '../cache/dir.js';
import { noopState } from '../cache/no-op.js';
import { peekGeneratorVersion } from '../cache/version.js';
import { resolveConfig, type ConfigFile } from '../config/config.js';
import { isKnownValidConfig } from '../config/valid-texts.js';
import { displayPath } from '../lib/display-path.js';
import { interruptedRunLeft } from '../write.js';
import { upToDateLine } from './messages.js';

/** A config text that passed no schema check yet: the CLI validates it (and reports its problems). */
class NotKnownValid extends Error {}

/**
 * Answers `argv` (run in `cwd`) when it is `generate` or `generate --check` and the output is up to date: prints
 * generate's line with `stdout` and returns the exit code (0). Else returns undefined, having printed nothing.
 */
export function answerNoop(argv: readonly string[], stdout: (text: string) => void, cwd: string = process.cwd()): number | undefined {
  if (argv[0] !== 'generate' || !(argv.length === 1 || (argv.length === 2 && argv[1] === '--check'))) return undefined;
  try {
    const config = resolveConfig(cwd, {}, (_file, text, data) => {
      if (!isKnownValidConfig(text)) throw new NotKnownValid();
      return data as ConfigFile;
    });
    if (interruptedRunLeft(config.outDir)) return undefined;
    const cacheDir = cacheDirOf({});
    const state = noopState({ specDir: config.specDir, outDir: config.outDir, config, generatorVersion: peekGeneratorVersion(cacheDir) }, cacheDir);
    if (!state.upToDate) return undefined;
    stdout(upToDateLine(displayPath(config.outDir), state.fileCount));
    return 0;
  } catch {
    return undefined; // the CLI does it again, and reports what went wrong
  }
}
