/**
 * The pipeline: load → validate → normalize into the IR → emitters → write. Each phase is timed behind
 * `--timings`. Nothing is written unless every phase before `write` succeeded. A run whose inputs and outputs
 * are unchanged since the last one (stamp.ts) stops after hashing them.
 */
import type { EmitterThread } from './emitters/emitter-thread.js';
import type { EmitterEntry } from './emitters/index.js';
import type { Emitter, Formatted } from './emitters/types.js';
import type { ResolvedConfig } from './config/config.js';
import type { SpecIR } from './ir.js';
import { inputDigest, outputMatches, readStamp, sha256, writeStamp } from './cache/stamp.js';
import { timed, type Timings } from './lib/timings.js';
import { governingStyleFiles } from './format/style.js';
import { readFileSync } from 'node:fs';
import type { FileMap } from './write.js';

/** Options of one generation run. */
export interface GenerateOptions {
  /** Spec directory. */
  specDir: string;
  /** Output directory. */
  outDir: string;
  /** Compare only; write nothing. */
  check?: boolean;
  /** Receives phase timings when given. */
  timings?: Timings;
  /** Emitters to run (default: all of them). Custom emitters disable the no-op shortcut. */
  emitters?: Emitter[];
  /** The project config: package naming and which connectors to generate (default: the built-in config). */
  config?: Pick<ResolvedConfig, 'file' | 'packages' | 'connectors'>;
}

/** What a run did. */
export interface GenerateResult {
  /** Number of generated files. */
  fileCount: number;
  /** Files written (added or changed). */
  written: number;
  /** Stale files removed. */
  removed: number;
  /** With `check`: every file that is missing, different or stale. */
  outOfDate: string[];
}

/**
 * Runs every emitter and merges their files. Off-thread emitters get the IR the moment it exists; then each in-thread
 * emitter starts as soon as it is loaded, in list order, so one that hands work to a worker of its own (validators)
 * does so early.
 */
async function emitAll(ir: SpecIR, entries: EmitterEntry[], threads: Map<string, EmitterThread>, options: GenerateOptions): Promise<{ files: FileMap; formattedBy: (rel: string) => Formatted }> {
  const runs: { name: string; files: Promise<Map<string, string>>; formatted: Emitter['formatted'] }[] = [];
  const start = (name: string, formatted: Emitter['formatted'], emit: () => Promise<Map<string, string>>) => {
    const files = timed(options.timings, `emit:${name}`, emit);
    files.catch(() => undefined); // observed by Promise.all below; meanwhile not an unhandled rejection
    runs.push({ name, files, formatted });
  };
  for (const e of entries) if (e.worker) start(e.name, e.formatted, () => threads.get(e.name)!.emit(ir));
  const inThread = options.emitters ? options.emitters.map((e) => ({ name: e.name, load: async () => e })) : entries.filter((e) => !e.worker);
  for (const entry of inThread) {
    const emitter = await entry.load();
    start(entry.name, emitter.formatted, async () => emitter.emit(ir));
  }
  const outputs = await Promise.all(runs.map((r) => r.files));
  const files: FileMap = new Map();
  const owners = new Map<string, Emitter['formatted']>();
  outputs.forEach((emitted, i) => {
    for (const [rel, content] of emitted) {
      if (files.has(rel)) throw new Error(`internal: emitters ${runs[i]!.name} and another both write ${rel}`);
      files.set(rel, content);
      owners.set(rel, runs[i]!.formatted);
    }
  });
  const formattedBy = (rel: string): Formatted => {
    const formatted = owners.get(rel);
    return typeof formatted === 'function' ? formatted(ir, rel) : (formatted ?? false);
  };
  return { files, formattedBy };
}

/** What of the config shapes the output: part of the no-op digest (with the prettier configs that govern the output). */
function targetOf(options: GenerateOptions): string {
  const style = governingStyleFiles(options.outDir);
  const contents = [style.config, ...style.editorconfig].filter((f): f is string => f !== undefined).map((f) => [f, readText(f)]);
  return JSON.stringify({ packages: options.config?.packages ?? null, connectors: options.config?.connectors ?? null, style: contents });
}

function readText(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

/** Runs the whole pipeline. Throws SpecError for a bad spec (before anything is written). */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const { timings } = options;
  // What an interrupted run left is finished first (or, for --check, reported).
  const { pendingTransaction, recoverOutput } = await import('./write.js');
  const pending = options.check ? await pendingTransaction(options.outDir) : (await recoverOutput(options.outDir), 'none');
  const digest = await timed(timings, 'stamp', async () => {
    if (options.emitters) return undefined;
    const [inputs, stamp] = await Promise.all([inputDigest(options.specDir, targetOf(options)), readStamp(options.outDir)]);
    const upToDate = stamp?.inputs === inputs && (await outputMatches(options.outDir, stamp));
    return { inputs, upToDate, fileCount: stamp ? Object.keys(stamp.files).length : 0 };
  });
  const interrupted = pending === 'none' ? [] : [`(an interrupted generate left ${pending === 'completed' ? 'a transaction to complete' : 'staged files to discard'}; generate finishes it)`];
  if (digest?.upToDate) return { fileCount: digest.fileCount, written: 0, removed: 0, outOfDate: interrupted };

  // Start what runs off the main thread first: worker start-up and imports overlap loading and reading the spec.
  const [{ emitterEntries }, { startEmitterThread }, { prestartValidatorCompiler }] = await Promise.all([
    import('./emitters/index.js'),
    import('./emitters/emitter-thread.js'),
    import('./emitters/validators/index.js'),
  ]);
  const entries = options.emitters ? [] : emitterEntries;
  const threads = new Map(entries.filter((e) => e.worker).map((e) => [e.name, startEmitterThread(e.worker!)]));
  if (!options.emitters) prestartValidatorCompiler();
  try {
    // Loaded only when there is work to do: these pull in yaml and ajv.
    const [{ readSpec }, { applyOutput, planOutput }, { applyPackaging }, { checkConnectorSelection, DEFAULT_PACKAGES }] = await Promise.all([
      import('./spec/read.js'),
      import('./write.js'),
      import('./config/packaging.js'),
      import('./config/config.js'),
    ]);
    const spec = await readSpec(options.specDir, timings);
    const { config } = options;
    if (config) checkConnectorSelection(config, spec.ir.connectors.map((c) => c.id));
    const ir = applyPackaging(spec.ir, config?.packages ?? DEFAULT_PACKAGES, config?.connectors);
    const { files, formattedBy } = await emitAll(ir, entries, threads, options);
    const { formatOutput } = await import('./format/format.js');
    await timed(timings, 'format', () => formatOutput(options.outDir, files, formattedBy));
    const plan = await timed(timings, 'plan', () => planOutput(options.outDir, files));
    const outOfDate = [...plan.added, ...plan.changed, ...plan.stale].sort().concat(interrupted);
    const stamp = digest && { inputs: digest.inputs, files: Object.fromEntries([...files].sort(([a], [b]) => (a < b ? -1 : 1)).map(([rel, text]) => [rel, sha256(text)])) };
    if (options.check) {
      if (stamp && outOfDate.length === 0) await writeStamp(options.outDir, stamp);
      return { fileCount: files.size, written: 0, removed: 0, outOfDate };
    }
    await timed(timings, 'write', () => applyOutput(options.outDir, files, plan));
    if (stamp) await writeStamp(options.outDir, stamp);
    return { fileCount: files.size, written: plan.added.length + plan.changed.length, removed: plan.stale.length, outOfDate: [] };
  } finally {
    for (const thread of threads.values()) thread.stop();
  }
}
