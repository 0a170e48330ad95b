/** `diff` as one call: load both sides, compare, and give each touched connector its bump and next version. */
import { connectorPackageName, DEFAULT_PACKAGES, type ResolvedPackages } from '../config/config.js';
import { currentVersion, readReleaseState, releaseDir } from '../release/state.js';
import type { Severity } from './checks.js';
import { compareSpecs } from './compare.js';
import type { DiffResult } from './model.js';
import { verdicts } from './semver.js';
import { loadSides } from './sides.js';
import { loadYaml } from '../spec/yaml-source.js';
import type { DeprecationPolicy } from './sink.js';

/** Inputs of a diff. */
export interface DiffRunOptions {
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
  /** Severity overrides per check id (the config's `diff.severity`). */
  severity?: Record<string, Severity>;
  /** Removals of deprecated items (the config's `diff.deprecation`; default released). */
  deprecation?: DeprecationPolicy;
}

/** Runs the diff. Throws SideUsageError or InvalidSidesError (sides.ts) for sides that cannot be compared. */
export async function runDiff(options: DiffRunOptions): Promise<DiffResult> {
  const [base, head] = await loadSides(options.base, options.head ?? options.specDir, options.specDir);
  await loadYaml(); // every change reported is located (SourceLocation.line, found in the YAML on first read)
  const state = readReleaseState(options.releaseDir ?? releaseDir());
  const versionOf = (id: string) => currentVersion(state, id);
  const severity = options.severity ?? {};
  const changes = compareSpecs(base.ir, head.ir, { severity, versionOf, ...(options.deprecation ? { deprecation: options.deprecation } : {}) });
  const applied = Object.entries(severity)
    .filter(([id]) => changes.some((c) => c.id === id && c.defaultSeverity !== undefined))
    .sort(([a], [b]) => (a < b ? -1 : 1));
  return {
    base: base.label,
    head: options.head ?? 'the working tree',
    changes,
    connectors: verdicts(changes, versionOf, (id) => connectorPackageName(options.packages ?? DEFAULT_PACKAGES, id)),
    ...(applied.length ? { overrides: Object.fromEntries(applied) } : {}),
  };
}
