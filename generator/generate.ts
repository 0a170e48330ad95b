/**
 * The pipeline: load → validate → normalize into the IR → emitters → write. Each phase is timed behind
 * `--timings`. Nothing is written unless every phase before `write` succeeded.
 */
import { emitters as allEmitters } from './emitters/index.js';
import type { Emitter } from './emitters/types.js';
import { readSpec } from './spec.js';
import { timed, type Timings } from './timings.js';
import { applyOutput, planOutput, type FileMap } from './write.js';

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
  /** Emitters to run (default: all of them). */
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
  const { ir } = await readSpec(options.specDir, timings);
  const files: FileMap = new Map();
  for (const emitter of options.emitters ?? allEmitters) {
    const emitted = await timed(timings, `emit:${emitter.name}`, async () => emitter.emit(ir));
    for (const [rel, content] of emitted) {
      if (files.has(rel)) throw new Error(`internal: emitters ${emitter.name} and another both write ${rel}`);
      files.set(rel, content);
    }
  }
  const plan = await timed(timings, 'plan', () => planOutput(options.outDir, files));
  const outOfDate = [...plan.added, ...plan.changed, ...plan.stale].sort();
  if (options.check) return { fileCount: files.size, written: 0, removed: 0, outOfDate };
  await timed(timings, 'write', () => applyOutput(options.outDir, files, plan));
  return { fileCount: files.size, written: plan.added.length + plan.changed.length, removed: plan.stale.length, outOfDate: [] };
}
