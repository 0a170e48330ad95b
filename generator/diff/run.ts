/** `diff` as one call: load both sides, compare, and give each touched connector its bump and next version. */
import { connectorPackageName, DEFAULT_PACKAGES, type ResolvedPackages } from '../config/config.js';
import { currentVersion, readReleaseState, releaseDir } from '../release/state.js';
import { compareSpecs } from './compare.js';
import type { DiffResult } from './model.js';
import { verdicts } from './semver.js';
import { loadSide } from './sides.js';

/** Inputs of a diff. */
export interface DiffOptions {
  /** Base side: a spec directory or a git ref. */
  base: string;
  /** Head side: a spec directory or a git ref (default: `specDir`, the working tree). */
  head?: string;
  /** The working spec directory; refs are resolved in the git repository that holds it. */
  specDir: string;
  /** Release state directory giving current versions (default: release/). */
  releaseDir?: string;
  /** Package naming (the config's `packages`; default: the built-in naming). */
  packages?: ResolvedPackages;
}

/** Runs the diff. */
export async function runDiff(options: DiffOptions): Promise<DiffResult> {
  const [base, head] = await Promise.all([loadSide(options.base, options.specDir), loadSide(options.head ?? options.specDir, options.specDir)]);
  const changes = compareSpecs(base.ir, head.ir);
  const state = readReleaseState(options.releaseDir ?? releaseDir());
  return { base: base.label, head: options.head ?? 'the working tree', changes, connectors: verdicts(changes, (id) => currentVersion(state, id), (id) => connectorPackageName(options.packages ?? DEFAULT_PACKAGES, id)) };
}
