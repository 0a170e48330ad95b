/**
 * The pipeline: load → validate → normalize into the IR → emitters → write. Each phase is timed behind
 * `--timings`. Nothing is written unless every phase before `write` succeeded. Work is done only where inputs changed:
 * a run whose inputs and outputs are unchanged since the last one (cache/stamp.ts) stops after comparing them; else
 * the files of each connector whose inputs are unchanged come from the incremental cache (cache/connector-cache.ts),
 * and only the other connectors' files and the shared ones (indexes, catalogue) are emitted.
 */
import type { EmitterHost } from './emitters/emitter-host.js';
import type { EmitterEntry } from './emitters/index.js';
import type { EncodedOutput, FileBytes } from './emitters/output-bytes.js';
import type { Emitter, Formatted } from './emitters/types.js';
import type { ResolvedConfig } from './config/config.js';
import type { SpecIR } from './ir.js';
import type { CachedFile, ConnectorEntry, KeptFiles } from './cache/connector-cache.js';
import { contentHashes, keptByStamp, knownByStamp, makeStamp, sha256, writeStamp, type StampedFile } from './cache/stamp.js';
import { generatorVersion } from './cache/version.js';
import { cacheDirOf } from './cache/dir.js';
import { noopState, type NoopState } from './cache/no-op.js';
import { setRunKind } from './lib/run-kind.js';
import { timed, type Timings } from './lib/timings.js';
import path from 'node:path';
// Light (file system calls only) and needed by the stamp: loaded with this module.
import { displayPath } from './lib/display-path.js';
import { applyOutputHeld, MANIFEST_FILE, manifestText, overwriteRefusal, pendingTransaction, planOutput, recoverOutput, withOutputLock, type FileMap } from './write.js';
import { readOrUndefined, statOrUndefined } from './lib/fs-or-undefined.js';

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
  config?: Pick<ResolvedConfig, 'file' | 'packages' | 'connectors'> & Partial<Pick<ResolvedConfig, 'releaseDir'>>;
  /**
   * Where the caches live (no-op stamps, connector files, formatted files); safe to delete. Default:
   * CONNECTOR_CODEGEN_CACHE_DIR when set, else node_modules/.cache/connector-codegen of this repository.
   */
  cacheDir?: string;
  /** The generator version cache entries are keyed by. Default: the digest of the generator's own files (cache/version.ts). */
  generatorVersion?: string;
  /** Hears, once, when the run has waited a while for another run writing the same output (lib/dir-lock.ts). */
  onLockWait?: (notice: string) => void;
}

/** What a run did. */
export interface GenerateResult {
  /** Number of generated files. */
  fileCount: number;
  /** Files written (added or changed). */
  written: number;
  /** Stale files removed (files an earlier run wrote, no longer generated). */
  removed: number;
  /** Files in the output that no run wrote (not in its manifest): kept, never removed; `--check` reports them. */
  foreign?: string[];
  /** With `check`: every file that is missing, different or stale. */
  outOfDate: string[];
  /**
   * Generated TypeScript files that went through prettier (from its cache or a worker) rather than being printed in
   * the output's style by the emitters; absent when nothing was generated (a no-op run).
   */
  prettierFormatted?: string[];
  /** Of those, how many prettier's content-keyed cache answered (no formatting done). */
  prettierCached?: number;
}

/**
 * At most this many connectors to emit run an off-thread emitter (one without shared files) in this thread instead:
 * a worker's start (Node's bootstrap, loading the emitter and prettier again) costs more CPU than one connector's work.
 */
const IN_THREAD_MAX_CONNECTORS = 2;

/** The incremental cache as one run uses it. */
interface RunCache {
  /** Cache directory. */
  dir: string;
  /** Generator version (keys entries). */
  version: string;
  /** Connector id → the digest of its input files (spec/read.ts ValidSpec.inputKeys), once the spec is read. */
  inputs?: ReadonlyMap<string, string>;
}

/**
 * The run's emitter host (emitters/emitter-host.ts), started on first need — or early, before the spec is read, when
 * the run will likely emit every connector (no stamp of a previous run): its worker then starts while this thread
 * loads the spec.
 */
