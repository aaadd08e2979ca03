import { defineConfig } from 'vitest/config';

// The long part of the reliability suite (crash, load, faults through real batches):
// `npm run test:reliability`, minutes on a 2-core machine. The fast part (fuzz, security)
// lives in test/unit and runs with `npm test`.
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/setup/build-cli.ts'],
    testTimeout: 600_000,
    hookTimeout: 120_000,
    // One at a time: the load test's in-flight bound and the crash test's timings must not
    // compete with another file for the 2 cores.
    fileParallelism: false,
    pool: 'forks',
  },
});
