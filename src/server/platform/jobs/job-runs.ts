import { createId } from '@paralleldrive/cuid2';
import { and, desc, eq, lt, lte, or, sql } from 'drizzle-orm';
import type { Database } from '../db/database.js';
import { jobRuns } from '../db/schema.js';
import { withCronRole } from '../db/with-actor.js';
import type { JobCounts } from './scheduled-jobs.js';

/** What a call for a run key gets: the run is its to do, or the answer of a run it will not repeat. */
export type Claim =
  | {
      kind: 'claimed';
      runId: string;
      attempt: number;
      /** The latest succeeded run of an earlier slot of this job, for missed-run detection. */
      lastSucceeded: { scheduledFor: Date; finishedAt: Date } | null;
      /** Runs found past their lease and marked failed: their instance stopped mid-run. */
      abandoned: string[];
    }
  | { kind: 'already_ran' | 'running_elsewhere'; runId: string };

export type Settlement =
  | { status: 'succeeded'; counts: JobCounts }
  | { status: 'failed'; error: string };

/** Why a run was marked failed without its instance saying so. */
export const LEASE_EXPIRED = 'LeaseExpired';

export interface JobRunsDeps {
  database: Database;
  now: () => Date;
}

/**
 * The record of scheduled jobs' runs (job_runs), kept as pension_cron. A run key (job and slot)
 * is claimed under a transaction-level advisory lock keyed by the job, so concurrent calls on any
 * number of instances are served one after the other: the first claims the key, every later one
 * finds its run, running or succeeded, and is answered with it. The partial unique indexes hold
 * the same rules should anything reach the table without the lock.
 */
export function createJobRuns({ database, now }: JobRunsDeps) {
  return {
    async claim(job: string, slot: Date, leaseMs: number): Promise<Claim> {
      return withCronRole(database, async (tx) => {
        // Two-key form: its key space is apart from the migrator's single-key lock.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('job_runs'), hashtext(${job}))`);
        const at = now();
        const abandoned = await tx
          .update(jobRuns)
          .set({ status: 'failed', finishedAt: at, error: LEASE_EXPIRED })
          .where(
            and(eq(jobRuns.job, job), eq(jobRuns.status, 'running'), lte(jobRuns.leaseUntil, at)),
          )
          .returning({ id: jobRuns.id });
        // One statement, so one snapshot. A run settles outside this lock: read as separate
        // statements, a run could be seen as neither running (it had just settled) nor succeeded
        // (read before it settled), and its key claimed a second time.
        const seen = await tx
          .select({ id: jobRuns.id, status: jobRuns.status, scheduledFor: jobRuns.scheduledFor })
          .from(jobRuns)
          .where(
            and(
              eq(jobRuns.job, job),
              or(eq(jobRuns.scheduledFor, slot), eq(jobRuns.status, 'running')),
            ),
          );
        const ofSlot = seen.filter((row) => row.scheduledFor.getTime() === slot.getTime());
        const done = ofSlot.find((row) => row.status === 'succeeded');
        if (done) return { kind: 'already_ran', runId: done.id };
        const running = seen.find((row) => row.status === 'running');
        if (running) return { kind: 'running_elsewhere', runId: running.id };
        const [last] = await tx
          .select({ scheduledFor: jobRuns.scheduledFor, finishedAt: jobRuns.finishedAt })
          .from(jobRuns)
          .where(
            and(
              eq(jobRuns.job, job),
              eq(jobRuns.status, 'succeeded'),
              lt(jobRuns.scheduledFor, slot),
            ),
          )
          .orderBy(desc(jobRuns.scheduledFor))
          .limit(1);
        const runId = createId();
        const attempt = ofSlot.length + 1;
        await tx.insert(jobRuns).values({
          id: runId,
          job,
          scheduledFor: slot,
          attempt,
          status: 'running',
          startedAt: at,
          leaseUntil: new Date(at.getTime() + leaseMs),
        });
        return {
          kind: 'claimed',
          runId,
          attempt,
          lastSucceeded: last
            ? { scheduledFor: last.scheduledFor, finishedAt: last.finishedAt as Date }
            : null,
          abandoned: abandoned.map((row) => row.id),
        };
      });
    },

    /**
     * Records how a claimed run ended. False when the run was no longer running: it outlived its
     * lease and a later call marked it failed (and may have run the job again).
     */
    async settle(runId: string, settlement: Settlement): Promise<boolean> {
      const finishedAt = now();
      const change =
        settlement.status === 'succeeded'
          ? { status: 'succeeded', counts: settlement.counts, finishedAt }
          : { status: 'failed', error: settlement.error, finishedAt };
      const settled = await withCronRole(database, (tx) =>
        tx
          .update(jobRuns)
          .set(change)
          .where(and(eq(jobRuns.id, runId), eq(jobRuns.status, 'running')))
          .returning({ id: jobRuns.id }),
      );
      return settled.length === 1;
    },
  };
}

export type JobRuns = ReturnType<typeof createJobRuns>;
