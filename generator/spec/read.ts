/**
 * Load → validate → normalize → check, as one call: the spec as a validated IR, or every problem at once.
 */
import { checkSpec } from './checks.js';
import { collapseDiagnostics, SpecError, type Diagnostic } from './diagnostics.js';
import type { SpecIR } from '../ir.js';
import { loadSpec, type KnownFiles, type LoadedSpec } from './load.js';
import { normalize } from './normalize.js';
import { timed, type Timings } from '../lib/timings.js';
import type { SpecCacheOptions } from '../cache/spec-cache.js';
import type { IrCache } from '../cache/ir-cache.js';

/** A spec that passed every check, with its warnings. */
export interface ValidSpec {
  /** The IR. */
  ir: SpecIR;
  /** Warnings (nothing of severity error). */
  warnings: Diagnostic[];
  /**
   * With a cache: connector id → a digest of the files its IR comes from (its file and service.yaml, with the generator
   * version: cache/ir-cache.ts), which keys its entry of the incremental cache.
   */
  inputKeys?: Map<string, string>;
}

/** Display path → text of every spec file, for code frames. */
function sourcesOf(loaded: LoadedSpec): Map<string, string> {
  return new Map([loaded.service, ...loaded.connectors].map((s) => [s.file, s.text]));
}

/**
 * Reads `specDir` into the IR, with a parse cache (cache/spec-cache.ts) and an IR cache (cache/ir-cache.ts) when
 * `cache` is given. Throws SpecError listing every diagnostic when any error is found. With `pendingWrites`, the
 * caches' writes are added there for the caller to await before it ends instead of being awaited here (the stores write
 * synchronously as they are called: cache/store.ts).
 */
export async function readSpec(specDir: string, timings?: Timings, cache?: SpecCacheOptions, pendingWrites?: Promise<unknown>[]): Promise<ValidSpec> {
  // A connector file the IR cache knows is not parsed: its IR comes from there.
  const opened: { ir?: IrCache } = {};
  const known: KnownFiles | undefined =
    cache &&
    (async (service, connectors) => {
      const { IrCache } = await import('../cache/ir-cache.js');
      return (opened.ir = await IrCache.open(cache, service, connectors)).known();
    });
  const loaded = await timed(timings, 'load', () => loadSpec(specDir, cache, known));
  const irCache = opened.ir;
  const { ir, diagnostics, origins, fresh } = await timed(timings, 'normalize', async () => normalize(loaded, irCache && ((source) => irCache.get(source))));
  const all = [...loaded.diagnostics, ...diagnostics];
  if (ir) all.push(...(await timed(timings, 'check', async () => checkSpec(ir, origins, loaded, fresh))));
  // One root cause, one diagnostic: a shared definition is checked once per use, and follow-ons fold into their cause.
  const collapsed = collapseDiagnostics(all);
  const valid = ir !== undefined && !collapsed.some((d) => d.severity === 'error');
  const saves = [loaded.saveCache?.(), valid ? irCache?.save(fresh) : undefined].filter((p) => p !== undefined);
  if (pendingWrites) pendingWrites.push(...saves);
  else await Promise.all(saves);
  if (!valid) throw new SpecError(collapsed, sourcesOf(loaded));
  const inputKeys = irCache && new Map(ir.connectors.map((c) => [c.id, irCache.inputKeyOf(c.file)!]));
  return { ir, warnings: collapsed, ...(inputKeys ? { inputKeys } : {}) };
}
