/** One group of version inputs: a label, its root, and its files relative to the root. */
export interface VersionInputGroup {
  label: string;
  root: string;
  files: string[];
}
/** The release state directory in use: CONNECTOR_CODEGEN_RELEASE_DIR, else `release/` of the repository. */
export declare function releaseDirOf(repoRoot: string): string;
/** Every input of the generator version, by label. */
export declare function versionInputs(repoRoot: string, listings?: Map<string, import("node:fs").Dirent[]>): VersionInputGroup[];
/** The digest of the inputs' content (hex). */
export declare function versionDigest(inputs: VersionInputGroup[]): string;
/** Hands the version of the generator at `repoRoot` to the first run of this process. */
export declare function handOverVersion(repoRoot: string, version: string): void;
/** The version handed over for `repoRoot`, once; else undefined. */
export declare function takeHandedVersion(repoRoot: string): string | undefined;
/** The version handed over for `repoRoot`, left for the run to take; else undefined. */
export declare function peekHandedVersion(repoRoot: string): string | undefined;
