/**
 * A larger spec made from a real one, for measuring how generation scales (npm run bench) and for tests: every
 * connector cloned `factor − 1` times under new ids (`<id>_x2`, `<id>_x3`, …; the original keeps its id). The clones
 * are textual copies with only the `id:` and `title:` lines changed; service.yaml lists them (`connectors`) and gives
 * them their original's write actions (`writeActions`), so they validate as the originals do.
 */
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isMap, isSeq, parseDocument, Scalar } from 'yaml';

/** The connectors a synthetic spec has: `factor` × the source's. */
export interface SyntheticSpec {
  /** The spec directory written. */
  specDir: string;
  /** Connector ids, sorted. */
  connectors: string[];
}

/**
 * Writes into `destDir` (created; its `connectors/` must not hold other files) the spec of `srcSpecDir` with every
 * connector present `factor` times (an integer ≥ 1). Everything else (service.yaml, README) is copied as is.
 */
export async function writeSyntheticSpec(srcSpecDir: string, destDir: string, factor: number): Promise<SyntheticSpec> {
  if (!Number.isInteger(factor) || factor < 1) throw new Error(`synthetic spec: factor must be an integer ≥ 1, got ${factor}`);
  await mkdir(destDir, { recursive: true });
  await cp(srcSpecDir, destDir, { recursive: true, filter: (src) => !src.startsWith(path.join(srcSpecDir, 'connectors') + path.sep) });
  const connectorsDir = path.join(destDir, 'connectors');
  await mkdir(connectorsDir, { recursive: true });
  const ids: string[] = [];
  for (const name of (await readdir(path.join(srcSpecDir, 'connectors'))).sort()) {
    const ext = path.extname(name);
    if (!['.yaml', '.yml'].includes(ext)) continue;
    const text = await readFile(path.join(srcSpecDir, 'connectors', name), 'utf8');
    const id = /^id:\s*(\S+)\s*$/m.exec(text)?.[1];
    if (!id) throw new Error(`synthetic spec: no top-level id line in ${name}`);
    for (let copy = 1; copy <= factor; copy++) {
      const cloneId = copy === 1 ? id : `${id}_x${copy}`;
      const clone = copy === 1 ? text : text.replace(/^id:.*$/m, `id: ${cloneId}`).replace(/^title:(.*)$/m, `title:$1 ${copy}`);
      await writeFile(path.join(connectorsDir, `${cloneId}${ext}`), clone);
      ids.push(cloneId);
    }
  }
  await writeFile(path.join(destDir, 'service.yaml'), withClones(await readFile(path.join(srcSpecDir, 'service.yaml'), 'utf8'), factor));
  return { specDir: destDir, connectors: ids.sort() };
}

/** service.yaml with each connector's clones listed after it and given its write actions. */
function withClones(text: string, factor: number): string {
  const doc = parseDocument(text);
  const cloneIds = (id: string) => Array.from({ length: factor - 1 }, (_, i) => `${id}_x${i + 2}`);
  const list = doc.get('connectors');
  if (isSeq(list)) list.items = list.items.flatMap((item) => [item, ...cloneIds(String((item as Scalar).value ?? item)).map((id) => doc.createNode(id))]);
  const writes = doc.get('writeActions');
  if (isMap(writes)) {
    writes.items = writes.items.flatMap((pair) => {
      const id = String((pair.key as Scalar).value ?? pair.key);
      return [pair, ...cloneIds(id).map((clone) => doc.createPair(clone, (pair.value as { toJSON(): unknown }).toJSON()))];
    });
  }
  return doc.toString();
}