class HostStarter {
  #host: Promise<EmitterHost> | undefined;
  constructor(private readonly cacheDir: string) {}

  /** The host, started now if it was not. */
  get(): Promise<EmitterHost> {
    // The bundles are keyed by the generator's real version, whatever version keys this run's cache.
    return (this.#host ??= import('./emitters/emitter-host.js').then(({ startEmitterHost }) => startEmitterHost(generatorVersion(this.cacheDir))));
  }

  /** Stops the host if it was started (idempotent). */
  stop(): void {
    void this.#host?.then((host) => host.stop());
  }
}

/** What the emitters made. */
interface Emitted {
  /** Files to format and write. */
  files: FileMap;
  /** Files of the incremental cache the output already holds as they would be written (keptByStamp), with their stamp records. */
  kept: Map<string, StampedFile>;
  /** sha256 of the content as emitted of each file of the incremental cache (for the stamp). */
  emitted: Map<string, string>;
  /** What the emitter of a file guarantees about its formatting. */
  formattedBy: (rel: string) => Formatted;
}

/**
 * Runs every emitter and merges their files. With a cache, each connector's files come from its entries when they are
 * found, else from the emitters (and are stored): its whole entry (keyed by everything it depends on) holds the files of
 * the emitters that read descriptions and names its structure entry, which holds the description-blind emitters' files
 * (EmitterEntry.readsDescriptions). For a connector whose whole entry is not found, the structure key is worked out
 * from its IR: after an edit of descriptions alone, the blind emitters run for nobody. Shared files are always emitted;
 * the files that read no connector (EmitterSplit.service) come from the service entry, like a connector's.
 * An entry lists its files, whose contents are the output's: a file the output holds as it would be written (`keep`)
 * is not even read, another is read there (by content hash), and an entry with a file found neither way is a miss.
 * The emitter host is used only when it has work, and stopped once its jobs are answered (generate stops it too,
 * whatever happens here); this thread, done with its own emitters, takes connectors of the host's emitters that have
 * no shared files (emitters/run.ts runClaimed), so both threads stay busy to the end.
 */
async function emitAll(
  ir: SpecIR,
  entries: EmitterEntry[],
  options: GenerateOptions,
  cache: RunCache | undefined,
  hosts: HostStarter,
  pendingWrites: Promise<unknown>[],
  keep?: KeptFiles,
): Promise<Emitted> {
  const { connectorKeys, readEntries, writeEntries, STRUCTURE_POINTER } = await import('./cache/connector-cache.js');
  const { runEmitter, runClaimed, claimFrom, fragmentOwner, SERVICE_FILES } = await import('./emitters/run.js');
  const { encodeFiles, textOf } = await import('./emitters/output-bytes.js');
  const keys = cache ? connectorKeys(cache.version, ir, cache.inputs ?? new Map()) : undefined;
  // Entries hold no copy of output files: a file the output does not vouch for (`keep`) is read there, by content hash.
  const fromOutput = (rel: string, hash: string) => {
    const bytes = readOrUndefined(path.join(options.outDir, rel));
    return bytes && sha256(bytes) === hash ? bytes : undefined;
  };
  const hits = new Map<string, CachedFile[]>();
  const structureKeys = new Map<string, string>();
  if (cache && keys) {
    // A whole entry counts only with its pointer; the structure keys of the others are worked out.
    for (const [id, files] of await timed(options.timings, 'cache', () => readEntries(cache.dir, 'connectors', keys.whole, keep, fromOutput))) {
      const pointer = files.find((f) => f.rel === STRUCTURE_POINTER);
      if (!pointer) continue;
      hits.set(id, files);
      structureKeys.set(id, textOf(pointer.content()));
    }
    const computed = keys.structure(ir.connectors.filter((c) => !hits.has(c.id)).map((c) => c.id));
    for (const [id, key] of computed) structureKeys.set(id, key);
  }
  const structureHits = cache && structureKeys.size ? readEntries(cache.dir, 'structure', structureKeys, keep, fromOutput) : new Map<string, CachedFile[]>();
  // The files that read no connector: from their entry, else made by their emitters (with a cache: runEmitter withService).
  const serviceHit = cache && keys ? readEntries(cache.dir, 'service', new Map([[SERVICE_FILES, keys.service]]), keep, fromOutput).get(SERVICE_FILES) : undefined;
  const makeService = cache !== undefined && !serviceHit;
  const missing = cache ? ir.connectors.filter((c) => !hits.has(c.id)).map((c) => c.id) : undefined;
  const missingStructure = cache ? ir.connectors.filter((c) => !structureHits.has(c.id)).map((c) => c.id) : undefined;
  /** The connectors an emitter makes files for (undefined: all, without a cache). */
  const missingFor = (e: Pick<EmitterEntry, 'readsDescriptions'>) => (e.readsDescriptions === false ? missingStructure : missing);
  const runs: { name: string; output: Promise<EncodedOutput>; formatted: (rel: string) => Formatted; blind: boolean }[] = [];
  const start = (entry: Pick<EmitterEntry, 'name' | 'readsDescriptions'>, formatted: Emitter['formatted'], emit: () => Promise<EncodedOutput>) => {
    const output = timed(options.timings, `emit:${entry.name}`, emit);
    output.catch(() => undefined); // observed by Promise.all below; meanwhile not an unhandled rejection
    runs.push({
      name: entry.name,
      output,
      formatted: (rel) => (typeof formatted === 'function' ? formatted(ir, rel) : (formatted ?? false)),
      blind: entry.readsDescriptions === false,
    });
  };
  // An off-thread emitter runs on the host when it has more than a few connectors to emit; else here. A split emitter
  // without shared files and no connector to emit runs nowhere (it is not loaded).
  const emitCount = (e: EmitterEntry) => (!e.split ? ir.connectors.length : (missingFor(e)?.length ?? ir.connectors.length));
  const onlyConnectors = (e: EmitterEntry) => e.split !== undefined && !e.split.shared && !(e.split.service && makeService);
  const where = (e: EmitterEntry) => (onlyConnectors(e) && emitCount(e) === 0 ? 'nowhere' : e.offThread && emitCount(e) > IN_THREAD_MAX_CONNECTORS ? 'host' : 'here');
  const offThread = entries.filter((e) => where(e) === 'host'); // none with custom emitters: entries is then empty
  const host = offThread.length ? await hosts.get() : undefined;
  const context = { cacheDir: cacheDirOf(options), ...(host ? { compile: host.compile } : {}) };
  // The fragments (EmitterSplit.fragment) of the entries found: emitter → connector → text.
  const fragments = new Map<string, Map<string, string>>();
  for (const [id, cached] of [...hits, ...structureHits]) {
    for (const file of cached) {
      const owner = fragmentOwner(file.rel);
      if (owner !== undefined) (fragments.get(owner) ?? fragments.set(owner, new Map()).get(owner)!).set(id, textOf(file.content()));
    }
  }
  const inThread = options.emitters ? options.emitters.map((e) => ({ name: e.name, load: async () => e, asksHost: false })) : entries.filter((e) => where(e) === 'here');
  setRunKind(`generate:${inThread.map((e) => e.name).join(',')}`); // a cold run and an edit run different emitters here
  const startHere = async (entry: Pick<EmitterEntry, 'name' | 'load' | 'readsDescriptions' | 'asksHost'>) => {
    const emitter = await entry.load(context);
    // Each connector's files are encoded as soon as they are made: from there on the run holds bytes, and the texts
    // of one connector at a time (emitters/output-bytes.ts).
    // An emitter that waits on the host per connector (validators) starts its connectors ahead: one compile batch.
    start(entry, emitter.formatted, async () => {
      const connectors: [string, FileBytes][] = [];
      const shared = await runEmitter(emitter, ir, missingFor(entry), (id, files) => void connectors.push([id, encodeFiles(files)]), fragments.get(entry.name), undefined, entry.asksHost === true, makeService);
      return { shared: encodeFiles(shared), connectors };
    });
  };
  // Emitters that give the host work of their own (validators' compiling) start first, and their jobs reach the host
  // (one event-loop turn later) before the off-thread emitters': the main thread waits for their answers.
  for (const entry of inThread.filter((e) => e.asksHost)) await startHere(entry);
  if (host && inThread.some((e) => e.asksHost)) await new Promise((resolve) => setImmediate(resolve));
  // The connectors of an off-thread emitter without shared files are shared with this thread: the host claims them one
  // at a time, and so does this thread once its own emitters are done (the host's last job first), so neither waits
  // for the other with work left (a cold run of the 15-connector spec had this thread idle ~200 ms for the host).
  const shares = new Map(
    offThread.filter((e) => e.split && !e.split.shared && !e.split.service && missingFor(e)).map((e) => [e.name, { counter: new Int32Array(new SharedArrayBuffer(4)), taken: deferred<[string, FileBytes][]>() }]),
  );
  // The host takes the emitters it alone can run first; the shared ones after, from the end of which this thread takes.
  const hostOrder = [...offThread.filter((e) => !shares.has(e.name)), ...offThread.filter((e) => shares.has(e.name))];
  for (const e of hostOrder) {
    const share = shares.get(e.name);
    start(e, e.formatted, async () => {
      const [output, taken] = await Promise.all([host!.emit(e.name, ir, missingFor(e), context.cacheDir, fragments.get(e.name), share?.counter.buffer as SharedArrayBuffer | undefined, makeService), share?.taken.promise ?? []]);
      return { shared: output.shared, connectors: [...output.connectors, ...taken] };
    });
  }
  const ownRuns = runs.length;
  for (const entry of inThread.filter((e) => !e.asksHost)) await startHere(entry);
  if (shares.size > 0) {
    const own = runs.slice(ownRuns).map((r) => r.output);
    void Promise.allSettled(own).then(async () => {
      for (const e of [...hostOrder].reverse()) {
        const share = shares.get(e.name);
        if (!share) continue;
        try {
          const connectors: [string, FileBytes][] = [];
          const emitter = await e.load(context);
          await runClaimed(emitter, ir, missingFor(e)!, claimFrom(share.counter), (id, files) => void connectors.push([id, encodeFiles(files)]), true);
          share.taken.resolve(connectors);
        } catch (error) {
          share.taken.reject(error);
        }
      }
    });
  }
  const outputs = await Promise.all(runs.map((r) => r.output));
  hosts.stop(); // its work is done: its memory goes before the outputs are merged and cached
  const result: Emitted = { files: new Map(), kept: new Map(), emitted: new Map(), formattedBy: (rel) => owners.get(rel) ?? false };
  const owners = new Map<string, Formatted>();
  // New entries: whole ones of the connectors not found (pointing at their structure entry), structure ones likewise.
  const fresh = new Map<string, ConnectorEntry>(missing?.map((id) => [id, []]));
  const freshStructure = new Map<string, ConnectorEntry>(missingStructure?.map((id) => [id, []]));
  const freshService: ConnectorEntry = [];
  const add = (rel: string, formatted: Formatted, from: string) => {
    if (owners.has(rel)) throw new Error(`internal: emitters ${from} and another both write ${rel}`);
    owners.set(rel, formatted);
  };
  /** The new entry a connector's file of an emitter goes to. */
  const entryOf = (id: string, blind: boolean) => (id === SERVICE_FILES ? freshService : (blind ? freshStructure : fresh).get(id)!);
  outputs.forEach((output, i) => {
    const run = runs[i]!;
    for (const [rel, content] of output.shared) {
      add(rel, run.formatted(rel), run.name);
      result.files.set(rel, content);
    }
    for (const [id, own] of output.connectors) {
      for (const [rel, content] of own) {
        if (fragmentOwner(rel) !== undefined) {
          entryOf(id, run.blind).unshift([rel, content, false, sha256(content)]); // first: read without the files after it (readEntry)
          continue;
        }
        const formatted = run.formatted(rel);
        add(rel, formatted, run.name);
        result.files.set(rel, content);
        const hash = sha256(content);
        result.emitted.set(rel, hash);
        entryOf(id, run.blind).push([rel, content, formatted, hash]);
      }
    }
  });
  for (const [id, cached] of [...hits, ...structureHits, ...(serviceHit ? [[SERVICE_FILES, serviceHit] as const] : [])]) {
    for (const file of cached) {
      if (file.rel.startsWith('#')) continue; // a fragment or the pointer: never output
      add(file.rel, file.formatted, `(cache of ${id})`);
      if (file.kept) result.kept.set(file.rel, file.kept);
      else {
        result.files.set(file.rel, file.content());
        result.emitted.set(file.rel, file.hash);
      }
    }
  }
  // Stored now (the stores write synchronously: cache/store.ts); the run awaits what a store hands back before it ends.
  if (cache && keys) {
    for (const [id, entry] of fresh) entry.unshift([STRUCTURE_POINTER, structureKeys.get(id)!, false, sha256(structureKeys.get(id)!)]);
    pendingWrites.push(writeEntries(cache.dir, 'connectors', [...fresh].map(([id, entry]) => [keys.whole.get(id)!, entry])));
    pendingWrites.push(writeEntries(cache.dir, 'structure', [...freshStructure].map(([id, entry]) => [structureKeys.get(id)!, entry])));
    if (makeService) pendingWrites.push(writeEntries(cache.dir, 'service', [[keys.service, freshService]]));
  }
  return result;
}

/** A promise with its resolve and reject at hand. */
function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  promise.catch(() => undefined); // observed by the run's Promise.all; meanwhile not an unhandled rejection
  return { promise, resolve, reject };
}

