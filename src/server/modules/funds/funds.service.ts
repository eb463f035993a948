import { createId } from '@paralleldrive/cuid2';
import { addDays, formatIrishDate, todayInIreland } from '../../../contracts/irish-dates.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { Database } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database-errors.js';
import { keyset, pageFrom } from '../../platform/db/keyset.js';
import { fundAllocations, funds } from '../../platform/db/schema.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { fundChoiceChangedMessage } from '../../platform/email/messages.js';
import type { Outbox } from '../../platform/email/outbox.js';
import { ConflictError, ValidationError } from '../../platform/errors.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow, boundsOf } from '../../platform/tenancy/authorize.js';
import { findMember, findMemberForChange } from '../members/index.js';
import { findScheme, refuseChangesBeneath, refuseWoundUp } from '../schemes/index.js';
import {
  type AllocationWithLines,
  activeAccountsOfMember,
  currentChoiceId,
  type FundRow,
  findFund,
  insertAllocation,
  insertAllocationLines,
  insertFund,
  listChoicesOfMember,
  listFundsOfScheme,
  openFundsAmong,
  updateFund,
  withLines,
} from './funds.data.js';
import type {
  FundChange,
  FundChoiceInput,
  FundChoiceView,
  FundInput,
  FundListQuery,
  FundView,
} from './funds.schemas.js';

