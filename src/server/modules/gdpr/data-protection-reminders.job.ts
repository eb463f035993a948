import { createId } from '@paralleldrive/cuid2';
import { and, eq, inArray, lte, ne } from 'drizzle-orm';
import { dpcDeadline, type RiskToPeople } from '../../../contracts/data-breach-rules.js';
import {
  BREACH_REMINDER_HOURS_BEFORE,
  breachReminderStage,
  REQUEST_REMINDER_DAYS_BEFORE,
  requestReminderStage,
} from '../../../contracts/data-protection-reminder-rules.js';
import {
  DATA_REQUEST_KIND_NAMES,
  type DataRequestKind,
  type DataRequestStatus,
} from '../../../contracts/data-request-rules.js';
import {
  addDays,
  dateInWords,
  momentInWords,
  todayInIreland,
} from '../../../contracts/irish-dates.js';
import type { Database } from '../../platform/db/database.js';
import { insertOnce } from '../../platform/db/insert-once.js';
import {
  dataBreaches,
  dataProtectionReminders,
  dataRequests,
  users,
} from '../../platform/db/schema.js';
import { withSchedulerRole } from '../../platform/db/with-actor.js';
import {
  type DataProtectionReminderLine,
  dataProtectionReminderMessage,
} from '../../platform/email/messages.js';
import type { Outbox } from '../../platform/email/outbox.js';
import { hourly, type ScheduledJob } from '../../platform/jobs/scheduled-jobs.js';

/** A reminder not delivered within a day is stale: the next run's stage, or the page, says more. */
const REMINDER_VALID_MS = 24 * 60 * 60_000;
const HOUR_MS = 60 * 60_000;

export interface DataProtectionRemindersDeps {
  database: Database;
  outbox: Outbox;
  now: () => Date;
  publicBaseUrl: URL;
  /** Told after a commit that queued an e-mail. */
  onEmailQueued: () => void;
}

export interface DataProtectionReminderRun {
  requests: number;
  breaches: number;
  remindersSent: number;
  emails: number;
}

interface Candidate {
  row: typeof dataProtectionReminders.$inferInsert;
  line: DataProtectionReminderLine;
}

const hours = (count: number) => `${count} ${count === 1 ? 'hour' : 'hours'}`;

/**
 * The `data-protection-reminders` job (docs/decisions/0147-data-protection-reminders.md; stages in
 * contracts/data-protection-reminder-rules.ts). It reads, across every firm, the data-subject
 * requests still to be answered within a week of their due day or past it, and the notifiable
 * breaches still open within 48 hours of their deadline or past it; for each at a stage it writes
 * one row per active BrokerAdmin of the firm into data_protection_reminders, whose unique indexes
 * make each reminder go out at most once, however often and on however many instances the job
 * runs. The rows and the e-mails commit together. Only what says whether a reminder is due is
 * read: the scheduler's role can read no member and no breach's words.
 */
