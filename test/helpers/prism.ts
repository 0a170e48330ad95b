/**
 * Prism (@stoplight/prism-cli) as a validating proxy, on loopback: `prism proxy <document> <upstream>` started as a
 * child process on a free port, and stopped (SIGTERM, then SIGKILL) — every process started here is tracked so a
 * test's afterAll can stop whatever a failure left running.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const prismBin = path.resolve(import.meta.dirname, '../../node_modules/@stoplight/prism-cli/dist/index.js');

/** A running Prism proxy. */
export interface PrismProxy {
  /** Its base URL (http://127.0.0.1:<port>). */
  url: string;
  /** The last lines Prism logged (its own view of requests and violations), for failure messages. */
  log(): string;
  /** Stops the process. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
// If the test process ends without afterAll (a crash, a kill of the worker), its proxies end with it.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
const ANSI = /\x1b\[[0-9;]*m/g;
const LOG_LIMIT = 64 * 1024;

function stopProcess(child: ChildProcess): Promise<void> {
  running.delete(child);
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 3_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Starts `prism proxy document upstream` on 127.0.0.1 and a free port; resolves once it listens. */
export function startPrismProxy(document: string, upstream: string, timeoutMs = 60_000): Promise<PrismProxy> {
  return startPrism(['proxy', document, upstream, '--errors', 'false'], document, timeoutMs);
}

/** Starts `prism mock document` (answers from the document's examples) on 127.0.0.1 and a free port. */
export function startPrismMock(document: string, timeoutMs = 60_000): Promise<PrismProxy> {
  return startPrism(['mock', document], document, timeoutMs);
}

function startPrism(args: string[], document: string, timeoutMs: number): Promise<PrismProxy> {
  const child = spawn(process.execPath, [prismBin, ...args, '--host', '127.0.0.1', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let log = '';
  const append = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8').replace(ANSI, '')).slice(-LOG_LIMIT);
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  const stop = () => stopProcess(child);
  return new Promise<PrismProxy>((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      clearInterval(poll);
      void stop().then(() => reject(new Error(`prism ${args[0]} ${path.basename(document)}: ${why}\n${log}`)));
    };
    const timer = setTimeout(() => fail(`not listening after ${timeoutMs} ms`), timeoutMs);
    const poll = setInterval(() => {
      const url = /Prism is listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(log)?.[1];
      if (!url) return;
      clearTimeout(timer);
      clearInterval(poll);
      child.off('exit', exited);
      resolve({ url, log: () => log.slice(-8_000), stop });
    }, 50);
    const exited = (code: number | null) => fail(`exited (code ${code}) before listening`);
    child.once('exit', exited);
  });
}

/** Stops every Prism process still running (afterAll, also after a failure). */
export async function stopAllPrism(): Promise<void> {
  await Promise.all([...running].map(stopProcess));
}
