import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/server/platform/db/database.js';
import { jobRuns } from '../../src/server/platform/db/schema.js';
import { errorSummary } from '../../src/server/platform/jobs/job-runner.js';
import { LEASE_EXPIRED } from '../../src/server/platform/jobs/job-runs.js';
import { dailyInIreland, everyMinute } from '../../src/server/platform/jobs/scheduled-jobs.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import {
  databaseErrorOf,
  onPostgres,
  openTestDatabase,
  ownerOf,
  type TestDatabase,
} from '../helpers/database.js';
import { callJob, recordingJob as makeJob, type recordingJob, runsInDatabase } from './helpers.js';

const MINUTE = 60_000;
let clock = Date.parse('2026-11-03T10:00:20Z');
const now = () => new Date(clock);

// One database for the file: each test starts from no job runs at all, which is all these jobs
// write, rather than from a database of its own (a fresh one cost more than the test itself).
let shared: TestDatabase;
const opened: Array<{ close(): Promise<void> }> = [];
beforeAll(async () => {
  shared = await openTestDatabase();
});
afterAll(() => shared.dispose());
beforeEach(async () => {
  clock = Date.parse('2026-11-03T10:00:20Z');
  await ownerOf(shared.database).delete(jobRuns);
});
afterEach(async () => {
  for (const resource of opened.splice(0).reverse()) await resource.close();
});

type Job = ReturnType<typeof recordingJob>;

async function appWith(jobs: Job[], env: Record<string, string> = {}): Promise<TestApp> {
  const t = await buildTestApp({
    database: shared.database,
    now,
    env,
    extend: (app) => {
      for (const { job } of jobs) app.scheduledJobs.add(job);
    },
  });
  opened.push(t);
  return t;
}

