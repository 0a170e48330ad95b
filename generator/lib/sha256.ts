/** sha256 with node:crypto loaded on first use: a no-op run (nothing changed) hashes nothing and does not load it. */
import type { Hash } from 'node:crypto';
import { createRequire } from 'node:module';

let crypto: typeof import('node:crypto') | undefined;

/** A new sha256 hash to feed. */
export function sha256Hash(): Hash {
  crypto ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  return crypto.createHash('sha256');
}

/** sha256 of a string (as UTF-8) or bytes, hex. */
export function sha256(data: string | Uint8Array): string {
  return sha256Hash().update(data).digest('hex');
}
