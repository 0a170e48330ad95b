/**
 * A private npm registry for tests: Verdaccio on 127.0.0.1 with no uplinks (a package not published to it does
 * not exist), one user, and an npm environment (temp userconfig and cache) whose proxy settings make any request
 * that would leave the machine fail instead of going out.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const repo = path.resolve(import.meta.dirname, '../..');
const exec = promisify(execFile);

/** A path in the repository's node_modules/.bin. */
export const bin = (name: string) => path.join(repo, 'node_modules/.bin', name);

/** A running registry. */
export interface TestRegistry {
  /** Its URL, e.g. http://127.0.0.1:43117 (no trailing slash). */
  url: string;
  /** Environment for npm (and for commands that run npm): the registry, its token, no way out. */
  env: NodeJS.ProcessEnv;
  /** Stops it. */
  stop(): void;
}

/** A free port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Runs a command; resolves with stdout, rejects with everything it printed. */
export async function run(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  try {
    return (await exec(file, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 })).stdout;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${path.basename(file)} ${args.join(' ')} (in ${cwd}) failed:\n${e.stdout ?? ''}${e.stderr ?? e.message}`);
  }
}

/** Runs a command that may fail; resolves with its exit code and output. */
export async function attempt(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await exec(file, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** Starts a process and resolves once its output matches `ready` (rejects after 60 s or if it exits). */
export function startProcess(file: string, args: string[], ready: RegExp, env: NodeJS.ProcessEnv = process.env): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  const child = spawn(file, args, { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${file} did not start in 60 s:\n${output}`));
    }, 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(ready);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${file} exited with ${code}:\n${output}`));
    });
  });
}

/** Starts Verdaccio with its storage under `work` and creates the registry's one user. */
export async function startRegistry(work: string): Promise<TestRegistry> {
  const port = await freePort();
  const config = path.join(work, 'verdaccio.yaml');
  await writeFile(
    config,
    [
      `storage: ${path.join(work, 'storage')}`,
      'auth:',
      '  htpasswd:',
      `    file: ${path.join(work, 'htpasswd')}`,
      '    max_users: 1',
      'uplinks: {}', // nothing is proxied: a package not published here does not exist
      'packages:',
      "  '**':",
      '    access: $all',
      '    publish: $authenticated',
      'web: { enable: false }',
      'log: { type: stdout, format: pretty, level: warn }',
      '',
    ].join('\n'),
  );
  const { child } = await startProcess(bin('verdaccio'), ['-c', config, '-l', `127.0.0.1:${port}`], /http address/);
  const url = `http://127.0.0.1:${port}`;
  try {
    const response = await fetch(`${url}/-/user/org.couchdb.user:publisher`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'publisher', password: 'publish-test-only', type: 'user', roles: [] }),
    });
    const { token } = (await response.json()) as { token?: string };
    if (!token) throw new Error(`registry refused the test user: ${response.status}`);
    const userconfig = path.join(work, 'npmrc');
    await writeFile(userconfig, `registry=${url}/\n${url.replace(/^http:/, '')}/:_authToken=${token}\naudit=false\nfund=false\nupdate-notifier=false\n`);
    const dead = 'http://127.0.0.1:9';
    const env = {
      ...process.env,
      npm_config_userconfig: userconfig,
      npm_config_cache: path.join(work, 'npm-cache'),
      npm_config_registry: `${url}/`,
      npm_config_proxy: dead,
      npm_config_https_proxy: dead,
      npm_config_noproxy: '127.0.0.1,localhost',
    };
    return { url, env, stop: () => child.kill() };
  } catch (error) {
    child.kill();
    throw error;
  }
}
