import { createId } from '@paralleldrive/cuid2';
import { todayInIreland } from '../../../contracts/irish-dates.js';
import {
  addToMonth,
  chasedFrom,
  daysLate,
  firstDayOf,
  monthOfDay,
  monthsBetween,
  type RemittanceMonth,
  remittanceMonths,
  schemeChasedFrom,
} from '../../../contracts/remittance-rules.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { Database } from '../../platform/db/database.js';
import { keyset, pageFrom } from '../../platform/db/keyset.js';
import { remittanceReceipts } from '../../platform/db/schema.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { ValidationError } from '../../platform/errors.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow } from '../../platform/tenancy/authorize.js';
import { findEmployer } from '../employers/index.js';
import { findScheme } from '../schemes/index.js';
import {
  employerKey,
  findReceipt,
  insertReceipt,
  listReceipts,
  type RemittanceReceiptRow,
  remittanceFactsOf,
  schemesAddedOn,
  voidReceiptRow,
} from './remittances.data.js';
import {
  DEFAULT_REMITTANCE_MONTHS,
  type LateRemittanceQuery,
  type LateRemittanceReport,
  MAX_REMITTANCE_MONTHS,
  type RemittanceCalendar,
  type RemittanceQuery,
  type RemittanceReceiptInput,
  type RemittanceReceiptQuery,
  type RemittanceReceiptView,
  type RemittanceReceiptVoid,
} from './remittances.schemas.js';

const receiptViewOf = (row: RemittanceReceiptRow): RemittanceReceiptView => ({
  id: row.id,
  employerId: row.employerId,
  month: row.month,
  receivedOn: row.receivedOn,
  amountCents: row.amountCents,
  reference: row.reference,
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString(),
});

/**
 * What the audit log keeps of a receipt: ids, the month, the day and the sum, never the reference
 * or a reason, which are free text (docs/decisions/0029-audit-states-hold-no-personal-data.md).
 */
const receiptAuditState = (row: RemittanceReceiptRow) => ({
  id: row.id,
  employerId: row.employerId,
  month: row.month,
  receivedOn: row.receivedOn,
  amountCents: row.amountCents,
  referenceGiven: row.reference !== null,
});

const refuse = (path: string, code: string, message: string): never => {
  throw new ValidationError([{ path, code, message }]);
};

export interface RemittancesServiceDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/**
 * Contribution remittance (docs/decisions/0136-contribution-remittance.md; rules:
 * remittance-rules.ts): the payments an employer's deductions reached the scheme as, recorded and
 * removed; the employer's remittance calendar; a scheme's late-payment report. What is due and
 * when is worked out on the day from the contributions and the receipts as they stand.
 */
