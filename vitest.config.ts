import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongestKindsFirst } from './test/setup/sequencer.js';

/**
 * How many test files run at once. Vitest's default is one fewer than the cores, which on a
 * 2-core machine is one file at a time. On PGlite the database runs inside the worker, so a
 * worker a core keeps both busy. On a PostgreSQL server a worker spends much of its time waiting
 * for the server's own processes, so one more worker than cores fills those waits
 * (docs/decisions/0087-ci-time.md).
 */
const cores = availableParallelism();
const workers = process.env.DATABASE_URL ? cores + 1 : Math.max(cores, 2);

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // After every file: no PPS number in any log line or response of the apps it built.
    setupFiles: ['test/setup/leak-scan.ts'],
    pool: 'forks',
    // A worker imports the app once and runs file after file in that module graph: isolating each
    // file cost a fresh import of the whole server (about 3 s a file, half of CI's time). Each file
    // still opens its own database and builds its own app, so no file sees another's rows, and the
    // leak scan forgets a file's evidence once it has read it (test/setup/leak-scan.ts).
    isolate: false,
    maxWorkers: workers,
    // A global a test stubs is put back after it, so the next file in the worker sees the real one.
    unstubGlobals: true,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each test file opens its own database, so files never see each other's rows.
    fileParallelism: true,
    // The longest kinds of file first when no earlier run's times are known (a clean clone).
    sequence: { sequencer: LongestKindsFirst },
    reporters: ['default'],
  },
});
