/** vitest globalSetup: one mock service for the whole run, on a free loopback port; tests read its URL with inject. */
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { readSpec } from '../../generator/spec/read.js';
import { startMock, type MockServer } from '../../mock/server.js';

let server: MockServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  const { ir } = await readSpec(path.resolve(import.meta.dirname, '../../spec'));
  server = await startMock({ ir, port: 0, token: 'contract-test-token' });
  project.provide('mockUrl', server.url);
}

export async function teardown(): Promise<void> {
  await server?.close();
}

declare module 'vitest' {
  export interface ProvidedContext {
    mockUrl: string;
  }
}
