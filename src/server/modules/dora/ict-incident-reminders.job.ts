import { createId } from '@paralleldrive/cuid2';
import { and, eq, gte, inArray, isNotNull, isNull, notExists, or } from 'drizzle-orm';
import {
  DEADLINE_KIND_LABELS,
  incidentDeadlines,
  type ReportKind,
} from '../../../contracts/dora-rules.js';
import { ictIncidentReminderStage } from '../../../contracts/ict-incident-reminder-rules.js';
import { momentInWords, todayInIreland } from '../../../contracts/irish-dates.js';
import type { Database } from '../../platform/db/database.js';
import { insertOnce } from '../../platform/db/insert-once.js';
import {
  ictIncidentReminders,
  ictIncidentReports,
  ictIncidents,
  trustees,
  users,
} from '../../platform/db/schema.js';
import { withSchedulerRole } from '../../platform/db/with-actor.js';
import {
  type IctIncidentReminderLine,
  ictIncidentReminderMessage,
} from '../../platform/email/messages.js';
import type { Outbox } from '../../platform/email/outbox.js';
import { everyTenMinutes, type ScheduledJob } from '../../platform/jobs/scheduled-jobs.js';

const MINUTE_MS = 60_000;

export interface IctIncidentRemindersDeps {
  database: Database;
  outbox: Outbox;
  now: () => Date;
  publicBaseUrl: URL;
  /** Told after a commit that queued an e-mail. */
  onEmailQueued: () => void;
}

export interface IctIncidentReminderRun {
  incidents: number;
  remindersSent: number;
  emails: number;
}

type Recipient = { kind: 'user' | 'trustee'; id: string; brokerId: string; email: string };

const timeLeft = (ms: number) => {
  const minutes = Math.max(1, Math.floor(ms / MINUTE_MS));
  if (minutes < 120) return `${minutes} minutes from now`;
  return `${Math.floor(minutes / 60)} hours from now`;
};

/**
 * The `ict-incident-reminders` job (docs/decisions/0139-dora-ict-incidents.md, "Reminders"; stages
 * in contracts/ict-incident-reminder-rules.ts). It reads, across every firm, the incidents ever
 * classified major whose last report is not yet recorded (the final, or for one reclassified as
 * not major, the reclassification report), works out their deadlines as the register does, and
 * for each deadline at a stage writes one row per person reminded into ict_incident_reminders,
 * whose unique index makes each reminder go out at most once however often and on however many
 * instances the job runs; the rows and the e-mails commit together. Only what the clocks run on
 * is read: never an incident's title or description.
 */
