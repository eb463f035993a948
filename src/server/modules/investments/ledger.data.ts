import { and, asc, eq, gte, inArray, isNull, ne, or, sql } from 'drizzle-orm';
import { formatDecimal6 } from '../../../contracts/dc-money-rules.js';
import type { MemberTransactionKind } from '../../../contracts/investments.js';
import { arrayLiteral, rowsOf } from '../../platform/db/database.js';
import {
  contributionAdjustments,
  contributions,
  fundAllocationLines,
  fundAllocations,
  fundPrices,
  fundSwitches,
  funds,
  memberPayouts,
  members,
  memberTransactions,
  schemes,
} from '../../platform/db/schema.js';
import { microOfNumeric } from '../../platform/db/tables/columns.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import { createRowIdSource } from '../../platform/uploads/row-ids.js';
import {
  type Choice,
  type DueEntry,
  type LedgerEntry,
  type Money,
  type OpenPayout,
  type OpenSwitch,
  type Price,
  SOURCES,
} from './ledger.rules.js';

/** A scheme as its ledger is kept: which tenant, and the rows under it name its employer too. */
export interface LedgerScheme {
  brokerId: string;
  employerId: string;
  id: string;
  type: string;
  defaultFundId: string | null;
}

/** Namespace of the lock that lets one transaction at a time settle or reprice a scheme's ledger. */
const LEDGER_LOCK_NAMESPACE = 7_201_270;

/**
 * Takes the scheme's ledger lock for this transaction: waiting for it (bounded by the lock
 * timeout, docs/decisions/0085-bounded-database-connections.md), or, with `wait` false, answering
 * false at once when another transaction holds it.
 */
export async function lockLedger(
  tx: Transaction,
  scheme: { brokerId: string; id: string },
  wait: boolean,
): Promise<boolean> {
  const key = `${scheme.brokerId}/${scheme.id}`;
  if (wait) {
    await tx.execute(sql`select pg_advisory_xact_lock(${LEDGER_LOCK_NAMESPACE}, hashtext(${key}))`);
    return true;
  }
  const [row] = rowsOf<{ taken: boolean }>(
    await tx.execute(
      sql`select pg_try_advisory_xact_lock(${LEDGER_LOCK_NAMESPACE}, hashtext(${key})) as taken`,
    ),
  );
  return row?.taken === true;
}

/** A live scheme by id within the tenant, as its ledger needs it; none once deleted. */
export async function ledgerScheme(
  tx: Transaction,
  brokerId: string,
  schemeId: string,
): Promise<LedgerScheme | undefined> {
  const [row] = await tx
    .select({
      brokerId: schemes.brokerId,
      employerId: schemes.employerId,
      id: schemes.id,
      type: schemes.type,
      defaultFundId: schemes.defaultFundId,
    })
    .from(schemes)
    .where(
      and(eq(schemes.brokerId, brokerId), eq(schemes.id, schemeId), isNull(schemes.deletedAt)),
    );
  return row;
}

/** The annual charge of each of the scheme's funds that has one. */
export async function chargesOf(
  tx: Transaction,
  scheme: { brokerId: string; id: string },
): Promise<Map<string, number>> {
  const rows = await tx
    .select({ id: funds.id, basisPoints: funds.annualChargeBasisPoints })
    .from(funds)
    .where(
      and(
        eq(funds.brokerId, scheme.brokerId),
        eq(funds.schemeId, scheme.id),
        sql`${funds.annualChargeBasisPoints} > 0`,
      ),
    );
  return new Map(rows.map((row) => [row.id, row.basisPoints]));
}

/** The live schemes of the tenant whose members hold money in units: every type but DB. */
export async function investedSchemes(tx: Transaction, brokerId: string): Promise<string[]> {
  const rows = await tx
    .select({ id: schemes.id })
    .from(schemes)
    .where(and(eq(schemes.brokerId, brokerId), isNull(schemes.deletedAt), ne(schemes.type, 'DB')))
    .orderBy(asc(schemes.id));
  return rows.map((row) => row.id);
}

/** Which of `memberIds` are live members of the scheme. */
export async function liveMembersAmong(
  tx: Transaction,
  scheme: { brokerId: string; id: string },
  memberIds: readonly string[],
): Promise<string[]> {
  if (memberIds.length === 0) return [];
  const rows = await tx
    .select({ id: members.id })
    .from(members)
    .where(
      and(
        eq(members.brokerId, scheme.brokerId),
        eq(members.schemeId, scheme.id),
        isNull(members.deletedAt),
        inArray(members.id, [...memberIds]),
      ),
    )
    .orderBy(asc(members.id));
  return rows.map((row) => row.id);
}

