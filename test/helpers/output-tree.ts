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
