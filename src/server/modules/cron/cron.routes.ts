import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { logSecurityEvent } from '../../auth/security-events.js';
import { ValidationError } from '../../errors.js';
import {
  hitOrFallback,
  type RateLimitStore,
  type WindowCount,
} from '../../http/rate-limit-store.js';
import { clientKey } from '../../http/rate-limits.js';
import { sendTooManyRequests } from '../../http/too-many-requests.js';
import type { JobRunner } from './job-runner.js';
import { JOB_NAME, type JobRegistry } from './scheduled-jobs.js';

export const CRON_PATH = '/api/cron/:job';

/** Wrong bearers a client address may send in the window before every cron call of it is refused. */
export const MAX_BEARER_FAILURES = 10;
export const BEARER_FAILURE_WINDOW_MS = 15 * 60_000;
/** How far back `?scheduledFor=` may reach: a week of outage caught up, nothing older. */
export const MAX_CATCH_UP_MS = 7 * 24 * 60 * 60_000;

/**
 * Compares an Authorization header with `Bearer <secret>` in constant time: both sides are
 * reduced to an HMAC under a key of this process first, so neither the content nor the length of
 * the secret shows in how long a wrong guess takes.
 */
export function bearerMatcher(secret: string): (header: string | undefined) => boolean {
  const key = randomBytes(32);
  const digest = (value: string) => createHmac('sha256', key).update(value).digest();
  const expected = digest(`Bearer ${secret}`);
  return (header) => timingSafeEqual(digest(header ?? ''), expected);
}

const failuresKey = (request: FastifyRequest) => `cron-bearer:${clientKey(request.ip)}`;

/** Fail open, as the API's limits do: an unreachable store must not stop the jobs. */
async function failuresSoFar(
  store: RateLimitStore,
  request: FastifyRequest,
): Promise<WindowCount | null> {
  try {
    return await store.peek(failuresKey(request));
  } catch (error) {
    request.log.error(
      { err: error },
      'rate-limit store unavailable: cron bearer failures not read',
    );
    return null;
  }
}

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
  /** CRON_SECRET: the bearer every call must carry. */
  secret: string;
  /** The rate-limit counters (shared through Redis when configured). */
  store: RateLimitStore;
  now: () => Date;
}

/**
 * `POST /api/cron/<job>` (decisions.md §6; docs/decisions.md, "Scheduled jobs"). No session: the
 * caller is a scheduler holding CRON_SECRET. The bearer is checked first, in the route's own
 * request hook, which runs whatever form the request target came in since it belongs to the
 * route the router chose: before the body is read, before the job's name is looked at, before
 * any database work. A name no job could have is a 400, like any malformed parameter; a job this
 * instance does not know is a 404. A client that keeps sending wrong bearers is refused altogether for a while,
 * with the right one too, so guessing learns nothing.
 */
export const cronRoutes: FastifyPluginAsyncZod<CronRoutesOptions> = async (
  app,
  { jobs, runJob, secret, store, now },
) => {
  const matches = bearerMatcher(secret);

  async function requireBearer(request: FastifyRequest, reply: FastifyReply) {
    const failures = await failuresSoFar(store, request);
    if (failures && failures.count >= MAX_BEARER_FAILURES) {
      return sendTooManyRequests(reply, failures.resetInMs);
    }
    if (matches(request.headers.authorization)) return;
    await hitOrFallback(store, failuresKey(request), BEARER_FAILURE_WINDOW_MS, {
      count: 0,
      resetInMs: 0,
    });
    logSecurityEvent(request.log, 'cron.bearer_refused', { userId: null });
    return reply.code(401).send({ error: 'Unauthorized' });
  }

  app.post(
    CRON_PATH,
    {
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
        response: { 200: runAnswer, 500: failedAnswer, 401: errorAnswer, 404: errorAnswer },
      },
      // Nothing is read from a body; a large one is refused rather than parsed.
      bodyLimit: 1024,
      onRequest: requireBearer,
    },
    async (request, reply) => {
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
  );
};