export function createRemittancesService({ database, audit, now }: RemittancesServiceDeps) {
  const reads = createPlatformReadLog(audit);
  const today = () => todayInIreland(now());

  /** One employer's months from `from` to `to`, judged on `day`, chased from `chased`. */
  async function monthsOfEmployer(
    tx: Transaction,
    employer: { brokerId: string; id: string },
    window: { from: string; to: string },
    day: string,
    chased: string | null,
  ): Promise<RemittanceMonth[]> {
    const wanted = { brokerId: employer.brokerId, employerId: employer.id, ...window };
    const found = (await remittanceFactsOf(tx, [wanted])).get(employerKey(wanted));
    return found ? remittanceMonths(found, day, chased) : [];
  }

  return {
    async recordReceipt(
      actor: ActorContext,
      employerId: string,
      input: RemittanceReceiptInput,
    ): Promise<RemittanceReceiptView> {
      const writer = authorize(actor, 'remittance_receipt.create');
      return withActor(database, writer, async (tx) => {
        const employer = authorizeRow(
          writer,
          'remittance_receipt.create',
          await findEmployer(tx, employerId),
        );
        const at = now();
        if (input.receivedOn > todayInIreland(at)) {
          refuse(
            'receivedOn',
            'date_in_future',
            'Enter the day the payment arrived: it cannot be after today',
          );
        }
        // Money is remitted once it has been deducted: never before its month began.
        if (input.receivedOn < firstDayOf(input.month)) {
          refuse(
            'receivedOn',
            'received_before_month',
            'A payment for a month arrives in that month or after it: check the month and the day',
          );
        }
        const receipt = await insertReceipt(tx, {
          brokerId: employer.brokerId,
          id: createId(),
          employerId: employer.id,
          month: input.month,
          receivedOn: input.receivedOn,
          amountCents: input.amountCents,
          reference: input.reference ?? null,
          createdBy: writer.userId,
          createdAt: at,
        });
        await audit.record(tx, writer, {
          action: 'remittance_receipt.recorded',
          entityType: 'remittance_receipt',
          entityId: receipt.id,
          tenantId: receipt.brokerId,
          previousState: null,
          newState: receiptAuditState(receipt),
        });
        return receiptViewOf(receipt);
      });
    },

    async listReceipts(actor: ActorContext, employerId: string, query: RemittanceReceiptQuery) {
      authorize(actor, 'remittance_receipt.list');
      const position = keyset(
        query,
        { at: remittanceReceipts.receivedOn, id: remittanceReceipts.id },
        'desc',
        'day',
      );
      return withActor(database, actor, async (tx) => {
        const employer = authorizeRow(
          actor,
          'remittance_receipt.list',
          await findEmployer(tx, employerId),
        );
        const rows = await listReceipts(tx, employer, query.month, position);
        await reads.listed(tx, actor, {
          entityType: 'remittance_receipt',
          scope: { employerId: employer.id },
          filters: query,
          returned: rows.length,
        });
        const page = pageFrom(rows, query, (row) => ({ at: row.receivedOn, id: row.id }));
        return { items: page.items.map(receiptViewOf), nextCursor: page.nextCursor };
      });
    },

    /** A receipt recorded by mistake: kept, voided with who and why, and counted no more. */
    async voidReceipt(
      actor: ActorContext,
      receiptId: string,
      input: RemittanceReceiptVoid,
    ): Promise<void> {
      const writer = authorize(actor, 'remittance_receipt.void');
      await withActor(database, writer, async (tx) => {
        const receipt = authorizeRow(
          writer,
          'remittance_receipt.void',
          await findReceipt(tx, receiptId, { forUpdate: true }),
        );
        await voidReceiptRow(tx, receipt, {
          at: now(),
          by: writer.userId,
          reason: input.reason,
        });
        await audit.record(tx, writer, {
          action: 'remittance_receipt.voided',
          entityType: 'remittance_receipt',
          entityId: receipt.id,
          tenantId: receipt.brokerId,
          previousState: receiptAuditState(receipt),
          newState: null,
        });
      });
    },

    /** The employer's months from `from` to `to`, each with what was expected and received. */
    async calendar(
      actor: ActorContext,
      employerId: string,
      query: RemittanceQuery,
    ): Promise<RemittanceCalendar> {
      authorize(actor, 'remittance.read');
      const day = today();
      const to = query.to ?? monthOfDay(day);
      const from = query.from ?? addToMonth(to, 1 - DEFAULT_REMITTANCE_MONTHS);
      if (from > to) {
        refuse('from', 'from_after_to', 'The first month cannot be after the last');
      }
      if (monthsBetween(from, to).length > MAX_REMITTANCE_MONTHS) {
        refuse(
          'to',
          'window_too_long',
          `Ask for at most ${MAX_REMITTANCE_MONTHS} months at a time`,
        );
      }
      return withActor(database, actor, async (tx) => {
        const employer = authorizeRow(actor, 'remittance.read', await findEmployer(tx, employerId));
        // Chased from the month its first scheme was added, as that scheme's duty is
        // (REMITTANCE_RULES.monthsSinceAdded): an earlier month is not chased, not missing.
        const chased = chasedFrom(await schemesAddedOn(tx, employer));
        const items = await monthsOfEmployer(tx, employer, { from, to }, day, chased);
        await reads.viewed(tx, actor, {
          entityType: 'remittance',
          entityId: employer.id,
          tenantId: employer.brokerId,
        });
        return { employerId: employer.id, from, to, chasedFrom: chased, items };
      });
    },

    /**
     * The trustees' late-payment report: the scheme's employer's months of a calendar year that
     * were received late, and those not received in full past their due day from the month the
     * scheme was added to this service (REMITTANCE_RULES.monthsSinceAdded), each with the days it
     * is late. A payment recorded late is a fact whatever its month; a payment not recorded
     * before the service kept the scheme is not known to be missing.
     */
    async lateOfScheme(
      actor: ActorContext,
      schemeId: string,
      query: LateRemittanceQuery,
    ): Promise<LateRemittanceReport> {
      authorize(actor, 'late_remittance.list');
      const day = today();
      const year = query.year ?? day.slice(0, 4);
      return withActor(database, actor, async (tx) => {
        const scheme = authorizeRow(actor, 'late_remittance.list', await findScheme(tx, schemeId));
        const countedFrom = schemeChasedFrom(todayInIreland(scheme.createdAt));
        const months = await monthsOfEmployer(
          tx,
          { brokerId: scheme.brokerId, id: scheme.employerId },
          { from: `${year}-01`, to: `${year}-12` },
          day,
          countedFrom,
        );
        await reads.viewed(tx, actor, {
          entityType: 'late_remittance',
          entityId: scheme.id,
          tenantId: scheme.brokerId,
        });
        return {
          schemeId: scheme.id,
          employerId: scheme.employerId,
          year,
          countedFrom,
          items: months.flatMap((month) =>
            month.status === 'late' || month.status === 'missing'
              ? [{ ...month, status: month.status, daysLate: daysLate(month, day) }]
              : [],
          ),
        };
      });
    },
  };
}

export type RemittancesService = ReturnType<typeof createRemittancesService>;
