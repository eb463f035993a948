import { and, asc, desc, eq, gte, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { type RunStatus, runHoldsItsDate } from '../../../contracts/statements.js';
import type { keyset } from '../../platform/db/keyset.js';
import {
  brokers,
  contributionAdjustments,
  contributions,
  funds,
  members,
  memberTransactions,
  schemes,
  statementRuns,
  statements,
  users,
} from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';

export type RunRow = typeof statementRuns.$inferSelect;
export type StatementRow = typeof statements.$inferSelect;
export type MemberRow = typeof members.$inferSelect;

/** A run by id as far as row-level security lets the actor see; locked with `forUpdate`. */
export async function findRun(
  tx: Transaction,
  id: string,
  { forUpdate = false }: { forUpdate?: boolean } = {},
): Promise<RunRow | undefined> {
  const query = tx.select().from(statementRuns).where(eq(statementRuns.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function insertRun(
  tx: Transaction,
  values: typeof statementRuns.$inferInsert,
): Promise<RunRow> {
  const [row] = await tx.insert(statementRuns).values(values).returning();
  return row as RunRow;
}

export async function updateRun(
  tx: Transaction,
  run: { brokerId: string; id: string },
  values: Partial<typeof statementRuns.$inferInsert>,
): Promise<RunRow> {
  const [row] = await tx
    .update(statementRuns)
    .set(values)
    .where(and(eq(statementRuns.brokerId, run.brokerId), eq(statementRuns.id, run.id)))
    .returning();
  return row as RunRow;
}

/**
 * The run of the scheme that holds the information date, if any: one under way or one that made
 * statements (`runHoldsItsDate`, contracts/statements.ts). A failed run, or one that finished
 * having made nothing, leaves the date free for a new run once the records are corrected.
 */
export async function liveRunFor(
  tx: Transaction,
  scheme: { brokerId: string; id: string },
  informationDate: string,
): Promise<RunRow | undefined> {
  // A scheme has a handful of runs for one date at most: read them and ask the contract's rule.
  const rows = await tx
    .select()
    .from(statementRuns)
    .where(
      and(
        eq(statementRuns.brokerId, scheme.brokerId),
        eq(statementRuns.schemeId, scheme.id),
        eq(statementRuns.informationDate, informationDate),
      ),
    );
  return rows.find((row) => runHoldsItsDate({ status: row.status as RunStatus, done: row.done }));
}

/** A page of a scheme's runs, the latest first. */
export async function listRuns(
  tx: Transaction,
  scheme: { brokerId: string; id: string },
  page: ReturnType<typeof keyset>,
): Promise<RunRow[]> {
  return tx
    .select()
    .from(statementRuns)
    .where(
      and(
        eq(statementRuns.brokerId, scheme.brokerId),
        eq(statementRuns.schemeId, scheme.id),
        page.after,
      ),
    )
    .orderBy(...page.orderBy)
    .limit(page.take);
}

/** Runs a worker should take up: queued, or running with no live lease (an instance stopped). */
export async function runsToResume(tx: Transaction, now: Date): Promise<RunRow[]> {
  return tx
    .select()
    .from(statementRuns)
    .where(
      or(
        eq(statementRuns.status, 'queued'),
        and(
          eq(statementRuns.status, 'running'),
          or(isNull(statementRuns.leaseUntil), lte(statementRuns.leaseUntil, now)),
        ),
      ),
    )
    .orderBy(asc(statementRuns.createdAt));
}

/** The active and deferred members of a scheme, not deleted, in a fixed order. */
export async function membersOwedStatements(
  tx: Transaction,
  scheme: { brokerId: string; id: string },
): Promise<MemberRow[]> {
  return tx
    .select()
    .from(members)
    .where(
      and(
        eq(members.brokerId, scheme.brokerId),
        eq(members.schemeId, scheme.id),
        isNull(members.deletedAt),
        inArray(members.status, ['active', 'deferred']),
      ),
    )
    .orderBy(asc(members.id));
}

export async function findMember(
  tx: Transaction,
  member: { brokerId: string; id: string },
): Promise<MemberRow | undefined> {
  const [row] = await tx
    .select()
    .from(members)
    .where(and(eq(members.brokerId, member.brokerId), eq(members.id, member.id)));
  return row;
}

/** Adds a pending statement for each member; one already there (a resumed run) is kept. */
export async function insertPendingStatements(
  tx: Transaction,
  rows: (typeof statements.$inferInsert)[],
): Promise<void> {
  for (let at = 0; at < rows.length; at += 500) {
    await tx
      .insert(statements)
      .values(rows.slice(at, at + 500))
      .onConflictDoNothing();
  }
}

/** The next statements of a run still to be made, in member order. */
export async function pendingStatements(
  tx: Transaction,
  run: { brokerId: string; id: string },
  limit: number,
): Promise<StatementRow[]> {
  return tx
    .select()
    .from(statements)
    .where(
      and(
        eq(statements.brokerId, run.brokerId),
        eq(statements.runId, run.id),
        eq(statements.status, 'pending'),
      ),
    )
    .orderBy(asc(statements.memberId))
    .limit(limit);
}

/** A statement by id, locked with `forUpdate`: a statement is made by one worker once. */
export async function findStatement(
  tx: Transaction,
  id: string,
  { forUpdate = false }: { forUpdate?: boolean } = {},
): Promise<StatementRow | undefined> {
  const query = tx.select().from(statements).where(eq(statements.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

export async function updateStatement(
  tx: Transaction,
  statement: { brokerId: string; id: string },
  values: Partial<typeof statements.$inferInsert>,
): Promise<void> {
  await tx
    .update(statements)
    .set(values)
    .where(and(eq(statements.brokerId, statement.brokerId), eq(statements.id, statement.id)));
}

/** Counts by status of a run's statements. */
export async function statementCounts(
  tx: Transaction,
  run: { brokerId: string; id: string },
): Promise<Record<string, number>> {
  const rows = await tx
    .select({ status: statements.status, count: sql<number>`count(*)::int` })
    .from(statements)
    .where(and(eq(statements.brokerId, run.brokerId), eq(statements.runId, run.id)))
    .groupBy(statements.status);
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
}

/**
 * A run's statements made, in member order: all of them, those not yet issued (what issuing
 * sends), or those marked for printing (the printing list); `limit` pages the sample staff review.
 */
export async function madeStatementsOfRun(
  tx: Transaction,
  run: { brokerId: string; id: string },
  { only, limit }: { only?: 'not_issued' | 'on_paper'; limit?: number } = {},
): Promise<StatementRow[]> {
  const query = tx
    .select()
    .from(statements)
    .where(
      and(
        eq(statements.brokerId, run.brokerId),
        eq(statements.runId, run.id),
        eq(statements.status, 'made'),
        only === 'not_issued' ? isNull(statements.issuedAt) : undefined,
        only === 'on_paper' ? eq(statements.paper, true) : undefined,
      ),
    )
    .orderBy(asc(statements.memberId));
  return limit === undefined ? query : query.limit(limit);
}

/** A member's statements; `issuedOnly` for the member themselves. The latest first. */
export async function statementsOfMember(
  tx: Transaction,
  member: { brokerId: string; id: string },
  issuedOnly: boolean,
): Promise<StatementRow[]> {
  return tx
    .select()
    .from(statements)
    .where(
      and(
        eq(statements.brokerId, member.brokerId),
        eq(statements.memberId, member.id),
        eq(statements.status, 'made'),
        issuedOnly ? sql`${statements.issuedAt} is not null` : undefined,
      ),
    )
    .orderBy(desc(statements.informationDate), desc(statements.id));
}

/** The member's last statement made before `informationDate`, for what changed since. */
export async function lastStatementBefore(
  tx: Transaction,
  member: { brokerId: string; id: string },
  informationDate: string,
): Promise<StatementRow | undefined> {
  const [row] = await tx
    .select()
    .from(statements)
    .where(
      and(
        eq(statements.brokerId, member.brokerId),
        eq(statements.memberId, member.id),
        eq(statements.status, 'made'),
        lt(statements.informationDate, informationDate),
      ),
    )
    .orderBy(desc(statements.informationDate))
    .limit(1);
  return row;
}

export async function schemeOf(tx: Transaction, scheme: { brokerId: string; id: string }) {
  const [row] = await tx
    .select()
    .from(schemes)
    .where(and(eq(schemes.brokerId, scheme.brokerId), eq(schemes.id, scheme.id)));
  return row;
}

export async function firmName(tx: Transaction, brokerId: string): Promise<string> {
  const [row] = await tx
    .select({ name: brokers.name })
    .from(brokers)
    .where(eq(brokers.id, brokerId));
  return row?.name ?? '';
}

/** Each fund's yearly charge, by id. */
export async function fundCharges(
  tx: Transaction,
  brokerId: string,
  fundIds: readonly string[],
): Promise<Map<string, number>> {
  if (fundIds.length === 0) return new Map();
  const rows = await tx
    .select({ id: funds.id, charge: funds.annualChargeBasisPoints })
    .from(funds)
    .where(and(eq(funds.brokerId, brokerId), inArray(funds.id, [...fundIds])));
  return new Map(rows.map((row) => [row.id, row.charge]));
}

/**
 * The member's contributions for the pay periods `from` to `to` (`YYYY-MM`, both included),
 * whatever day each was received or recorded: a statement counts a contribution for its pay period
 * (docs/decisions/0141-pension-benefit-statements.md, "What counts as at the information date").
 * Each correction of one is a row of its own, its signed change received on the day it was
 * recorded, so that the year sums to what the member page shows as paid in.
 */
export async function contributionsForPeriods(
  tx: Transaction,
  member: { brokerId: string; id: string },
  from: string,
  to: string,
): Promise<Array<{ kind: string; period: string; receivedOn: string; amountCents: number }>> {
  const inPeriods = and(
    eq(contributions.brokerId, member.brokerId),
    eq(contributions.memberId, member.id),
    gte(contributions.period, from),
    lte(contributions.period, to),
  );
  const paid = await tx
    .select({
      kind: contributions.kind,
      period: contributions.period,
      receivedOn: contributions.receivedOn,
      amountCents: contributions.amountCents,
    })
    .from(contributions)
    .where(inPeriods);
  const corrected = await tx
    .select({
      kind: contributions.kind,
      period: contributions.period,
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
    .where(and(eq(contributionAdjustments.brokerId, member.brokerId), inPeriods));
  return [...paid, ...corrected];
}

/** The charges taken from the member's units from `from` to `to`, both included, not voided. */
export async function chargesBetween(
  tx: Transaction,
  member: { brokerId: string; id: string },
  from: string,
  to: string,
): Promise<Array<{ on: string; amountCents: number }>> {
  return tx
    .select({ on: memberTransactions.dealtOn, amountCents: memberTransactions.amountCents })
    .from(memberTransactions)
    .where(
      and(
        eq(memberTransactions.brokerId, member.brokerId),
        eq(memberTransactions.memberId, member.id),
        eq(memberTransactions.kind, 'charge'),
        isNull(memberTransactions.voidedAt),
        gte(memberTransactions.dealtOn, from),
        lte(memberTransactions.dealtOn, to),
      ),
    );
}

/** The member's active accounts: who is told a statement is ready. */
export async function accountsOfMember(
  tx: Transaction,
  memberId: string,
): Promise<Array<{ id: string; email: string }>> {
  return tx
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.memberId, memberId), eq(users.status, 'active')));
}
