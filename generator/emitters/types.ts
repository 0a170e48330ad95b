/** The emitter plugin contract: one emitter per artefact kind, reading only the IR. */
import type { SpecIR } from '../ir.js';

/** One artefact kind (catalogue, types, client, validators, …). */
export interface Emitter {
  /** Short name, shown by `--timings`. */
  name: string;
  /** Files to write, relative to the output directory → content. */
  emit(ir: SpecIR): Map<string, string> | Promise<Map<string, string>>;
  /**
   * Whether its TypeScript files are already formatted as prettier formats them in the generated style
   * (ts/doc.ts GENERATED_STYLE): those skip prettier (format/format.ts) unless the output's own prettier config asks
   * for another style, or a line is longer than the style allows (a layout the printer does not model). `trusted`
   * skips that check too (code kept as written under `// prettier-ignore`). A function decides per file. Default:
   * false (the file goes through prettier).
   */
  formatted?: Formatted | ((ir: SpecIR, path: string) => Formatted);
}

/** See Emitter.formatted. */
export type Formatted = boolean | 'trusted';
