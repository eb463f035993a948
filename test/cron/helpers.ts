import type { LightMyRequestResponse } from 'fastify';
import { jobRuns } from '../../src/server/platform/db/schema.js';
import {
  type Cadence,
  everyMinute,
  type JobCounts,
  type JobRunContext,
  type ScheduledJob,
} from '../../src/server/platform/jobs/scheduled-jobs.js';
import type { TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { TEST_SECRETS } from '../helpers/config.js';
import { ownerOf } from '../helpers/database.js';

export const CRON_BEARER = `Bearer ${TEST_SECRETS.CRON_SECRET}`;

/** A job that records each run and answers `work`'s counts (by default one thing processed). */
export function recordingJob(
  name: string,
  options: {
    cadence?: Cadence;
    work?: (context: JobRunContext) => Promise<JobCounts>;
  } = {},
) {
  const runs: JobRunContext[] = [];
  const job: ScheduledJob = {
    name,
    cadence: options.cadence ?? everyMinute(),
    maxRuntimeMinutes: 5,
    async run(context) {
      runs.push(context);
      return options.work ? options.work(context) : { processed: 1 };
    },
  };
  return { job, runs };
}

/** `POST /api/cron/<job>` with the right bearer unless `authorization` says otherwise. */
export function callJob(
  t: TestApp,
  job: string,
  options: { authorization?: string | null; query?: string; remoteAddress?: string } = {},
): Promise<LightMyRequestResponse> {
  const authorization = options.authorization === undefined ? CRON_BEARER : options.authorization;
  return t.app.inject({
    method: 'POST',
    url: `/api/cron/${job}${options.query ?? ''}`,
    remoteAddress: options.remoteAddress ?? uniqueClientAddress(),
    headers: authorization === null ? {} : { authorization },
  });
}

export function runsInDatabase(t: TestApp) {
  return ownerOf(t.database).select().from(jobRuns).orderBy(jobRuns.startedAt);
}
