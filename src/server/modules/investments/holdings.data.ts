import { and, desc, eq, inArray, isNull, lte, type SQL, sql } from 'drizzle-orm';
import { holdsUnits, valueCents } from '../../../contracts/dc-money-rules.js';
import type { PageQuery } from '../../../contracts/pages.js';
import { rowsOf } from '../../platform/db/database.js';
import { keyset } from '../../platform/db/keyset.js';
import { fundAllocations, funds, memberTransactions } from '../../platform/db/schema.js';
import { microOfNumeric } from '../../platform/db/tables/columns.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import { latestPrices } from './ledger.data.js';
import type { Price } from './ledger.rules.js';

/** Units of one fund held on a day: by one member, or by all of a scheme's. */
export interface FundUnits {
  fundId: string;
  unitsMicro: bigint;
  /** Members holding units of the fund (of a scheme's holdings). */
  members: number;
}

/** What the ledger says of money on a day, in cents. */
export interface MoneyOnDay {
  /** Money received by the day (contributions and corrections). */
  receivedCents: number;
  /** Of it, invested by the day. */
  investedCents: number;
  /** Sold by switches by the day and not yet bought back in. */
  switchingCents: number;
}

/** Whose holdings: one member, or every live member of a scheme. */
export type Holder =
  | { brokerId: string; memberId: string }
  | { brokerId: string; schemeId: string };

const ofHolder = (holder: Holder, alias: string) =>
  'memberId' in holder
    ? sql`${sql.raw(alias)}.broker_id = ${holder.brokerId} and ${sql.raw(alias)}.member_id = ${holder.memberId}`
    : sql`${sql.raw(alias)}.broker_id = ${holder.brokerId} and ${sql.raw(alias)}.scheme_id = ${holder.schemeId}`;

/**
 * Only the movements and money of members not deleted, as every list counts live members only. A
 * row's member always exists (a foreign key holds it), so the deleted ones are left out rather
 * than the live ones joined: over a scheme's whole ledger the check is then against the few
 * deleted members, not a join of every movement with its member (docs/benchmarks.md, "DC money").
 */
const ofLiveMember = (alias: string) =>
  sql`not exists (select 1 from members d where d.broker_id = ${sql.raw(alias)}.broker_id and d.id = ${sql.raw(alias)}.member_id and d.deleted_at is not null)`;

/** Units by fund and money by kind of the holder on a day, as the ledger and the money say. */
interface LedgerOnDay {
  /** Units held in each fund (movements dealt by the day, not voided); none where they net to 0. */
  funds: FundUnits[];
  money: MoneyOnDay;
}

/**
 * What the live member or members hold on `on`, in two statements: the ledger read once, each
 * member's units and cents in each fund summed and then summed by fund (the members holding a
 * fund are those whose own units in it do not net to 0), and the money received by the day.
 */
async function ledgerOn(tx: Transaction, holder: Holder, on: string): Promise<LedgerOnDay> {
  const ledger = rowsOf<{
    fund_id: string;
    units: string;
    members: number;
    invested: string;
    switched: string;
  }>(
    await tx.execute(sql`
      select held.fund_id, sum(held.units) :: text as units,
        (count(*) filter (where held.units <> 0)) :: integer as members,
        coalesce(sum(held.invested), 0) :: bigint :: text as invested,
        coalesce(sum(held.switched), 0) :: bigint :: text as switched
      from (
        select t.fund_id, t.member_id, sum(t.units) as units,
          sum(t.amount_cents) filter (where t.kind = 'contribution') as invested,
          sum(t.amount_cents) filter (where t.kind in ('switch_out', 'switch_in')) as switched
        from member_transactions t
        where ${ofHolder(holder, 't')} and t.voided_at is null and t.dealt_on <= ${on} :: date
          and ${ofLiveMember('t')}
        group by t.fund_id, t.member_id
      ) held
      group by held.fund_id
      order by held.fund_id
    `),
  );
  const [received] = rowsOf<{ paid: string; corrected: string }>(
    await tx.execute(sql`
      select
        coalesce((
          select sum(c.amount_cents) from contributions c
          where ${ofHolder(holder, 'c')} and c.received_on <= ${on} :: date and ${ofLiveMember('c')}
        ), 0) :: bigint :: text as paid,
        coalesce((
          select sum(a.delta_cents) from contribution_adjustments a
          join contributions c on c.broker_id = a.broker_id and c.id = a.contribution_id
          where ${ofHolder(holder, 'c')} and a.received_on <= ${on} :: date and ${ofLiveMember('c')}
        ), 0) :: bigint :: text as corrected
    `),
  );
  return {
    funds: ledger
      .filter((row) => microOfNumeric(row.units) !== 0n)
      .map((row) => ({
        fundId: row.fund_id,
        unitsMicro: microOfNumeric(row.units),
        members: Number(row.members),
      })),
    money: {
      receivedCents: Number(received?.paid ?? 0) + Number(received?.corrected ?? 0),
      investedCents: ledger.reduce((total, row) => total + Number(row.invested), 0),
      // A sale's cents are negative and its purchases' positive: what is not yet bought back.
      switchingCents: -ledger.reduce((total, row) => total + Number(row.switched), 0),
    },
  };
}

