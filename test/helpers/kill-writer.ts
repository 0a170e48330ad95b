/**
 * Child process of the kill test: applies a planned output with the real writer and kills itself (SIGKILL, no cleanup
 * of any kind) when the writer reaches step `k`. Arguments: <job.json> <k>. The job holds outDir, files and plan.
 */
import { readFileSync } from 'node:fs';
import { applyOutput, type OutputPlan } from '../../generator/write.js';

const [jobFile, stepArg] = process.argv.slice(2);
const job = JSON.parse(readFileSync(jobFile!, 'utf8')) as { outDir: string; files: [string, string][]; plan: OutputPlan };
const killAt = Number(stepArg);
let step = 0;
await applyOutput(job.outDir, new Map(job.files), job.plan, () => {
  if (step++ === killAt) process.kill(process.pid, 'SIGKILL');
});
console.log(`finished after ${step} steps`);
