/**
 * Generated TypeScript passes `prettier --check` where it is written. Most of it is printed in the generated style
 * by the emitters themselves (ts/doc.ts), which costs nothing; prettier (in a worker thread, its results cached by
 * content under node_modules/.cache) formats only what is not: files of emitters that do not print that way, files
 * with a line longer than the style allows (a layout the printer does not model), and every file when a prettier
 * config of the user's asks for another style (style.ts).
 */
import { createHash } from 'node:crypto';
// Synchronous: cache entries are small local files, and fs/promises costs every run that formats a millisecond to load.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { writeStored } from '../cache/store.js';
import { workerThreads } from '../lib/worker-threads.js';
import type { Formatted } from '../emitters/types.js';
import { textOf } from '../emitters/output-bytes.js';
import { GENERATED_STYLE, OWN_CONFIG, outputStyle, ownConfigText, sameAsGenerated, type OutputStyle, type StyleFiles } from './style.js';

/** Bumped when how files are formatted changes: older cache entries are then never read. */
const FORMAT_VERSION = 2;
const defaultCacheDir = fileURLToPath(new URL('../../node_modules/.cache/connector-codegen/format/', import.meta.url));
/** Cache entries kept (the newest); a full output has about 100 TypeScript files. */
const CACHE_ENTRIES = 600;

/** What formatting did. */
export interface FormatReport {
  /** Files prettier formatted (from the cache or the worker). */
  formatted: string[];
  /** Of those, the ones taken from the cache. */
  cached: number;
  /** How the style was chosen. */
  style: OutputStyle['kind'];
}

/** A worker with prettier, started on first need. */
class PrettierWorker {
  #worker: Worker | undefined;
  #next = 0;
  #pending = new Map<number, (message: Record<string, unknown>) => void>();

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const { Worker } = workerThreads();
    const worker = new Worker(new URL('./prettier-worker.mjs', import.meta.url));
    worker.unref();
    worker.on('message', (message: { id: number }) => {
      this.#pending.get(message.id)?.(message);
      this.#pending.delete(message.id);
    });
    worker.on('error', (error) => {
      for (const reply of this.#pending.values()) reply({ error: error.message });
      this.#pending.clear();
    });
    this.#worker = worker;
    return worker;
  }

  request(message: Record<string, unknown>): Promise<Record<string, unknown>> {
    const worker = this.#start();
    const id = this.#next++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      worker.postMessage({ ...message, id });
    });
  }

  stop(): void {
    void this.#worker?.terminate();
    this.#worker = undefined;
  }
}

/** A line that is one string or template literal (maybe keyed, maybe followed by `,` `;` `)`): prettier cannot break it. */
const LONE_LITERAL = /^\s*(?:(?:[\w$]+|'(?:[^'\\]|\\.)*'):\s*)?(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`)[,;)]*$/;

