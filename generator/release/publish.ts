/**
 * `connector-codegen publish`: builds what is stale, then publishes the runtime and every connector package with
 * npm, the runtime first. A version already on the registry with the same contents is skipped, so running it twice
 * publishes nothing the second time; one on the registry with other contents (the spec changed, the version did not)
 * fails, naming the files that differ, since a registry never replaces a version. Registry, auth, proxies and the
 * like come from the user's npm config and environment exactly as for `npm publish`; `--registry`, `--tag`, `--access`, `--otp`, `--provenance` and any flags after `--` are
 * handed to npm.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildPackages, type OutputPackage } from './build.js';
import { contentDigest, differingPaths, tarballDigests } from './tarball.js';

/** Options of a publish run. */
export interface PublishOptions {
  /** Output directory holding the generated packages. */
  outDir: string;
  /** Registry URL (else the package's publishConfig, else npm's configuration). */
  registry?: string;
  /** dist-tag to publish under (npm's default: latest). */
  tag?: string;
  /** Go through every step but publish nothing (`npm publish --dry-run`). */
  dryRun?: boolean;
  /** Further npm publish flags (--otp, --provenance, --access, anything after `--`). */
  npmArgs?: string[];
  /** Receives one line per package as it is decided. */
  log?: (line: string) => void;
  /** How npm is run (tests give a stand-in); default: `npm` from PATH. */
  npm?: NpmRunner;
}

/** Runs npm with arguments in a directory; resolves with its exit code and output. */
export type NpmRunner = (args: string[], cwd: string) => Promise<{ code: number; stdout: string; stderr: string }>;

/** What happened to one package. */
export interface PublishOutcome {
  /** The package. */
  name: string;
  /** Its version. */
  version: string;
  /** published, skipped (already on the registry with the same contents) or would-publish (dry run). */
  status: 'published' | 'skipped' | 'would-publish';
}

/** The npm on PATH. */
export const systemNpm: NpmRunner = (args, cwd) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', (error) => reject(new Error(`cannot run npm: ${error.message}`)));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });

/**
 * npm's lookups retry a failing connection twice, 10 to 60 s apart (its defaults): over a minute before a registry
 * that is down or mistyped is reported. A lookup is cheap to repeat (run publish again), so it retries once, soon.
 */
const LOOKUP_RETRY = ['--fetch-retries=1', '--fetch-retry-mintimeout=1000', '--fetch-retry-maxtimeout=2000'];

/** A published version's tarball as the registry describes it. */
interface RegistryDist {
  integrity?: string;
  shasum?: string;
}

