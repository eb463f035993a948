/** Seconds of each load run; shorten with BENCH_SECONDS for a quick look. */
export const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Repeats of each comparison; the median is reported. */
export const RUNS = 3;
/** The line the real service prints once it listens, with its port. */
export const APP_READY = /Pension admin is running at http:\/\/[\w.]+:(\d+)/;

/**
 * The service as `npm start` runs it: the same Node.js flags (a 4 MB young generation, see
 * docs/decisions.md) and the built entry point.
 */
export const APP_COMMAND = ['--max-semi-space-size=4', 'dist/server/main.js'];
