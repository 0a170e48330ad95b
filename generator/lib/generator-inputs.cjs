// What the generator version (cache/version.ts) is a digest of: everything besides the spec and the config that
// shapes the output — the generator's sources, templates, the runtime (copied into the output), the release state
// (versions and changelogs), the MCP server's sources, and the versions of the packages that print the output.
// Plain JavaScript: the CLI build (bin/cli-build.cjs) takes the version with its own check of the sources, before
// any TypeScript loads, and hands it to the run (handOverVersion); the same definitions serve both.
'use strict';
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { filesUnder, statLines } = require('./file-stats.cjs');

/** Packages whose version changes generated output. */
const OUTPUT_DEPENDENCIES = ['ajv', 'handlebars', 'prettier', 'yaml'];
/** Directories below an input root that hold installed or built files, not inputs. */
const NOT_INPUTS = new Set(['node_modules', 'dist']);

/**
 * The release state directory in use: CONNECTOR_CODEGEN_RELEASE_DIR, else `release/` of the repository.
 * @param {string} repoRoot
 * @returns {string}
 */
function releaseDirOf(repoRoot) {
  const override = process.env.CONNECTOR_CODEGEN_RELEASE_DIR;
  return override ? path.resolve(override) : path.join(repoRoot, 'release');
}

/**
 * Every input of the version: groups of files by label (the label and relative path are hashed, so a move changes
 * the digest).
 * @param {string} repoRoot
 * @param {Map<string, import('node:fs').Dirent[]>} [listings] Directory listings shared with other walks (file-stats.cjs).
 * @returns {{ label: string, root: string, files: string[] }[]}
 */
function versionInputs(repoRoot, listings) {
  const roots = [
    ['generator', path.join(repoRoot, 'generator')],
    ['templates', path.join(repoRoot, 'templates')],
    ['runtime', path.join(repoRoot, 'runtime')],
    ['release', releaseDirOf(repoRoot)],
    // The MCP server's sources (copied into <output>/mcp/).
    ['mcp', path.join(repoRoot, 'mcp')],
  ];
  const inputs = roots.map(([label, root]) => ({ label, root, files: filesUnder(root, { skip: NOT_INPUTS, listings }) }));
  inputs.push({ label: 'dep', root: path.join(repoRoot, 'node_modules'), files: OUTPUT_DEPENDENCIES.map((dep) => `${dep}/package.json`) });
  // The MCP package pins the MCP SDK and ajv at the versions this package.json names.
  inputs.push({ label: 'package', root: repoRoot, files: ['package.json'] });
  return inputs;
}

/**
 * The digest of the inputs' content (hex). Of a dependency, only its version counts (its package.json also lists
 * install-time fields).
 * @param {{ label: string, root: string, files: string[] }[]} inputs
 * @returns {string}
 */
function versionDigest(inputs) {
  // Loaded here: a run whose generator is unchanged never hashes it.
  const hash = require('node:crypto').createHash('sha256');
  for (const { label, root, files } of inputs) {
    for (const rel of files) {
      let content;
      try {
        content = readFileSync(path.join(root, rel));
      } catch {
        content = '\0missing';
      }
      if (label === 'dep') content = String(JSON.parse(content.toString()).version);
      hash.update(`${label}/${rel}\n`).update(content).update('\n');
    }
  }
  return hash.digest('hex');
}

const HANDED = Symbol.for('connector-codegen.generator-version');

/** The release state's files as they are now (the one input a command of ours changes: `release`). */
function releaseState(repoRoot) {
  const dir = releaseDirOf(repoRoot);
  return `${dir}\n${statLines('release', dir, filesUnder(dir, { skip: NOT_INPUTS }))}`;
}

/**
 * Hands the version of the generator at `repoRoot` to the first run of this process (the CLI build checked its
 * inputs a moment ago, at start). Only the first asks, and only while the release state is as it was: a command that
 * releases first, or a long-lived process (watch mode), takes the version again itself.
 * @param {string} repoRoot
 * @param {string} version
 */
function handOverVersion(repoRoot, version) {
  globalThis[HANDED] = { repoRoot, release: releaseState(repoRoot), version };
}

/**
 * The version handed over for `repoRoot`, once, if the release state is unchanged since; else undefined.
 * @param {string} repoRoot
 * @returns {string | undefined}
 */
function takeHandedVersion(repoRoot) {
  const version = peekHandedVersion(repoRoot);
  delete globalThis[HANDED];
  return version;
}

/**
 * The version handed over for `repoRoot`, if the release state is unchanged since, left for the run to take (the
 * CLI's fast no-op answer looks first).
 * @param {string} repoRoot
 * @returns {string | undefined}
 */
function peekHandedVersion(repoRoot) {
  const handed = globalThis[HANDED];
  return handed && handed.repoRoot === repoRoot && handed.release === releaseState(repoRoot) ? handed.version : undefined;
}

exports.releaseDirOf = releaseDirOf;
exports.versionInputs = versionInputs;
exports.versionDigest = versionDigest;
exports.handOverVersion = handOverVersion;
exports.takeHandedVersion = takeHandedVersion;
exports.peekHandedVersion = peekHandedVersion;
