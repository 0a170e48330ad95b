/** Semver bumps: the largest one a connector's changes ask for, and the version it leads to. */
import type { Bump } from './checks.js';
import { countBySeverity, type Change, type ConnectorVerdict } from './model.js';

const RANK: Record<Bump | 'none', number> = { none: 0, patch: 1, minor: 2, major: 3 };

/** The largest bump among `changes` ('none' when there are none). */
export function largestBump(changes: readonly Change[]): Bump | 'none' {
  let bump: Bump | 'none' = 'none';
  for (const c of changes) if (RANK[c.bump] > RANK[bump]) bump = c.bump;
  return bump;
}

/** Compares two MAJOR.MINOR.PATCH versions: negative, zero or positive. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) => v.split('.').map((n) => Number(n));
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/**
 * The version after `bump`. Below 1.0.0 the minor plays the major's role and the patch the minor's
 * (0.3.1 + major → 0.4.0, + minor → 0.3.2), as npm's caret ranges read 0.x versions.
 */
export function nextVersion(version: string, bump: Bump | 'none'): string {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(version);
  if (!match) throw new Error(`version '${version}' is not MAJOR.MINOR.PATCH`);
  const [major, minor, patch] = match.slice(1).map(Number) as [number, number, number];
  if (bump === 'none') return version;
  const effective: Bump = major > 0 ? bump : bump === 'major' ? 'minor' : 'patch';
  if (effective === 'major') return `${major + 1}.0.0`;
  if (effective === 'minor') return `${major}.${minor + 1}.0`;
  return `${major}.${minor}.${patch + 1}`;
}

/**
 * One verdict per connector touched by `changes`, sorted by id. `versionOf` gives a connector's current
 * version (from the release state); a removed connector has no next version, an added one starts at its
 * current (initial) version. `packageOf` names its npm package.
 */
export function verdicts(changes: readonly Change[], versionOf: (connector: string) => string, packageOf: (connector: string) => string): ConnectorVerdict[] {
  const ids = [...new Set(changes.flatMap((c) => c.affects))].sort();
  return ids.map((connector) => {
    const own = changes.filter((c) => c.affects.includes(connector));
    const bump = largestBump(own);
    const current = versionOf(connector);
    const added = own.some((c) => c.id === 'connector-added');
    const removed = own.some((c) => c.id === 'connector-removed');
    const version = added ? { to: current } : removed ? { from: current } : { from: current, to: nextVersion(current, bump) };
    return { connector, package: packageOf(connector), bump, version, counts: countBySeverity(own) };
  });
}
