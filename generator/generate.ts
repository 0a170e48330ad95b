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

  // Loaded only when there is work to do: these pull in yaml, ajv and TypeScript.
  const [{ readSpec }, { emitters: allEmitters }, { applyOutput, planOutput }] = await Promise.all([
    import('./spec.js'),
    import('./emitters/index.js'),
    import('./write.js'),
  ]);
  const { ir } = await readSpec(options.specDir, timings);
  const files: FileMap = new Map();
  // Emitters run concurrently: one that works off the main thread (validators compile in a worker) overlaps the others.
  const list = options.emitters ?? allEmitters;
  const outputs = await Promise.all(list.map((emitter) => timed(timings, `emit:${emitter.name}`, async () => emitter.emit(ir))));
  outputs.forEach((emitted, i) => {
    for (const [rel, content] of emitted) {
      if (files.has(rel)) throw new Error(`internal: emitters ${list[i]!.name} and another both write ${rel}`);
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
}
