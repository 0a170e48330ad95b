// Change detection as build tools do it: the files under a directory, each with its size and modification time, as
// one string — equal strings mean no file was added, removed or touched, and telling so costs a directory walk and a
// stat per file (no read, no hash). Plain JavaScript: bin/cli-build.cjs uses it before any TypeScript can load (the
// CLI build), and so does cache/version.ts (the generator version).
'use strict';
const { readdirSync, statSync } = require('node:fs');
const path = require('node:path');

/**
 * @typedef {object} WalkOptions
 * @property {(name: string) => boolean} [include] Which file names count (default: all).
 * @property {ReadonlySet<string>} [skip] Names of directories not entered, at any depth below the root.
 * @property {Map<string, import('node:fs').Dirent[]>} [listings] Directory listings already read (path → sorted
 *   entries), shared by walks of one start that cover the same directories (the CLI build's sources and the generator
 *   version's inputs both hold generator/): each directory is read once.
 */

/**
 * The regular files under `root` (or `root` itself when it is a file), as paths relative to it with forward slashes,
 * in a stable order (each directory's entries sorted by name). Missing: none. Symbolic links are not followed.
 * @param {string} root
 * @param {WalkOptions} [options]
 * @returns {string[]}
 */
function filesUnder(root, options = {}) {
  const { include, skip, listings } = options;
  const out = [];
  const visit = (dir, prefix) => {
    let entries = listings?.get(dir);
    if (!entries) {
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch (error) {
        if (prefix === '' && error.code === 'ENOTDIR') out.push(''); // the root is a file
        return;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      listings?.set(dir, entries);
    }
    for (const entry of entries) {
      const rel = prefix + entry.name;
      if (entry.isDirectory()) {
        if (!skip?.has(entry.name)) visit(`${dir}${path.sep}${entry.name}`, `${rel}/`);
      } else if (entry.isFile() && (!include || include(entry.name))) out.push(rel);
    }
  };
  visit(root, '');
  return out;
}

/**
 * One line per file — `label/relative path`, size, modification time — of `files` under `root` (from filesUnder).
 * `seen` (absolute path → size and time) lets several fingerprints of one start stat a file once.
 * @param {string} label
 * @param {string} root
 * @param {string[]} files
 * @param {Map<string, string>} [seen]
 * @returns {string}
 */
function statLines(label, root, files, seen) {
  let lines = '';
  for (const rel of files) {
    const file = rel === '' ? root : `${root}${path.sep}${rel}`;
    let stats = seen?.get(file);
    if (stats === undefined) {
      let s;
      try {
        s = statSync(file, { throwIfNoEntry: false });
      } catch {
        // not a file that can be looked at (a parent is a file, no permission): recorded as missing
      }
      stats = `${s?.size ?? -1}\0${s?.mtimeMs ?? -1}`;
      seen?.set(file, stats);
    }
    lines += `${label}/${rel}\0${stats}\n`;
  }
  return lines;
}

exports.filesUnder = filesUnder;
exports.statLines = statLines;