/** Runs the whole pipeline. Throws SpecError for a bad spec (before anything is written). */
export async function generate(options: GenerateOptions): Promise<GenerateResult> {
  const { timings } = options;
  const cacheDir = cacheDirOf(options);
  // The spec directory (or a directory in it) as the output: the packages would be written among the spec's files.
  const fromSpec = path.relative(path.resolve(options.specDir), path.resolve(options.outDir));
  if (!fromSpec.startsWith('..') && !path.isAbsolute(fromSpec)) {
    throw new Error(`the output ${displayPath(options.outDir)} is ${fromSpec === '' ? 'the spec directory' : `inside the spec directory ${displayPath(options.specDir)}`}: give --out (or the config's "output") a directory of its own`);
  }
  // An output that is a file: a run could not write there, so --check says so too, at once (not "every file out of date").
  if (statOrUndefined(options.outDir)?.isDirectory() === false) {
    throw new Error(`the output ${displayPath(options.outDir)} is a file, not a directory: give --out (or the config's "output") a directory`);
  }
  // What an interrupted run left is finished first (or, for --check, reported).
  const pending = options.check ? await pendingTransaction(options.outDir, options.onLockWait) : (await recoverOutput(options.outDir, options.onLockWait), 'none');
  // Custom emitters run whole and uncached: the cache knows the built-in emitters only.
  const state = await timed(timings, 'stamp', async () => (options.emitters ? undefined : noopState(options, cacheDir)));
  const interrupted = pending === 'none' ? [] : [`(an interrupted generate left ${pending === 'completed' ? 'a transaction to complete' : 'staged files to discard'}; generate finishes it)`];
  if (state?.upToDate) {
    // Same content, other times (a touched or checked-out spec file): the stamp takes the new times, so the next run
    // (and the CLI's fast answer) knows the inputs without reading them.
    if (state.stamp && state.stamp.quick !== state.digest.quick) writeStamp(cacheDir, options.outDir, { ...state.stamp, quick: state.digest.quick });
    return { fileCount: state.fileCount, written: 0, removed: 0, outOfDate: interrupted };
  }

  const hosts = new HostStarter(cacheDir);
  if (state && !state.stamp) void hosts.get();
  // Cache writes (best effort, never failing) handed back by the stores; the run ends when they are done.
  const pendingWrites: Promise<unknown>[] = [];
  try {
    return await generateFromSpec(options, state, hosts, pendingWrites, interrupted, cacheDir);
  } finally {
    hosts.stop();
    await Promise.allSettled(pendingWrites);
  }
}

