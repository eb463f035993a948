import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // After every file: no PPS number in any log line or response of the apps it built.
    setupFiles: ['test/setup/leak-scan.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each test file opens its own database, so files never see each other's rows.
    fileParallelism: true,
    reporters: ['default'],
  },
});
