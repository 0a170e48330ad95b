/**
 * Generation benchmark, side by side with the peers, every process new (as a user runs them), costs read from
 * the kernel (bench/child-usage.ts: CPU seconds of user + system, wall, peak RSS), medians:
 * - cold `connector-codegen generate` (empty output, no cache; Node started as `npm run generate` starts it) beside
 *   openapi-typescript and @hey-api/openapi-ts generating from our own OpenAPI export
 *   (generated/openapi/<connector>.json, all 15 documents, one process each), and a no-op run (nothing changed)
 *   beside `node -e 0`; interleaved round by round, the order rotating;
 * - one-connector edits against the cold runs above, interleaved with them, of two kinds, each in a copy of the spec
 *   whose output and cache are kept from run to run, a different connector each time, every connector once: a
 *   description changed (only the emitters that read descriptions run), and a record field added or renamed (a
 *   structural edit: every emitter runs for that connector, its validators are compiled); the short runs (edits,
 *   no-op, `node -e 0`) go several times a round, as many in all as there are connectors;
 * - 1×/2×/4×/8× synthetic specs (connectors cloned under new ids), cold, interleaved: CPU, wall, peak memory.
 * Knobs: BENCH_RUNS (rounds, default 5), BENCH_SCALE_RUNS (default 3), BENCH_SCALE_FACTORS (default 1,2,4,8).
 * Every cold run gets an empty cache directory and an output directory of its own, and nothing is deleted until the
 * bench is done: on a file system that is slow to create files right after many were deleted (ext4 without a
 * journal, see the README), deleting the last run's ~2,000 files before the next would be measured as the next run's cost.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isMap, isScalar, parseDocument, type Document, type YAMLMap } from 'yaml';
import { type ChildUsage, runMeasured } from './child-usage.js';
import { keepSection, record } from './report.js';
import { linearFit, median, printTable } from './stats.js';
import { writeSyntheticSpec } from '../generator/lib/synthetic-spec.js';

const repo = path.resolve(import.meta.dirname, '..');
const bin = path.join(repo, 'bin/connector-codegen.js');
const specDir = path.join(repo, 'spec');
const runs = Number(process.env.BENCH_RUNS ?? 5);
const scaleRuns = Number(process.env.BENCH_SCALE_RUNS ?? 3);
const factors = (process.env.BENCH_SCALE_FACTORS ?? '1,2,4,8').split(',').map(Number);

/**
 * The environment without NODE_EXTRA_CA_CERTS, when it is set: Node then parses that certificate file as every process
 * starts (~37 ms of CPU for Debian's bundle on the bench machine), a cost of the machine that no tool here needs. The
 * no-op and `node -e 0` are measured both ways; every other figure runs in the environment as given.
 */
const withoutExtraCerts = process.env.NODE_EXTRA_CA_CERTS === undefined ? undefined : Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'NODE_EXTRA_CA_CERTS'));

/**
 * The Node options `npm run generate` starts the CLI with (package.json's script: `node <options> bin/… generate`), so
 * the bench runs generate as users do.
 */