/** Units of a fund held on a day, valued at the fund's latest price on or before it. */
export interface ValuedFund extends FundUnits {
  fundName: string;
  priceMicro: bigint;
  /** The day of the price. */
  priceOn: string;
  valueCents: number;
}

/** The latest price on or before `on` of a fund held that day, from `latestPrices`. */
function priceOf(prices: Map<string, Price>, fund: FundUnits, on: string): Price {
  const price = prices.get(`${fund.fundId} ${on}`);
  // Units are bought at a price of their fund on or before the day they count from.
  if (!price) throw new Error('units held in a fund with no price on or before the day');
  return price;
}

/**
 * What holdings come to: the funds' values, the money received and not yet invested, and the
 * money between a switch's sale and its purchases; and what had been paid in.
 */
function worthOf(fundsCents: number, money: MoneyOnDay) {
  const uninvestedCents = money.receivedCents - money.investedCents;
  return {
    uninvestedCents,
    switchingCents: money.switchingCents,
    valueCents: fundsCents + uninvestedCents + money.switchingCents,
    paidInCents: money.receivedCents,
  };
}

/** Units held in each fund on `on`, each valued at its fund's latest price on or before that day. */
async function valued(
  tx: Transaction,
  holder: Holder,
  held: readonly FundUnits[],
  on: string,
): Promise<ValuedFund[]> {
  const prices = await latestPrices(
    tx,
    holder.brokerId,
    held.map((fund) => ({ fundId: fund.fundId, day: on })),
  );
  const names = await fundNames(
    tx,
    holder.brokerId,
    held.map((fund) => fund.fundId),
  );
  return held.map((fund) => {
    const price = priceOf(prices, fund, on);
    return {
      ...fund,
      fundName: names.get(fund.fundId) ?? '',
      priceMicro: price.micro,
      priceOn: price.on,
      valueCents: valueCents(fund.unitsMicro, price.micro),
    };
  });
}

/** What a member, or all of a scheme's members, hold on a day, and what it is worth. */
export interface HoldingsOnDay {
  funds: ValuedFund[];
  /** Money received by the day and not yet invested by it (below 0 where more was taken back). */
  uninvestedCents: number;
  /** Money sold by switches by the day and not yet bought back in. */
  switchingCents: number;
  /** The funds' values, the money waiting and the money switching. */
  valueCents: number;
  /** Money received by the day, corrections included: what was paid in. */
  paidInCents: number;
}

/**
 * The funds held on `on`, valued, with the money of the day (`ledgerOn`): what a member's holdings
 * and the trustees' fund assets read (docs/decisions/0127-dc-money.md).
 */
export async function holdingsOn(
  tx: Transaction,
  holder: Holder,
  on: string,
): Promise<HoldingsOnDay> {
  const { funds: held, money } = await ledgerOn(tx, holder, on);
  const funds = await valued(tx, holder, held, on);
  return { funds, ...worthOf(sumOfValues(funds), money) };
}

const sumOfValues = (funds: ReadonlyArray<{ valueCents: number }>) =>
  funds.reduce((total, fund) => total + fund.valueCents, 0);

/**
 * What the holdings were worth on each of `days`, and what had been paid in by then, each day's
 * worth as `holdingsOn` counts it: the ledger read for each day, the prices of all of them asked
 * at once, and no fund's name.
 */
export async function worthOnDays(
  tx: Transaction,
  holder: Holder,
  days: readonly string[],
): Promise<Array<{ on: string; valueCents: number; paidInCents: number }>> {
  const ledgers = [];
  for (const on of days) ledgers.push({ on, ...(await ledgerOn(tx, holder, on)) });
  const prices = await latestPrices(
    tx,
    holder.brokerId,
    ledgers.flatMap(({ on, funds }) => funds.map((fund) => ({ fundId: fund.fundId, day: on }))),
  );
  return ledgers.map(({ on, funds, money }) => {
    const fundsCents = sumOfValues(
      funds.map((fund) => ({
        valueCents: valueCents(fund.unitsMicro, priceOf(prices, fund, on).micro),
      })),
    );
    const { valueCents: worth, paidInCents } = worthOf(fundsCents, money);
    return { on, valueCents: worth, paidInCents };
  });
}

