/**
 * The figures `npm run bench` reports against the issue's targets: each bench records its headline figures here
 * (measured, never hard-coded), and the run ends with one table of figure, peer, ratio, target and PASS / MISS,
 * and a JSON file with the same figures (bench/results/latest.json; not committed: it is this machine's run).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { printTable } from './stats.js';

/** A target: the figure (or its ratio to the peer) must be at most / at least `limit`. */
export interface Target {
  on: 'value' | 'ratio';
  op: '<=' | '>=';
  limit: number;
}

/** One headline figure of the run. */
export interface Figure {
  /** Stable key in the JSON (`generate.cold.cpu_s`). */
  id: string;
  label: string;
  value: number;
  unit: string;
  /** The named peer measured in the same run, when the figure has one. */
  peer?: { name: string; value: number };
  target?: Target;
}

const figures: Figure[] = [];
const sections: Record<string, unknown> = {};

/** Records a headline figure. */
export function record(figure: Figure): void {
  figures.push(figure);
}

/** Keeps a bench's detailed table (rows of named numbers) for the JSON file. */
export function keepSection(name: string, data: unknown): void {
  sections[name] = data;
}

const ratioOf = (f: Figure) => (f.peer ? f.value / f.peer.value : undefined);

function verdict(f: Figure): 'PASS' | 'MISS' | undefined {
  if (!f.target) return undefined;
  const x = f.target.on === 'ratio' ? ratioOf(f) : f.value;
  if (x === undefined || !Number.isFinite(x)) return 'MISS';
  return (f.target.op === '<=' ? x <= f.target.limit : x >= f.target.limit) ? 'PASS' : 'MISS';
}

const show = (x: number) => (Math.abs(x) >= 100 ? x.toFixed(0) : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(2));

/** Prints the closing table of every recorded figure beside its peer and target. */
export function printFigures(): void {
  console.log('\nsummary: every headline figure of this run, beside its peer (same run) and its target');
  printTable(
    ['figure', 'value', 'peer', 'ratio', 'target', 'verdict'],
    figures.map((f) => {
      const ratio = ratioOf(f);
      const target = f.target ? `${f.target.on === 'ratio' ? 'ratio ' : ''}${f.target.op === '<=' ? '≤' : '≥'} ${f.target.limit}${f.target.on === 'value' ? ` ${f.unit}` : '×'}` : '';
      return [f.label, `${show(f.value)} ${f.unit}`, f.peer ? `${f.peer.name} ${show(f.peer.value)} ${f.unit}` : '', ratio === undefined ? '' : `${ratio < 0.1 ? ratio.toPrecision(2) : ratio.toFixed(2)}×`, target, verdict(f) ?? ''];
    }),
  );
}

/** Writes the figures (with verdicts) and the detailed sections as JSON; returns the file. */
export function writeResults(file = path.resolve(import.meta.dirname, 'results/latest.json')): string {
  mkdirSync(path.dirname(file), { recursive: true });
  const machine = { platform: `${os.platform()} ${os.arch()}`, cpus: os.cpus().length, cpu: os.cpus()[0]?.model ?? '', memoryGiB: Math.round(os.totalmem() / 2 ** 30), loadAverage: os.loadavg().map((x) => Math.round(x * 100) / 100) };
  const body = {
    date: new Date().toISOString(),
    node: process.version,
    machine,
    figures: figures.map((f) => ({ ...f, ratio: ratioOf(f), verdict: verdict(f) })),
    sections,
  };
  writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
  return file;
}
