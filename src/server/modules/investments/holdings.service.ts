import { formatDecimal6, valueCents } from '../../../contracts/dc-money-rules.js';
import { formatIrishDate, todayInIreland } from '../../../contracts/irish-dates.js';
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
  type FundUnits,
  fundNames,
  type Holder,
  hasChoiceOn,
  moneyOn,
  transactionsOf,
  unitsOn,
} from './holdings.data.js';
import type {
  FundAssetsView,
  HoldingsView,
  MemberTransactionKind,
  MemberTransactionQuery,
  MemberTransactionView,
  OnDayQuery,
} from './investments.schemas.js';
import { latestPrices } from './ledger.data.js';

/** A DB scheme's members hold no units (docs/decisions/0127-dc-money.md). */
export const NOT_INVESTED =
  'A defined benefit scheme’s contributions fund the scheme as a whole: its members hold no units in funds';

export interface HoldingsServiceDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/** Each fund held, valued at its latest price on or before the day. */
async function valued(tx: Transaction, brokerId: string, held: FundUnits[], on: string) {
  const prices = await latestPrices(
    tx,
    brokerId,
    held.map((fund) => ({ fundId: fund.fundId, day: on })),
  );
  const names = await fundNames(
    tx,
    brokerId,
    held.map((fund) => fund.fundId),
  );
  return held.map((fund) => {
    const price = prices.get(`${fund.fundId} ${on}`);
    // Units are bought at a price of their fund on or before the day they count from.
    if (!price) throw new Error('units held in a fund with no price on or before the day');
    return {
      fundId: fund.fundId,
      fundName: names.get(fund.fundId) ?? '',
      units: formatDecimal6(fund.unitsMicro),
      price: formatDecimal6(price.micro),
      priceOn: price.on,
      valueCents: valueCents(fund.unitsMicro, price.micro),
      members: fund.members,
    };
  });
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
    if (scheme?.type === 'DB') throw new ConflictError(NOT_INVESTED);
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
        const funds = await valued(tx, member.brokerId, await unitsOn(tx, holder, on), on);
        const money = await moneyOn(tx, holder, on);
        const chosen = await hasChoiceOn(tx, member, on);
        const hasDefault = (scheme?.defaultFundId ?? null) !== null;
        await reads.viewed(tx, actor, {
          entityType: 'member_holdings',
          entityId: member.id,
          tenantId: member.brokerId,
        });
        const uninvestedCents = money.receivedCents - money.investedCents;
        return {
          on,
          valueCents:
            funds.reduce((total, fund) => total + fund.valueCents, 0) +
            uninvestedCents +
            money.switchingCents,
          funds: funds.map(({ members: _members, ...fund }) => fund),
          uninvestedCents,
          switchingCents: money.switchingCents,
          defaultFund: !chosen && hasDefault,
          needsFund: !chosen && !hasDefault,
        };
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
        const funds = await valued(tx, scheme.brokerId, await unitsOn(tx, holder, on), on);
        const money = await moneyOn(tx, holder, on);
        await reads.viewed(tx, actor, {
          entityType: 'fund_assets',
          entityId: scheme.id,
          tenantId: scheme.brokerId,
        });
        const uninvestedCents = money.receivedCents - money.investedCents;
        return {
          on,
          funds,
          uninvestedCents,
          switchingCents: money.switchingCents,
          totalCents:
            funds.reduce((total, fund) => total + fund.valueCents, 0) +
            uninvestedCents +
            money.switchingCents,
        };
      });
    },
  };
}

export type HoldingsService = ReturnType<typeof createHoldingsService>;
