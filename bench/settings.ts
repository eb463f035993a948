/** Seconds of each load run; shorten with BENCH_SECONDS for a quick look. */
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Repeats of each comparison; the median is reported. */
export const RUNS = 3;
/** The line the real service prints once it listens, with its port. */
export const APP_READY = /Pension admin is running at http:\/\/[\w.]+:(\d+)/;

/**
 * How `npm start` runs the service (docs/decisions/0114-a-lean-embedded-start.md): a 2 MB young
 * generation, an old generation let grow to twice what survived the last full collection before
 * the next (docs/decisions/0004-memory-settings-pglite-and-v8.md), and two malloc arenas (an
 * environment variable: glibc reads it when the process starts). The bare Fastify baselines run
 * the same way, so that a ratio measures the service's code, not the runtime.
 */
export const NODE_FLAGS = ['--max-semi-space-size=2', '--heap-growing-percent=100'];
export const START_ENV: Record<string, string> = { MALLOC_ARENA_MAX: '2' };

/** The service as `npm start` runs it: the built entry point with NODE_FLAGS. */
export const APP_COMMAND = [...NODE_FLAGS, 'dist/server/main.js'];

/** The bare Fastify baseline (bench/bare-server.ts), run from source. */
export const BARE_COMMAND = [...NODE_FLAGS, '--import', 'tsx', 'bench/bare-server.ts'];
