import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/setup/build-cli.ts'],
    // A cap, not a wait: on a busy 2-core CI machine a test that spawns `sift` a few times
    // takes a minute; a hung test still fails.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // expect.poll waits for a state the code reaches by events; its 1 s default is a clock
    // that a busy 2-core CI machine runs out of. Tests that need a tighter bound say so.
    expect: { poll: { timeout: 30_000 } },
  },
});
