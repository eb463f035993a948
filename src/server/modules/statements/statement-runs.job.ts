import { everyMinute, type ScheduledJob } from '../../platform/jobs/scheduled-jobs.js';
import type { StatementWorker } from './statement-worker.service.js';

/**
 * Resumes statement runs that are queued or whose instance stopped (its lease ran out), in every
 * tenant (docs/decisions/0141-pension-benefit-statements.md): a run is finished even when the
 * instance that started it is gone.
 */
export function statementRunsJob(worker: StatementWorker): ScheduledJob {
  return {
    name: 'statement-runs',
    cadence: everyMinute(),
    // A run of 10,000 statements takes minutes; a longer silence means the instance is gone.
    maxRuntimeMinutes: 60,
    async run() {
      return { resumed: await worker.resumeAll() };
    },
  };
}