export function createIctIncidentReminders({
  database,
  outbox,
  now,
  publicBaseUrl,
  onEmailQueued,
}: IctIncidentRemindersDeps) {
  const registerUrl = new URL('/ict-incidents', publicBaseUrl).toString();

  return {
    /** One pass, as of the instant `now()`. */
    async run(): Promise<IctIncidentReminderRun> {
      const at = now();
      const today = todayInIreland(at);
      const result = await withSchedulerRole(database, async (tx) => {
        const incidents = await tx
          .select({
            brokerId: ictIncidents.brokerId,
            id: ictIncidents.id,
            schemeIds: ictIncidents.schemeIds,
            becameAwareAt: ictIncidents.becameAwareAt,
            classifiedMajorAt: ictIncidents.classifiedMajorAt,
            reclassifiedAt: ictIncidents.reclassifiedAt,
            servicesRecoveredAt: ictIncidents.servicesRecoveredAt,
          })
          .from(ictIncidents)
          .where(
            and(
              isNotNull(ictIncidents.classifiedMajorAt),
              notExists(
                tx
                  .select({ incidentId: ictIncidentReports.incidentId })
                  .from(ictIncidentReports)
                  .where(
                    and(
                      eq(ictIncidentReports.brokerId, ictIncidents.brokerId),
                      eq(ictIncidentReports.incidentId, ictIncidents.id),
                      // The last report either way: the final, or the one that says it is not major.
                      inArray(ictIncidentReports.kind, ['final', 'reclassified']),
                    ),
                  ),
              ),
            ),
          );
        if (incidents.length === 0) return { incidents: 0, remindersSent: 0, emails: 0 };
        const reports = await tx
          .select({
            brokerId: ictIncidentReports.brokerId,
            incidentId: ictIncidentReports.incidentId,
            kind: ictIncidentReports.kind,
            submittedAt: ictIncidentReports.submittedAt,
          })
          .from(ictIncidentReports)
          .where(
            inArray(
              ictIncidentReports.incidentId,
              incidents.map((incident) => incident.id),
            ),
          );

        const due: Array<{
          incident: (typeof incidents)[number];
          row: Omit<
            typeof ictIncidentReminders.$inferInsert,
            'id' | 'recipientKind' | 'recipientId'
          >;
          line: IctIncidentReminderLine;
        }> = [];
        for (const incident of incidents) {
          const deadlines = incidentDeadlines(
            {
              becameAwareAt: incident.becameAwareAt,
              classifiedMajorAt: incident.classifiedMajorAt,
              reclassifiedAt: incident.reclassifiedAt,
              servicesRecoveredAt: incident.servicesRecoveredAt,
              reports: reports
                .filter(
                  (report) =>
                    report.brokerId === incident.brokerId && report.incidentId === incident.id,
                )
                .map((report) => ({
                  kind: report.kind as ReportKind,
                  submittedAt: report.submittedAt,
                })),
            },
            at,
          );
          for (const deadline of deadlines) {
            const stage = ictIncidentReminderStage(deadline, at);
            if (stage === null || deadline.dueAt === null) continue;
            due.push({
              incident,
              row: {
                brokerId: incident.brokerId,
                incidentId: incident.id,
                deadlineKind: deadline.kind,
                dueAt: deadline.dueAt,
                stage,
                createdAt: at,
              },
              line: {
                what: `${DEADLINE_KIND_LABELS[deadline.kind]} of the major ICT incident the firm became aware of on ${momentInWords(incident.becameAwareAt.toISOString())}`,
                overdue: stage === 'overdue',
                due:
                  stage === 'overdue'
                    ? `overdue: it was due by ${momentInWords(deadline.dueAt.toISOString())} and is not recorded as sent`
                    : `due by ${momentInWords(deadline.dueAt.toISOString())}, ${timeLeft(deadline.dueAt.getTime() - at.getTime())}`,
              },
            });
          }
        }
        if (due.length === 0) return { incidents: incidents.length, remindersSent: 0, emails: 0 };

        const brokerIds = [...new Set(due.map((entry) => entry.incident.brokerId))];
        const admins = await tx
          .select({ id: users.id, brokerId: users.brokerId, email: users.email })
          .from(users)
          .where(
            and(
              eq(users.status, 'active'),
              eq(users.role, 'BrokerAdmin'),
              inArray(users.brokerId, brokerIds),
            ),
          );
        const schemeIds = [...new Set(due.flatMap((entry) => entry.incident.schemeIds))];
        const serving =
          schemeIds.length === 0
            ? []
            : await tx
                .select({
                  id: trustees.id,
                  brokerId: trustees.brokerId,
                  schemeId: trustees.schemeId,
                  email: trustees.email,
                })
                .from(trustees)
                .where(
                  and(
                    inArray(trustees.brokerId, brokerIds),
                    inArray(trustees.schemeId, schemeIds),
                    isNull(trustees.deletedAt),
                    isNotNull(trustees.email),
                    or(isNull(trustees.endedOn), gte(trustees.endedOn, today)),
                  ),
                );
        const recipientsOf = (incident: (typeof incidents)[number]): Recipient[] => [
          ...admins
            .filter((user) => user.brokerId === incident.brokerId)
            .map((user) => ({
              kind: 'user' as const,
              id: user.id,
              brokerId: incident.brokerId,
              email: user.email,
            })),
          ...serving
            .filter(
              (trustee) =>
                trustee.brokerId === incident.brokerId &&
                incident.schemeIds.includes(trustee.schemeId),
            )
            .map((trustee) => ({
              kind: 'trustee' as const,
              id: trustee.id,
              brokerId: incident.brokerId,
              email: trustee.email as string,
            })),
        ];
        const candidates = due.flatMap((entry) =>
          recipientsOf(entry.incident).map((recipient) => ({
            recipient,
            line: entry.line,
            row: {
              ...entry.row,
              id: createId(),
              recipientKind: recipient.kind,
              recipientId: recipient.id,
            },
          })),
        );

        // A reminder already sent meets its unique index and is skipped: what comes back is new.
        const fresh = await insertOnce(
          tx,
          ictIncidentReminders,
          candidates.map(({ row }) => row),
        );

        // One e-mail per person per run; a trustee of two schemes an incident reached is one.
        const byPerson = new Map<
          string,
          { recipient: Recipient; lines: IctIncidentReminderLine[]; until: number }
        >();
        for (const { recipient, line, row } of candidates) {
          if (!fresh.has(row.id)) continue;
          const key = `${recipient.kind}:${recipient.id}`;
          const entry = byPerson.get(key) ?? { recipient, lines: [], until: 0 };
          if (!entry.lines.includes(line)) entry.lines.push(line);
          entry.until = Math.max(entry.until, (row.dueAt as Date).getTime());
          byPerson.set(key, entry);
        }
        for (const { recipient, lines, until } of byPerson.values()) {
          await outbox.enqueue(tx, {
            brokerId: recipient.brokerId,
            userId: recipient.kind === 'user' ? recipient.id : null,
            kind: 'ict_incident_reminder',
            message: ictIncidentReminderMessage(recipient.email, { lines, url: registerUrl }),
            // Past its deadline a reminder says nothing the register does not.
            discardAfter: new Date(until),
          });
        }
        return { incidents: incidents.length, remindersSent: fresh.size, emails: byPerson.size };
      });
      if (result.emails > 0) onEmailQueued();
      return result;
    },
  };
}

export type IctIncidentReminders = ReturnType<typeof createIctIncidentReminders>;

/**
 * The job as the scheduler calls it (POST /api/cron/ict-incident-reminders), every ten minutes: an
 * initial notification can fall due 4 hours after a classification, and its last reminder is 30
 * minutes before.
 */
export function ictIncidentRemindersJob(reminders: IctIncidentReminders): ScheduledJob {
  return {
    name: 'ict-incident-reminders',
    cadence: everyTenMinutes(),
    maxRuntimeMinutes: 8,
    async run() {
      return { ...(await reminders.run()) };
    },
  };
}
