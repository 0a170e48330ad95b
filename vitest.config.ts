import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// In the repo, package names resolve to their sources (the same map tsc uses: generated/tsconfig.paths.json).
const pathsFile = path.resolve(import.meta.dirname, 'generated/tsconfig.paths.json');
const paths: Record<string, string[]> = JSON.parse(readFileSync(pathsFile, 'utf8')).compilerOptions.paths;
const alias = Object.entries(paths).map(([name, [target]]) => ({
  find: new RegExp(`^${name.replace(/[/\-]/g, '\\$&')}$`),
  replacement: path.resolve(path.dirname(pathsFile), target!),
}));

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['test/**/*.test.ts', 'generated/contract-tests/*.test.ts'],
    // The run's temporary files under one directory, removed at the end; one mock service for the whole run (each
    // contract-test file creates its own source on it).
    globalSetup: ['test/temp-dir.global-setup.ts', 'test/contract/global-setup.ts'],
    // CLI tests spawn Node processes; leave headroom on a loaded 2-core machine.
    testTimeout: 30_000,
  },
});
