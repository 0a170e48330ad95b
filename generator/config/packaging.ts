/**
 * Applies the config's package settings to the IR: each connector's npm name and version, the runtime's, and
 * the metadata every package.json carries. Emitters read only the IR, so a changed scope reaches every
 * package, import, README and doc through here.
 */
import type { ConnectorIR, PackagingIR, SpecIR } from '../ir.js';
import { firstEntry, runtimeVersion } from '../release/package-release.js';
import { currentVersion, readChangelog, readReleaseState, releaseDir as defaultReleaseDir } from '../release/state.js';
import { connectorPackageName, runtimePackageName, type ResolvedPackages } from './config.js';

/** The IR as normalize builds it, before packaging is applied. */
export type UnpackagedIR = Omit<SpecIR, 'packaging' | 'connectors'> & { connectors: Omit<ConnectorIR, 'package'>[] };

/**
 * The IR with package names, versions, changelogs and metadata; `connectors` keeps only the selected ones when given.
 * Versions and changelogs come from the release state in `releaseDir` (the project's: config.ts ResolvedConfig).
 */
export function applyPackaging(ir: UnpackagedIR, packages: ResolvedPackages, selected?: readonly string[], releaseDir: string = defaultReleaseDir()): SpecIR {
  const keep = selected ? new Set(selected) : undefined;
  const packaging: PackagingIR = {
    scope: packages.scope,
    runtime: { name: runtimePackageName(packages), version: runtimeVersion() },
    license: packages.license,
    ...(packages.author !== undefined ? { author: packages.author } : {}),
    ...(packages.homepage !== undefined ? { homepage: packages.homepage } : {}),
    ...(packages.repository !== undefined ? { repository: packages.repository } : {}),
    ...(packages.registry !== undefined ? { registry: packages.registry } : {}),
    ...(packages.access !== undefined ? { access: packages.access } : {}),
  };
  // Connectors keep their identity (diagnostics find IR nodes by object): the package is set in place.
  const release = readReleaseState(releaseDir); // read at every run, so `release` can regenerate in-process right after it updates it
  for (const c of ir.connectors) {
    const version = currentVersion(release, c.id);
    (c as ConnectorIR).package = { name: connectorPackageName(packages, c.id), version, changelog: readChangelog(releaseDir, c.id) ?? firstEntry(version) };
  }
  const connectors = (ir.connectors as ConnectorIR[]).filter((c) => !keep || keep.has(c.id));
  return { ...ir, connectors, packaging };
}
