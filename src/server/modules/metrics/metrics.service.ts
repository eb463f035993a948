import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../../platform/db/database.js';
import { rowsOf } from '../../platform/db/database.js';
import { withCronRole, withMailerRole } from '../../platform/db/with-actor.js';

/**
 * The service's metrics in Prometheus's text format (docs/decisions/0077-metrics.md).
 * One registry per app, never prom-client's global one: tests build many apps in
 * one process, and two instances must not count into each other.
 *
 * Labels carry only bounded, impersonal values: the HTTP method, the route's registered pattern
 * (never the requested URL, whose ids and query strings would multiply the series and may hold
 * personal data), the status class, a job's name and an outbox or run status. No tenant, user,
 * address or id ever becomes a label.
 */
export interface Metrics {
  readonly contentType: string;
  /** Counts one answered request. `route` is the matched route's pattern, null when none matched. */
  observeRequest(method: string, route: string | null, statusCode: number, seconds: number): void;
  /** The exposition, with the database's figures read now. */
  exposition(): Promise<string>;
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Seconds; the API aims at well under a second, uploads and AI take longer. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const OUTBOX_STATUSES = ['pending', 'discarded'] as const;

export interface MetricsDeps {
  database: Database;
  logger: FastifyBaseLogger;
}

export function createMetrics({ database, logger }: MetricsDeps): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'pension_' });

  const requests = new Counter({
    name: 'pension_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status class.',
    labelNames: ['method', 'route', 'status_class'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'pension_http_request_duration_seconds',
    help: 'Time from receiving a request to finishing its answer, by method and route pattern.',
    labelNames: ['method', 'route'] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });

  const stats = database.poolStats?.bind(database);
  if (stats) {
    new Gauge({
      name: 'pension_db_pool_connections',
      help: 'Connections of the database pool: total, idle, waiting (queued requests) and max.',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const now = stats();
        this.set({ state: 'total' }, now.total);
        this.set({ state: 'idle' }, now.idle);
        this.set({ state: 'waiting' }, now.waiting);
        this.set({ state: 'max' }, now.max);
      },
    });
  }

  // Read at scrape time with one grouped count each: the outbox and job_runs stay small (sent
  // mail is cleared, runs are a few a day per job), and each role reads its own table only.
  new Gauge({
    name: 'pension_outbox_messages',
    help: 'E-mails in the outbox not delivered: pending (to be sent) and discarded (given up).',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      try {
        const rows = await withMailerRole(database, async (tx) =>
          rowsOf<{ status: string; n: number }>(
            await tx.execute(
              sql`select status, count(*)::int as n from email_outbox where status <> 'sent' group by status`,
            ),
          ),
        );
        const counts = new Map(rows.map((r) => [String(r.status), Number(r.n)]));
        for (const status of OUTBOX_STATUSES) this.set({ status }, counts.get(status) ?? 0);
      } catch (error) {
        this.reset();
        logger.error({ err: error }, 'metrics: outbox depth not read');
      }
    },
  });
  new Gauge({
    name: 'pension_job_runs',
    help: 'Runs of scheduled jobs recorded in job_runs, by job and outcome.',
    labelNames: ['job', 'outcome'] as const,
    registers: [registry],
    async collect() {
      try {
        const rows = await withCronRole(database, async (tx) =>
          rowsOf<{ job: string; status: string; n: number }>(
            await tx.execute(
              sql`select job, status, count(*)::int as n from job_runs group by job, status`,
            ),
          ),
        );
        this.reset();
        for (const r of rows)
          this.set({ job: String(r.job), outcome: String(r.status) }, Number(r.n));
      } catch (error) {
        this.reset();
        logger.error({ err: error }, 'metrics: job runs not read');
      }
    },
  });

  return {
    contentType: registry.contentType,
    observeRequest(method, route, statusCode, seconds) {
      const labels = {
        method: KNOWN_METHODS.has(method) ? method : 'other',
        route: route ?? 'unmatched',
      };
      requests.inc({ ...labels, status_class: `${Math.floor(statusCode / 100)}xx` });
      durations.observe(labels, seconds);
    },
    exposition: () => registry.metrics(),
  };
}