const generateNodeOptions = (() => {
  const script = (JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.generate!;
  const words = script.split(/\s+/);
  if (words[0] !== 'node' || words.at(-2) !== path.relative(repo, bin) || words.at(-1) !== 'generate') throw new Error(`bench: package.json's generate script is not "node [options] bin/connector-codegen.js generate": ${script}`);
  return words.slice(1, -2);
})();

/** `generate` from `spec` into `out` with `cache` as its cache directory (everything it keeps between runs), in `env` (default: ours). */
const ours = (spec: string, out: string, cache: string, extra: string[] = [], env: NodeJS.ProcessEnv = process.env) =>
  runMeasured(process.execPath, [...generateNodeOptions, bin, 'generate', '--spec', spec, '--out', out, ...extra], { cwd: repo, env: { ...env, CONNECTOR_CODEGEN_CACHE_DIR: cache } });

/**
 * Edits the connector file whose turn it is in `round` (each in turn, in name order) with `change`, as a user's
 * one-connector edit; returns the file's name.
 */
function editConnectorFile(spec: string, round: number, change: (doc: Document, file: string) => void): string {
  const files = readdirSync(path.join(spec, 'connectors')).sort();
  const file = path.join(spec, 'connectors', files[round % files.length]!);
  const doc = parseDocument(readFileSync(file, 'utf8'));
  change(doc, file);
  writeFileSync(file, doc.toString());
  return path.basename(file);
}

/** Changes one connector's description (a different text each round). */
const editDescription = (spec: string, round: number) =>
  editConnectorFile(spec, round, (doc) => doc.set('description', `${String(doc.get('description')).replace(/ \(bench edit \d+\)$/, '')} (bench edit ${round})`));

/** The name of the field editRecordField adds. */
const BENCH_FIELD = /^benchField\d+$/;

/**
 * A structural one-connector edit: the first record with fields gets a field `benchField<round>`, in place of the one
 * an earlier round added (a field added, then renamed: the shapes, validators, fixtures and types of that record change).
 */
const editRecordField = (spec: string, round: number) =>
  editConnectorFile(spec, round, (doc, file) => {
    const records = doc.get('records');
    const withFields = isMap(records) ? records.items.map((item) => item.value).find((record) => isMap(record) && isMap(record.get('fields'))) : undefined;
    if (!isMap(withFields)) throw new Error(`bench: ${file} has no record with fields to edit`);
    const fields = withFields.get('fields') as YAMLMap;
    for (const item of [...fields.items]) if (BENCH_FIELD.test(String(isScalar(item.key) ? item.key.value : item.key))) fields.delete(item.key);
    fields.set(`benchField${round}`, 'string|null');
  });

/**
 * A series of one-connector edits made by `edit`, in a spec copy of its own (under `work/name`) whose output and cache
 * are kept from run to run; each run's usage goes to `runs`, each edited file's name to `edited`.
 */
async function editSeries(work: string, name: string, edit: (spec: string, round: number) => string, runs: ChildUsage[]) {
  const [spec, out, cache] = ['spec', 'out', 'cache'].map((part) => path.join(work, name, part)) as [string, string, string];
  await writeSyntheticSpec(specDir, spec, 1);
  ours(spec, out, cache);
  let round = 0;
  const edited: string[] = [];
  return {
    edited,
    connectorCount: readdirSync(path.join(spec, 'connectors')).length,
    run: () => {
      edited.push(edit(spec, round++));
      runs.push(ours(spec, out, cache));
    },
  };
}

const med = (xs: ChildUsage[], key: 'cpuS' | 'userS' | 'systemS' | 'wallMs' | 'maxRssMiB') => median(xs.map((x) => x[key]));
const row = (name: string, xs: ChildUsage[]) => [name, med(xs, 'cpuS').toFixed(2), med(xs, 'userS').toFixed(2), med(xs, 'systemS').toFixed(2), med(xs, 'wallMs').toFixed(0), med(xs, 'maxRssMiB').toFixed(0), String(xs.length)];
const HEADER = ['case', 'CPU s', 'user s', 'system s', 'wall ms', 'peak MiB', 'runs'];

/** Runs the generation benchmarks, prints their tables and records the headline figures. */
export async function benchGenerate(): Promise<void> {
  const work = mkdtempSync(path.join(os.tmpdir(), 'codegen-bench-'));
  try {
    const documents = readdirSync(path.join(repo, 'generated/openapi'))
      .filter((f) => f.endsWith('.json') && f !== 'index.json')
      .sort()
      .map((f) => path.join(repo, 'generated/openapi', f));
    let fresh = 0;
    const newDir = () => path.join(work, `out-${fresh++}`);
    const newCache = () => path.join(work, `cache-${fresh++}`); // empty: a cold run
    const s = { cold: [] as ChildUsage[], noop: [] as ChildUsage[], node: [] as ChildUsage[], ots: [] as ChildUsage[], hey: [] as ChildUsage[], edit: [] as ChildUsage[], structuralEdit: [] as ChildUsage[], noopBare: [] as ChildUsage[], nodeBare: [] as ChildUsage[] };
    const phases = new Map<string, number[]>();
    // One-connector edits of each kind: a spec copy, generated once; then each round edits one connector and runs.
    const descriptionEdits = await editSeries(work, 'edit', editDescription, s.edit);
    const fieldEdits = await editSeries(work, 'field-edit', editRecordField, s.structuralEdit);
    // The short runs (an edit, a no-op, bare Node) go several times a round: their medians then rest on as many
    // samples as there are connectors, and the edits cover every connector once (after the warm-up's), not a few.
    const shortPerRound = Math.max(1, Math.ceil(descriptionEdits.connectorCount / runs));
    const repeat = (job: () => void) => () => {
      for (let i = 0; i < shortPerRound; i++) job();
    };
    const jobs: (() => void)[] = [
      repeat(descriptionEdits.run),
      repeat(fieldEdits.run),
      () => {
        const out = newDir();
        const cache = newCache();
        const cold = ours(specDir, out, cache, ['--timings']);
        s.cold.push(cold);
        for (const m of cold.stderr.matchAll(/^(\S+)\s+([\d.]+) ms$/gm)) phases.set(m[1]!, [...(phases.get(m[1]!) ?? []), Number(m[2])]);
        repeat(() => {
          s.noop.push(ours(specDir, out, cache));
          if (withoutExtraCerts) s.noopBare.push(ours(specDir, out, cache, [], withoutExtraCerts));
        })();
      },
      () => s.ots.push(runMeasured(process.execPath, [path.join(import.meta.dirname, 'peers/openapi-typescript.mjs'), newDir(), ...documents], { cwd: repo })),
      () => s.hey.push(runMeasured(process.execPath, [path.join(import.meta.dirname, 'peers/hey-api.mjs'), newDir(), ...documents], { cwd: repo })),
      repeat(() => s.node.push(runMeasured(process.execPath, ['-e', '0']))),
      ...(withoutExtraCerts ? [repeat(() => void s.nodeBare.push(runMeasured(process.execPath, ['-e', '0'], { env: withoutExtraCerts })))] : []),
    ];
    for (const job of jobs) job(); // warm-up round: file cache, CLI build
    for (const k of Object.keys(s) as (keyof typeof s)[]) s[k].length = 0;
    phases.clear();
    descriptionEdits.edited.length = 0;
    fieldEdits.edited.length = 0;
    for (let r = 0; r < runs; r++) for (let j = 0; j < jobs.length; j++) jobs[(r + j) % jobs.length]!();

    console.log(`\ngenerate vs peers (${runs} interleaved rounds; new process per run; CPU = user + system of the process tree)`);
    console.log(`peers read our OpenAPI export: ${documents.length} documents in generated/openapi/`);
    printTable(HEADER, [
      row('connector-codegen generate, cold', s.cold),
      row('openapi-typescript 7 (types)', s.ots),
      row('@hey-api/openapi-ts (types, sdk, client)', s.hey),
      row('connector-codegen generate, no-op', s.noop),
      row('node -e 0', s.node),
      ...(withoutExtraCerts ? [row('connector-codegen generate, no-op, without NODE_EXTRA_CA_CERTS', s.noopBare), row('node -e 0, without NODE_EXTRA_CA_CERTS', s.nodeBare)] : []),
      row(`one-connector edit, description (${new Set(descriptionEdits.edited).size} connectors in turn)`, s.edit),
      row(`one-connector edit, record field (${new Set(fieldEdits.edited).size} connectors in turn)`, s.structuralEdit),
    ]);
    console.log(`edited: ${descriptionEdits.edited.join(', ')}`);
    console.log(`record field edited: ${fieldEdits.edited.join(', ')}`);
    console.log('\ncold run phases (median of in-process times, ms)');
    printTable(['phase', 'median ms'], [...phases].map(([p, ms]) => [p, median(ms).toFixed(1)]));

    const cpu = (xs: ChildUsage[]) => med(xs, 'cpuS');
    record({ id: 'generate.cold.cpu_vs_openapi_typescript', label: 'cold generate CPU vs openapi-typescript', value: cpu(s.cold), unit: 's', peer: { name: 'openapi-typescript', value: cpu(s.ots) }, target: { on: 'ratio', op: '<=', limit: 0.8 } });
    record({ id: 'generate.cold.cpu_vs_hey_api', label: 'cold generate CPU vs @hey-api/openapi-ts', value: cpu(s.cold), unit: 's', peer: { name: '@hey-api/openapi-ts', value: cpu(s.hey) } });
    record({ id: 'generate.cold.wall_ms', label: 'cold generate wall', value: med(s.cold, 'wallMs'), unit: 'ms', target: { on: 'value', op: '<=', limit: 1000 } });
    // No scheduling of the run's threads makes its wall shorter than its CPU spread over every core.
    record({ id: 'generate.cold.cpu_per_core_ms', label: `cold generate CPU / ${os.availableParallelism()} cores (the least wall its CPU allows)`, value: (cpu(s.cold) * 1000) / os.availableParallelism(), unit: 'ms' });
    record({ id: 'generate.edit.cpu_vs_cold', label: 'one-connector edit (description) CPU vs cold', value: cpu(s.edit), unit: 's', peer: { name: 'cold', value: cpu(s.cold) }, target: { on: 'ratio', op: '<=', limit: 0.2 } });
    record({ id: 'generate.structural_edit.cpu_vs_cold', label: 'one-connector edit (record field) CPU vs cold', value: cpu(s.structuralEdit), unit: 's', peer: { name: 'cold', value: cpu(s.cold) }, target: { on: 'ratio', op: '<=', limit: 0.2 } });
    record({ id: 'generate.noop.cpu_vs_node', label: 'no-op CPU vs node -e 0', value: cpu(s.noop), unit: 's', peer: { name: 'node -e 0', value: cpu(s.node) }, target: { on: 'ratio', op: '<=', limit: 1.5 } });
    if (withoutExtraCerts) {
      record({ id: 'generate.noop.cpu_vs_node_without_extra_ca_certs', label: 'no-op CPU vs node -e 0, without NODE_EXTRA_CA_CERTS', value: cpu(s.noopBare), unit: 's', peer: { name: 'node -e 0 (same env)', value: cpu(s.nodeBare) } });
    }
    record({ id: 'generate.noop.wall_vs_node', label: 'no-op wall vs node -e 0', value: med(s.noop, 'wallMs'), unit: 'ms', peer: { name: 'node -e 0', value: med(s.node, 'wallMs') } });
    keepSection('generate', Object.fromEntries(Object.entries(s).map(([k, xs]) => [k, { cpuS: cpu(xs), wallMs: med(xs, 'wallMs'), maxRssMiB: med(xs, 'maxRssMiB'), runs: xs.map(({ stderr: _, ...u }) => u) }])));

    await benchScale(work);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Cold generate of the 1×, 2×, 4×, 8× specs, interleaved. */
async function benchScale(work: string): Promise<void> {
  const specs = [];
  for (const f of factors) {
    const dir = path.join(work, `scale-${f}`, 'spec');
    const { connectors } = await writeSyntheticSpec(specDir, dir, f);
    specs.push({ factor: f, dir, connectors: connectors.length, runs: [] as ChildUsage[] });
  }
  for (let r = 0; r < scaleRuns; r++) {
    for (let j = 0; j < specs.length; j++) {
      const spec = specs[(r + j) % specs.length]!;
      const run = path.join(work, `scale-${spec.factor}`, `run-${r}`);
      spec.runs.push(ours(spec.dir, path.join(run, 'out'), path.join(run, 'cache')));
    }
  }
  const base = specs.find((x) => x.factor === 1);
  console.log(`\ngenerate at scale: synthetic specs (connectors cloned under new ids), cold, ${scaleRuns} interleaved runs each`);
  printTable(
    ['spec', 'connectors', 'CPU s', 'user s', 'system s', 'wall ms', 'peak MiB', 'CPU vs 1×'],
    specs.map((x) => [`${x.factor}×`, String(x.connectors), med(x.runs, 'cpuS').toFixed(2), med(x.runs, 'userS').toFixed(2), med(x.runs, 'systemS').toFixed(2), med(x.runs, 'wallMs').toFixed(0), med(x.runs, 'maxRssMiB').toFixed(0), base ? `${(med(x.runs, 'cpuS') / med(base.runs, 'cpuS')).toFixed(2)}×` : '']),
  );
  keepSection('scale', specs.map((x) => ({ factor: x.factor, connectors: x.connectors, cpuS: med(x.runs, 'cpuS'), userS: med(x.runs, 'userS'), systemS: med(x.runs, 'systemS'), wallMs: med(x.runs, 'wallMs'), maxRssMiB: med(x.runs, 'maxRssMiB'), runs: x.runs.map(({ stderr: _, ...u }) => u) })));
  const top = specs[specs.length - 1]!;
  if (base && top !== base) {
    record({ id: `generate.scale.x${top.factor}.cpu_vs_x1`, label: `${top.factor}× spec CPU vs 1×`, value: med(top.runs, 'cpuS'), unit: 's', peer: { name: '1× spec', value: med(base.runs, 'cpuS') }, target: { on: 'ratio', op: '<=', limit: 2.5 } });
  }
  // CPU ≈ fixed + connectors × marginal: the ratio target above weighs the one against the other, so both are shown.
  if (new Set(specs.map((x) => x.connectors)).size > 1) {
    const fit = linearFit(specs.map((x) => [x.connectors, med(x.runs, 'cpuS')] as const));
    console.log(`CPU ≈ ${fit.intercept.toFixed(2)} s + ${(fit.slope * 1000).toFixed(1)} ms per connector (least squares over the rows above)`);
    record({ id: 'generate.scale.cpu_per_connector_ms', label: 'cold generate CPU per added connector (least squares over the scale rows)', value: fit.slope * 1000, unit: 'ms' });
    record({ id: 'generate.scale.cpu_fixed_s', label: 'cold generate CPU at no connectors (the same line\'s intercept: start-up and shared work)', value: fit.intercept, unit: 's' });
  }
  record({ id: `generate.scale.x${top.factor}.peak_mib`, label: `${top.factor}× spec peak memory`, value: med(top.runs, 'maxRssMiB'), unit: 'MiB', target: { on: 'value', op: '<=', limit: 400 } });
}