/** The part of a run after the no-op check: read the spec, emit, format, write. */
async function generateFromSpec(
  options: GenerateOptions,
  state: NoopState | undefined,
  hosts: HostStarter,
  pendingWrites: Promise<unknown>[],
  interrupted: string[],
  cacheDir: string,
): Promise<GenerateResult> {
  const { timings } = options;
  // Loaded only when there is work to do: these pull in yaml and ajv.
  const [{ emitterEntries }, { readSpec }, { applyPackaging }, { checkConnectorSelection, DEFAULT_PACKAGES }] = await Promise.all([
    import('./emitters/index.js'),
    import('./spec/read.js'),
    import('./config/packaging.js'),
    import('./config/config.js'),
  ]);
  const cache: RunCache | undefined = state && { dir: cacheDir, version: state.version };
  const spec = await readSpec(options.specDir, timings, cache, pendingWrites);
  if (cache) cache.inputs = spec.inputKeys;
  const { config } = options;
  if (config) checkConnectorSelection(config, spec.ir.connectors.map((c) => c.id));
  const ir = applyPackaging(spec.ir, config?.packages ?? DEFAULT_PACKAGES, config?.connectors, config?.releaseDir);
  const run = () => emitAndWrite(options, state, cache, hosts, pendingWrites, interrupted, cacheDir, ir, emitterEntries);
  // --check writes nothing; a write reads the output, plans and writes it holding its lock (withOutputLock).
  return options.check ? run() : withOutputLock(options.outDir, run, options.onLockWait);
}

