/**
 * One side of a diff: a spec directory, or a git ref whose spec directory is materialized into a temp
 * directory (named like the working spec directory, so both sides locate items as `spec/connectors/…`).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { SpecError } from '../spec/diagnostics.js';
import type { SpecIR } from '../ir.js';
import { readSpec } from '../spec/read.js';

const run = promisify(execFile);

/** A loaded side. */
export interface Side {
  /** How the side was given, for headers and json output. */
  label: string;
  /** The spec. */
  ir: SpecIR;
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
    if (e.code === 'ENOENT') throw new Error('git is not installed; give the spec as a directory instead of a ref');
    throw new Error(`git ${args.join(' ')}: ${(e.stderr ?? String(error)).trim().split('\n')[0]}`);
  }
}

/**
 * Writes the spec directory `specDir` as it is at git `ref` into a new temp directory; returns the copy's
 * path. The caller removes the copy's parent when done.
 */
export async function materializeRef(ref: string, specDir: string): Promise<string> {
  const absolute = path.resolve(specDir);
  const existing = (await isDirectory(absolute)) ? absolute : path.dirname(absolute);
  const top = (await git(existing, ['rev-parse', '--show-toplevel']).catch(() => {
    throw new Error(`'${ref}' is neither a directory nor usable as a git ref: ${existing} is not inside a git repository`);
  })).trim();
  const relative = path.relative(top, absolute).split(path.sep).join('/');
  await git(top, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]).catch(() => {
    throw new Error(`'${ref}' is neither a directory nor a git ref of ${top}`);
  });
  const listing = await git(top, ['ls-tree', '-r', '-z', '--name-only', ref, '--', relative]);
  const files = listing.split('\0').filter((f) => f.endsWith('.yaml'));
  if (files.length === 0) throw new Error(`${ref} has no ${relative}/ (nothing to compare)`);
  const copy = path.join(await mkdtemp(path.join(os.tmpdir(), 'codegen-diff-')), path.basename(absolute));
  for (const file of files) {
    const target = path.join(copy, path.relative(relative, file));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, await git(top, ['show', `${ref}:${file}`]));
  }
  return copy;
}

/**
 * Loads a side: `given` is a directory when one exists at that path, else a git ref of the repository that
 * holds `specDir`. Spec problems are reported as on `validate`, prefixed with the side they belong to.
 */
export async function loadSide(given: string, specDir: string): Promise<Side> {
  if (await isDirectory(given)) return { label: given, ir: await readLabelled(path.resolve(given), given) };
  const copy = await materializeRef(given, specDir);
  try {
    return { label: given, ir: await readLabelled(copy, given) };
  } finally {
    await rm(path.dirname(copy), { recursive: true, force: true });
  }
}

async function readLabelled(dir: string, label: string): Promise<SpecIR> {
  try {
    return (await readSpec(dir)).ir;
  } catch (error) {
    if (error instanceof SpecError) {
      throw new SpecError(error.diagnostics.map((d) => ({ ...d, message: `[${label}] ${d.message}` })));
    }
    throw error;
  }
}
