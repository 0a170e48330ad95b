// The CLI runs from a build of itself: one ES module bundled by esbuild from generator/cli/main.ts, kept in
// node_modules/.cache/connector-codegen-cli/ under the hash of the sources, rebuilt when they change (npm ci builds it
// through `prepare`). Running from source through tsx costs a loader thread and ~100 ms at every start. Each module's
// import.meta.url stays its own source file's URL, so every path relative to a source file resolves as from source.
// If building is impossible, the CLI runs from source through tsx.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ownImportMetaUrl } from '../generator/lib/own-import-meta-url.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCES = ['generator', 'mock', 'runtime/src', 'mcp/src', 'bin/cli-build.mjs'];
const cacheDir = path.join(root, 'node_modules/.cache/connector-codegen-cli');

/** The source files under a directory (or the file itself). */
function files(entry) {
  const full = path.join(root, entry);
  try {
    return readdirSync(full, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile() && /\.(ts|mjs|json)$/.test(d.name))
      .map((d) => path.join(d.parentPath, d.name));
  } catch {
    return existsSync(full) ? [full] : []; // a file, not a directory
  }
}

/** Hash of every source the bundle is built from. */
function sourceHash() {
  const hash = createHash('sha256');
  for (const file of SOURCES.flatMap(files).sort()) hash.update(path.relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/** Builds the bundle for the current sources (atomically) and returns its path. */
export async function buildCli() {
  const hash = sourceHash();
  const target = path.join(cacheDir, `cli-${hash}.mjs`);
  if (existsSync(target)) return target;
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [path.join(root, 'generator/cli/main.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'silent',
    plugins: [ownImportMetaUrl],
  });
  mkdirSync(cacheDir, { recursive: true });
  // Builds of other sources go; another process's build of these sources is left alone.
  for (const old of readdirSync(cacheDir)) if (old.startsWith('cli-') && !old.startsWith(`cli-${hash}`)) rmSync(path.join(cacheDir, old), { force: true });
  const temp = `${target}.${process.pid}.tmp`;
  writeFileSync(temp, result.outputFiles[0].text);
  renameSync(temp, target);
  return target;
}

/** The CLI module: from the build when it can be had, else from source through tsx. */
export async function loadCli() {
  if (!process.env.CONNECTOR_CODEGEN_FROM_SOURCE) {
    try {
      return await import(pathToFileURL(await buildCli()).href);
    } catch {
      // fall through: run from source
    }
  }
  const { register } = await import('tsx/esm/api');
  register();
  return import('../generator/cli/main.ts');
}

// `node bin/cli-build.mjs` (npm's prepare): build it now.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await buildCli();
