import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { ScheduledJob } from './scheduled-jobs.js';

export type CheckInStatus = 'in_progress' | 'ok' | 'error';

export interface CheckIn {
  job: ScheduledJob;
  /** One id for a run's check-ins: 32 hexadecimal digits (a UUID without its hyphens). */
  checkInId: string;
  status: CheckInStatus;
  /** Seconds the run took, on the closing check-in. */
  durationSeconds?: number;
}

/** A slow or unreachable ingest holds a run up this long at most, per check-in. */
export const CHECK_IN_TIMEOUT_MS = 5_000;

export interface CronMonitorDeps {
  /** Where SENTRY_DSN sends (config.ts derives the ingest URL from it); null: no check-ins. */
  telemetry: Config['telemetry'];
  environment: string;
  now: () => Date;
  logger: Logger;
}

/**
 * Sentry Crons check-ins (docs/decisions/0057-scheduled-jobs.md): `in_progress` when a run starts,
 * `ok` or `error` when it ends, each carrying the job's schedule as monitor_config, so Sentry
 * creates the monitor itself and raises a missed run when no check-in comes in time, which this
 * service cannot notice while no scheduler calls it. A check-in carries the job's name, times and
 * status only. A check-in that cannot be delivered is logged and never fails the run. Sent to
 * the ingest URL derived from the DSN at start-up, never following a redirect.
 */
export function createCronMonitor({ telemetry, environment, now, logger }: CronMonitorDeps) {
  const log = logger.child({ component: 'cron' });
  const publicKey = telemetry ? new URL(telemetry.dsn).username : '';

  async function checkIn({ job, checkInId, status, durationSeconds }: CheckIn): Promise<void> {
    if (!telemetry) return;
    const item = {
      check_in_id: checkInId,
      monitor_slug: job.name,
      status,
      environment,
      ...(durationSeconds === undefined ? {} : { duration: durationSeconds }),
      monitor_config: {
        schedule: { type: 'crontab', value: job.cadence.crontab },
        timezone: job.cadence.timeZone,
        checkin_margin: job.cadence.checkinMarginMinutes,
        max_runtime: job.maxRuntimeMinutes,
      },
    };
    const envelope = [
      JSON.stringify({ sent_at: now().toISOString(), dsn: telemetry.dsn }),
      JSON.stringify({ type: 'check_in' }),
      JSON.stringify(item),
    ].join('\n');
    try {
      const answer = await fetch(telemetry.ingestUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-sentry-envelope',
          'x-sentry-auth': `Sentry sentry_version=7, sentry_key=${publicKey}, sentry_client=pension-admin-cron/1`,
        },
        body: `${envelope}\n`,
        redirect: 'manual',
        signal: AbortSignal.timeout(CHECK_IN_TIMEOUT_MS),
      });
      await answer.body?.cancel().catch(() => {});
      if (answer.status < 200 || answer.status >= 300) {
        log.warn({ job: job.name, status, upstreamStatus: answer.status }, 'cron check-in refused');
      }
    } catch (error) {
      // Only the kind of failure: nothing of the request or the ingest's answer.
      const failure = error instanceof Error ? error.name : 'unknown';
      log.warn({ job: job.name, status, failure }, 'cron check-in not delivered');
    }
  }

  return { checkIn };
}

export type CronMonitor = ReturnType<typeof createCronMonitor>;
