/** Seconds of each load run; shorten with BENCH_SECONDS for a quick look. */
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Repeats of each comparison; the median is reported. */
export const RUNS = 3;
/** The line the real service prints once it listens, with its port. */
export const APP_READY = /Pension admin is running at http:\/\/[\w.]+:(\d+)/;

/**
 * The Node.js flags `npm start` runs the service with (docs/decisions/0004-memory-settings-pglite-and-v8.md): a 4 MB young
 * generation, an old generation let grow to twice what survived the last full collection before
 * the next, and Node's own code on 2 MB pages where the kernel offers them. The bare Fastify
 * baselines run with the same flags, so that a ratio measures the service's code, not the runtime.
 */
export const NODE_FLAGS = [
  '--max-semi-space-size=4',
  '--heap-growing-percent=100',
  '--use-largepages=silent',
];

/** The service as `npm start` runs it: the built entry point with NODE_FLAGS. */
export const APP_COMMAND = [...NODE_FLAGS, 'dist/server/main.js'];

/** The bare Fastify baseline (bench/bare-server.ts), run from source. */
export const BARE_COMMAND = [...NODE_FLAGS, '--import', 'tsx', 'bench/bare-server.ts'];
