/**
 * Emitted files as UTF-8 bytes: what a run keeps from the moment an emitter has made a connector's files until they
 * are written. Generated text with a character beyond Latin-1 (an arrow or a dash in a description) is a two-byte
 * string in V8, so as bytes the output takes about two thirds of the memory, off the JavaScript heap; it is then hashed
 * and written without being encoded again. Encoding one connector at a time keeps the texts of one connector alive at
 * a time (at 8× the spec: a peak of ~300 MiB instead of ~420). Files cross from the emitter host to the main thread
 * packed in one buffer per connector, transferred rather than copied.
 */
import type { EmittedFiles } from './types.js';

/** Files by path (relative to the output directory) as bytes. */
export type FileBytes = Map<string, Uint8Array>;

/** What one emitter made, as bytes (emitters/run.ts runEmitter). */
export interface EncodedOutput {
  /** Files not owned by one connector (all of an emitter without a split). */
  shared: FileBytes;
  /** Connector id → that connector's files, for the connectors asked for. */
  connectors: [string, FileBytes][];
}

/** Files packed into one buffer of their own (transferable): paths, and where each file's bytes end. */
export interface PackedFiles {
  /** The files' paths, in order. */
  rels: string[];
  /** The end offset of each file's bytes in `bytes`. */
  ends: number[];
  /** Every file's bytes, one after another. */
  bytes: Uint8Array;
}

/** Packs `files` into one buffer that is not shared with others (Buffer's pool), so it can be transferred. */
export function packFiles(files: EmittedFiles): PackedFiles {
  const rels = [...files.keys()];
  let total = 0;
  for (const content of files.values()) total += Buffer.byteLength(content, 'utf8');
  const bytes = Buffer.allocUnsafeSlow(total);
  const ends: number[] = [];
  let at = 0;
  for (const content of files.values()) {
    at += bytes.write(content, at, 'utf8');
    ends.push(at);
  }
  return { rels, ends, bytes };
}

/** The files of a pack, each a view of the pack's buffer. */
export function unpackFiles(packed: PackedFiles): FileBytes {
  const buffer = Buffer.from(packed.bytes.buffer, packed.bytes.byteOffset, packed.bytes.byteLength);
  return new Map(packed.rels.map((rel, i) => [rel, buffer.subarray(i === 0 ? 0 : packed.ends[i - 1], packed.ends[i])]));
}

const encoder = new TextEncoder();

/** Encodes files, each on its own: one pass over each text (packFiles makes two: its length in bytes, then its bytes). */
export function encodeFiles(files: EmittedFiles): FileBytes {
  const out: FileBytes = new Map();
  for (const [rel, content] of files) out.set(rel, encoder.encode(content));
  return out;
}

/** The text of UTF-8 bytes, decoded in place (no copy). */
export function textOf(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}