/** A promise and the function that settles it: a job that waits until the test lets it go. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('a scheduled job run', () => {
  it('is recorded with its slot, outcome and counts, and answered with them', async () => {
    const counting = makeJob('counting', { work: async () => ({ sent: 3, skipped: 0 }) });
    const t = await appWith([counting]);
    const response = await callJob(t, 'counting');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      job: 'counting',
      runId: expect.any(String),
      outcome: 'succeeded',
      sent: 3,
      skipped: 0,
    });
    expect(counting.runs).toEqual([
      { scheduledFor: new Date('2026-11-03T10:00:00Z'), runId: body.runId },
    ]);
    expect(await runsInDatabase(t)).toEqual([
      {
        id: body.runId,
        job: 'counting',
        scheduledFor: new Date('2026-11-03T10:00:00Z'),
        attempt: 1,
        status: 'succeeded',
        startedAt: now(),
        leaseUntil: new Date(clock + 5 * MINUTE),
        finishedAt: now(),
        counts: { sent: 3, skipped: 0 },
        error: null,
      },
    ]);
  });

  it('runs once per slot: a second call in the same slot answers with the first run', async () => {
    const counting = makeJob('counting');
    const t = await appWith([counting]);
    const first = (await callJob(t, 'counting')).json();
    clock += 30_000; // still 10:00
    const again = await callJob(t, 'counting');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ job: 'counting', runId: first.runId, outcome: 'already_ran' });
    expect(counting.runs).toHaveLength(1);
    clock += 30_000; // 10:01: the next slot
    expect((await callJob(t, 'counting')).json().outcome).toBe('succeeded');
    expect(counting.runs).toHaveLength(2);
  });

  it('runs once when called twice at the same time: the other call answers running_elsewhere', async () => {
    const release = gate();
    const slow = makeJob('slow', {
      work: async () => {
        await release.opened;
        return { done: 1 };
      },
    });
    const t = await appWith([slow]);
    const first = callJob(t, 'slow');
    // The first call has claimed the slot once its job has started.
    await expect.poll(() => slow.runs.length).toBe(1);
    const second = await callJob(t, 'slow');
    release.open();
    const firstBody = (await first).json();
    expect(firstBody.outcome).toBe('succeeded');
    expect(second.json()).toEqual({
      job: 'slow',
      runId: firstBody.runId,
      outcome: 'running_elsewhere',
    });
    expect(slow.runs).toHaveLength(1);
    expect(await runsInDatabase(t)).toHaveLength(1);
  });

  it('runs once when many calls race for the same slot, while the first run settles', async () => {
    const counting = makeJob('counting');
    const t = await appWith([counting]);
    const responses = await Promise.all(Array.from({ length: 16 }, () => callJob(t, 'counting')));
    // The calls queue on the run key's lock, each holding one of the test pool's four connections;
    // on a loaded machine one may wait past the pool's connection timeout and get the generic 503
    // (nothing claimed, nothing run). The first run settles while later calls are being answered:
    // each of them must see it running or succeeded, never neither (job-runs.ts reads the slot in
    // one statement). Never a second run, never another answer.
    const refused = responses.filter((response) => response.statusCode !== 200);
    expect(
      refused.every((response) => response.statusCode === 503),
      refused.map((response) => `${response.statusCode} ${response.body}`).join('; '),
    ).toBe(true);
    const answers = responses
      .filter((response) => response.statusCode === 200)
      .map((response) => response.json());
    expect(counting.runs).toHaveLength(1);
    const runIds = new Set(answers.map((answer) => answer.runId));
    expect(runIds.size).toBe(1);
    expect(answers.filter((answer) => answer.outcome === 'succeeded')).toHaveLength(1);
    expect(await runsInDatabase(t)).toHaveLength(1);
  });

  it('answers anything unexpected with the generic 500, which its response schema accepts', async () => {
    const broken = makeJob('broken', {
      cadence: {
        ...everyMinute(),
        slotOf: () => {
          throw new Error('a defect in the cadence');
        },
      },
    });
    const t = await appWith([broken]);
    const response = await callJob(t, 'broken');
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'Internal server error' });
    expect(broken.runs).toHaveLength(0);
    expect(await runsInDatabase(t)).toHaveLength(0);
  });

  it('that fails is recorded as failed with an error code, logged at error level without the message, and can be retried under the same key', async () => {
    let failing = true;
    const flaky = makeJob('flaky', {
      work: async () => {
        if (failing) {
          throw Object.assign(new Error('could not reach mary.murphy@example.ie about 1234567TA'), {
            code: 'ECONNREFUSED',
          });
        }
        return { sent: 1 };
      },
    });
    const t = await appWith([flaky]);
    const failed = await callJob(t, 'flaky');
    expect(failed.statusCode).toBe(500);
    const failedBody = failed.json();
    expect(failedBody).toEqual({
      error: 'Job failed',
      job: 'flaky',
      runId: expect.any(String),
      outcome: 'failed',
    });
    const errors = t.logs.entries().filter((entry) => entry.level === 50);
    expect(errors).toEqual([
      expect.objectContaining({
        message: 'scheduled job failed',
        job: 'flaky',
        runId: failedBody.runId,
        error: 'Error:ECONNREFUSED',
      }),
    ]);
    expect(t.logs.text()).not.toMatch(/mary|murphy|example\.ie|1234567TA/i);
    expect(failed.body).not.toMatch(/mary|ECONNREFUSED/i);

    failing = false;
    const retried = await callJob(t, 'flaky');
    expect(retried.json()).toMatchObject({ outcome: 'succeeded', sent: 1 });
    expect(retried.json().runId).not.toBe(failedBody.runId);
    const rows = await runsInDatabase(t);
    expect(
      rows.map(({ status, attempt, error, scheduledFor }) => ({
        status,
        attempt,
        error,
        scheduledFor,
      })),
    ).toEqual([
      {
        status: 'failed',
        attempt: 1,
        error: 'Error:ECONNREFUSED',
        scheduledFor: new Date('2026-11-03T10:00:00Z'),
      },
      {
        status: 'succeeded',
        attempt: 2,
        error: null,
        scheduledFor: new Date('2026-11-03T10:00:00Z'),
      },
    ]);
    expect((await callJob(t, 'flaky')).json().outcome).toBe('already_ran');
  });

  it('whose counts are not numbers is a failed run', async () => {
    const odd = makeJob('odd', { work: async () => ({ sent: 'three' }) as never });
    const shadowing = makeJob('shadowing', { work: async () => ({ outcome: 1 }) });
    const t = await appWith([odd, shadowing]);
    expect((await callJob(t, 'odd')).json()).toMatchObject({ outcome: 'failed' });
    expect((await callJob(t, 'shadowing')).json()).toMatchObject({ outcome: 'failed' });
    expect((await runsInDatabase(t)).map((row) => row.error)).toEqual([
      'InvalidCounts',
      'InvalidCounts',
    ]);
  });

  it('abandoned by an instance that stopped mid-run is taken over once its lease has passed', async () => {
    const counting = makeJob('counting');
    const t = await appWith([counting]);
    const owner = ownerOf(t.database);
    await owner.insert(jobRuns).values({
      id: 'abandoned-run',
      job: 'counting',
      scheduledFor: new Date('2026-11-03T09:59:00Z'),
      attempt: 1,
      status: 'running',
      startedAt: new Date(clock - 2 * MINUTE),
      leaseUntil: new Date(clock + 3 * MINUTE),
    });
    expect((await callJob(t, 'counting')).json()).toEqual({
      job: 'counting',
      runId: 'abandoned-run',
      outcome: 'running_elsewhere',
    });
    clock += 3 * MINUTE; // 10:03:20, past the lease
    expect((await callJob(t, 'counting')).json().outcome).toBe('succeeded');
    const abandoned = (await runsInDatabase(t)).find((row) => row.id === 'abandoned-run');
    expect(abandoned).toMatchObject({ status: 'failed', error: LEASE_EXPIRED });
    expect(
      t.logs.entries().some((entry) => entry.level === 50 && entry.runId === 'abandoned-run'),
    ).toBe(true);
  });

  it('for a past slot runs with ?scheduledFor=, within the last 7 days and not in the future', async () => {
    const daily = makeJob('daily', { cadence: dailyInIreland({ hour: 6, minute: 0 }) });
    const t = await appWith([daily]);
    const caughtUp = await callJob(t, 'daily', { query: '?scheduledFor=2026-10-30T06:00:00Z' });
    expect(caughtUp.json().outcome).toBe('succeeded');
    // 30 October 2026 is in Irish winter time: the Irish day starts at midnight UTC.
    expect(daily.runs[0]?.scheduledFor).toEqual(new Date('2026-10-30T00:00:00Z'));
    for (const query of [
      '?scheduledFor=2026-11-03T10:05:00Z',
      '?scheduledFor=2026-10-27T10:00:00Z',
      '?scheduledFor=yesterday',
      '?scheduledFor=2026-11-02',
    ]) {
      const refused = await callJob(t, 'daily', { query });
      expect({ query, status: refused.statusCode }).toEqual({ query, status: 400 });
      expect(refused.json()).toMatchObject({ error: 'Validation failed' });
    }
    expect(daily.runs).toHaveLength(1);
  });
});

describe('missed runs', () => {
  it('are logged at error level with their count when a run starts after slots without one', async () => {
    const counting = makeJob('counting');
    const t = await appWith([counting]);
    await callJob(t, 'counting'); // 10:00
    clock += MINUTE;
    await callJob(t, 'counting'); // 10:01: nothing missed
    expect(t.logs.entries().filter((entry) => entry.message === 'missed run(s)')).toEqual([]);
    clock += 4 * MINUTE;
    await callJob(t, 'counting'); // 10:05: 10:02, 10:03 and 10:04 missed
    const missed = t.logs.entries().filter((entry) => entry.message === 'missed run(s)');
    expect(missed).toEqual([
      expect.objectContaining({
        level: 50,
        job: 'counting',
        missed: 3,
        lastSucceededSlot: '2026-11-03T10:01:00.000Z',
        scheduledFor: '2026-11-03T10:05:00.000Z',
      }),
    ]);
  });

  it('of an Irish daily job are counted in Irish calendar days, across a change of the clocks', async () => {
    clock = Date.parse('2026-10-23T05:30:00Z'); // Friday 23 October, 06:30 Irish summer time
    const daily = makeJob('daily', { cadence: dailyInIreland({ hour: 6, minute: 30 }) });
    const t = await appWith([daily]);
    await callJob(t, 'daily');
    expect(daily.runs[0]?.scheduledFor).toEqual(new Date('2026-10-22T23:00:00Z'));
    clock = Date.parse('2026-10-27T06:30:00Z'); // Tuesday 27 October, after the clocks went back
    await callJob(t, 'daily');
    expect(daily.runs[1]?.scheduledFor).toEqual(new Date('2026-10-27T00:00:00Z'));
    const missed = t.logs.entries().filter((entry) => entry.message === 'missed run(s)');
    // 24, 25 and 26 October.
    expect(missed).toEqual([expect.objectContaining({ level: 50, job: 'daily', missed: 3 })]);
  });

  it('are not counted for slots a long run of the job was still busy in', async () => {
    const counting = makeJob('counting', {
      work: async () => {
        clock += 3 * MINUTE; // the run takes three minutes
        return { sent: 1 };
      },
    });
    const t = await appWith([counting]);
    await callJob(t, 'counting'); // 10:00, finishes 10:03:20
    clock += MINUTE; // 10:04:20
    await callJob(t, 'counting');
    expect(t.logs.entries().filter((entry) => entry.message === 'missed run(s)')).toEqual([]);
  });
});

interface Received {
  header: Record<string, unknown>;
  itemHeader: Record<string, unknown>;
  item: Record<string, unknown>;
  auth: string | undefined;
}

async function fakeSentry(): Promise<{ port: number; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.url === '/api/42/envelope/' && request.method === 'POST') {
        const [header = '{}', itemHeader = '{}', item = '{}'] = Buffer.concat(chunks)
          .toString()
          .split('\n');
        received.push({
          header: JSON.parse(header),
          itemHeader: JSON.parse(itemHeader),
          item: JSON.parse(item),
          auth: request.headers['x-sentry-auth'] as string | undefined,
        });
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  opened.push({
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
      }),
  });
  return { port, received, server };
}

describe('Sentry cron check-ins', () => {
  it('go to the DSN’s envelope endpoint: in_progress, then ok, with the job’s schedule', async () => {
    const sentry = await fakeSentry();
    const dsn = `http://publickey1@127.0.0.1:${sentry.port}/42`;
    const daily = makeJob('reminders-test', { cadence: dailyInIreland({ hour: 6, minute: 0 }) });
    const t = await appWith([daily], { SENTRY_DSN: dsn });
    await callJob(t, 'reminders-test');
    expect(sentry.received.map((envelope) => envelope.item.status)).toEqual(['in_progress', 'ok']);
    const [start, end] = sentry.received;
    expect(start?.header).toMatchObject({ dsn });
    expect(start?.itemHeader).toEqual({ type: 'check_in' });
    expect(start?.auth).toContain('sentry_key=publickey1');
    expect(start?.item).toEqual({
      check_in_id: expect.stringMatching(/^[0-9a-f]{32}$/),
      monitor_slug: 'reminders-test',
      status: 'in_progress',
      environment: 'test',
      monitor_config: {
        schedule: { type: 'crontab', value: '0 6 * * *' },
        timezone: 'Europe/Dublin',
        checkin_margin: 60,
        max_runtime: 5,
      },
    });
    expect(end?.item).toMatchObject({
      check_in_id: start?.item.check_in_id,
      status: 'ok',
      duration: expect.any(Number),
    });
    // A call for a slot already run checks in nothing: the run it names did.
    await callJob(t, 'reminders-test');
    expect(sentry.received).toHaveLength(2);
  });

  it('close a failed run with error, and the failure is logged at error level as well', async () => {
    const sentry = await fakeSentry();
    const failing = makeJob('failing', {
      work: async () => {
        throw new TypeError('cannot read the name of member 1234567TA');
      },
    });
    const t = await appWith([failing], {
      SENTRY_DSN: `http://publickey1@127.0.0.1:${sentry.port}/42`,
    });
    await callJob(t, 'failing');
    expect(sentry.received.map((envelope) => envelope.item.status)).toEqual([
      'in_progress',
      'error',
    ]);
    expect(JSON.stringify(sentry.received)).not.toContain('1234567TA');
    expect(t.logs.entries()).toContainEqual(
      expect.objectContaining({ level: 50, message: 'scheduled job failed', error: 'TypeError' }),
    );
  });

  it('that cannot be delivered never fail the run', async () => {
    const sentry = await fakeSentry();
    sentry.server.close();
    sentry.server.closeAllConnections();
    const counting = makeJob('counting');
    const t = await appWith([counting], {
      SENTRY_DSN: `http://publickey1@127.0.0.1:${sentry.port}/42`,
    });
    expect((await callJob(t, 'counting')).json().outcome).toBe('succeeded');
    expect(t.logs.entries()).toContainEqual(
      expect.objectContaining({ level: 40, message: 'cron check-in not delivered' }),
    );
  });
});

describe('job_runs', () => {
  it('holds an error code, never a message, and numbers only as counts', async () => {
    const owner = ownerOf(shared.database);
    const row = {
      id: 'r1',
      job: 'counting',
      scheduledFor: now(),
      attempt: 1,
      startedAt: now(),
      leaseUntil: now(),
      finishedAt: now(),
    };
    expect(
      await databaseErrorOf(
        owner
          .insert(jobRuns)
          .values({ ...row, status: 'failed', error: 'could not mail mary@example.ie' }),
      ),
    ).toMatch(/job_runs_error_is_a_code/);
    expect(
      await databaseErrorOf(
        owner
          .insert(jobRuns)
          .values({ ...row, status: 'succeeded', counts: { who: 'mary' } as never }),
      ),
    ).toMatch(/job_runs_counts_are_numbers/);
  });

  it('is reached by the cron role alone among the service’s roles', async () => {
    const owner = ownerOf(shared.database);
    for (const role of ['pension_app', 'pension_platform', 'pension_auth', 'pension_mailer']) {
      const denied = await databaseErrorOf(
        shared.database.transaction([`select set_config('role', '${role}', true)`], (tx) =>
          tx.select().from(jobRuns),
        ),
      );
      expect({ role, denied }).toEqual({
        role,
        denied: expect.stringMatching(/permission denied/),
      });
    }
    const [grants] = rowsOf<{ tables: number }>(
      await owner.execute(
        "select count(*)::int as tables from information_schema.role_table_grants where grantee = 'pension_cron' and table_name <> 'job_runs'",
      ),
    );
    expect(grants?.tables).toBe(0);
  });
});

describe('errorSummary', () => {
  it('keeps the class name and a code, never the message', () => {
    expect(errorSummary(new RangeError('mary@example.ie'))).toBe('RangeError');
    expect(errorSummary(Object.assign(new Error('x'), { code: '40001' }))).toBe('Error:40001');
    expect(errorSummary(Object.assign(new Error('x'), { code: 'mary@example.ie' }))).toBe('Error');
    expect(errorSummary(Object.assign(new Error('x'), { name: 'mary@example.ie' }))).toBe('Error');
    expect(errorSummary('mary@example.ie')).toBe('NonError');
  });
});

describe.runIf(onPostgres)('two instances on one PostgreSQL database', () => {
  it('run a slot once when both are called at the same time', async () => {
    const firstJob = makeJob('shared');
    const secondJob = makeJob('shared');
    const first = await appWith([firstJob]);
    const second = await appWith([secondJob]);
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        callJob(index % 2 === 0 ? first : second, 'shared').then((response) => response.json()),
      ),
    );
    expect(firstJob.runs.length + secondJob.runs.length).toBe(1);
    expect(new Set(answers.map((answer) => answer.runId)).size).toBe(1);
    expect(answers.filter((answer) => answer.outcome === 'succeeded')).toHaveLength(1);
    expect(await runsInDatabase(first)).toHaveLength(1);
  });
});
