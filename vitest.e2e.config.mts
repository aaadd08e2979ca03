import { defineConfig } from 'vitest/config';

// Browser tests: real Chromium (/usr/bin/chromium through playwright-core) against the
// built renderer served on loopback, talking to the real services over the bridge.
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    environment: 'node',
    globalSetup: ['test/setup/build-cli.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    pool: 'forks',
    // expect.poll waits for a state the app reaches by events; its 1 s default is a clock
    // that a busy 2-core CI machine runs out of. Tests that need a tighter bound say so.
    expect: { poll: { timeout: 30_000 } },
  },
});
