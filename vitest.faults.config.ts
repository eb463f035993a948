import { defineConfig } from 'vitest/config';

/**
 * The fault-injection suite (docs/faults.md): `npm run test:faults`. Its files start
 * real processes (a PostgreSQL cluster, Redis, SMTP, two built instances, nginx) and stop some of
 * them on purpose, so they run one at a time and are given minutes, not seconds. They end in
 * `.fault.ts` so that the main suite (`*.test.ts`) never picks them up.
 */
export default defineConfig({
  test: {
    include: ['test/faults/**/*.fault.ts'],
    // After every file, as in the main suite: no PPS number or personal data in any log line.
    setupFiles: ['test/setup/leak-scan.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 180_000,
    reporters: ['default'],
  },
});