/**
 * What a member's data export carries of their money (GDPR Art. 15 and 20): their holdings on
 * `on`, null in a scheme whose members hold no units, and every movement of their units.
 */
export async function memberMoneyOn(
  tx: Transaction,
  member: { brokerId: string; id: string },
  schemeType: string,
  on: string,
): Promise<{ held: HoldingsOnDay | null; movements: TransactionRow[] }> {
  const held = holdsUnits(schemeType)
    ? await holdingsOn(tx, { brokerId: member.brokerId, memberId: member.id }, on)
    : null;
  return { held, movements: await everyTransactionOf(tx, member) };
}

/** The first day money was received for the member, or null before any was. */
export async function firstMoneyDay(
  tx: Transaction,
  member: { brokerId: string; id: string },
): Promise<string | null> {
  const result = await tx.execute(sql`
    select min(c.received_on) :: text as first from contributions c
    where c.broker_id = ${member.brokerId} and c.member_id = ${member.id}
  `);
  const [row] = rowsOf<{ first: string | null }>(result);
  return row?.first ?? null;
}

/** The names of funds by id. */
export async function fundNames(
  tx: Transaction,
  brokerId: string,
  fundIds: readonly string[],
): Promise<Map<string, string>> {
  if (fundIds.length === 0) return new Map();
  const rows = await tx
    .select({ id: funds.id, name: funds.name })
    .from(funds)
    .where(and(eq(funds.brokerId, brokerId), inArray(funds.id, [...fundIds])));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** Whether the member has a fund choice in force on `on`. */
export async function hasChoiceOn(
  tx: Transaction,
  member: { brokerId: string; id: string },
  on: string,
): Promise<boolean> {
  const [row] = await tx
    .select({ id: fundAllocations.id })
    .from(fundAllocations)
    .where(
      and(
        eq(fundAllocations.brokerId, member.brokerId),
        eq(fundAllocations.memberId, member.id),
        lte(fundAllocations.effectiveFrom, on),
      ),
    )
    .limit(1);
  return row !== undefined;
}

export type TransactionRow = {
  id: string;
  kind: string;
  fundId: string;
  fundName: string;
  dealtOn: string;
  unitsMicro: bigint;
  priceMicro: bigint;
  amountCents: number;
};

/** The member's movements not voided, after `after` where given, with their funds' names. */
function movementsOf(tx: Transaction, member: { brokerId: string; id: string }, after?: SQL) {
  return tx
    .select({
      id: memberTransactions.id,
      kind: memberTransactions.kind,
      fundId: memberTransactions.fundId,
      fundName: funds.name,
      dealtOn: memberTransactions.dealtOn,
      unitsMicro: memberTransactions.units,
      priceMicro: memberTransactions.price,
      amountCents: memberTransactions.amountCents,
    })
    .from(memberTransactions)
    .innerJoin(
      funds,
      and(eq(funds.brokerId, memberTransactions.brokerId), eq(funds.id, memberTransactions.fundId)),
    )
    .where(
      and(
        eq(memberTransactions.brokerId, member.brokerId),
        eq(memberTransactions.memberId, member.id),
        isNull(memberTransactions.voidedAt),
        after,
      ),
    );
}

/**
 * A page of the member's movements not voided, newest first (then by id), after `position`:
 * `limit` + 1 of them, the last saying whether there is another page.
 */
export async function transactionsOf(
  tx: Transaction,
  member: { brokerId: string; id: string },
  query: PageQuery,
): Promise<TransactionRow[]> {
  const { after, orderBy, take } = keyset(
    query,
    { at: memberTransactions.dealtOn, id: memberTransactions.id },
    'desc',
    'day',
  );
  return movementsOf(tx, member, after)
    .orderBy(...orderBy)
    .limit(take);
}

/** Every movement of the member not voided, newest first (then by id), as the pages list them. */
export async function everyTransactionOf(
  tx: Transaction,
  member: { brokerId: string; id: string },
): Promise<TransactionRow[]> {
  return movementsOf(tx, member).orderBy(
    desc(memberTransactions.dealtOn),
    desc(memberTransactions.id),
  );
}
