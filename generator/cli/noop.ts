/**
 * The fast answer of a `generate` with nothing to do. The CLI's build bundles this module alone (noop.cjs, run with its
 * code cache), and bin/cli-build.cjs runCli asks it before loading the CLI, whose loading (the command declarations,
 * the config's validator, generate) costs a no-op run more than its checks do. It runs the same no-op check as generate (cache/no-op.ts) on the same config
 * and answers only "up to date", with generate's line; anything else — other arguments, a config text not known to
 * be valid (config/valid-texts.ts), leftovers of an interrupted run, work to do, any error — is left to the CLI,
 * which does it and reports as always.
 */
import { cacheDirOf } from '../cache/dir.js';
import { noopState } from '../cache/no-op.js';
import { peekGeneratorVersion } from '../cache/version.js';
import { resolveConfig, type ConfigFile, type ConfigOverrides } from '../config/config.js';
import { isKnownValidConfig } from '../config/valid-texts.js';
import { displayPath } from '../lib/display-path.js';
import { interruptedRunLeft } from '../write.js';
import { upToDateLine } from './messages.js';

/** A config text that passed no schema check yet: the CLI validates it (and reports its problems). */
class NotKnownValid extends Error {}

/** Options of `generate` the fast answer takes (what the config is resolved with); the CLI parses any other. */
const PATH_OPTIONS = ['config', 'spec', 'out'] as const;

/**
 * The overrides of a `generate` command line in the plain forms the fast answer takes: `generate`, then `--check`
 * and `--config`, `--spec`, `--out` with a value (`--out DIR`, `--out=DIR`), each at most once. Undefined for anything
 * else (other options, repeats, `--`, values that look like options): the CLI's parser (args.ts) judges those.
 */
export function noopOverrides(argv: readonly string[]): ConfigOverrides | undefined {
  if (argv[0] !== 'generate') return undefined;
  const overrides: ConfigOverrides = {};
  let check = false;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--check' && !check) {
      check = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = PATH_OPTIONS.find((n) => (eq < 0 ? arg : arg.slice(0, eq)) === `--${n}`);
    const value = eq < 0 ? argv[++i] : arg.slice(eq + 1);
    if (!name || overrides[name] !== undefined || !value || (eq < 0 && value.startsWith('-'))) return undefined;
    overrides[name] = value;
  }
  return overrides;
}

/**
 * Answers `argv` (run in `cwd`) when it is a `generate` the fast answer takes (noopOverrides) and the output is up to
 * date: prints generate's line with `stdout` and returns the exit code (0). Else returns undefined, having printed
 * nothing.
 */
export function answerNoop(argv: readonly string[], stdout: (text: string) => void, cwd: string = process.cwd()): number | undefined {
  const overrides = noopOverrides(argv);
  if (!overrides) return undefined;
  try {
    const config = resolveConfig(cwd, overrides, (_file, text, data) => {
      if (!isKnownValidConfig(text)) throw new NotKnownValid();
      return data as ConfigFile;
    });
    if (interruptedRunLeft(config.outDir)) return undefined;
    const cacheDir = cacheDirOf({});
    const state = noopState({ specDir: config.specDir, outDir: config.outDir, config, generatorVersion: peekGeneratorVersion(cacheDir) }, cacheDir, true);
    if (!state.upToDate) return undefined;
    stdout(upToDateLine(displayPath(config.outDir), state.fileCount));
    return 0;
  } catch {
    return undefined; // the CLI does it again, and reports what went wrong
  }
}
