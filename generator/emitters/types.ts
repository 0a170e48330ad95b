/** The emitter plugin contract: one emitter per artefact kind, reading only the IR. */
import type { SpecIR } from '../ir.js';

/** One artefact kind (catalogue, types, client, validators, …). */
export interface Emitter {
  /** Short name, shown by `--timings`. */
  name: string;
  /** Files to write, relative to the output directory → content. */
  emit(ir: SpecIR): Map<string, string> | Promise<Map<string, string>>;
}
