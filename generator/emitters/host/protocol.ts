/** Messages between the main thread (emitter-host.ts) and the emitter host's worker (worker.ts). */
import type { SpecIR } from '../../ir.js';
import type { PackedFiles } from '../output-bytes.js';
import type { Piece } from '../validators/piece.mjs';

/** A job for the host; answered by a HostAnswer with the same `id`. */
export type HostRequest =
  | {
      /** Job number, unique in a run. */
      id: number;
      kind: 'emit';
      /** The emitter's name (emitters/index.ts). */
      name: string;
      /** The IR, sent with the first job of a run only; later jobs use the last one sent. */
      ir?: SpecIR;
      /** Connectors to emit (with the emitter's shared files); undefined: the whole emitter. */
      ids: string[] | undefined;
      /** The run's cache directory (EmitterContext). */
      cacheDir: string;
      /** The cached fragments of the connectors not in `ids` (id, text), for the shared files (emitters/run.ts). */
      fragments?: [id: string, text: string][];
      /**
       * Shared with the main thread: the connectors of `ids` are claimed one at a time from this counter (an Int32
       * at 0, emitters/run.ts claimFrom), so the main thread can take some; only for an emitter without shared files.
       */
      claim?: SharedArrayBuffer;
      /** Make the emitter's service files too (emitters/run.ts runEmitter `withService`). */
      service?: boolean;
    }
  | {
      /** Job number, unique in a run. */
      id: number;
      kind: 'compile';
      /** Validator schemas as JSON texts. */
      schemas: string[];
    };

/** The answer to one HostRequest. */
export type HostAnswer =
  | {
      /** The request's id. */
      id: number;
      /** An emit job's shared files (files cross threads as bytes, one transferred buffer each: output-bytes.ts). */
      shared: PackedFiles;
    }
  | {
      /** The request's id. */
      id: number;
      /** One connector's files of an emit job, sent as soon as made (more may follow, then the answer). */
      part: [id: string, files: PackedFiles];
    }
  | {
      /** The request's id. */
      id: number;
      /** What a compile job made, one piece per schema. */
      pieces: Piece[];
    }
  | {
      /** The request's id. */
      id: number;
      /** Why the job failed. */
      error: string;
    };
