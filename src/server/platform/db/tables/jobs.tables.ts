import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** The runs of the scheduled jobs (docs/decisions/0057-scheduled-jobs.md). */
/**
 * Scheduled jobs' runs (docs/decisions/0057-scheduled-jobs.md): platform bookkeeping, no tenant
 * data, reached only as pension_cron. The run key is the job and its slot (`scheduled_for`): at
 * most one run of a key is running or has succeeded, and at most one run of a job is running at
 * all; failed runs stay as history and the key may be run again. `error` is a class name or an
 * error code, held to that shape by the database so no message (which may quote personal data)
 * can be stored; `counts` holds numbers only.
 */
export const jobRuns = pgTable(
  'job_runs',
  {
    id: text('id').primaryKey(),
    job: text('job').notNull(),
    scheduledFor: timestamp('scheduled_for', { withTimezone: true, precision: 3 }).notNull(),
    /** 1 for the first run of this key, 2 for its first retry, … */
    attempt: integer('attempt').notNull(),
    status: text('status').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true, precision: 3 }).notNull(),
    /** Until then the run is its instance's; after it, another instance may take the job over. */
    leaseUntil: timestamp('lease_until', { withTimezone: true, precision: 3 }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true, precision: 3 }),
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
    error: text('error'),
  },
  (table) => [
    uniqueIndex('job_runs_run_key')
      .on(table.job, table.scheduledFor)
      .where(sql`${table.status} in ('running','succeeded')`),
    uniqueIndex('job_runs_one_running_per_job')
      .on(table.job)
      .where(sql`${table.status} = 'running'`),
    index('job_runs_job_slot_idx').on(table.job, table.scheduledFor),
    check('job_runs_status_known', sql`${table.status} in ('running','succeeded','failed')`),
    check('job_runs_job_name', sql`${table.job} ~ '^[a-z][a-z0-9-]{0,47}$'`),
    check(
      'job_runs_finished_unless_running',
      sql`(${table.status} = 'running') = (${table.finishedAt} is null)`,
    ),
    check(
      'job_runs_error_is_a_code',
      sql`(${table.status} = 'failed') = (${table.error} is not null) and (${table.error} is null or ${table.error} ~ '^[A-Za-z0-9_.:-]{1,64}$')`,
    ),
    check(
      'job_runs_counts_are_numbers',
      sql`jsonb_typeof(${table.counts}) = 'object' and not jsonb_path_exists(${table.counts}, '$.* ? (@.type() != "number")')`,
    ),
  ],
);
