/**
 * How an instance stops on SIGTERM (docs/decisions/0009-timeouts-shutdown-and-drain.md;
 * docs/deployment.md, "Rolling restart"). Kept apart from main.ts so that the deployment tests
 * can hold the shipped proxy configuration to them.
 */

/** In-flight requests get this long to finish after SIGTERM before the process exits anyway. */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * After SIGTERM, and within the grace, the instance first serves on as usual for this long but
 * closes each connection after its answer. It is longer than the shipped nginx keeps an idle
 * connection to an instance (`keepalive_timeout` in deploy/nginx/pension-admin.conf), so by its
 * end nginx has closed every connection that carried no request meanwhile: the instance then
 * closes none that nginx may be writing a request to.
 */
export const SHUTDOWN_DRAIN_MS = 5_000;
