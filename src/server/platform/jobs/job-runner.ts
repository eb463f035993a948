import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { CronMonitor } from './cron-monitor.js';
import type { JobRuns } from './job-runs.js';
import type { Cadence, JobCounts, ScheduledJob } from './scheduled-jobs.js';

export type RunOutcome = 'succeeded' | 'failed' | 'already_ran' | 'running_elsewhere';

export interface RunAnswer {
  job: string;
  runId: string;
  outcome: RunOutcome;
  /** What the run did; empty unless it ran here and succeeded. */
  counts: JobCounts;
}

/** Missed slots are counted back this far at most; beyond, the log says "at least" this many. */
export const MAX_COUNTED_MISSES = 10_000;

const SAFE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;
const SAFE_CODE = /^[A-Za-z0-9_]{1,20}$/;

/**
 * What a failure is recorded and logged as: the error's class name and, when it has one, its
 * code (`DatabaseError:40001`, `Error:ECONNREFUSED`). Never its message, which may quote a
 * person's e-mail address or a value from a row.
 */
export function errorSummary(error: unknown): string {
  if (!(error instanceof Error)) return 'NonError';
  const name = SAFE_NAME.test(error.name) ? error.name : 'Error';
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && SAFE_CODE.test(code) ? `${name}:${code}` : name;
}

/** Names the answer already uses: a count cannot replace them. */
const RESERVED = new Set(['job', 'runId', 'outcome', 'error']);

/** A job's counts as the framework keeps them, or null when they are not counts. */
function checkedCounts(value: unknown): JobCounts | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const counts: JobCounts = {};
  for (const [name, number] of Object.entries(value)) {
    if (!SAFE_NAME.test(name) || RESERVED.has(name)) return null;
    if (typeof number !== 'number' || !Number.isFinite(number)) return null;
    counts[name] = number;
  }
  return counts;
}

/** Slots of `cadence` strictly between two slot starts, counted back from the later. */
export function slotsBetween(cadence: Cadence, earlier: Date, later: Date): number {
  let missed = 0;
  let slot = cadence.slotOf(new Date(later.getTime() - 1));
  while (slot.getTime() > earlier.getTime() && missed < MAX_COUNTED_MISSES) {
    missed += 1;
    slot = cadence.slotOf(new Date(slot.getTime() - 1));
  }
  return missed;
}

export interface JobRunnerDeps {
  runs: JobRuns;
  monitor: CronMonitor;
  logger: Logger;
  now: () => Date;
}

/**
 * Runs a job for one slot at most once (docs/decisions/0057-scheduled-jobs.md): claims the run key,
 * notices missed slots, checks in with Sentry, runs the job, records the outcome. Every failure
 * is logged at error level, with Sentry or without, and only as an error summary.
 */
export function createJobRunner({ runs, monitor, logger, now }: JobRunnerDeps) {
  const log = logger.child({ component: 'cron' });

  function reportMissed(
    job: ScheduledJob,
    slot: Date,
    last: { scheduledFor: Date; finishedAt: Date },
  ) {
    // Slots that began while the last good run was still running were answered running_elsewhere
    // and covered by it: the count starts from the slot that run finished in.
    const finishedSlot = job.cadence.slotOf(last.finishedAt);
    const from = new Date(Math.max(finishedSlot.getTime(), last.scheduledFor.getTime()));
    const missed = slotsBetween(job.cadence, from, slot);
    if (missed === 0) return;
    log.error(
      {
        job: job.name,
        missed,
        lastSucceededSlot: last.scheduledFor.toISOString(),
        scheduledFor: slot.toISOString(),
      },
      'missed run(s)',
    );
  }

  return async function runJob(job: ScheduledJob, slot: Date): Promise<RunAnswer> {
    const claim = await runs.claim(job.name, slot, job.maxRuntimeMinutes * 60_000);
    if (claim.kind !== 'claimed') {
      log.info(
        { job: job.name, runId: claim.runId, outcome: claim.kind },
        'scheduled job not run again',
      );
      return { job: job.name, runId: claim.runId, outcome: claim.kind, counts: {} };
    }
    const { runId } = claim;
    const context = {
      job: job.name,
      runId,
      scheduledFor: slot.toISOString(),
      attempt: claim.attempt,
    };
    for (const abandonedRunId of claim.abandoned) {
      log.error(
        { job: job.name, runId: abandonedRunId },
        'scheduled job run abandoned past its lease',
      );
    }
    if (claim.lastSucceeded) reportMissed(job, slot, claim.lastSucceeded);

    const checkInId = randomUUID().replaceAll('-', '');
    await monitor.checkIn({ job, checkInId, status: 'in_progress' });
    const startedAt = now().getTime();
    let settlement:
      | { status: 'succeeded'; counts: JobCounts }
      | { status: 'failed'; error: string };
    try {
      const counts = checkedCounts(await job.run({ scheduledFor: slot, runId }));
      settlement = counts
        ? { status: 'succeeded', counts }
        : { status: 'failed', error: 'InvalidCounts' };
    } catch (error) {
      settlement = { status: 'failed', error: errorSummary(error) };
    }
    const settled = await runs.settle(runId, settlement);
    const durationSeconds = Math.max(0, (now().getTime() - startedAt) / 1000);
    if (!settled) {
      log.error(context, 'scheduled job run outlived its lease: its outcome is not recorded');
    }
    if (settlement.status === 'failed') {
      log.error({ ...context, error: settlement.error }, 'scheduled job failed');
      await monitor.checkIn({ job, checkInId, status: 'error', durationSeconds });
      return { job: job.name, runId, outcome: 'failed', counts: {} };
    }
    log.info({ ...context, counts: settlement.counts }, 'scheduled job succeeded');
    await monitor.checkIn({ job, checkInId, status: 'ok', durationSeconds });
    return { job: job.name, runId, outcome: 'succeeded', counts: settlement.counts };
  };
}

export type JobRunner = ReturnType<typeof createJobRunner>;