/** The head of a test call with a string title (`test('…', async () => {`): prettier keeps it on one line, however long. */
const TEST_HEAD = /^\s*(?:describe|test|it)(?:\.(?:only|skip|todo))?\((?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"), (?:async )?\(\) => \{$/;

/** Whether a line of code is longer than the style allows (comments, lone literals and test heads cannot be broken, so they do not count). */
export function hasLongLine(text: string | Uint8Array, width: number): boolean {
  if (typeof text !== 'string') return hasLongLineInBytes(text, width);
  for (const line of text.split('\n')) if (line.length > width && isBreakable(line)) return true;
  return false;
}

/**
 * hasLongLine of UTF-8 bytes. A line has at least as many bytes as characters, so only a line of more than `width`
 * bytes is measured (in UTF-16 code units, as String.length), and only a long one is decoded.
 */
function hasLongLineInBytes(bytes: Uint8Array, width: number): boolean {
  for (let start = 0; start <= bytes.length; ) {
    const newline = bytes.indexOf(0x0a, start);
    const end = newline === -1 ? bytes.length : newline;
    if (end - start > width) {
      let length = 0;
      for (let i = start; i < end; i++) if ((bytes[i]! & 0xc0) !== 0x80) length += bytes[i]! >= 0xf0 ? 2 : 1; // a lead byte starts a character
      if (length > width && isBreakable(Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString('utf8'))) return true;
    }
    start = end + 1;
  }
  return false;
}

/** Whether prettier could break a long line: not a comment, a lone literal or a test head. */
function isBreakable(line: string): boolean {
  const trimmed = line.trimStart();
  return !(trimmed.startsWith('*') || trimmed.startsWith('/*') || trimmed.startsWith('//') || LONE_LITERAL.test(line) || TEST_HEAD.test(line));
}

function prettierVersion(): string {
  return (createRequire(import.meta.url)('prettier/package.json') as { version: string }).version;
}

function cached(cacheDir: string, key: string): string | undefined {
  try {
    return readFileSync(path.join(cacheDir, key), 'utf8');
  } catch {
    return undefined;
  }
}

/** Stores formatted texts by key as the other cache directories do (cache/store.ts): aside then renamed, the older half gone beyond CACHE_ENTRIES. */
function remember(cacheDir: string, entries: [string, string][]): Promise<void> {
  return writeStored({ dir: cacheDir, ext: '', max: CACHE_ENTRIES }, entries);
}

/**
 * Formats the TypeScript of `files` for `outDir` in place. `formattedBy(path)` says what the emitter of a file
 * guarantees (Emitter.formatted). Adds the output's own `.prettierrc.yaml` when no config of the user's governs it.
 * Results are cached by content under `cacheDir`. `styleFiles`: the output's governing style files, when the run
 * already looked them up (the no-op check does).
 */
export async function formatOutput(outDir: string, files: Map<string, string | Uint8Array>, formattedBy: (path: string) => Formatted, cacheDir = defaultCacheDir, styleFiles?: StyleFiles): Promise<FormatReport> {
  let style = outputStyle(outDir, styleFiles);
  const worker = new PrettierWorker();
  try {
    let options: Record<string, unknown> | undefined;
    if (style.kind === 'resolve') {
      const reply = await worker.request({ resolve: path.join(path.resolve(outDir), 'index.ts') });
      if (typeof reply.error === 'string') throw new Error(`prettier could not read the config of ${outDir}: ${reply.error}`);
      options = reply.options as Record<string, unknown>;
      if (sameAsGenerated(options)) style = { kind: 'generated', ownConfig: false };
    } else if (style.kind === 'config') {
      options = style.options;
    }
    if (style.kind === 'generated' && style.ownConfig) files.set(OWN_CONFIG, ownConfigText());
    const generated = style.kind === 'generated';
    const todo = [...files.keys()].filter((rel) => {
      if (!rel.endsWith('.ts')) return false;
      if (!generated) return true;
      const promise = formattedBy(rel);
      return promise === false || (promise === true && hasLongLine(files.get(rel)!, GENERATED_STYLE.printWidth));
    });
    const report: FormatReport = { formatted: todo.sort(), cached: 0, style: style.kind };
    if (todo.length === 0) return report;
    const jobOptions = generated ? { ...GENERATED_STYLE } : options!;
    const styleKey = JSON.stringify(jobOptions);
    const keyOf = (rel: string) => createHash('sha256').update(`${FORMAT_VERSION}\0${prettierVersion()}\0${styleKey}\0${path.extname(rel)}\0`).update(files.get(rel)!).digest('hex');
    const keys = new Map(todo.map((rel) => [rel, keyOf(rel)]));
    const missing: string[] = [];
    for (const rel of todo) {
      const hit = cached(cacheDir, keys.get(rel)!);
      if (hit === undefined) missing.push(rel);
      else {
        files.set(rel, hit);
        report.cached++;
      }
    }
    if (missing.length === 0) return report;
    missing.sort();
    const text = (rel: string) => {
      const content = files.get(rel)!;
      return typeof content === 'string' ? content : textOf(content);
    };
    const reply = await worker.request({ jobs: missing.map((rel) => ({ rel, text: text(rel), filepath: path.join(path.resolve(outDir), rel), options: jobOptions })) });
    if (typeof reply.error === 'string') throw new Error(`prettier failed: ${reply.error}`);
    const results = reply.results as { rel: string; text?: string; error?: string }[];
    const fresh: [string, string][] = [];
    for (const r of results) {
      if (r.error !== undefined) throw new Error(`internal: generated ${r.rel} could not be formatted: ${r.error}`);
      fresh.push([keys.get(r.rel)!, r.text!]);
      files.set(r.rel, r.text!);
    }
    await remember(cacheDir, fresh);
    return report;
  } finally {
    worker.stop();
  }
}