/** The registry's `dist` of `name@version`, or undefined when it is not there; throws when npm cannot tell (auth, network). */
async function registryDist(npm: NpmRunner, pkg: OutputPackage, registry: string | undefined): Promise<RegistryDist | undefined> {
  const args = ['view', `${pkg.name}@${pkg.version}`, 'dist', '--json', ...LOOKUP_RETRY, ...(registry ? ['--registry', registry] : [])];
  const { code, stdout, stderr } = await npm(args, pkg.dir);
  if (code === 0) {
    if (stdout.trim() === '' || stdout.trim() === '[]') return undefined;
    const dist = parseJson(stdout);
    return dist && typeof dist === 'object' ? (dist as RegistryDist) : {};
  }
  if (/E404|404 Not Found|is not in this registry/.test(`${stdout}${stderr}`)) return undefined;
  throw new Error(`npm could not look up ${pkg.name}@${pkg.version}${registry ? ` on ${registry}` : ''}: ${npmErrorSummary(stdout, stderr)}`);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What `npm pack` puts in a tarball: its integrity and files (the first entry of npm's `--json` report). */
interface PackReport {
  integrity?: string;
  shasum?: string;
  filename?: string;
  files?: { path: string }[];
}

/** Runs npm pack with `args` and returns its report; throws with npm's reason. */
async function pack(npm: NpmRunner, args: string[], cwd: string, what: string): Promise<PackReport> {
  const { code, stdout, stderr } = await npm(['pack', '--json', ...args], cwd);
  const report = code === 0 ? (parseJson(stdout) as PackReport[] | undefined)?.[0] : undefined;
  if (!report) throw new Error(`npm pack failed for ${what}: ${code === 0 ? 'no report on stdout' : npmErrorSummary(stdout, stderr)}`);
  return report;
}

/**
 * The files whose contents differ between the version on the registry and the package that would be published under
 * it (none: the same package). Same tarball integrity settles it; else the registry's tarball is fetched and compared
 * file by file, since npm versions and umasks pack the same files into different bytes.
 */
async function changedFiles(npm: NpmRunner, pkg: OutputPackage, dist: RegistryDist, registry: string | undefined): Promise<string[]> {
  const local = await pack(npm, ['--dry-run', '--ignore-scripts'], pkg.dir, pkg.name);
  if ((local.integrity && local.integrity === dist.integrity) || (!dist.integrity && local.shasum && local.shasum === dist.shasum)) return [];
  const mine = new Map<string, string>();
  for (const file of local.files ?? []) mine.set(file.path, contentDigest(await readFile(path.join(pkg.dir, file.path))));
  const temp = await mkdtemp(path.join(os.tmpdir(), 'codegen-publish-'));
  try {
    const spec = `${pkg.name}@${pkg.version}`;
    const fetched = await pack(npm, [spec, '--pack-destination', temp, ...LOOKUP_RETRY, ...(registry ? ['--registry', registry] : [])], temp, spec);
    const tarball = await readFile(path.join(temp, path.basename(fetched.filename ?? '')));
    let theirs: Map<string, string>;
    try {
      theirs = tarballDigests(tarball);
    } catch (error) {
      throw new Error(`the registry's tarball of ${spec} cannot be read: ${(error as Error).message}`);
    }
    return differingPaths(theirs, mine);
  } finally {
    await rm(temp, { recursive: true, force: true });
  }
}

/** How many differing paths an error names before "and N more". */
const SHOWN_PATHS = 5;

/** A version on the registry with other contents than the package that would be published as it: a retry cannot help. */
class VersionTakenError extends Error {}

/** A package held back because one it depends on failed: it goes when that one does. */
class HeldBackError extends Error {}

/** The error of a version on the registry with other contents than the package that would be published as it. */
function versionTaken(pkg: OutputPackage, changed: string[]): Error {
  const shown = changed.slice(0, SHOWN_PATHS).join(', ') + (changed.length > SHOWN_PATHS ? ` and ${changed.length - SHOWN_PATHS} more` : '');
  return new VersionTakenError(
    `${pkg.name}@${pkg.version} is already on the registry with other contents (${changed.length === 1 ? '1 file differs' : `${changed.length} files differ`}: ${shown}). ` +
      'A registry never replaces a published version: raise the version (a connector package: run `connector-codegen release` after the spec change; ' +
      'the runtime or the MCP server: their package.json in the generator), regenerate, and publish again.',
  );
}

/** Lines of npm's error output that say nothing about this failure. */
const NPM_NOISE = /^(?:A complete log of this run|Log files were not written|If you are behind a proxy|In most cases you are behind a proxy|npm notice|This is probably not a problem with npm|at |\{|\}|[\w$]+: (?:'[^']*'|\d+|true|false|null|undefined),?$)/;

/**
 * What went wrong, from npm's output: with `--json` its error object's code and summary; else the lines of its error
 * block that are not a stack, an object dump or advice about logs and proxies (at most four).
 */
export function npmErrorSummary(stdout: string, stderr: string): string {
  try {
    const { error } = JSON.parse(stdout) as { error?: { code?: string; summary?: string; detail?: string } };
    if (error?.summary) return `${error.summary.trim()}${error.code && !error.summary.includes(error.code) ? ` (${error.code})` : ''}`;
  } catch {
    // not JSON: read the error lines below
  }
  const lines = (stderr || stdout)
    .split('\n')
    .map((l) => l.replace(/^npm (?:error|ERR!)\s?/, '').trim())
    .filter((l) => l !== '' && !NPM_NOISE.test(l));
  const code = lines.find((l) => /^code \S+$/.test(l));
  const rest = lines.filter((l) => l !== code && !/^(?:errno|syscall|type|address|port) /.test(l)).slice(0, 4);
  return [...rest, ...(code ? [`(${code.slice(5)})`] : [])].join('\n') || 'npm failed without saying why';
}

/** Publishes one package directory (npm packs it; its prepack guard checks the build). */
async function publishOne(npm: NpmRunner, pkg: OutputPackage, options: PublishOptions): Promise<void> {
  const args = [
    'publish',
    ...(options.registry ? ['--registry', options.registry] : []),
    ...(options.tag ? ['--tag', options.tag] : []),
    ...(options.dryRun ? ['--dry-run'] : []),
    ...(options.npmArgs ?? []),
  ];
  const { code, stdout, stderr } = await npm(args, pkg.dir);
  if (code !== 0) throw new Error(`npm publish failed for ${pkg.name}@${pkg.version}: ${npmErrorSummary(stdout, stderr)}`);
}

/** Names of the output's packages each package depends on (its package.json dependencies). */
async function internalDependencies(packages: OutputPackage[]): Promise<Map<OutputPackage, string[]>> {
  const names = new Set(packages.map((p) => p.name));
  const entries = await Promise.all(
    packages.map(async (p) => {
      const manifest = JSON.parse(await readFile(path.join(p.dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
      return [p, Object.keys(manifest.dependencies ?? {}).filter((d) => names.has(d))] as const;
    }),
  );
  return new Map(entries);
}

/**
 * Builds, then publishes each package not yet on the registry: the runtime first, then the connectors a few at a
 * time, then what depends on them (the MCP server) — a package goes once everything it depends on has gone.
 */
export async function publishPackages(options: PublishOptions): Promise<PublishOutcome[]> {
  const npm = options.npm ?? systemNpm;
  const log = options.log ?? (() => undefined);
  const packages = await buildPackages(options.outDir);
  const [runtime, ...rest] = packages;
  if (!runtime) throw new Error('no packages to publish');
  const publish = async (pkg: OutputPackage): Promise<PublishOutcome> => {
    const dist = await registryDist(npm, pkg, options.registry);
    if (dist) {
      const changed = await changedFiles(npm, pkg, dist, options.registry);
      if (changed.length) throw versionTaken(pkg, changed);
      log(`${pkg.name}@${pkg.version}: already on the registry; skipped`);
      return { name: pkg.name, version: pkg.version, status: 'skipped' };
    }
    await publishOne(npm, pkg, options);
    log(`${pkg.name}@${pkg.version}: ${options.dryRun ? 'would be published (dry run)' : 'published'}`);
    return { name: pkg.name, version: pkg.version, status: options.dryRun ? 'would-publish' : 'published' };
  };
  // The runtime first: every other package depends on it. Then wave after wave, a few packages at a time; one
  // failure does not stop the others (only what depends on it), and a second run skips whatever made it.
  const outcomes = [
    await publish(runtime).catch((error: Error) => {
      const retry = error instanceof VersionTakenError ? '' : ' Run publish again to retry.';
      throw new Error(`${error.message}\n\nNothing else was published: the ${rest.length} other packages depend on ${runtime.name}.${retry}`);
    }),
  ];
  const dependencies = await internalDependencies(rest);
  const results = new Map<OutputPackage, PublishOutcome | Error>();
  const settled = new Set([runtime.name]);
  for (let waiting = [...rest]; waiting.length; ) {
    const ready = waiting.filter((p) => dependencies.get(p)!.every((d) => settled.has(d)));
    if (ready.length === 0) {
      for (const p of waiting) results.set(p, new HeldBackError(`${p.name}@${p.version} was not published: a package it depends on failed`));
      break;
    }
    waiting = waiting.filter((p) => !ready.includes(p));
    const queue = [...ready];
    await Promise.all(
      [0, 1, 2, 3].map(async () => {
        for (let next = queue.shift(); next; next = queue.shift()) results.set(next, await publish(next).catch((error: Error) => error));
      }),
    );
    for (const p of ready) if (!(results.get(p) instanceof Error)) settled.add(p.name);
  }
  const failures = rest.map((c) => results.get(c)).filter((r): r is Error => r instanceof Error);
  if (failures.length) {
    const done = rest.map((c) => results.get(c)).filter((r): r is PublishOutcome => !(r instanceof Error) && r!.status === 'published');
    // A retry helps a failure of npm or the registry, not a version that is taken.
    const retry = failures.some((f) => !(f instanceof VersionTakenError) && !(f instanceof HeldBackError)) ? ' Run publish again to retry: published versions are skipped.' : '';
    throw new Error(`${failures.map((f) => f.message).join('\n\n')}\n\n${failures.length} package${failures.length === 1 ? '' : 's'} failed; ${done.length + (outcomes[0]!.status === 'published' ? 1 : 0)} published in this run.${retry}`);
  }
  return [...outcomes, ...rest.map((c) => results.get(c) as PublishOutcome)];
}
