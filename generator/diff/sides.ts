/**
 * One side of a diff: a spec directory, or a git ref whose spec directory is materialized into a temp
 * directory (named like the working spec directory, so both sides locate items as `spec/connectors/…`).
 * A side that cannot be found is a usage error (SideUsageError); a side that is not a valid spec carries its
 * diagnostics, located in the side as given (`HEAD:spec/connectors/payments.yaml` for a ref).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SpecError } from '../spec/diagnostics.js';
import type { SpecIR } from '../ir.js';
import { readSpec } from '../spec/read.js';
import { specStem } from '../spec/yaml-source.js';

const run = promisify(execFile);

/** A loaded side. */
export interface Side {
  /** How the side was given, for headers and json output. */
  label: string;
  /** The spec. */
  ir: SpecIR;
}

/** A side that names neither a directory nor a git ref (or git is missing): the command line is wrong. */
export class SideUsageError extends Error {
  override name = 'SideUsageError';
}

/** One side that is not a valid spec. */
export interface InvalidSide {
  /** Which side. */
  role: 'base' | 'head';
  /** How it was given. */
  label: string;
  /** Its diagnostics, located in the side as given. */
  error: SpecError;
}

/** Either side (or both) is not a valid spec. */
export class InvalidSidesError extends Error {
  override name = 'InvalidSidesError';
  constructor(readonly sides: InvalidSide[]) {
    super(sides.map((s) => `the ${s.role} (${s.label}) is not a valid spec`).join('; '));
  }
}

async function isDirectory(p: string): Promise<boolean> {
  return stat(p).then((s) => s.isDirectory(), () => false);
}

async function git(cwd: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run('git', args, { cwd, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' });
    return stdout;
  } catch (error) {
    const e = error as { stderr?: string; code?: string | number };
    if (e.code === 'ENOENT') throw new SideUsageError('git is not installed; give the spec as a directory instead of a ref');
    throw new SideUsageError(`git ${args.join(' ')}: ${(e.stderr ?? String(error)).trim().split('\n')[0]}`);
  }
}

/**
 * Writes the spec directory `specDir` as it is at git `ref` into a new temp directory; returns the copy's
 * path and the spec directory's path in the repository. The caller removes the copy's parent when done.
 */
export async function materializeRef(ref: string, specDir: string): Promise<{ copy: string; relative: string }> {
  const absolute = path.resolve(specDir);
  const existing = (await isDirectory(absolute)) ? absolute : path.dirname(absolute);
  const top = (await git(existing, ['rev-parse', '--show-toplevel']).catch(() => {
    throw new SideUsageError(`'${ref}' is neither a directory nor usable as a git ref: ${existing} is not inside a git repository`);
  })).trim();
  const relative = path.relative(top, absolute).split(path.sep).join('/');
  await git(top, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).catch(() => {
    throw new SideUsageError(`'${ref}' is neither a directory nor a git ref of ${top}`);
  });
  const listing = await git(top, ['ls-tree', '-r', '-z', '--name-only', ref, '--', relative]);
  const files = listing.split('\0').filter((f) => specStem(path.posix.basename(f)) !== undefined);
  if (files.length === 0) throw new SideUsageError(`${ref} has no ${relative}/ (nothing to compare)`);
  const copy = path.join(await mkdtemp(path.join(os.tmpdir(), 'codegen-diff-')), path.basename(absolute));
  for (const file of files) {
    const target = path.join(copy, path.relative(relative, file));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, await git(top, ['show', `${ref}:${file}`]));
  }
  return { copy, relative };
}

/**
 * Loads a side: `given` is a directory when one exists at that path, else a git ref of the repository that
 * holds `specDir`. Throws SideUsageError when it is neither, SpecError (located in the side) when it is not a
 * valid spec.
 */
export async function loadSide(given: string, specDir: string): Promise<Side> {
  if (await isDirectory(given)) return { label: given, ir: await readLabelled(path.resolve(given), given) };
  const { copy, relative } = await materializeRef(given, specDir);
  try {
    return { label: given, ir: await readLabelled(copy, given, `${given}:${relative}`) };
  } finally {
    await rm(path.dirname(copy), { recursive: true, force: true });
  }
}

/** Loads both sides; every side that is not a valid spec is reported (InvalidSidesError), usage errors first. */
export async function loadSides(base: string, head: string, specDir: string): Promise<[Side, Side]> {
  const results = await Promise.allSettled([loadSide(base, specDir), loadSide(head, specDir)]);
  const usage = results.find((r) => r.status === 'rejected' && r.reason instanceof SideUsageError);
  if (usage) throw (usage as PromiseRejectedResult).reason;
  const invalid: InvalidSide[] = [];
  results.forEach((r, i) => {
    if (r.status === 'rejected' && r.reason instanceof SpecError) invalid.push({ role: i === 0 ? 'base' : 'head', label: i === 0 ? base : head, error: r.reason });
  });
  if (invalid.length) throw new InvalidSidesError(invalid);
  const other = results.find((r) => r.status === 'rejected');
  if (other) throw (other as PromiseRejectedResult).reason;
  return [(results[0] as PromiseFulfilledResult<Side>).value, (results[1] as PromiseFulfilledResult<Side>).value];
}

/**
 * Specs read in this process, by directory and content digest (at most two, most recent last): comparing many
 * heads with one base — a reviewer's script, a test corpus — reads the base once. A changed file is a new digest.
 */
const recent = new Map<string, SpecIR>();
const RECENT_SIZE = 2;

async function contentDigest(dir: string): Promise<string> {
  const hash = createHash('sha256').update(`${dir}\n`);
  for (const sub of ['', 'connectors']) {
    const names = (await readdir(path.join(dir, sub)).catch(() => [] as string[])).filter((n) => specStem(n) !== undefined).sort();
    for (const n of names) {
      const file = path.join(dir, sub, n);
      // Only regular files are read: a FIFO or device would block, and readSpec refuses them with a diagnostic anyway.
      const info = await lstat(file).catch(() => undefined);
      hash.update(`${sub}/${n}\n`);
      if (info?.isFile()) hash.update(await readFile(file));
      else hash.update(`not a regular file: ${info?.mode ?? 'missing'} ${info?.mtimeMs ?? ''}`);
      hash.update('\n');
    }
  }
  return hash.digest('hex');
}

async function readCached(dir: string): Promise<SpecIR> {
  const key = await contentDigest(dir);
  const hit = recent.get(key);
  if (hit) {
    recent.delete(key);
    recent.set(key, hit);
    return hit;
  }
  const { ir } = await readSpec(dir);
  recent.set(key, ir);
  if (recent.size > RECENT_SIZE) recent.delete(recent.keys().next().value!);
  return ir;
}

/** Reads a side; diagnostics name the side: `[label]` before each message, files as `<ref>:<path>` for a ref. */
async function readLabelled(dir: string, label: string, refPrefix?: string): Promise<SpecIR> {
  try {
    return await readCached(dir);
  } catch (error) {
    if (error instanceof SpecError) {
      const file = (f: string) => (refPrefix === undefined ? f : `${refPrefix}/${path.relative(dir, path.resolve(f)).split(path.sep).join('/')}`);
      throw new SpecError(error.diagnostics.map((d) => ({ ...d, file: file(d.file), message: `[${label}] ${d.message}` })));
    }
    throw error;
  }
}
