import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // CLI tests spawn Node processes; leave headroom on a loaded 2-core machine.
    testTimeout: 30_000,
  },
});
