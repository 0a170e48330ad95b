/**
 * Phase 5 — write: bring an output directory to exactly the given files. Only files whose content changed are
 * written, stale files are removed, and a failure never leaves a half-written tree: every changed file is first
 * written beside its target under a temporary name, and only when all of them are written are they renamed
 * into place (renames within a directory are atomic).
 */
import { mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** Generated files: path relative to the output directory (forward slashes) → content. */
export type FileMap = Map<string, string>;

/** How the directory differs from the wanted files. */
export interface OutputPlan {
  /** Files to create. */
  added: string[];
  /** Files whose content differs. */
  changed: string[];
  /** Files present but no longer generated. */
  stale: string[];
  /** Files already up to date. */
  unchanged: number;
}

/** Files the writer never touches: VCS files. */
const KEEP = new Set(['.gitkeep']);

/**
 * Directories inside the output that hold what users make of it, not what generate writes: installed
 * dependencies, and the build products of `connector-codegen build` and `npm pack` (see the output's .gitignore).
 */
const NOT_OUTPUT_DIRS = new Set(['node_modules', 'dist', '.build']);

/** Whether a path relative to the output directory is a build product or installed dependency, never output. */
export function isBuildProduct(rel: string): boolean {
  return rel.split('/').some((part) => NOT_OUTPUT_DIRS.has(part)) || rel.endsWith('.tgz');
}

async function listFiles(dir: string, prefix = ''): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const e of entries) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (isBuildProduct(rel)) continue;
    if (e.isDirectory()) out.push(...(await listFiles(path.join(dir, e.name), rel)));
    else if (!KEEP.has(e.name)) out.push(rel);
  }
  return out;
}

/** Compares `files` with what is on disk under `outDir`. */
export async function planOutput(outDir: string, files: FileMap): Promise<OutputPlan> {
  const existing = new Set(await listFiles(outDir));
  const plan: OutputPlan = { added: [], changed: [], stale: [], unchanged: 0 };
  await Promise.all(
    [...files].map(async ([rel, content]) => {
      if (!existing.has(rel)) return plan.added.push(rel);
      const current = await readFile(path.join(outDir, rel), 'utf8');
      if (current === content) plan.unchanged++;
      else plan.changed.push(rel);
    }),
  );
  plan.stale = [...existing].filter((f) => !files.has(f) && !f.includes('.codegen-tmp-'));
  plan.added.sort();
  plan.changed.sort();
  plan.stale.sort();
  return plan;
}

/** Applies a plan: writes added and changed files aside, swaps them in, then removes stale files. */
export async function applyOutput(outDir: string, files: FileMap, plan: OutputPlan): Promise<void> {
  const toWrite = [...plan.added, ...plan.changed].sort();
  const suffix = `.codegen-tmp-${process.pid}`;
  // Temp files are written concurrently. allSettled, not all: cleanup must wait for every write in flight, or a
  // late one would leave a temp file behind. If anything failed, every temp file goes and nothing was replaced.
  const dirs = [...new Set(toWrite.map((rel) => path.dirname(path.join(outDir, rel))))];
  const made = await Promise.allSettled(dirs.map((dir) => mkdir(dir, { recursive: true })));
  const wrote = made.every((r) => r.status === 'fulfilled') ? await Promise.allSettled(toWrite.map((rel) => writeFile(path.join(outDir, rel) + suffix, files.get(rel)!))) : [];
  const failure = [...made, ...wrote].find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) {
    await Promise.all(toWrite.map((rel) => rm(path.join(outDir, rel) + suffix, { force: true })));
    throw failure.reason;
  }
  for (const rel of toWrite) {
    const target = path.join(outDir, rel);
    await rename(target + suffix, target);
  }
  for (const rel of plan.stale) {
    await rm(path.join(outDir, rel), { force: true });
    await removeEmptyParents(outDir, path.dirname(path.join(outDir, rel)));
  }
}

async function removeEmptyParents(root: string, dir: string): Promise<void> {
  const resolvedRoot = path.resolve(root);
  let current = path.resolve(dir);
  while (current.startsWith(resolvedRoot + path.sep)) {
    try {
      await rmdir(current); // fails when not empty: that ends the walk
    } catch {
      return;
    }
    current = path.dirname(current);
  }
}
