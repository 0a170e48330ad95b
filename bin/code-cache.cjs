// Runs the CLI build's CommonJS scripts (bin/cli-bundle.mjs) with a V8 code cache beside each, as Node 22's module
// compile cache does for every module (Node 20 has none for ES modules): V8 deserializes the bytecode of the functions
// earlier runs compiled instead of parsing and compiling them again, the largest part of starting a run with work to
// do. V8 checks a cache against the script's source and flags and rejects a mismatch (the script is then compiled as
// usual), so a damaged cache costs speed only. V8's check of the source is its length, though: a record beside the
// cache (<cache>.json) names the script's size and modification time it was made from, and a cache made
// from another state of the script is not used. A script's cache is written when missing or refused, and again after
// the first run of a kind (a command) that loaded it, so it comes to hold what the runs of this build use.
// V8 takes a cache only from a process with the same V8 flags: a script has one cache per set of flags on the
// command line (`npm run generate` starts Node with heap flags, the bin alone does not), so runs started either way
// each keep theirs instead of rewriting the other's. A script keeps at most MAX_FLAG_SETS caches: a run under flags
// of its own (`--cpu-prof-dir=…`, `--inspect`) would otherwise add ~3 MB to the build for good.
'use strict';
const { isAscii } = require('node:buffer');
const { readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require('node:fs');
const { createRequire } = require('node:module');
const path = require('node:path');
const vm = require('node:vm');
const { isOneShot } = require('./one-shot.cjs');
const { v8Tuned } = require('./v8-tuning.cjs');

/** The module the CLI build's start and work scripts ask for each other's modules (bin/cli-bundle.mjs). */
const MODULES = 'connector-codegen:modules';

// import() for the scripts (generator/lib/native-import.ts): theirs cannot run from a code cache.
globalThis[Symbol.for('connector-codegen.native-import')] = (specifier) => import(specifier);

/**
 * What the name of a code cache adds for the flags this process was started with (process.execArgv's `--` options;
 * none: nothing), as an FNV-1a hash. The flags v8-tuning.cjs sets follow from the command, and only one-shot commands
 * write caches, so those need no part in the name.
 */
const FLAGS_SUFFIX = (() => {
  const flags = process.execArgv.filter((arg) => arg.startsWith('--')).join(' ');
  if (flags === '') return '';
  let hash = 0x811c9dc5;
  for (let i = 0; i < flags.length; i++) hash = Math.imul(hash ^ flags.charCodeAt(i), 0x01000193);
  return `.${(hash >>> 0).toString(16).padStart(8, '0')}`;
})();

/** How many sets of command-line flags a script keeps code caches for (the newest written). */
const MAX_FLAG_SETS = 6;

/**
 * The code cache of the script `file` for this process's command-line flags; its record is `<cache file>.json`.
 * @param {string} file
 */
function codeCacheFile(file) {
  return `${file}${FLAGS_SUFFIX}.cache`;
}

/** Scripts this process ran: file → its compiled script, cache file, and the kinds of run its cache has seen. */
const loaded = new Map();

/**
 * The exports of the CommonJS script `file`, compiled with its code cache (codeCacheFile) if there is one; `modules`
 * answers the script's `require('connector-codegen:modules')`.
 * @param {string} file absolute path
 * @param {unknown} [modules]
 * @returns {any}
 */
function runScript(file, modules) {
  const cacheFile = codeCacheFile(file);
  const { size, mtimeMs } = statSync(file);
  const source = `${size}:${mtimeMs}`;
  let cachedData;
  let kinds = [];
  try {
    const record = JSON.parse(readFileSync(`${cacheFile}.json`, 'utf8'));
    if (record.source === source && Array.isArray(record.kinds)) {
      cachedData = readFileSync(cacheFile);
      kinds = record.kinds;
    }
  } catch {
    // no cache yet, or no record of what it was made from: it is made again
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${scriptText(file)}\n})`, {
    filename: file,
    cachedData,
  });
  const nodeRequire = createRequire(file);
  const require = Object.assign((id) => (id === MODULES ? modules : nodeRequire(id)), { resolve: nodeRequire.resolve, cache: nodeRequire.cache });
  const module = { exports: {} };
  script.runInThisContext().call(module.exports, module.exports, require, module, file, path.dirname(file));
  loaded.set(file, { script, cacheFile, source, cached: cachedData !== undefined, kinds: cachedData && !script.cachedDataRejected ? kinds : [], tuned: v8Tuned() });
  return module.exports;
}

/**
 * The text of a script: the build's are ASCII (bin/cli-bundle.mjs asciiOnly), read as Latin-1 — a copy, where decoding
 * UTF-8 costs a pass over 2 MB — and UTF-8 otherwise.
 * @param {string} file
 */
function scriptText(file) {
  const bytes = readFileSync(file);
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/**
 * Whether the script `file` was given a code cache, and whether V8 refused it (for tests).
 * @param {string} file
 */
function codeCacheState(file) {
  const entry = loaded.get(file);
  return { cached: Boolean(entry?.cached), rejected: Boolean(entry?.script.cachedDataRejected) };
}

/** The CLI of the build in `dir`: its start script, which loads the work script on first need. */
function loadBuild(dir) {
  let work;
  const modules = {
    start: (p) => start.module(p),
    work: (p) => (work ??= runScript(path.join(dir, 'work.cjs'), modules)).module(p),
  };
  const start = runScript(path.join(dir, 'start.cjs'), modules);
  return start;
}

/**
 * Writes the code cache of each script this process ran whose cache has not seen a run of this `kind` (best effort:
 * a cache that cannot be written only costs later runs the compile). Only one-shot runs write: V8 takes a cache only
 * from a process with the same V8 flags, and long-running ones keep V8's defaults (v8-tuning.cjs).
 * @param {string} kind
 */
function saveCodeCache(kind) {
  if (!isOneShot()) return;
  for (const [file, entry] of loaded) {
    // V8 stamps a cache with the flags in force when it is made, and refuses it under others: a script compiled before
    // this thread set its flags (the no-op check, v8-tuning.cjs) keeps the cache made by a run that never set them.
    if (entry.kinds.includes(kind) || entry.tuned !== v8Tuned()) continue;
    entry.kinds = [...entry.kinds, kind];
    try {
      // The record goes last: a cache without its record is not used.
      for (const [target, data] of [
        [entry.cacheFile, entry.script.createCachedData()],
        [`${entry.cacheFile}.json`, JSON.stringify({ source: entry.source, kinds: entry.kinds })],
      ]) {
        const temp = `${target}.${process.pid}.tmp`;
        writeFileSync(temp, data);
        renameSync(temp, target);
      }
      if (!entry.cached) pruneFlagSets(file);
    } catch {
      // see above
    }
  }
}

/**
 * Removes the code caches of `file` beyond the MAX_FLAG_SETS written last, each with its record (run after a cache is
 * made for a new set of flags: a cache removed here is made again by the next run that needs it).
 * @param {string} file
 */
function pruneFlagSets(file) {
  const dir = path.dirname(file);
  const base = path.basename(file);
  const caches = readdirSync(dir)
    .filter((name) => name.startsWith(`${base}.`) && /^(\.[0-9a-f]{8})?\.cache$/.test(name.slice(base.length)))
    .map((name) => ({ name, mtimeMs: statSync(path.join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs || (a.name < b.name ? -1 : 1));
  for (const { name } of caches.slice(MAX_FLAG_SETS)) {
    // The record first: a cache without its record is not used.
    rmSync(path.join(dir, `${name}.json`), { force: true });
    rmSync(path.join(dir, name), { force: true });
  }
}

exports.MAX_FLAG_SETS = MAX_FLAG_SETS;
exports.MODULES = MODULES;
exports.runScript = runScript;
exports.codeCacheFile = codeCacheFile;
exports.codeCacheState = codeCacheState;
exports.loadBuild = loadBuild;
exports.saveCodeCache = saveCodeCache;
