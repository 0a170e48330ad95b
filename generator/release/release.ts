/**
 * `release`: diff the working spec against a base, bump each changed connector package by what its changes
 * ask for, prepend a changelog entry, record the new versions in the release state, and regenerate so that
 * generated/<id>/package.json and CHANGELOG.md carry them. Running it twice releases nothing new: a
 * connector whose spec fingerprint equals the one recorded at its last release is skipped.
 */
import { compareSpecs, type DiffOptions } from '../diff/compare.js';
import type { Bump } from '../diff/checks.js';
import type { Change } from '../diff/model.js';
import { largestBump, nextVersion } from '../diff/semver.js';
import { loadSide } from '../diff/sides.js';
import { changelogEntry, prependEntry } from './changelog.js';
import { connectorFingerprint } from './fingerprint.js';
import { firstEntry } from './package-release.js';
import { currentVersion, INITIAL_VERSION, readChangelog, readReleaseState, writeReleaseState } from './state.js';

/** Inputs of a release. */
export interface ReleaseOptions {
  /** Base: a git ref (or spec directory) the working spec is compared with. */
  base: string;
  /** The working spec directory. */
  specDir: string;
  /** Release state directory. */
  releaseDir: string;
  /** Plan only: write nothing. */
  dryRun?: boolean;
  /** Severity overrides and deprecation policy of the config (`diff`), so bumps agree with `diff`. */
  diff?: Pick<DiffOptions, 'severity' | 'deprecation'>;
}

/** What happens to one package. */
export interface PackageRelease {
  /** Connector id. */
  connector: string;
  /** bumped: a new version; new: a new package; removed: no longer generated; unchanged: already released. */
  status: 'bumped' | 'new' | 'removed' | 'unchanged';
  /** Bump the changes ask for. */
  bump: Bump | 'none';
  /** Version before. */
  from?: string;
  /** Version after. */
  to?: string;
  /** The changes that reach the package. */
  changes: Change[];
}

/** Plans (and unless dryRun, applies to the release state) a release; returns one entry per changed package. */
export async function release(options: ReleaseOptions): Promise<PackageRelease[]> {
  const [base, head] = await Promise.all([loadSide(options.base, options.specDir), loadSide(options.specDir, options.specDir)]);
  const state = readReleaseState(options.releaseDir);
  const changes = compareSpecs(base.ir, head.ir, { ...options.diff, versionOf: (id) => currentVersion(state, id) });
  const changelogs = new Map<string, string>();
  const plan: PackageRelease[] = [];

  for (const connector of head.ir.connectors) {
    const own = changes.filter((c) => c.affects.includes(connector.id));
    if (own.length === 0) continue;
    const bump = largestBump(own);
    const fingerprint = connectorFingerprint(head.ir, connector);
    const recorded = state.packages[connector.id];
    const from = currentVersion(state, connector.id);
    if (recorded?.fingerprint === fingerprint) {
      plan.push({ connector: connector.id, status: 'unchanged', bump, from, to: from, changes: own });
      continue;
    }
    const added = own.some((c) => c.id === 'connector-added');
    const to = added ? (recorded?.version ?? INITIAL_VERSION) : nextVersion(from, bump);
    const entries = readChangelog(options.releaseDir, connector.id);
    changelogs.set(connector.id, added ? (entries ?? firstEntry(to)) : prependEntry(entries ?? firstEntry(from), changelogEntry(to, own)));
    state.packages[connector.id] = { version: to, fingerprint };
    plan.push({ connector: connector.id, status: added ? 'new' : 'bumped', bump, ...(added ? {} : { from }), to, changes: own });
  }
  for (const change of changes.filter((c) => c.id === 'connector-removed')) {
    const id = change.connector!;
    plan.push({ connector: id, status: 'removed', bump: 'major', from: currentVersion(state, id), changes: [change] });
    delete state.packages[id];
  }

  if (!options.dryRun) writeReleaseState(options.releaseDir, state, changelogs);
  return plan.sort((a, b) => (a.connector < b.connector ? -1 : a.connector > b.connector ? 1 : 0));
}
