/** Where the caches live. A module of its own: the config's memo (config/valid-texts.ts) needs it without the rest. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The default cache directory: outside the committed tree, safe to delete. */
export const DEFAULT_CACHE_DIR = path.join(repoRoot, 'node_modules/.cache/connector-codegen');

/**
 * The cache directory of a run: `cacheDir` when given (GenerateOptions.cacheDir), else CONNECTOR_CODEGEN_CACHE_DIR when
 * set, else DEFAULT_CACHE_DIR.
 */
export function cacheDirOf(options: { cacheDir?: string }): string {
  return path.resolve(options.cacheDir ?? (process.env.CONNECTOR_CODEGEN_CACHE_DIR || DEFAULT_CACHE_DIR));
}
