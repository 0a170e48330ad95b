/**
 * `connector-codegen publish`: builds what is stale, then publishes the runtime and every connector package with
 * npm, the runtime first. A version already on the registry is skipped, so running it twice publishes nothing the
 * second time. Registry, auth, proxies and the like come from the user's npm config and environment exactly as
 * for `npm publish`; `--registry`, `--tag`, `--access`, `--otp`, `--provenance` and any flags after `--` are
 * handed to npm.
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { buildPackages, type OutputPackage } from './build.js';

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
  /** published, skipped (already on the registry) or would-publish (dry run). */
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

/** Whether `name@version` is on the registry; throws when npm cannot tell (auth, network). */
async function isPublished(npm: NpmRunner, pkg: OutputPackage, registry: string | undefined): Promise<boolean> {
  const args = ['view', `${pkg.name}@${pkg.version}`, 'version', '--json', ...LOOKUP_RETRY, ...(registry ? ['--registry', registry] : [])];
  const { code, stdout, stderr } = await npm(args, pkg.dir);
  if (code === 0) return stdout.trim() !== '' && stdout.trim() !== '[]';
  if (/E404|404 Not Found|is not in this registry/.test(`${stdout}${stderr}`)) return false;
  throw new Error(`npm could not look up ${pkg.name}@${pkg.version}${registry ? ` on ${registry}` : ''}: ${npmErrorSummary(stdout, stderr)}`);
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
    if (await isPublished(npm, pkg, options.registry)) {
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
      throw new Error(`${error.message}\n\nNothing else was published: the ${rest.length} other packages depend on ${runtime.name}. Run publish again to retry.`);
    }),
  ];
  const dependencies = await internalDependencies(rest);
  const results = new Map<OutputPackage, PublishOutcome | Error>();
  const settled = new Set([runtime.name]);
  for (let waiting = [...rest]; waiting.length; ) {
    const ready = waiting.filter((p) => dependencies.get(p)!.every((d) => settled.has(d)));
    if (ready.length === 0) {
      for (const p of waiting) results.set(p, new Error(`${p.name}@${p.version} was not published: a package it depends on failed`));
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
    throw new Error(`${failures.map((f) => f.message).join('\n\n')}\n\n${failures.length} package${failures.length === 1 ? '' : 's'} failed; ${done.length + (outcomes[0]!.status === 'published' ? 1 : 0)} published in this run. Run publish again to retry: published versions are skipped.`);
  }
  return [...outcomes, ...rest.map((c) => results.get(c) as PublishOutcome)];
}
