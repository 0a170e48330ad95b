import { readSpec } from '../generator/spec/read.js';
import { emitterEntries } from '../generator/emitters/index.js';
import { runEmitter } from '../generator/emitters/run.js';
import { applyPackaging } from '../generator/config/packaging.js';
import { DEFAULT_PACKAGES } from '../generator/config/config.js';
const only = process.argv[2];
let t = process.cpuUsage();
const spec = await readSpec('/work/main/spec');
const ir = applyPackaging(spec.ir, DEFAULT_PACKAGES);
const ms = () => { const d = process.cpuUsage(t); t = process.cpuUsage(); return ((d.user + d.system) / 1000).toFixed(0); };
console.log('readSpec', ms());
for (const e of emitterEntries) {
  if (only && e.name !== only) continue;
  if (e.name === 'validators') continue;
  const em = await e.load();
  const l = ms();
  const out = await runEmitter(em, ir, undefined);
  let bytes = 0; for (const [, c] of out.shared) bytes += c.length; for (const [, m] of out.connectors) for (const [, c] of m) bytes += c.length;
  console.log(e.name.padEnd(16), 'load', l.padStart(5), 'emit', ms().padStart(5), 'ms cpu', bytes, 'B');
}
