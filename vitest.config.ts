import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/setup-state.ts', 'test/cli-build.ts'],
    // Bounds for a hung test, not a pace: with every core busy (other runs, a build), a test that
    // starts a daemon and a few children takes 15-25 s, and waits inside tests go up to 15 s.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // e2e files spawn real child processes; two workers fit the 2-core machines we run on.
    maxWorkers: 2,
    fileParallelism: true,
  },
});
