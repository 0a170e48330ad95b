/**
 * A spec `factor` times the size of the real one, for the scaling bench: every connector cloned factor − 1 times
 * under new ids (`<id>_x2` … `<id>_x<factor>`), with what service.yaml says of each connector (the connector
 * list, write actions, authentication, limits) cloned alike, so the clones are whole connectors that validate.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, isSeq, parseDocument, type Document, type YAMLMap } from 'yaml';

/** The id of copy `k` (2 … factor) of a connector. */
export const cloneId = (id: string, k: number): string => `${id}_x${k}`;

/** Writes the `factor`× spec into `destDir` (replacing it) from `srcSpecDir`; returns the number of connectors. */
export function writeSyntheticSpec(srcSpecDir: string, destDir: string, factor: number): number {
  rmSync(destDir, { recursive: true, force: true });
  mkdirSync(path.join(destDir, 'connectors'), { recursive: true });
  for (const entry of readdirSync(srcSpecDir)) if (entry !== 'connectors') cpSync(path.join(srcSpecDir, entry), path.join(destDir, entry), { recursive: true });
  const files = readdirSync(path.join(srcSpecDir, 'connectors')).filter((f) => /\.ya?ml$/.test(f));
  const ids: string[] = [];
  for (const file of files) {
    const text = readFileSync(path.join(srcSpecDir, 'connectors', file), 'utf8');
    writeFileSync(path.join(destDir, 'connectors', file), text);
    const id = path.basename(file).replace(/\.ya?ml$/, '');
    ids.push(id);
    for (let k = 2; k <= factor; k++) {
      const doc = parseDocument(text);
      doc.set('id', cloneId(id, k));
      doc.set('title', `${String(doc.get('title'))} ${k}`);
      writeFileSync(path.join(destDir, 'connectors', `${cloneId(id, k)}${path.extname(file)}`), doc.toString());
    }
  }
  const service = parseDocument(readFileSync(path.join(srcSpecDir, 'service.yaml'), 'utf8'));
  cloneServiceEntries(service, new Set(ids), factor);
  writeFileSync(path.join(destDir, 'service.yaml'), service.toString());
  return files.length * factor;
}

/** Clones every per-connector entry of service.yaml: map keys and list items naming a connector, limit rows. */
function cloneServiceEntries(service: Document, ids: Set<string>, factor: number): void {
  const copies = (id: string) => Array.from({ length: factor - 1 }, (_, i) => cloneId(id, i + 2));
  const connectors = service.get('connectors');
  if (isSeq(connectors)) {
    for (const item of [...connectors.items]) if (isScalar(item) && ids.has(String(item.value))) for (const c of copies(String(item.value))) connectors.add(c);
  }
  const keyed = (map: unknown) => {
    if (!isMap(map)) return;
    for (const pair of [...(map as YAMLMap).items]) {
      const key = isScalar(pair.key) ? String(pair.key.value) : '';
      if (ids.has(key)) for (const c of copies(key)) map.set(c, service.createNode(service.getIn([...pathOf(map), key])));
    }
  };
  const pathOf = (map: unknown) => (map === service.get('writeActions') ? ['writeActions'] : ['authentication', 'connectors']);
  keyed(service.get('writeActions'));
  keyed(service.getIn(['authentication', 'connectors']));
  const limits = service.get('limits');
  if (isSeq(limits)) {
    for (const row of [...limits.items]) {
      if (!isMap(row)) continue;
      const owner = row.getIn(['appliesTo', 'connector']);
      if (typeof owner !== 'string' || !ids.has(owner)) continue;
      for (const c of copies(owner)) {
        const copy = service.createNode(row.toJSON()) as YAMLMap;
        copy.setIn(['appliesTo', 'connector'], c);
        copy.set('where', `${String(row.get('where'))} (${c})`);
        limits.add(copy);
      }
    }
  }
}
