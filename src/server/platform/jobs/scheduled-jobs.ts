import { IRISH_TIME_ZONE, todayInIreland } from '../../../contracts/irish-dates.js';

/**
 * Scheduled jobs (docs/decisions/0057-scheduled-jobs.md): work an outside scheduler starts with
 * `POST /api/cron/<name>`. Each job says how often it runs (its cadence) and does its work in
 * `run`, answering what it did as counts. The framework records every run, runs each slot once
 * however often it is called and on however many instances, and raises failed and missed runs.
 */

/** What a run did, by name: numbers only (they are stored, logged and answered as they are). */
export type JobCounts = Record<string, number>;

export interface JobRunContext {
  /** The start of the slot this run is for (a minute, an Irish calendar day, …). */
  scheduledFor: Date;
  /** The id of this run in job_runs, for the job's own log lines. */
  runId: string;
}

export interface Cadence {
  /** Five-field crontab, read in `timeZone`: the operator's schedule and Sentry's monitor. */
  readonly crontab: string;
  /** An IANA zone, e.g. `Europe/Dublin` or `UTC`. */
  readonly timeZone: string;
  /** Minutes Sentry waits past a scheduled time before it calls the run missed. */
  readonly checkinMarginMinutes: number;
  /** The start of the slot `at` falls in. Every instant of a slot gives the same start. */
  slotOf(at: Date): Date;
}

export interface ScheduledJob {
  /** The path segment of `POST /api/cron/<name>` and the Sentry monitor's slug. */
  readonly name: string;
  readonly cadence: Cadence;
  /**
   * The longest a run may take. Past it, another call may take the job over (the instance may
   * have died mid-run) and Sentry reports the run as timed out.
   */
  readonly maxRuntimeMinutes: number;
  run(context: JobRunContext): Promise<JobCounts>;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** Every minute, in UTC minutes: for work that only has to happen soon (the mail outbox). */
export function everyMinute(): Cadence {
  return {
    crontab: '* * * * *',
    timeZone: 'UTC',
    checkinMarginMinutes: 2,
    slotOf: (at) => new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS),
  };
}

/**
 * Every ten minutes: for deadlines a few hours off (a major ICT incident's initial notification,
 * 4 hours after its classification, reminded of 30 minutes before it is due;
 * docs/decisions/0139-dora-ict-incidents.md). The slot is the ten minutes. Irish time is UTC or
 * UTC+1, so the schedule reads alike in Dublin, where the deployment files schedule it.
 */
export function everyTenMinutes(): Cadence {
  const span = 10 * MINUTE_MS;
  return {
    crontab: '*/10 * * * *',
    timeZone: IRISH_TIME_ZONE,
    checkinMarginMinutes: 5,
    slotOf: (at) => new Date(Math.floor(at.getTime() / span) * span),
  };
}

/**
 * Every hour, at `minute` past: for deadlines counted in hours (a breach's 72 hours to the
 * Commission, docs/decisions/0147-data-protection-reminders.md). The slot is the hour. Irish time
 * is UTC or UTC+1, so its hours are UTC's and the schedule reads alike in Dublin, where the daily
 * jobs are scheduled; the hour the clocks go back is two slots, as it is two hours.
 */
export function hourly({ minute }: { minute: number }): Cadence {
  if (!Number.isInteger(minute) || minute < 0 || minute > 59) {
    throw new Error('an hourly cadence needs a minute 0–59');
  }
  return {
    crontab: `${minute} * * * *`,
    timeZone: IRISH_TIME_ZONE,
    checkinMarginMinutes: 15,
    slotOf: (at) => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS),
  };
}

/**
 * The start of an Irish calendar day. Irish time is GMT or IST (UTC+1) and the clocks change at
 * 01:00 UTC, never near midnight: the day starts at 23:00 UTC the evening before, or at 00:00 UTC.
 */
export function irishDayStart(isoDay: string): Date {
  const utcMidnight = Date.parse(`${isoDay}T00:00:00Z`);
  const summerStart = new Date(utcMidnight - HOUR_MS);
  return todayInIreland(summerStart) === isoDay ? summerStart : new Date(utcMidnight);
}

/**
 * Once each Irish calendar day (docs/decisions/0050-irish-dates.md: "today" is the day in Dublin), run at
 * `hour:minute` Irish time. The slot is the day, so a call at any time of it runs that day's work.
 */
export function dailyInIreland({ hour, minute }: { hour: number; minute: number }): Cadence {
  if (!Number.isInteger(hour) || hour < 0 || hour > 23 || !Number.isInteger(minute)) {
    throw new Error('a daily cadence needs a whole hour 0–23 and minute 0–59');
  }
  if (minute < 0 || minute > 59) throw new Error('a daily cadence needs a minute 0–59');
  return {
    crontab: `${minute} ${hour} * * *`,
    timeZone: IRISH_TIME_ZONE,
    checkinMarginMinutes: 60,
    slotOf: (at) => irishDayStart(todayInIreland(at)),
  };
}

/** Lower-case words and hyphens: a plain path segment, and a valid Sentry monitor slug. */
export const JOB_NAME = /^[a-z][a-z0-9-]{0,47}$/;
const CRONTAB = /^\S+( \S+){4}$/;

/**
 * The jobs this instance can run. Wiring adds each job once (app.ts); the cron route looks jobs
 * up here by name when a request arrives.
 */
export function createJobRegistry() {
  const jobs = new Map<string, ScheduledJob>();
  return {
    add(job: ScheduledJob): void {
      if (!JOB_NAME.test(job.name)) throw new Error(`scheduled job name ${job.name} is malformed`);
      if (jobs.has(job.name)) throw new Error(`scheduled job ${job.name} is added twice`);
      if (!CRONTAB.test(job.cadence.crontab)) {
        throw new Error(`scheduled job ${job.name} has no five-field crontab`);
      }
      if (!Number.isInteger(job.maxRuntimeMinutes) || job.maxRuntimeMinutes < 1) {
        throw new Error(`scheduled job ${job.name} needs a whole number of minutes to run in`);
      }
      jobs.set(job.name, job);
    },
    /** The job of that name; a name no job has (or an inherited key) finds nothing. */
    get(name: string): ScheduledJob | undefined {
      return jobs.get(name);
    },
    list(): ScheduledJob[] {
      return [...jobs.values()];
    },
  };
}

export type JobRegistry = ReturnType<typeof createJobRegistry>;