/**
 * The live members of the scheme with something due by `lastDay`, the last day of the last month
 * that has ended: money received and not yet invested, a switch pending, or units held at that day
 * in a fund with a charge and that month's charge not yet taken. A member whose last month is
 * charged was charged for every month before it: each settlement takes every month still due.
 */
export async function membersWithWorkDue(
  tx: Transaction,
  scheme: { brokerId: string; id: string },
  last: { day: string; month: string },
): Promise<string[]> {
  const result = await tx.execute(sql`
    select due.member_id from (
      select c.member_id from contributions c
      where c.broker_id = ${scheme.brokerId} and c.scheme_id = ${scheme.id} and c.amount_cents <> 0
        and not exists (
          select 1 from member_transactions t
          where t.broker_id = c.broker_id and t.member_id = c.member_id
            and t.source = 'contribution:' || c.id and t.voided_at is null
        )
      union
      select c.member_id from contribution_adjustments a
      join contributions c on c.broker_id = a.broker_id and c.id = a.contribution_id
      where a.broker_id = ${scheme.brokerId} and c.scheme_id = ${scheme.id}
        and not exists (
          select 1 from member_transactions t
          where t.broker_id = a.broker_id and t.member_id = c.member_id
            and t.source = 'adjustment:' || a.id and t.voided_at is null
        )
      union
      select s.member_id from fund_switches s
      where s.broker_id = ${scheme.brokerId} and s.scheme_id = ${scheme.id} and s.status = 'pending'
      union
      select p.member_id from member_payouts p
      where p.broker_id = ${scheme.brokerId} and p.scheme_id = ${scheme.id}
        and p.status = 'pending' and p.voided_at is null
      union
      select t.member_id from member_transactions t
      join funds f on f.broker_id = t.broker_id and f.id = t.fund_id
      where t.broker_id = ${scheme.brokerId} and t.scheme_id = ${scheme.id}
        and t.voided_at is null and f.annual_charge_basis_points > 0
        and t.dealt_on <= ${last.day} :: date
      group by t.member_id, t.fund_id
      having sum(t.units) > 0
        and not bool_or(t.kind = 'charge' and t.source = ${SOURCES.charge(last.month)})
    ) due
    join members m on m.broker_id = ${scheme.brokerId} and m.id = due.member_id
      and m.deleted_at is null
    order by due.member_id
  `);
  return rowsOf<{ member_id: string }>(result).map((row) => row.member_id);
}

/** Each member's movements not voided. */
export async function ledgersOf(
  tx: Transaction,
  brokerId: string,
  memberIds: readonly string[],
): Promise<Map<string, LedgerEntry[]>> {
  const rows = await tx
    .select({
      memberId: memberTransactions.memberId,
      fundId: memberTransactions.fundId,
      kind: memberTransactions.kind,
      source: memberTransactions.source,
      dealtOn: memberTransactions.dealtOn,
      unitsMicro: memberTransactions.units,
      amountCents: memberTransactions.amountCents,
    })
    .from(memberTransactions)
    .where(
      and(
        eq(memberTransactions.brokerId, brokerId),
        inArray(memberTransactions.memberId, [...memberIds]),
        isNull(memberTransactions.voidedAt),
      ),
    );
  return groupBy(memberIds, rows, ({ memberId, kind, ...entry }) => [
    memberId,
    { ...entry, kind: kind as MemberTransactionKind },
  ]);
}

/** Each member's money received: contributions and their corrections, each by its source. */
export async function moneyOf(
  tx: Transaction,
  brokerId: string,
  memberIds: readonly string[],
): Promise<Map<string, Money[]>> {
  const paid = await tx
    .select({
      memberId: contributions.memberId,
      id: contributions.id,
      receivedOn: contributions.receivedOn,
      amountCents: contributions.amountCents,
    })
    .from(contributions)
    .where(
      and(eq(contributions.brokerId, brokerId), inArray(contributions.memberId, [...memberIds])),
    );
  const corrected = await tx
    .select({
      memberId: contributions.memberId,
      id: contributionAdjustments.id,
      receivedOn: contributionAdjustments.receivedOn,
      amountCents: contributionAdjustments.deltaCents,
    })
    .from(contributionAdjustments)
    .innerJoin(
      contributions,
      and(
        eq(contributions.brokerId, contributionAdjustments.brokerId),
        eq(contributions.id, contributionAdjustments.contributionId),
      ),
    )
    .where(
      and(
        eq(contributionAdjustments.brokerId, brokerId),
        inArray(contributions.memberId, [...memberIds]),
      ),
    );
  return groupBy(
    memberIds,
    [
      ...paid.map((row) => ({ ...row, source: SOURCES.contribution(row.id) })),
      ...corrected.map((row) => ({ ...row, source: SOURCES.adjustment(row.id) })),
    ],
    ({ memberId, source, receivedOn, amountCents }) => [
      memberId,
      { source, receivedOn, amountCents },
    ],
  );
}

