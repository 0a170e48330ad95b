/**
 * `connector-codegen publish`: builds what is stale, then publishes the runtime and every connector package with
 * npm, the runtime first. A version already on the registry is skipped, so running it twice publishes nothing the
 * second time. Registry, auth, proxies and the like come from the user's npm config and environment exactly as
 * for `npm publish`; `--registry`, `--tag`, `--access`, `--otp`, `--provenance` and any flags after `--` are
 * handed to npm.
 */
import { spawn } from 'node:child_process';
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

/** Whether `name@version` is on the registry; throws when npm cannot tell (auth, network). */
async function isPublished(npm: NpmRunner, pkg: OutputPackage, registry: string | undefined): Promise<boolean> {
  const args = ['view', `${pkg.name}@${pkg.version}`, 'version', '--json', ...(registry ? ['--registry', registry] : [])];
  const { code, stdout, stderr } = await npm(args, pkg.dir);
  if (code === 0) return stdout.trim() !== '' && stdout.trim() !== '[]';
  if (/E404|404 Not Found|is not in this registry/.test(`${stdout}${stderr}`)) return false;
  throw new Error(`npm could not look up ${pkg.name}@${pkg.version}:\n${lastLines(stderr || stdout)}`);
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-8).join('\n');
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
  if (code !== 0) throw new Error(`npm publish failed for ${pkg.name}@${pkg.version}:\n${lastLines(stderr || stdout)}`);
}

/** Builds, then publishes each package not yet on the registry: the runtime first, then the connectors. */
export async function publishPackages(options: PublishOptions): Promise<PublishOutcome[]> {
  const npm = options.npm ?? systemNpm;
  const log = options.log ?? (() => undefined);
  const [runtime, ...connectors] = await buildPackages(options.outDir);
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
  // The runtime first: the connector packages depend on it. Then a few connectors at a time; one failure does
  // not stop the others, and a second run skips whatever made it.
  const outcomes = [await publish(runtime)];
  const queue = [...connectors];
  const results = new Map<OutputPackage, PublishOutcome | Error>();
  await Promise.all(
    [0, 1, 2, 3].map(async () => {
      for (let next = queue.shift(); next; next = queue.shift()) results.set(next, await publish(next).catch((error: Error) => error));
    }),
  );
  const failures = connectors.map((c) => results.get(c)).filter((r): r is Error => r instanceof Error);
  if (failures.length) {
    const done = connectors.map((c) => results.get(c)).filter((r): r is PublishOutcome => !(r instanceof Error) && r!.status === 'published');
    throw new Error(`${failures.map((f) => f.message).join('\n\n')}\n\n${failures.length} package${failures.length === 1 ? '' : 's'} failed; ${done.length + (outcomes[0]!.status === 'published' ? 1 : 0)} published in this run. Run publish again to retry: published versions are skipped.`);
  }
  return [...outcomes, ...connectors.map((c) => results.get(c) as PublishOutcome)];
}
