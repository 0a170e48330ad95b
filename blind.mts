import { readSpec } from './generator/spec/read.js';
import { loadEmitters } from './generator/emitters/index.js';
import { onlyConnector } from './generator/emitters/types.js';
const { ir } = await readSpec('spec');
const clone = structuredClone(ir);
let n = 0;
const mutate = (v: any): void => {
  if (Array.isArray(v)) v.forEach(mutate);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { if (k === 'description' && typeof x === 'string') { v[k] = x + ' (changed)'; n++; } else mutate(x); }
};
clone.connectors.forEach(mutate);
console.log('mutated', n);
for (const e of await loadEmitters()) {
  if (!e.split) { console.log(e.name, 'no split'); continue; }
  const diffs = new Set<string>();
  for (let i = 0; i < ir.connectors.length; i++) {
    const [a, b] = [ir.connectors[i]!, clone.connectors[i]!];
    const fa = await e.split.connector(onlyConnector(ir, a), a), fb = await e.split.connector(onlyConnector(clone, b), b);
    for (const [rel, t] of fa) if (fb.get(rel) !== t) diffs.add(rel.replace(a.id, '*'));
    if (e.split.fragment && e.split.fragment(onlyConnector(ir, a), a) !== e.split.fragment(onlyConnector(clone, b), b)) diffs.add('#fragment');
  }
  console.log(e.name, diffs.size ? [...diffs].slice(0, 8).join(' ') : 'BLIND');
}