const fundViewOf = (row: FundRow): FundView => ({
  id: row.id,
  schemeId: row.schemeId,
  name: row.name,
  isin: row.isin,
  closed: row.closedAt !== null,
  annualChargeBasisPoints: row.annualChargeBasisPoints,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const choiceViewOf = (row: AllocationWithLines, currentId: string | null): FundChoiceView => ({
  id: row.id,
  memberId: row.memberId,
  effectiveFrom: row.effectiveFrom,
  current: row.id === currentId,
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString(),
  allocations: row.lines,
});

const NAME_TAKEN = 'This scheme already has a fund of that name';
/** How far ahead a fund switch may be scheduled. */
const LATEST_EFFECTIVE_DAYS = 366;

/** The fund-choice notice is worth sending for a week. */
const NOTICE_VALID_MS = 7 * 24 * 60 * 60_000;

export interface FundsServiceDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
  outbox: Outbox;
  publicBaseUrl: URL;
  /** Told after a commit that queued an e-mail. */
  onEmailQueued: () => void;
}

/**
 * A scheme's funds and each member's choice among them (docs/api.md, "Members and money"). The
 * funds a scheme offers are the trustees' investment decision
 * (docs/decisions/0043-scheme-type-and-funds-are-the-brokers.md); who may do what:
 * contracts/policy.ts.
 * Every choice is kept.
 */
export function createFundsService({
  database,
  audit,
  now,
  outbox,
  publicBaseUrl,
  onEmailQueued,
}: FundsServiceDeps) {
  const reads = createPlatformReadLog(audit);

  /**
   * The scheme whose funds are listed. A scheme belongs to no one member, so for an actor whose
   * scope is their own member record it is within reach when it is the scheme of that record:
   * a member chooses among their own scheme's funds.
   */
  async function schemeOfFunds(tx: Transaction, actor: ActorContext, schemeId: string) {
    const scheme = await findScheme(tx, schemeId);
    const { memberId } = boundsOf(actor, 'fund.list');
    if (!scheme || memberId === null) return scheme;
    const own = await findMember(tx, memberId);
    return { ...scheme, memberId: own?.schemeId === scheme.id ? own.id : null };
  }

  return {
    async listOfScheme(actor: ActorContext, schemeId: string, query: FundListQuery) {
      authorize(actor, 'fund.list');
      const position = keyset(query, { at: funds.createdAt, id: funds.id });
      const rows = await withActor(database, actor, async (tx) => {
        const scheme = authorizeRow(actor, 'fund.list', await schemeOfFunds(tx, actor, schemeId));
        const found = await listFundsOfScheme(tx, scheme.id, query.includeClosed, position);
        await reads.listed(tx, actor, {
          entityType: 'fund',
          scope: { schemeId },
          filters: query,
          returned: found.length,
        });
        return found;
      });
      const page = pageFrom(rows, query, (row) => ({ at: row.createdAt, id: row.id }));
      return { items: page.items.map(fundViewOf), nextCursor: page.nextCursor };
    },

    async create(actor: ActorContext, schemeId: string, input: FundInput): Promise<FundView> {
      const writer = authorize(actor, 'fund.create');
      try {
        return await withActor(database, writer, async (tx) => {
          const scheme = authorizeRow(writer, 'fund.create', await findScheme(tx, schemeId));
          refuseWoundUp(scheme);
          const at = now();
          const fund = await insertFund(tx, {
            id: createId(),
            brokerId: scheme.brokerId,
            employerId: scheme.employerId,
            schemeId: scheme.id,
            name: input.name,
            isin: input.isin ?? null,
            annualChargeBasisPoints: input.annualChargeBasisPoints ?? 0,
            createdAt: at,
            updatedAt: at,
          });
          await audit.record(tx, writer, {
            action: 'fund.created',
            entityType: 'fund',
            entityId: fund.id,
            tenantId: fund.brokerId,
            previousState: null,
            newState: fundViewOf(fund),
          });
          return fundViewOf(fund);
        });
      } catch (error) {
        if (isUniqueViolation(error, 'funds_scheme_name_key')) throw new ConflictError(NAME_TAKEN);
        throw error;
      }
    },

    async update(actor: ActorContext, fundId: string, change: FundChange): Promise<FundView> {
      const writer = authorize(actor, 'fund.update');
      try {
        return await withActor(database, writer, async (tx) => {
          const existing = authorizeRow(writer, 'fund.update', await findFund(tx, fundId));
          await refuseChangesBeneath(tx, existing.schemeId);
          if (change.closed === true && existing.closedAt === null) {
            const scheme = await findScheme(tx, existing.schemeId);
            // Money of members without a choice goes there (docs/decisions/0127-dc-money.md).
            if (scheme?.defaultFundId === existing.id) {
              throw new ValidationError([
                {
                  path: 'closed',
                  code: 'default_fund',
                  message:
                    'This is the scheme’s default fund: choose another default fund before closing it',
                },
              ]);
            }
          }
          const at = now();
          const { closed, ...fields } = change;
          const updated = await updateFund(tx, existing.id, {
            ...fields,
            ...(closed === undefined
              ? {}
              : { closedAt: closed ? (existing.closedAt ?? at) : null }),
            updatedAt: at,
          });
          await audit.record(tx, writer, {
            action: 'fund.updated',
            entityType: 'fund',
            entityId: updated.id,
            tenantId: updated.brokerId,
            previousState: fundViewOf(existing),
            newState: fundViewOf(updated),
          });
          return fundViewOf(updated);
        });
      } catch (error) {
        if (isUniqueViolation(error, 'funds_scheme_name_key')) throw new ConflictError(NAME_TAKEN);
        throw error;
      }
    },

    /** A member's fund choices, newest first, with the one in force today marked. */
    async choicesOfMember(actor: ActorContext, memberId: string, query: FundListQuery) {
      authorize(actor, 'fund_choice.list');
      const position = keyset(
        query,
        { at: fundAllocations.createdAt, id: fundAllocations.id },
        'desc',
      );
      const { rows, currentId } = await withActor(database, actor, async (tx) => {
        const member = authorizeRow(actor, 'fund_choice.list', await findMember(tx, memberId));
        const found = await listChoicesOfMember(tx, member.id, position);
        await reads.listed(tx, actor, {
          entityType: 'fund_choice',
          scope: { memberId },
          filters: query,
          returned: found.length,
        });
        return {
          rows: await withLines(tx, found),
          currentId: await currentChoiceId(tx, member.id, todayInIreland(now())),
        };
      });
      const page = pageFrom(rows, query, (row) => ({ at: row.createdAt, id: row.id }));
      return {
        items: page.items.map((row) => choiceViewOf(row, currentId)),
        nextCursor: page.nextCursor,
      };
    },

    /** A new fund choice, from today or a later date. */
    async choose(
      actor: ActorContext,
      memberId: string,
      input: FundChoiceInput,
    ): Promise<FundChoiceView> {
      const chooser = authorize(actor, 'fund_choice.set');
      return withActor(database, chooser, async (tx) => {
        const member = authorizeRow(
          chooser,
          'fund_choice.set',
          await findMemberForChange(tx, memberId),
        );
        refuseWoundUp({ status: member.schemeStatus });
        // Today and a year ahead in Ireland, whatever the server's own zone (docs/decisions/0050-irish-dates.md).
        const today = todayInIreland(now());
        const effectiveFrom = input.effectiveFrom ?? today;
        const latest = addDays(today, LATEST_EFFECTIVE_DAYS);
        if (effectiveFrom < today || effectiveFrom > latest) {
          throw new ValidationError([
            {
              path: 'effectiveFrom',
              code: 'out_of_range',
              message: 'Choose a day from today to a year from today',
            },
          ]);
        }
        const fundIds = input.allocations.map((line) => line.fundId);
        const open = await openFundsAmong(tx, member.schemeId, fundIds);
        const openIds = new Set(open.map((row) => row.id));
        const unknown = input.allocations.flatMap((line, index) =>
          openIds.has(line.fundId)
            ? []
            : [
                {
                  path: `allocations.${index}.fundId`,
                  code: 'unknown_fund',
                  message: 'Choose an open fund of the member’s scheme',
                },
              ],
        );
        if (unknown.length > 0) throw new ValidationError(unknown);

        const id = createId();
        const row = await insertAllocation(tx, {
          id,
          brokerId: member.brokerId,
          employerId: member.employerId,
          schemeId: member.schemeId,
          memberId: member.id,
          effectiveFrom,
          createdBy: chooser.userId,
          createdAt: now(),
        });
        await insertAllocationLines(
          tx,
          input.allocations.map((line) => ({
            allocationId: id,
            brokerId: member.brokerId,
            schemeId: member.schemeId,
            fundId: line.fundId,
            percent: line.percent,
          })),
        );
        const [allocation] = await withLines(tx, [row]);
        if (!allocation) throw new Error('the fund choice just written was not found');
        await audit.record(tx, chooser, {
          action: 'fund_choice.changed',
          entityType: 'member',
          entityId: member.id,
          tenantId: member.brokerId,
          previousState: null,
          newState: {
            fundChoiceId: id,
            effectiveFrom,
            allocations: input.allocations,
          },
        });
        // The member hears of every change to their choice, in the same transaction.
        const accounts = await activeAccountsOfMember(tx, member.id);
        const at = now();
        for (const account of accounts) {
          await outbox.enqueue(tx, {
            brokerId: member.brokerId,
            userId: account.id,
            kind: 'fund_choice_changed',
            message: fundChoiceChangedMessage(account.email, {
              effectiveFrom: formatIrishDate(effectiveFrom),
              lines: allocation.lines.map((line) => ({
                fund: line.fundName,
                percent: line.percent,
              })),
              byMember: chooser.role === 'Member',
              signInUrl: new URL('/signin', publicBaseUrl).toString(),
            }),
            discardAfter: new Date(at.getTime() + NOTICE_VALID_MS),
          });
        }
        return {
          view: choiceViewOf(allocation, await currentChoiceId(tx, member.id, today)),
          told: accounts.length > 0,
        };
      }).then(({ view, told }) => {
        if (told) onEmailQueued();
        return view;
      });
    },
  };
}

export type FundsService = ReturnType<typeof createFundsService>;
