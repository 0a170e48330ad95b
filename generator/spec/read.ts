/**
 * Load → validate → normalize → check, as one call: the spec as a validated IR, or every problem at once.
 */
import { checkSpec } from './checks.js';
import { SpecError, sortDiagnostics, type Diagnostic } from './diagnostics.js';
import type { SpecIR } from '../ir.js';
import { loadSpec } from './load.js';
import { normalize } from './normalize.js';
import { timed, type Timings } from '../lib/timings.js';

/** A spec that passed every check, with its warnings. */
export interface ValidSpec {
  /** The IR. */
  ir: SpecIR;
  /** Warnings (nothing of severity error). */
  warnings: Diagnostic[];
}

/** Reads `specDir` into the IR. Throws SpecError listing every diagnostic when any error is found. */
export async function readSpec(specDir: string, timings?: Timings): Promise<ValidSpec> {
  const loaded = await timed(timings, 'load', () => loadSpec(specDir));
  const { ir, diagnostics, origins } = await timed(timings, 'normalize', async () => normalize(loaded));
  const all = [...loaded.diagnostics, ...diagnostics];
  if (ir) all.push(...(await timed(timings, 'check', async () => checkSpec(ir, origins, loaded))));
  // A shared definition (a `common` param) is checked once per use: report each problem once.
  const unique = [...new Map(all.map((d) => [`${d.file}:${d.line}:${d.col}:${d.code}:${d.message}`, d])).values()];
  if (!ir || unique.some((d) => d.severity === 'error')) throw new SpecError(unique);
  return { ir, warnings: sortDiagnostics(unique) };
}