/** Each member's fund choices, every one ever made, with their lines. */
export async function choicesOf(
  tx: Transaction,
  brokerId: string,
  memberIds: readonly string[],
): Promise<Map<string, Choice[]>> {
  const rows = await tx
    .select({
      memberId: fundAllocations.memberId,
      id: fundAllocations.id,
      effectiveFrom: fundAllocations.effectiveFrom,
      createdAt: fundAllocations.createdAt,
      fundId: fundAllocationLines.fundId,
      percent: fundAllocationLines.percent,
    })
    .from(fundAllocations)
    .innerJoin(
      fundAllocationLines,
      and(
        eq(fundAllocationLines.brokerId, fundAllocations.brokerId),
        eq(fundAllocationLines.allocationId, fundAllocations.id),
      ),
    )
    .where(
      and(
        eq(fundAllocations.brokerId, brokerId),
        inArray(fundAllocations.memberId, [...memberIds]),
      ),
    )
    // A choice's lines in the order it was made: the order the split gives its odd cents in.
    .orderBy(
      asc(fundAllocations.id),
      sql`${fundAllocationLines.percent} desc`,
      asc(fundAllocationLines.fundId),
    );
  const byChoice = new Map<string, { memberId: string; choice: Choice }>();
  for (const row of rows) {
    let found = byChoice.get(row.id);
    if (!found) {
      found = {
        memberId: row.memberId,
        choice: { effectiveFrom: row.effectiveFrom, madeAt: row.createdAt.getTime(), lines: [] },
      };
      byChoice.set(row.id, found);
    }
    found.choice.lines.push({ fundId: row.fundId, percent: row.percent });
  }
  return groupBy(memberIds, [...byChoice.values()], ({ memberId, choice }) => [memberId, choice]);
}

/**
 * Each member's switches still to carry out: the pending ones, and those named in `redo`, whose
 * movements a replay has just voided.
 */
export async function openSwitchesOf(
  tx: Transaction,
  brokerId: string,
  memberIds: readonly string[],
  redo: readonly string[],
): Promise<Map<string, OpenSwitch[]>> {
  const rows = await tx
    .select()
    .from(fundSwitches)
    .where(
      and(
        eq(fundSwitches.brokerId, brokerId),
        inArray(fundSwitches.memberId, [...memberIds]),
        redo.length === 0
          ? eq(fundSwitches.status, 'pending')
          : or(eq(fundSwitches.status, 'pending'), inArray(fundSwitches.id, [...redo])),
      ),
    );
  return groupBy(memberIds, rows, (row) => [
    row.memberId,
    { id: row.id, requestedOn: row.requestedOn, madeAt: row.createdAt.getTime(), to: row.targets },
  ]);
}

/** The prices in force of the scheme's funds on and after `from`, by fund. */
export async function pricesFrom(
  tx: Transaction,
  scheme: { brokerId: string; id: string },
  from: string,
): Promise<Map<string, Price[]>> {
  const rows = await tx
    .select({
      id: fundPrices.id,
      fundId: fundPrices.fundId,
      on: fundPrices.pricedOn,
      micro: fundPrices.price,
    })
    .from(fundPrices)
    .where(
      and(
        eq(fundPrices.brokerId, scheme.brokerId),
        eq(fundPrices.schemeId, scheme.id),
        isNull(fundPrices.supersededAt),
        gte(fundPrices.pricedOn, from),
      ),
    );
  const byFund = new Map<string, Price[]>();
  for (const { fundId, ...price } of rows) {
    const list = byFund.get(fundId) ?? [];
    list.push(price);
    byFund.set(fundId, list);
  }
  return byFund;
}