/** Emits, formats, compares with the output and (unless --check) writes it and records it in the stamp. */
async function emitAndWrite(
  options: GenerateOptions,
  state: NoopState | undefined,
  cache: RunCache | undefined,
  hosts: HostStarter,
  pendingWrites: Promise<unknown>[],
  interrupted: string[],
  cacheDir: string,
  ir: SpecIR,
  emitterEntries: EmitterEntry[],
): Promise<GenerateResult> {
  const { timings } = options;
  const keep = state && keptByStamp(state.stamp, state.target, options.outDir);
  const { files, kept, emitted, formattedBy } = await emitAll(ir, options.emitters ? [] : emitterEntries, options, cache, hosts, pendingWrites, keep);
  const { formatOutput } = await import('./format/format.js');
  const { formatted: prettierFormatted, cached: prettierCached } = await timed(timings, 'format', () => formatOutput(options.outDir, files, formattedBy, path.join(cacheDir, 'format'), state?.styleFiles));
  // After formatting, which may add the output's own prettier config: the manifest lists every file of the output.
  files.set(MANIFEST_FILE, manifestText([...files.keys(), ...kept.keys()]));
  // Hashed once: the last run's stamp then vouches for the files it saw unchanged (they are not read), and the new stamp
  // keeps the hashes. A file prettier left alone is as emitted, and its emitted hash is already taken.
  const reformatted = new Set(prettierFormatted);
  const hashes = state && contentHashes(files, (rel) => (reformatted.has(rel) ? undefined : emitted.get(rel)));
  const plan = await timed(timings, 'plan', () => planOutput(options.outDir, files, state && knownByStamp(state.stamp, hashes!), new Set(kept.keys())));
  if (plan.overwrites.length > 0) throw new Error(overwriteRefusal(displayPath(options.outDir), plan.overwrites));
  const outOfDate = [...plan.added, ...plan.changed, ...plan.stale, ...plan.foreign].sort().concat(interrupted);
  const fileCount = files.size + kept.size;
  if (options.check) {
    if (state && outOfDate.length === 0) writeStamp(cacheDir, options.outDir, makeStamp(options.outDir, state.digest, state.target, hashes!, emitted, kept));
    return { fileCount, written: 0, removed: 0, foreign: plan.foreign, outOfDate, prettierFormatted, prettierCached };
  }
  await timed(timings, 'write', () => applyOutputHeld(options.outDir, files, plan));
  if (state) writeStamp(cacheDir, options.outDir, makeStamp(options.outDir, state.digest, state.target, hashes!, emitted, kept));
  return { fileCount, written: plan.added.length + plan.changed.length, removed: plan.stale.length, foreign: plan.foreign, outOfDate: [], prettierFormatted, prettierCached };
}
