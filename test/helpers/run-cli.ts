/** Runs the connector-codegen CLI as a user does: a new Node process, output piped, exit code and both streams kept. */
import { execFile } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/** The CLI's entry point. */
export const cliBin = path.resolve(import.meta.dirname, '../../bin/connector-codegen.js');

/** What a run gave. */
export interface CliResult {
  /** Exit code. */
  code: number;
  /** Standard output. */
  stdout: string;
  /** Standard error. */
  stderr: string;
}

/**
 * Runs the CLI with `args` (in the temp directory by default; NO_COLOR and FORCE_COLOR cleared unless given). With
 * `timeoutMs`, a run still going then is killed (a hang: its code is then null).
 */
export async function runCli(args: string[], options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<CliResult> {
  const env = { ...process.env, NO_COLOR: '', FORCE_COLOR: '', ...options.env };
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [cliBin, ...args], { cwd: options.cwd ?? os.tmpdir(), env, maxBuffer: 64 * 1024 * 1024, ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}) });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