/** Each fund's latest price in force on or before each day asked, keyed `fundId day`. */
export async function latestPrices(
  tx: Transaction,
  brokerId: string,
  wanted: ReadonlyArray<{ fundId: string; day: string }>,
): Promise<Map<string, Price>> {
  const found = new Map<string, Price>();
  if (wanted.length === 0) return found;
  const result = await tx.execute(sql`
    select wanted.fund_id, wanted.day :: text as day, p.id, p.priced_on :: text as priced_on,
      p.price :: text as price
    from (
      select distinct fund_id, day
      from unnest(
        ${arrayLiteral(wanted.map(({ fundId }) => fundId))} :: text[],
        ${arrayLiteral(wanted.map(({ day }) => day))} :: date[]
      ) as asked(fund_id, day)
    ) as wanted
    cross join lateral (
      select id, priced_on, price from fund_prices
      where broker_id = ${brokerId} and fund_id = wanted.fund_id and superseded_at is null
        and priced_on <= wanted.day
      order by priced_on desc
      limit 1
    ) p
  `);
  for (const row of rowsOf<{
    fund_id: string;
    day: string;
    id: string;
    priced_on: string;
    price: string;
  }>(result)) {
    found.set(`${row.fund_id} ${row.day}`, {
      id: row.id,
      on: row.priced_on,
      micro: microOfNumeric(row.price),
    });
  }
  return found;
}

/**
 * Ids of the movements a settlement writes, as imported rows get theirs (row-ids.ts): a month-end
 * writes a movement or two for every member, and `createId()` spent more time on them than the
 * rest of the settlement's own work (docs/benchmarks.md, "DC money").
 */
const movementIds = createRowIdSource();

/**
 * Writes the movements due, each unless the same movement (member, fund, kind and source) is
 * already on the ledger and not voided: answers the kinds of those written. One statement
 * whatever their number, each column sent as one array (`arrayLiteral`), which the database
 * reads back as rows.
 */
export async function insertEntries(
  tx: Transaction,
  scheme: LedgerScheme,
  due: ReadonlyArray<{ memberId: string; entry: DueEntry & { price: Price } }>,
  at: Date,
): Promise<MemberTransactionKind[]> {
  if (due.length === 0) return [];
  const column = (value: (row: (typeof due)[number]) => string | number) =>
    arrayLiteral(due.map(value));
  const result = await tx.execute(sql`
    insert into member_transactions (broker_id, id, employer_id, scheme_id, member_id, fund_id,
      kind, source, dealt_on, units, price, price_id, amount_cents, created_at)
    select ${scheme.brokerId}, r.id, ${scheme.employerId}, ${scheme.id}, r.member_id, r.fund_id,
      r.kind, r.source, r.dealt_on, r.units, r.price, r.price_id, r.amount_cents, ${at} :: timestamptz
    from unnest(
      ${column(() => movementIds())} :: text[],
      ${column(({ memberId }) => memberId)} :: text[],
      ${column(({ entry }) => entry.fundId)} :: text[],
      ${column(({ entry }) => entry.kind)} :: text[],
      ${column(({ entry }) => entry.source)} :: text[],
      ${column(({ entry }) => entry.dealtOn)} :: date[],
      ${column(({ entry }) => formatDecimal6(entry.unitsMicro))} :: numeric[],
      ${column(({ entry }) => formatDecimal6(entry.price.micro))} :: numeric[],
      ${column(({ entry }) => entry.price.id)} :: text[],
      ${column(({ entry }) => entry.amountCents)} :: bigint[]
    ) as r(id, member_id, fund_id, kind, source, dealt_on, units, price, price_id, amount_cents)
    on conflict (broker_id, member_id, fund_id, kind, source) where voided_at is null do nothing
    returning kind
  `);
  return rowsOf<{ kind: MemberTransactionKind }>(result).map((row) => row.kind);
}

/** Marks switches carried out, each on the day of its last movement. */
export async function completeSwitches(
  tx: Transaction,
  brokerId: string,
  completed: ReadonlyArray<{ id: string; on: string }>,
  at: Date,
): Promise<void> {
  for (const { id, on } of completed) {
    await tx
      .update(fundSwitches)
      .set({ status: 'completed', completedOn: on, updatedAt: at })
      .where(and(eq(fundSwitches.brokerId, brokerId), eq(fundSwitches.id, id)));
  }
}

