/**
 * The pipeline: load → validate → normalize into the IR → emitters → write. Each phase is timed behind
 * `--timings`. Nothing is written unless every phase before `write` succeeded. A run whose inputs and outputs
 * are unchanged since the last one (stamp.ts) stops after hashing them.
 */
import type { Emitter } from './emitters/types.js';
import { inputDigest, outputMatches, readStamp, sha256, writeStamp } from './stamp.js';
import { timed, type Timings } from './timings.js';
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

/** Runs the whole pipeline. Throws SpecError for a bad spec (before anything is written). */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const { timings } = options;
  const digest = await timed(timings, 'stamp', async () => {
    if (options.emitters) return undefined;
    const [inputs, stamp] = await Promise.all([inputDigest(options.specDir), readStamp(options.outDir)]);
    const upToDate = stamp?.inputs === inputs && (await outputMatches(options.outDir, stamp));
    return { inputs, upToDate, fileCount: stamp ? Object.keys(stamp.files).length : 0 };
  });
  if (digest?.upToDate) return { fileCount: digest.fileCount, written: 0, removed: 0, outOfDate: [] };

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
    const [{ readSpec }, { applyOutput, planOutput }] = await Promise.all([import('./spec.js'), import('./write.js')]);
    const { ir } = await readSpec(options.specDir, timings);
    // Off-thread work gets its input the moment the IR exists. Then each in-thread emitter starts as soon as it is
    // loaded, in list order, so one that hands work to a worker of its own (validators) does so early.
    const runs: { name: string; files: Promise<Map<string, string>> }[] = entries
      .filter((e) => e.worker)
      .map((e) => ({ name: e.name, files: timed(timings, `emit:${e.name}`, () => threads.get(e.name)!.emit(ir)) }));
    for (const run of runs) run.files.catch(() => undefined);
    for (const entry of options.emitters ? options.emitters.map((e) => ({ name: e.name, load: async () => e })) : entries.filter((e) => !e.worker)) {
      const emitter = await entry.load();
      runs.push({ name: entry.name, files: timed(timings, `emit:${entry.name}`, async () => emitter.emit(ir)) });
    }
    // A failure is observed by Promise.all below; until then it must not count as an unhandled rejection.
    for (const run of runs) run.files.catch(() => undefined);
    const files: FileMap = new Map();
    const outputs = await Promise.all(runs.map((r) => r.files));
    outputs.forEach((emitted, i) => {
      for (const [rel, content] of emitted) {
        if (files.has(rel)) throw new Error(`internal: emitters ${runs[i]!.name} and another both write ${rel}`);
        files.set(rel, content);
      }
    });
    const plan = await timed(timings, 'plan', () => planOutput(options.outDir, files));
    const outOfDate = [...plan.added, ...plan.changed, ...plan.stale].sort();
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
