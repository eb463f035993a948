import { createId } from '@paralleldrive/cuid2';
import { eq } from 'drizzle-orm';
import { dayOfYearInWords } from '../../../contracts/irish-dates.js';
import {
  FILING_KIND_NAMES,
  type FilingKind,
  filingDueOn,
} from '../../../contracts/scheme-year-rules.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database-errors.js';
import { pageFrom } from '../../platform/db/keyset.js';
import { filings, trustees, trusteeTrainings } from '../../platform/db/schema.js';
import { withActor } from '../../platform/db/with-actor.js';
import { ConflictError, ValidationError } from '../../platform/errors.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow } from '../../platform/tenancy/authorize.js';
import { refuseChangesBeneath } from '../schemes/index.js';
import { changedFieldsOf } from './appointments.service.js';
import { findEntry, registerRows } from './governance.data.js';
import type {
  FilingChange,
  FilingInput,
  FilingView,
  PageQuery,
  TrusteeTrainingInput,
  TrusteeTrainingView,
} from './governance.schemas.js';
import { createRegisterKit } from './register-kit.service.js';
import {
  type FilingRow,
  insertFilingRow,
  insertTrainingRow,
  type TrusteeTrainingRow,
  updateFilingRow,
} from './scheme-year.data.js';

const trainingViewOf = (row: TrusteeTrainingRow): TrusteeTrainingView => ({
  id: row.id,
  trusteeId: row.trusteeId,
  schemeId: row.schemeId,
  completedOn: row.completedOn,
  topic: row.topic,
  directorName: row.directorName,
  createdAt: row.createdAt.toISOString(),
});