/** Marks switches to carry out again as pending, when a replay could not finish them. */
export async function reopenSwitches(
  tx: Transaction,
  brokerId: string,
  ids: readonly string[],
  at: Date,
): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .update(fundSwitches)
    .set({ status: 'pending', completedOn: null, updatedAt: at })
    .where(and(eq(fundSwitches.brokerId, brokerId), inArray(fundSwitches.id, [...ids])));
}

/**
 * Voids every movement of the members on or after `from`, marking it with the correcting price
 * (docs/decisions/0127-dc-money.md): the rows stay for the record. Answers the sources voided.
 */
export async function voidMovementsFrom(
  tx: Transaction,
  brokerId: string,
  memberIds: readonly string[],
  from: string,
  voidedBy: string,
  at: Date,
): Promise<string[]> {
  const rows = await tx
    .update(memberTransactions)
    .set({ voidedAt: at, voidedBy })
    .where(
      and(
        eq(memberTransactions.brokerId, brokerId),
        inArray(memberTransactions.memberId, [...memberIds]),
        gte(memberTransactions.dealtOn, from),
        isNull(memberTransactions.voidedAt),
      ),
    )
    .returning({ source: memberTransactions.source });
  return rows.map((row) => row.source);
}

/** The live members whose movements not voided used one of the prices, with the prices each used. */
export async function usersOfPrices(
  tx: Transaction,
  brokerId: string,
  priceIds: readonly string[],
): Promise<Array<{ memberId: string; priceId: string }>> {
  if (priceIds.length === 0) return [];
  return tx
    .selectDistinct({ memberId: memberTransactions.memberId, priceId: memberTransactions.priceId })
    .from(memberTransactions)
    .innerJoin(
      members,
      and(
        eq(members.brokerId, memberTransactions.brokerId),
        eq(members.id, memberTransactions.memberId),
        isNull(members.deletedAt),
      ),
    )
    .where(
      and(
        eq(memberTransactions.brokerId, brokerId),
        inArray(memberTransactions.priceId, [...priceIds]),
        isNull(memberTransactions.voidedAt),
      ),
    );
}

/** `rows` grouped under each of `keys` (every key present, if empty), each mapped by `pick`. */
function groupBy<R, V>(
  keys: readonly string[],
  rows: readonly R[],
  pick: (row: R) => [string, V],
): Map<string, V[]> {
  const grouped = new Map<string, V[]>(keys.map((key) => [key, []]));
  for (const row of rows) {
    const [key, value] = pick(row);
    grouped.get(key)?.push(value);
  }
  return grouped;
}

/** The payouts still to sell of each member (docs/decisions/0135-members-lifecycle.md). */
export async function openPayoutsOf(
  tx: Transaction,
  brokerId: string,
  memberIds: readonly string[],
): Promise<Map<string, OpenPayout[]>> {
  const rows = await tx
    .select({
      memberId: memberPayouts.memberId,
      id: memberPayouts.id,
      kind: memberPayouts.kind,
      fromOn: memberPayouts.fromOn,
    })
    .from(memberPayouts)
    .where(
      and(
        eq(memberPayouts.brokerId, brokerId),
        inArray(memberPayouts.memberId, [...memberIds]),
        eq(memberPayouts.status, 'pending'),
        isNull(memberPayouts.voidedAt),
      ),
    );
  return groupBy(memberIds, rows, (row) => [
    row.memberId,
    { id: row.id, kind: row.kind as OpenPayout['kind'], fromOn: row.fromOn },
  ]);
}

/** Payouts whose every unit is sold: paid, on the day of the last sale, what the sales came to. */
export async function markPayoutsPaid(
  tx: Transaction,
  brokerId: string,
  paid: ReadonlyArray<{ id: string; on: string; cents: number }>,
  at: Date,
): Promise<void> {
  for (const { id, on, cents } of paid) {
    await tx
      .update(memberPayouts)
      .set({ status: 'paid', paidOn: on, paidCents: cents, updatedAt: at })
      .where(and(eq(memberPayouts.brokerId, brokerId), eq(memberPayouts.id, id)));
  }
}

/** Payouts a repricing voided the sales of: pending again, to sell at the prices now in force. */
export async function reopenPayouts(
  tx: Transaction,
  brokerId: string,
  ids: readonly string[],
  at: Date,
): Promise<void> {
  if (ids.length === 0) return;
  await tx
    .update(memberPayouts)
    .set({ status: 'pending', paidOn: null, paidCents: null, updatedAt: at })
    .where(and(eq(memberPayouts.brokerId, brokerId), inArray(memberPayouts.id, [...ids])));
}
