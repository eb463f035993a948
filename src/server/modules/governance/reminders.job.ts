import { createId } from '@paralleldrive/cuid2';
import { and, eq, inArray, or } from 'drizzle-orm';
import {
  isReminder,
  OBLIGATION_NAMES,
  type Obligation,
  POLICY_KIND_NAMES,
  reminderStage,
} from '../../../contracts/governance-rules.js';
import { dateInWords, todayInIreland } from '../../../contracts/irish-dates.js';
import { sourceInWords } from '../../../contracts/rule-sources.js';
import { assessCompliance } from '../../../contracts/scheme-standing.js';
import type { Database } from '../../platform/db/database.js';
import { insertOnce } from '../../platform/db/insert-once.js';
import { complianceReminders, users } from '../../platform/db/schema.js';
import { withSchedulerRole } from '../../platform/db/with-actor.js';
import { complianceReminderMessage, type ReminderLine } from '../../platform/email/messages.js';
import type { Outbox } from '../../platform/email/outbox.js';
import { dailyInIreland, type ScheduledJob } from '../../platform/jobs/scheduled-jobs.js';
import { loadGovernance, type SchemeHead } from './governance.data.js';

/** Schemes assessed per transaction: a tenant's schemes are contiguous, so most fit in one. */
export const REMINDER_BATCH_SCHEMES = 500;

/** A reminder is worth sending for a week; after that the next stage's reminder supersedes it. */
const REMINDER_VALID_MS = 7 * 24 * 60 * 60_000;

/** What is due, in words, for the e-mail (the obligation's own reason may hold a date or a count). */
function whatIsDue(obligation: Obligation, policyKindOf: Map<string, string>): string {
  switch (obligation.kind) {
    case 'written_policy': {
      const kind = policyKindOf.get(obligation.subjectId ?? '');
      const name =
        kind && kind in POLICY_KIND_NAMES
          ? POLICY_KIND_NAMES[kind as keyof typeof POLICY_KIND_NAMES]
          : OBLIGATION_NAMES.written_policy;
      return `${name}: review`;
    }
    case 'own_risk_assessment':
      return OBLIGATION_NAMES.own_risk_assessment;
    default:
      return obligation.reason;
  }
}

export interface ComplianceRemindersDeps {
  database: Database;
  outbox: Outbox;
  now: () => Date;
  publicBaseUrl: URL;
  /** Told after a commit that queued an e-mail. */
  onEmailQueued: () => void;
}

export interface ReminderRun {
  schemes: number;
  remindersDue: number;
  remindersSent: number;
  emails: number;
  batches: number;
}

/**
 * The `reminders` job (docs/decisions/0059-governance-rules.md: 60, 30, 14 and 7 days before a due date, on the
 * day, then weekly while overdue). It walks every tenant's schemes in batches, assesses each with
 * the rule module as of today, and for each dated obligation at a reminder stage writes one row
 * per recipient into compliance_reminders; the unique key there makes each reminder go out at
 * most once, whether the job runs twice, on two instances at once, or after an outage (it sends
 * only the latest stage, never the ones it slept through). Recipients are the tenant's active
 * BrokerAdmins and the scheme employer's active EmployerAdmins. The rows and the e-mails commit
 * together, so a reminder recorded is a reminder queued. Queries per batch are fixed, so the cost
 * per scheme does not grow with the number of schemes.
 */