const filingViewOf = (row: FilingRow): FilingView => ({
  id: row.id,
  schemeId: row.schemeId,
  kind: row.kind as FilingKind,
  periodEnd: row.periodEnd,
  dueOn: filingDueOn(row.kind as FilingKind, row.periodEnd),
  completedOn: row.completedOn,
  audited: row.audited,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/**
 * What the audit log keeps of a training and a filing: references and dates, never the director's
 * name or the topic's words (docs/decisions/0029-audit-states-hold-no-personal-data.md).
 */
const trainingAuditState = (row: TrusteeTrainingRow) => ({
  id: row.id,
  trusteeId: row.trusteeId,
  schemeId: row.schemeId,
  completedOn: row.completedOn,
  directorNamed: row.directorName !== null,
});

const filingAuditState = (row: FilingRow, changed?: string[]) => ({
  id: row.id,
  schemeId: row.schemeId,
  kind: row.kind,
  periodEnd: row.periodEnd,
  completedOn: row.completedOn,
  audited: row.audited,
  ...(changed ? { changedFields: changed } : {}),
});

const refuse = (path: string, code: string, message: string): never => {
  throw new ValidationError([{ path, code, message }]);
};

const ONE_PER_PERIOD = 'filings_one_per_period_key';

export interface SchemeYearDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/**
 * The scheme year's registers (docs/decisions/0122-the-scheme-year.md; rules: scheme-year-rules.ts):
 * trustees' training and the filings. What is due, and when, is the compliance view's.
 */
export function createSchemeYearService({ database, audit, now }: SchemeYearDeps) {
  const kit = createRegisterKit({ audit, now });

  /** A date the person says something was done on: never after today. */
  const assertDone = (path: string, on: string | null | undefined) => {
    if (on != null && on > kit.today()) {
      refuse(path, 'date_in_future', 'Enter the day it was done: it cannot be after today');
    }
  };

  /**
   * A filing's period is one the scheme has: a scheme year's end for the annual report and
   * return, 31 December for the compliance statement; over by today, and done after it ended.
   */
  const assertPeriod = (
    scheme: { yearEnd: string },
    filing: { kind: FilingKind; periodEnd: string; completedOn: string | null },
  ) => {
    const periodEndDay = filing.kind === 'annual_compliance_statement' ? '12-31' : scheme.yearEnd;
    if (filing.periodEnd.slice(5) !== periodEndDay) {
      const day = dayOfYearInWords(periodEndDay);
      refuse(
        'periodEnd',
        'not_a_period_end',
        filing.kind === 'annual_compliance_statement'
          ? 'The statement covers a calendar year: its period ends on 31 December'
          : `The scheme year ends on ${day}: enter the last day of the year it covers`,
      );
    }
    if (filing.periodEnd >= kit.today()) {
      refuse('periodEnd', 'period_not_over', 'The period has not ended yet');
    }
    if (filing.completedOn !== null && filing.completedOn <= filing.periodEnd) {
      refuse(
        'completedOn',
        'done_before_period_ended',
        'It is done after the period it covers has ended',
      );
    }
  };

  return {
    async listTraining(actor: ActorContext, trusteeId: string, query: PageQuery) {
      authorize(actor, 'trustee_training.list');
      return withActor(database, actor, async (tx) => {
        const trustee = authorizeRow(
          actor,
          'trustee_training.list',
          await findEntry(tx, trustees, trusteeId),
        );
        const rows = await registerRows(
          tx,
          trusteeTrainings,
          { brokerId: trustee.brokerId, id: trustee.schemeId },
          { query, where: eq(trusteeTrainings.trusteeId, trustee.id), direction: 'desc' },
        );
        await kit.reads.listed(tx, actor, {
          entityType: 'trustee_training',
          scope: { trusteeId: trustee.id },
          filters: query,
          returned: rows.length,
        });
        const page = pageFrom(rows, query, (row) => ({ at: row.createdAt, id: row.id }));
        return { items: page.items.map(trainingViewOf), nextCursor: page.nextCursor };
      });
    },

    async recordTraining(
      actor: ActorContext,
      trusteeId: string,
      input: TrusteeTrainingInput,
    ): Promise<TrusteeTrainingView> {
      const writer = authorize(actor, 'trustee_training.create');
      return withActor(database, writer, async (tx) => {
        const trustee = authorizeRow(
          writer,
          'trustee_training.create',
          await findEntry(tx, trustees, trusteeId),
        );
        await refuseChangesBeneath(tx, trustee.schemeId);
        assertDone('completedOn', input.completedOn);
        const directorName = input.directorName ?? null;
        if (trustee.kind === 'corporate' && directorName === null) {
          refuse(
            'directorName',
            'director_required',
            'Name the director who was trained: each director of a corporate trustee is',
          );
        }
        if (trustee.kind === 'individual' && directorName !== null) {
          refuse(
            'directorName',
            'director_of_corporate_only',
            'Only a corporate trustee has directors',
          );
        }
        const at = now();
        const training = await insertTrainingRow(tx, {
          brokerId: trustee.brokerId,
          id: createId(),
          employerId: trustee.employerId,
          schemeId: trustee.schemeId,
          trusteeId: trustee.id,
          completedOn: input.completedOn,
          topic: input.topic ?? null,
          directorName,
          createdBy: writer.userId,
          createdAt: at,
          updatedAt: at,
        });
        await audit.record(tx, writer, {
          action: 'trustee_training.recorded',
          entityType: 'trustee_training',
          entityId: training.id,
          tenantId: training.brokerId,
          previousState: null,
          newState: trainingAuditState(training),
        });
        return trainingViewOf(training);
      });
    },

    async listFilings(actor: ActorContext, schemeId: string, query: PageQuery) {
      authorize(actor, 'filing.list');
      return withActor(database, actor, async (tx) => {
        const page = await kit.listUnder(tx, actor, 'filing.list', {
          table: filings,
          entityType: 'filing',
          schemeId,
          query,
          direction: 'desc',
        });
        return { items: page.items.map(filingViewOf), nextCursor: page.nextCursor };
      });
    },

    async recordFiling(
      actor: ActorContext,
      schemeId: string,
      input: FilingInput,
    ): Promise<FilingView> {
      const writer = authorize(actor, 'filing.create');
      try {
        return await withActor(database, writer, async (tx) => {
          const scheme = await kit.writableScheme(tx, writer, 'filing.create', schemeId);
          kit.assertGoverned(scheme);
          const completedOn = input.completedOn ?? null;
          assertDone('completedOn', completedOn);
          assertPeriod(scheme, { kind: input.kind, periodEnd: input.periodEnd, completedOn });
          const at = now();
          const filing = await insertFilingRow(tx, {
            brokerId: scheme.brokerId,
            id: createId(),
            employerId: scheme.employerId,
            schemeId: scheme.id,
            kind: input.kind,
            periodEnd: input.periodEnd,
            completedOn,
            audited: input.audited ?? null,
            createdBy: writer.userId,
            createdAt: at,
            updatedAt: at,
          });
          await audit.record(tx, writer, {
            action: 'filing.recorded',
            entityType: 'filing',
            entityId: filing.id,
            tenantId: filing.brokerId,
            previousState: null,
            newState: filingAuditState(filing),
          });
          return filingViewOf(filing);
        });
      } catch (error) {
        if (isUniqueViolation(error, ONE_PER_PERIOD)) {
          throw new ConflictError(
            `The scheme already has its ${FILING_KIND_NAMES[input.kind].toLowerCase()} for that period: change that one`,
          );
        }
        throw error;
      }
    },

    async readFiling(actor: ActorContext, id: string): Promise<FilingView> {
      authorize(actor, 'filing.read');
      return withActor(database, actor, async (tx) => {
        const row = authorizeRow(actor, 'filing.read', await findEntry(tx, filings, id));
        await kit.reads.viewed(tx, actor, {
          entityType: 'filing',
          entityId: row.id,
          tenantId: row.brokerId,
        });
        return filingViewOf(row);
      });
    },

    async updateFiling(actor: ActorContext, id: string, change: FilingChange): Promise<FilingView> {
      const writer = authorize(actor, 'filing.update');
      try {
        return await withActor(database, writer, async (tx) => {
          const existing = authorizeRow(
            writer,
            'filing.update',
            await findEntry(tx, filings, id, { forUpdate: true }),
          );
          const kind = existing.kind as FilingKind;
          if (change.audited != null && kind !== 'annual_report') {
            refuse('audited', 'audited_of_annual_report', 'Only an annual report is audited');
          }
          const scheme = await kit.writableScheme(tx, writer, 'filing.update', existing.schemeId);
          const next = {
            periodEnd: change.periodEnd ?? existing.periodEnd,
            completedOn:
              change.completedOn === undefined ? existing.completedOn : change.completedOn,
          };
          assertDone('completedOn', next.completedOn);
          assertPeriod(scheme, { kind, ...next });
          const updated = await updateFilingRow(tx, existing, {
            ...next,
            ...(change.audited === undefined ? {} : { audited: change.audited }),
            updatedAt: now(),
          });
          await audit.record(tx, writer, {
            action: 'filing.updated',
            entityType: 'filing',
            entityId: updated.id,
            tenantId: updated.brokerId,
            previousState: filingAuditState(existing),
            newState: filingAuditState(updated, changedFieldsOf(change)),
          });
          return filingViewOf(updated);
        });
      } catch (error) {
        if (isUniqueViolation(error, ONE_PER_PERIOD)) {
          throw new ConflictError(
            'The scheme already has that filing for the period: change that one instead',
          );
        }
        throw error;
      }
    },
  };
}

export type SchemeYearService = ReturnType<typeof createSchemeYearService>;
