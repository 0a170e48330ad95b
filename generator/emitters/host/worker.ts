/**
 * The emitter host's worker thread (see emitter-host.ts): runs the jobs the main thread sends, one at a time in the
 * order received — an emitter (loaded on its first job) or a batch of validator schemas to compile. The CLI build
 * (bin/cli-build.cjs) bundles every `emitters/<name>/worker.ts` as an entry of its own, so a run starts the worker
 * without bundling anything.
 */
import { parentPort } from 'node:worker_threads';
import type { SpecIR } from '../../ir.js';
import { emitterEntries } from '../index.js';
import { packFiles } from '../output-bytes.js';
import { claimFrom, runEmitter } from '../run.js';
import type { HostAnswer, HostRequest } from './protocol.js';

let ir: SpecIR | undefined;
/**
 * The code of every job this host may get, loaded as soon as the worker starts: a run starts its host before (or
 * while) the main thread reads the spec, so loading overlaps that instead of delaying the first job. A failure here
 * is left for the job that needs the module to report.
 */
let queue: Promise<unknown> = Promise.all([import('../validators/compile.mjs'), ...emitterEntries.filter((e) => e.offThread).map((e) => e.load())]).catch(() => undefined);

parentPort!.on('message', (request: HostRequest) => {
  if (request.kind === 'emit' && request.ir) ir = request.ir;
  queue = queue.then(async () => send(await answer(request)));
});

/** Posts a message, transferring the buffers of the files it carries (they are not used here again). */
function send(message: HostAnswer): void {
  const pack = 'part' in message ? message.part[1] : 'shared' in message ? message.shared : undefined;
  parentPort!.postMessage(message, pack ? [pack.bytes.buffer as ArrayBuffer] : []);
  if (!('part' in message)) jobDone?.(`host:${jobKind}`);
}

/** Set by bin/script-worker.cjs when this runs from the CLI build: adds what a kind of job compiled to the code cache. */
const jobDone = (globalThis as { connectorCodegenJobDone?: (kind: string) => void }).connectorCodegenJobDone;
/** The kind of the job under way: `compile`, or the emitter's name. */
let jobKind = '';

async function answer(request: HostRequest): Promise<HostAnswer> {
  jobKind = request.kind === 'emit' ? request.name : request.kind;
  try {
    if (request.kind === 'compile') {
      const { compilePieces } = await import('../validators/compile.mjs');
      return { id: request.id, pieces: compilePieces(request.schemas.map((json) => JSON.parse(json) as object)) };
    }
    const entry = emitterEntries.find((e) => e.name === request.name);
    if (!entry) throw new Error(`internal: no emitter named ${request.name}`);
    if (!ir) throw new Error('internal: an emit job came before the IR');
    const emitter = await entry.load({ cacheDir: request.cacheDir });
    // Each connector's files go as soon as they are made: the host never holds more than one connector's.
    const claim = request.claim && claimFrom(new Int32Array(request.claim));
    const shared = await runEmitter(emitter, ir, request.ids, (id, files) => send({ id: request.id, part: [id, packFiles(files)] }), new Map(request.fragments), claim, false, request.service === true);
    return { id: request.id, shared: packFiles(shared) };
  } catch (error) {
    return { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
}
