/** An output directory as generate wrote it: relative path → content, without build products (dist/, .build/, …). */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isBuildProduct } from '../../generator/write.js';

/** Reads every generated file under `dir`. */
export async function readOutputTree(dir: string, prefix = ''): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (isBuildProduct(rel)) continue;
    if (e.isDirectory()) for (const [k, v] of await readOutputTree(path.join(dir, e.name), rel)) out.set(k, v);
    else out.set(rel, await readFile(path.join(dir, e.name), 'utf8'));
  }
  return out;
}

/**
 * A new output directory inside a temp "project" that has the repository's prettier config, as generated/ has: the
 * output is then formatted in the generated style without a config of its own (see generator/format/style.ts).
 */
export async function projectOutDir(name: string): Promise<string> {
  const { copyFile, mkdtemp } = await import('node:fs/promises');
  const os = await import('node:os');
  const project = await mkdtemp(path.join(os.tmpdir(), `codegen-${name}-`));
  await copyFile(path.resolve(import.meta.dirname, '../../.prettierrc.json'), path.join(project, '.prettierrc.json'));
  return path.join(project, 'out');
}