export function createComplianceReminders({
  database,
  outbox,
  now,
  publicBaseUrl,
  onEmailQueued,
}: ComplianceRemindersDeps) {
  const governanceUrl = new URL('/compliance/calendar', publicBaseUrl).toString();

  async function runBatch(
    after: { brokerId: string; schemeId: string } | undefined,
    today: string,
    totals: ReminderRun,
  ): Promise<{ brokerId: string; schemeId: string } | null> {
    const at = now();
    const { last, queued } = await withSchedulerRole(database, async (tx) => {
      const assessed = await loadGovernance(tx, { after, limit: REMINDER_BATCH_SCHEMES });
      const tail = assessed.at(-1)?.scheme;
      if (!tail) return { last: null, queued: 0 };
      totals.schemes += assessed.length;
      totals.batches += 1;

      const due: Array<{
        scheme: SchemeHead;
        obligation: Obligation & { dueOn: string };
        stage: string;
      }> = [];
      const policyKindOf = new Map<string, string>();
      for (const { scheme, facts } of assessed) {
        for (const policy of facts.policies) policyKindOf.set(policy.id, policy.kind);
        for (const obligation of assessCompliance(facts, today).obligations) {
          // The dashboard lists the same (isReminder): a duty done is reminded of by neither.
          if (!isReminder(obligation)) continue;
          const stage = reminderStage(obligation.dueOn, today);
          if (stage !== null) due.push({ scheme, obligation, stage });
        }
      }
      if (due.length === 0) return { last: tail, queued: 0 };

      const brokerIds = [...new Set(due.map(({ scheme }) => scheme.brokerId))];
      const employerIds = [...new Set(due.map(({ scheme }) => scheme.employerId))];
      const recipients = await tx
        .select({
          id: users.id,
          brokerId: users.brokerId,
          employerId: users.employerId,
          role: users.role,
          email: users.email,
        })
        .from(users)
        .where(
          and(
            eq(users.status, 'active'),
            or(
              and(eq(users.role, 'BrokerAdmin'), inArray(users.brokerId, brokerIds)),
              and(eq(users.role, 'EmployerAdmin'), inArray(users.employerId, employerIds)),
            ),
          ),
        );

      const candidates = due.flatMap(({ scheme, obligation, stage }) =>
        recipients
          .filter((user) =>
            user.role === 'BrokerAdmin'
              ? user.brokerId === scheme.brokerId
              : user.employerId === scheme.employerId && user.brokerId === scheme.brokerId,
          )
          .map((user) => ({
            brokerId: scheme.brokerId,
            id: createId(),
            schemeId: scheme.id,
            obligationKey: `${scheme.id}:${obligation.kind}:${obligation.subjectId ?? ''}`,
            dueOn: obligation.dueOn,
            stage,
            userId: user.id,
            createdAt: at,
            line: {
              scheme: scheme.name,
              employer: scheme.employerName,
              what: whatIsDue(obligation, policyKindOf),
              dueOn: dateInWords(obligation.dueOn),
              overdue: obligation.status === 'overdue',
              citation: sourceInWords(obligation),
            } satisfies ReminderLine,
          })),
      );
      totals.remindersDue += candidates.length;
      if (candidates.length === 0) return { last: tail, queued: 0 };

      const fresh = await insertOnce(
        tx,
        complianceReminders,
        candidates.map(({ line: _line, ...row }) => row),
        [
          complianceReminders.brokerId,
          complianceReminders.obligationKey,
          complianceReminders.dueOn,
          complianceReminders.stage,
          complianceReminders.userId,
        ],
      );
      totals.remindersSent += fresh.size;

      const linesByUser = new Map<string, ReminderLine[]>();
      for (const candidate of candidates) {
        if (!fresh.has(candidate.id)) continue;
        const lines = linesByUser.get(candidate.userId) ?? [];
        lines.push(candidate.line);
        linesByUser.set(candidate.userId, lines);
      }
      for (const [userId, lines] of linesByUser) {
        const user = recipients.find((recipient) => recipient.id === userId);
        if (!user) continue;
        lines.sort((a, b) => Number(b.overdue) - Number(a.overdue));
        await outbox.enqueue(tx, {
          brokerId: user.brokerId,
          userId: user.id,
          kind: 'compliance_reminder',
          message: complianceReminderMessage(user.email, { lines, governanceUrl }),
          discardAfter: new Date(at.getTime() + REMINDER_VALID_MS),
        });
      }
      return { last: tail, queued: linesByUser.size };
    });
    totals.emails += queued;
    if (queued > 0) onEmailQueued();
    return last ? { brokerId: last.brokerId, schemeId: last.id } : null;
  }

  return {
    /** One pass over every scheme of every tenant, as of the day in Ireland at `now()`. */
    async run(): Promise<ReminderRun> {
      const today = todayInIreland(now());
      const totals: ReminderRun = {
        schemes: 0,
        remindersDue: 0,
        remindersSent: 0,
        emails: 0,
        batches: 0,
      };
      let after: { brokerId: string; schemeId: string } | undefined;
      for (;;) {
        const next = await runBatch(after, today, totals);
        if (next === null) return totals;
        after = next;
      }
    },
  };
}

export type ComplianceReminders = ReturnType<typeof createComplianceReminders>;

/**
 * The reminders job as the scheduler calls it (POST /api/cron/reminders), daily at 07:00 Irish
 * time. A run judges the dates as of the day it runs, not the slot it was scheduled for: a run that
 * catches up after an outage reminds of where things stand now (docs/decisions/0059-governance-rules.md).
 */
export function remindersJob(reminders: ComplianceReminders): ScheduledJob {
  return {
    name: 'reminders',
    cadence: dailyInIreland({ hour: 7, minute: 0 }),
    maxRuntimeMinutes: 30,
    async run() {
      const { schemes, remindersDue, remindersSent, emails } = await reminders.run();
      return { schemes, remindersDue, remindersSent, emails };
    },
  };
}
