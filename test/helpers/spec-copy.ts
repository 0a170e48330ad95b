/** A copy of the real spec with every YAML map's keys in reverse order: same contract, other key order. */
import { cp, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { isMap, parseDocument, visit } from 'yaml';

/** The repository's spec directory. */
export const realSpecDir = path.resolve(import.meta.dirname, '../../spec');

/** Writes the reordered copy into a new temp directory named `spec` (generated headers name it) and returns it. */
export async function reversedSpecCopy(): Promise<string> {
  const copy = path.join(await mkdtemp(path.join(os.tmpdir(), 'codegen-reordered-')), 'spec');
  await cp(realSpecDir, copy, { recursive: true });
  for (const f of ['service.yaml', ...(await readdir(path.join(copy, 'connectors'))).map((n) => `connectors/${n}`)]) {
    const doc = parseDocument(await readFile(path.join(copy, f), 'utf8'));
    visit(doc, { Map: (_, node) => void (isMap(node) && node.items.reverse()) });
    await writeFile(path.join(copy, f), doc.toString());
  }
  return copy;
}
