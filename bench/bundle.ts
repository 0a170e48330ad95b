/**
 * Bundle benchmark: bytes a user ships for one method call — every connector's client (one method, runtime
 * included) and openapi-fetch making the same call — minified and gzip -9; and for a program that hands one
 * connector's agent tools to a framework (its `/tools` entry: every definition, the adapters, the client).
 * Deterministic: one run each.
 */
import path from 'node:path';
import { readSpec } from '../generator/spec/read.js';
import { bundleProgram, ONE_METHOD_BUDGET_BYTES, oneMethodProgram, openapiFetchProgram, sampleMethod, toolsProgram } from './bundle-size.js';
import { record } from './report.js';
import { printTable } from './stats.js';

/** Prints the bundle table; returns the payments figures (the README's example connector). */
export async function benchBundle(): Promise<void> {
  const { ir } = await readSpec(path.resolve(import.meta.dirname, '../spec'));
  const rows: string[][] = [];
  let largest = 0;
  let payments: { ours: number; peer: number } | undefined;
  for (const connector of ir.connectors) {
    const [ours, peer] = await Promise.all([bundleProgram(oneMethodProgram(connector)), bundleProgram(openapiFetchProgram(connector))]);
    const { entity, action } = sampleMethod(connector);
    largest = Math.max(largest, ours.gzipped);
    if (connector.id === 'payments') payments = { ours: ours.gzipped, peer: peer.gzipped };
    rows.push([`${connector.id} (${entity} ${action})`, String(ours.minified), String(ours.gzipped), String(peer.gzipped), (ours.gzipped / peer.gzipped).toFixed(2)]);
  }
  console.log('\none-method bundle (esbuild --bundle --minify, gzip -9; runtime included) vs openapi-fetch making the same call');
  printTable(['program', 'min B', 'gzip B', 'openapi-fetch gzip B', 'ratio'], rows);
  record({ id: 'bundle.payments.gzip_bytes', label: 'one-method bundle, payments (gzip)', value: payments!.ours, unit: 'B', peer: { name: 'openapi-fetch', value: payments!.peer }, target: { on: 'value', op: '<=', limit: ONE_METHOD_BUDGET_BYTES } });
  const tools: string[][] = [];
  for (const connector of ir.connectors) {
    const bundle = await bundleProgram(toolsProgram(connector));
    const count = connector.entities.reduce((n, e) => n + e.actions.length, 0);
    tools.push([connector.id, String(count), String(bundle.minified), String(bundle.gzipped)]);
  }
  console.log('\nagent tools: one connector\'s /tools entry handed to openaiTools (client, definitions, adapters; minified, gzip -9)');
  printTable(['connector', 'tools', 'min B', 'gzip B'], tools);
  console.log(
    `payments: ${payments!.ours} B gz vs openapi-fetch ${payments!.peer} B gz (${(payments!.ours / payments!.peer).toFixed(2)}x); target <= ${ONE_METHOD_BUDGET_BYTES} B: ${payments!.ours <= ONE_METHOD_BUDGET_BYTES ? 'met' : 'MISSED'}; largest connector ${largest} B`,
  );
}
