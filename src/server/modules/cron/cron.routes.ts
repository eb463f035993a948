import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { ValidationError } from '../../platform/errors.js';
import { routeOf } from '../../platform/http/route-of.js';
import type { JobRunner } from '../../platform/jobs/job-runner.js';
import { JOB_NAME, type JobRegistry } from '../../platform/jobs/scheduled-jobs.js';

export { BEARER_FAILURE_WINDOW_MS, MAX_BEARER_FAILURES } from '../../platform/http/bearer-gate.js';

/** How far back `?scheduledFor=` may reach: a week of outage caught up, nothing older. */
export const MAX_CATCH_UP_MS = 7 * 24 * 60 * 60_000;

const runAnswer = z
  .object({
    job: z.string(),
    runId: z.string(),
    outcome: z.enum(['succeeded', 'already_ran', 'running_elsewhere']),
  })
  .catchall(z.number());
const failedAnswer = z.object({
  error: z.string(),
  job: z.string(),
  runId: z.string(),
  outcome: z.literal('failed'),
});
const errorAnswer = z.object({ error: z.string() });

export interface CronRoutesOptions {
  jobs: JobRegistry;
  runJob: JobRunner;
  now: () => Date;
}

/**
 * `POST /api/cron/<job>` (docs/decisions/0057-scheduled-jobs.md). No session: the caller is a
 * scheduler holding CRON_SECRET. The bearer is checked before anything else, for every target under
 * `/api/cron/` in whatever form it came, by the prefix gate (http/bearer-gate.ts,
 * bearerPrefixGates): before the body is read, before the job's name is looked at, before any
 * database work. A name no job could have is a 400, like any malformed parameter; a job this
 * instance does not know is a 404.
 */
export const cronRoutes: FastifyPluginAsyncZod<CronRoutesOptions> = async (
  app,
  { jobs, runJob, now },
) => {
  app.route({
    ...routeOf(apiRoutes.machines.cron),
    schema: {
      tags: ['cron'],
      summary: 'Run a scheduled job for its current slot (or a recent past one)',
      description:
        'For schedulers: `Authorization: Bearer <CRON_SECRET>`, no session. A slot runs once; a later call for it answers with that run.',
      params: z.object({
        job: z
          .string()
          .regex(JOB_NAME, 'must be a job name: lower-case letters, digits and hyphens'),
      }),
      querystring: z.object({
        scheduledFor: z.iso
          .datetime({
            offset: true,
            error: 'must be a date and time such as 2026-03-04T06:00:00Z',
          })
          .optional(),
      }),
      // A 500 is a failed run, or the error handler's generic answer to anything unexpected:
      // both must pass the schema, or the answer becomes a serialization error instead.
      response: {
        200: runAnswer,
        401: errorAnswer,
        404: errorAnswer,
        500: z.union([failedAnswer, errorAnswer]),
        503: errorAnswer,
      },
    },
    // Nothing is read from a body; a large one is refused rather than parsed.
    bodyLimit: 1024,
    handler: async (request, reply) => {
      const job = jobs.get(request.params.job);
      if (!job) return reply.code(404).send({ error: 'Not found' });
      const at = now();
      let target = at;
      if (request.query.scheduledFor !== undefined) {
        target = new Date(request.query.scheduledFor);
        if (target.getTime() > at.getTime()) {
          throw new ValidationError([
            { path: 'scheduledFor', code: 'too_big', message: 'must not be in the future' },
          ]);
        }
        if (at.getTime() - target.getTime() > MAX_CATCH_UP_MS) {
          throw new ValidationError([
            { path: 'scheduledFor', code: 'too_small', message: 'must be within the last 7 days' },
          ]);
        }
      }
      const answer = await runJob(job, job.cadence.slotOf(target));
      if (answer.outcome === 'failed') {
        // A scheduler sees a failed run as a failed call (curl --fail, a Job's status); the cause
        // stays in the log and in job_runs.
        return reply.code(500).send({
          error: 'Job failed',
          job: answer.job,
          runId: answer.runId,
          outcome: 'failed',
        });
      }
      // Counts are numbers under names that cannot shadow these three (job-runner.ts).
      const body = {
        ...answer.counts,
        job: answer.job,
        runId: answer.runId,
        outcome: answer.outcome,
      };
      return body as z.infer<typeof runAnswer>;
    },
  });
};
