import { formatDecimal6, holdsUnits } from '../../../contracts/dc-money-rules.js';
import { addDays, formatIrishDate, todayInIreland } from '../../../contracts/irish-dates.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { Database } from '../../platform/db/database.js';
import { pageFrom } from '../../platform/db/keyset.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { ConflictError, ValidationError } from '../../platform/errors.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow } from '../../platform/tenancy/authorize.js';
import { findMember } from '../members/index.js';
import { findScheme } from '../schemes/index.js';
import {
  firstMoneyDay,
  type Holder,
  hasChoiceOn,
  holdingsOn,
  transactionsOf,
  worthOnDays,
} from './holdings.data.js';
import { valuePointDays } from './holdings.rules.js';
import type {
  FundAssetsView,
  HoldingsView,
  MemberTransactionKind,
  MemberTransactionQuery,
  MemberTransactionView,
  OnDayQuery,
  ValueHistoryQuery,
  ValueHistoryView,
} from './investments.schemas.js';

/** A DB scheme's members hold no units (docs/decisions/0127-dc-money.md). */
export const NOT_INVESTED =
  'A defined benefit scheme’s contributions fund the scheme as a whole: its members hold no units in funds';

/** A value history starts two years back unless asked otherwise. */
const VALUE_HISTORY_DEFAULT_DAYS = 730;

export interface HoldingsServiceDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/** What is held on the day, each fund as the pages read it. */
async function valued(tx: Transaction, holder: Holder, on: string) {
  const held = await holdingsOn(tx, holder, on);
  return {
    ...held,
    funds: held.funds.map((fund) => ({
      fundId: fund.fundId,
      fundName: fund.fundName,
      units: formatDecimal6(fund.unitsMicro),
      price: formatDecimal6(fund.priceMicro),
      priceOn: fund.priceOn,
      valueCents: fund.valueCents,
      members: fund.members,
    })),
  };
}

/**
 * What members hold and what their units are worth on any day, and every movement of them
 * (docs/decisions/0127-dc-money.md): read from the unit ledger, which the settlement writes.
 */
export function createHoldingsService({ database, audit, now }: HoldingsServiceDeps) {
  const reads = createPlatformReadLog(audit);

  /** The day asked, today when left out; a day to come has no holdings yet. */
  const dayOf = (query: OnDayQuery): string => {
    const today = todayInIreland(now());
    const on = query.on ?? today;
    if (on > today) {
      throw new ValidationError([
        {
          path: 'on',
          code: 'date_in_future',
          message: `Choose a day up to today, ${formatIrishDate(today)}`,
        },
      ]);
    }
    return on;
  };

  const requireInvested = (scheme: { type: string } | undefined) => {
    if (scheme && !holdsUnits(scheme.type)) throw new ConflictError(NOT_INVESTED);
  };

  return {
    async ofMember(
      actor: ActorContext,
      memberId: string,
      query: OnDayQuery,
    ): Promise<HoldingsView> {
      authorize(actor, 'holdings.read');
      const on = dayOf(query);
      return withActor(database, actor, async (tx) => {
        const member = authorizeRow(actor, 'holdings.read', await findMember(tx, memberId));
        const scheme = await findScheme(tx, member.schemeId);
        requireInvested(scheme);
        const holder: Holder = { brokerId: member.brokerId, memberId: member.id };
        const held = await valued(tx, holder, on);
        const chosen = await hasChoiceOn(tx, member, on);
        const hasDefault = (scheme?.defaultFundId ?? null) !== null;
        await reads.viewed(tx, actor, {
          entityType: 'member_holdings',
          entityId: member.id,
          tenantId: member.brokerId,
        });
        return {
          on,
          valueCents: held.valueCents,
          funds: held.funds.map(({ members: _members, ...fund }) => fund),
          uninvestedCents: held.uninvestedCents,
          switchingCents: held.switchingCents,
          defaultFund: !chosen && hasDefault,
          needsFund: !chosen && !hasDefault,
        };
      });
    },

    /**
     * What the member's pension was worth at each month end and today, beside what had been paid
     * in (docs/decisions/0127-dc-money.md, "Reading"): each point is worth what `ofMember` reads
     * for its day (`worthOnDays`).
     */
    async valueHistory(
      actor: ActorContext,
      memberId: string,
      query: ValueHistoryQuery,
    ): Promise<ValueHistoryView> {
      authorize(actor, 'holdings.read');
      const today = todayInIreland(now());
      const asked = query.from ?? addDays(today, -VALUE_HISTORY_DEFAULT_DAYS);
      if (asked > today) {
        throw new ValidationError([
          {
            path: 'from',
            code: 'date_in_future',
            message: `Choose a day up to today, ${formatIrishDate(today)}`,
          },
        ]);
      }
      return withActor(database, actor, async (tx) => {
        const member = authorizeRow(actor, 'holdings.read', await findMember(tx, memberId));
        requireInvested(await findScheme(tx, member.schemeId));
        const first = (await firstMoneyDay(tx, member)) ?? today;
        // biome-ignore lint/complexity/useMathMinMax: ISO dates are strings; Math.max would make them NaN.
        const from = asked > first ? asked : first;
        const holder: Holder = { brokerId: member.brokerId, memberId: member.id };
        const points = await worthOnDays(tx, holder, valuePointDays(from, today));
        await reads.viewed(tx, actor, {
          entityType: 'member_holdings',
          entityId: member.id,
          tenantId: member.brokerId,
        });
        return { from, to: today, points };
      });
    },

    async transactionsOfMember(
      actor: ActorContext,
      memberId: string,
      query: MemberTransactionQuery,
    ): Promise<{ items: MemberTransactionView[]; nextCursor: string | null }> {
      authorize(actor, 'member_transaction.list');
      const rows = await withActor(database, actor, async (tx) => {
        const member = authorizeRow(
          actor,
          'member_transaction.list',
          await findMember(tx, memberId),
        );
        const found = await transactionsOf(tx, member, query);
        await reads.listed(tx, actor, {
          entityType: 'member_transaction',
          scope: { memberId: member.id },
          filters: query,
          returned: Math.min(found.length, query.limit),
        });
        return found;
      });
      const page = pageFrom(rows, query, (row) => ({ at: row.dealtOn, id: row.id }));
      return {
        items: page.items.map((row) => ({
          id: row.id,
          kind: row.kind as MemberTransactionKind,
          fundId: row.fundId,
          fundName: row.fundName,
          on: row.dealtOn,
          units: formatDecimal6(row.unitsMicro),
          price: formatDecimal6(row.priceMicro),
          amountCents: row.amountCents,
        })),
        nextCursor: page.nextCursor,
      };
    },

    async fundAssets(
      actor: ActorContext,
      schemeId: string,
      query: OnDayQuery,
    ): Promise<FundAssetsView> {
      authorize(actor, 'fund_assets.read');
      const on = dayOf(query);
      return withActor(database, actor, async (tx) => {
        const scheme = authorizeRow(actor, 'fund_assets.read', await findScheme(tx, schemeId));
        requireInvested(scheme);
        const holder: Holder = { brokerId: scheme.brokerId, schemeId: scheme.id };
        const held = await valued(tx, holder, on);
        await reads.viewed(tx, actor, {
          entityType: 'fund_assets',
          entityId: scheme.id,
          tenantId: scheme.brokerId,
        });
        return {
          on,
          funds: held.funds,
          uninvestedCents: held.uninvestedCents,
          switchingCents: held.switchingCents,
          totalCents: held.valueCents,
        };
      });
    },
  };
}

export type HoldingsService = ReturnType<typeof createHoldingsService>;
