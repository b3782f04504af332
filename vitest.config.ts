import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup-state.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // e2e files spawn real child processes; two workers fit the 2-core machines we run on.
    maxWorkers: 2,
    fileParallelism: true,
  },
});