export function createDataProtectionReminders({
  database,
  outbox,
  now,
  publicBaseUrl,
  onEmailQueued,
}: DataProtectionRemindersDeps) {
  const requestsUrl = new URL('/data-requests', publicBaseUrl).toString();
  const breachesUrl = new URL('/data-breaches', publicBaseUrl).toString();

  return {
    /** One pass, as of the instant `now()` and its day in Ireland. */
    async run(): Promise<DataProtectionReminderRun> {
      const at = now();
      const today = todayInIreland(at);
      const [firstReminderDays] = REQUEST_REMINDER_DAYS_BEFORE;
      const [firstReminderHours] = BREACH_REMINDER_HOURS_BEFORE;
      const result = await withSchedulerRole(database, async (tx) => {
        const requests = await tx
          .select({
            brokerId: dataRequests.brokerId,
            id: dataRequests.id,
            kind: dataRequests.kind,
            status: dataRequests.status,
            dueOn: dataRequests.dueOn,
          })
          .from(dataRequests)
          .where(
            and(
              inArray(dataRequests.status, ['open', 'extended']),
              lte(dataRequests.dueOn, addDays(today, firstReminderDays)),
            ),
          );
        // Aware at least 24 hours ago: the first reminder is at 48 hours left of 72.
        const awareBy = new Date(at.getTime() - (72 - firstReminderHours) * HOUR_MS);
        const breaches = await tx
          .select({
            brokerId: dataBreaches.brokerId,
            id: dataBreaches.id,
            status: dataBreaches.status,
            riskToPeople: dataBreaches.riskToPeople,
            becameAwareAt: dataBreaches.becameAwareAt,
          })
          .from(dataBreaches)
          .where(
            and(
              eq(dataBreaches.status, 'open'),
              ne(dataBreaches.riskToPeople, 'unlikely'),
              lte(dataBreaches.becameAwareAt, awareBy),
            ),
          );

        const due: Array<{ brokerId: string; make: (userId: string) => Candidate }> = [];
        for (const request of requests) {
          const stage = requestReminderStage(
            { status: request.status as DataRequestStatus, dueOn: request.dueOn },
            today,
          );
          if (stage === null) continue;
          const line: DataProtectionReminderLine = {
            what: `Data-subject request, ${DATA_REQUEST_KIND_NAMES[request.kind as DataRequestKind]}`,
            due:
              stage === 'overdue'
                ? `overdue, it was due on ${dateInWords(request.dueOn)}`
                : `due on ${dateInWords(request.dueOn)}`,
            overdue: stage === 'overdue',
            url: requestsUrl,
          };
          due.push({
            brokerId: request.brokerId,
            make: (userId) => ({
              row: {
                brokerId: request.brokerId,
                id: createId(),
                dataRequestId: request.id,
                dueOn: request.dueOn,
                stage,
                userId,
                createdAt: at,
              },
              line,
            }),
          });
        }
        for (const breach of breaches) {
          const stage = breachReminderStage(
            {
              status: 'open',
              riskToPeople: breach.riskToPeople as RiskToPeople,
              becameAwareAt: breach.becameAwareAt,
            },
            at,
          );
          if (stage === null) continue;
          const deadline = dpcDeadline(breach.becameAwareAt);
          const left = Math.floor((deadline.getTime() - at.getTime()) / HOUR_MS);
          const line: DataProtectionReminderLine = {
            what: `Personal-data breach the firm became aware of on ${momentInWords(breach.becameAwareAt.toISOString())}`,
            due:
              stage === 'overdue'
                ? `overdue, the Data Protection Commission was to be told by ${momentInWords(deadline.toISOString())}`
                : `the Data Protection Commission is to be told by ${momentInWords(deadline.toISOString())}, ${hours(left)} from now`,
            overdue: stage === 'overdue',
            url: breachesUrl,
          };
          due.push({
            brokerId: breach.brokerId,
            make: (userId) => ({
              row: {
                brokerId: breach.brokerId,
                id: createId(),
                dataBreachId: breach.id,
                stage,
                userId,
                createdAt: at,
              },
              line,
            }),
          });
        }
        if (due.length === 0) {
          return { requests: 0, breaches: 0, remindersSent: 0, emails: 0 };
        }

        const recipients = await tx
          .select({ id: users.id, brokerId: users.brokerId, email: users.email })
          .from(users)
          .where(
            and(
              eq(users.status, 'active'),
              eq(users.role, 'BrokerAdmin'),
              inArray(users.brokerId, [...new Set(due.map((entry) => entry.brokerId))]),
            ),
          );
        const candidates = due.flatMap((entry) =>
          recipients
            .filter((user) => user.brokerId === entry.brokerId)
            .map((user) => entry.make(user.id)),
        );

        // A reminder already sent meets its unique index and is skipped: what comes back is new.
        const fresh = await insertOnce(
          tx,
          dataProtectionReminders,
          candidates.map(({ row }) => row),
        );

        const linesByUser = new Map<string, DataProtectionReminderLine[]>();
        for (const { row, line } of candidates) {
          if (!fresh.has(row.id)) continue;
          linesByUser.set(row.userId, [...(linesByUser.get(row.userId) ?? []), line]);
        }
        for (const [userId, lines] of linesByUser) {
          const user = recipients.find((recipient) => recipient.id === userId);
          if (!user?.brokerId) continue;
          lines.sort((a, b) => Number(b.overdue) - Number(a.overdue));
          await outbox.enqueue(tx, {
            brokerId: user.brokerId,
            userId: user.id,
            kind: 'data_protection_reminder',
            message: dataProtectionReminderMessage(user.email, { lines }),
            discardAfter: new Date(at.getTime() + REMINDER_VALID_MS),
          });
        }
        return {
          requests: requests.length,
          breaches: breaches.length,
          remindersSent: fresh.size,
          emails: linesByUser.size,
        };
      });
      if (result.emails > 0) onEmailQueued();
      return result;
    },
  };
}

export type DataProtectionReminders = ReturnType<typeof createDataProtectionReminders>;

/**
 * The job as the scheduler calls it (POST /api/cron/data-protection-reminders), hourly at five
 * past: a breach's deadline is counted in hours, so a daily run could not keep its 12-hour point.
 * A request's stages are days in Ireland, so the first run of a day sends that day's.
 */
export function dataProtectionRemindersJob(reminders: DataProtectionReminders): ScheduledJob {
  return {
    name: 'data-protection-reminders',
    cadence: hourly({ minute: 5 }),
    maxRuntimeMinutes: 30,
    async run() {
      return { ...(await reminders.run()) };
    },
  };
}
