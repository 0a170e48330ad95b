/**
 * What an npm tarball holds, file by file: publish compares a version already on the registry with the package it
 * would publish under that version. Tarball bytes differ between npm versions and umasks (gzip, file modes), so the
 * comparison is of paths and contents only. A package tarball is a gzipped ustar archive whose entries sit under
 * `package/`; long paths come in pax headers (`x` entries) — the two things read here.
 */
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';

const BLOCK = 512;
/** Largest unpacked tarball read (a generated package unpacks to a few MB): a gzip bomb stops here. */
const MAX_UNPACKED_BYTES = 256 * 1024 * 1024;

/** sha256 (hex) of each regular file of a package tarball, by its path inside the package (`dist/esm/index.js`). */
export function tarballDigests(gzipped: Uint8Array): Map<string, string> {
  const tar = gunzipSync(gzipped, { maxOutputLength: MAX_UNPACKED_BYTES });
  const out = new Map<string, string>();
  let paxPath: string | undefined;
  for (let at = 0; at + BLOCK <= tar.length; ) {
    const header = tar.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) break; // the end-of-archive blocks
    const size = parseInt(text(header, 124, 12).trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0) throw new Error(`not a tar archive: an entry at byte ${at} has no size`);
    const type = String.fromCharCode(header[156] ?? 0);
    const body = tar.subarray(at + BLOCK, at + BLOCK + size);
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x') {
      paxPath = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString('utf8'))?.[1];
      continue;
    }
    const prefix = text(header, 345, 155);
    const name = paxPath ?? (prefix ? `${prefix}/${text(header, 0, 100)}` : text(header, 0, 100));
    paxPath = undefined;
    if (type !== '0' && type !== '\0') continue; // directories, links: npm packs regular files only
    out.set(name.replace(/^[^/]*\//, ''), createHash('sha256').update(body).digest('hex'));
  }
  return out;
}

/** A NUL-terminated header field. */
function text(header: Uint8Array, offset: number, length: number): string {
  const field = Buffer.from(header.subarray(offset, offset + length));
  const end = field.indexOf(0);
  return field.subarray(0, end < 0 ? length : end).toString('utf8');
}

/** sha256 (hex) of a file's content, as tarballDigests gives it. */
export function contentDigest(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/** Paths whose content differs between two digests maps, or that only one holds; sorted. */
export function differingPaths(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): string[] {
  const paths = new Set([...a.keys(), ...b.keys()]);
  return [...paths].filter((p) => a.get(p) !== b.get(p)).sort();
}
