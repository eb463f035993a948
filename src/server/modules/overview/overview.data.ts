import { and, count, desc, eq, inArray, isNull, max, type SQL, sql } from 'drizzle-orm';
import { lastDayOfMonth } from '../../../contracts/irish-dates.js';
import {
  contributions,
  employers,
  funds,
  imports,
  members,
  schemes,
  users,
} from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import { liveEmployerOf } from '../employers/index.js';

/** The live schemes of live employers, of one employer when `employerId` is set, by name. */
export function schemesInReach(tx: Transaction, employerId: string | null, limit: number) {
  return tx
    .select({
      id: schemes.id,
      name: schemes.name,
      type: schemes.type,
      employerId: schemes.employerId,
      employerName: employers.name,
      // The day it was added, in Irish time, as the remittance calendar reads it (remittances.data.ts).
      addedOn: sql<string>`(${schemes.createdAt} at time zone 'Europe/Dublin')::date::text`,
    })
    .from(schemes)
    .innerJoin(employers, liveEmployerOf(schemes.employerId))
    .where(
      and(
        isNull(schemes.deletedAt),
        employerId === null ? undefined : eq(schemes.employerId, employerId),
      ),
    )
    .orderBy(schemes.name)
    .limit(limit);
}

/** How many live members each of the schemes has (none listed for a scheme with none). */
export function liveMemberCounts(tx: Transaction, schemeIds: string[]) {
  return tx
    .select({ schemeId: members.schemeId, n: count() })
    .from(members)
    .where(and(inArray(members.schemeId, schemeIds), isNull(members.deletedAt)))
    .groupBy(members.schemeId);
}

/** How many open funds each of the schemes has (none listed for a scheme with none). */
export function openFundCounts(tx: Transaction, schemeIds: string[]) {
  return tx
    .select({ schemeId: funds.schemeId, n: count() })
    .from(funds)
    .where(and(inArray(funds.schemeId, schemeIds), isNull(funds.closedAt)))
    .groupBy(funds.schemeId);
}

/** The latest pay period each of the schemes has contributions for. */
export function lastContributionPeriods(tx: Transaction, schemeIds: string[]) {
  return tx
    .select({ schemeId: contributions.schemeId, last: max(contributions.period) })
    .from(contributions)
    .where(inArray(contributions.schemeId, schemeIds))
    .groupBy(contributions.schemeId);
}

/** The schemes' latest imports, newest first. */
export function recentImports(tx: Transaction, schemeIds: string[], limit: number) {
  return tx
    .select()
    .from(imports)
    .where(inArray(imports.schemeId, schemeIds))
    .orderBy(desc(imports.createdAt), desc(imports.id))
    .limit(limit);
}

/**
 * Whether a member owed contributions for the pay period `period` (`YYYY-MM`): a member at some
 * time in it and still one at its end. That is an active member whose membership began by the
 * period's last day (joining, or the latest rejoining, which is the only change that leaves a
 * member active: membershipBeganOn), or one who left, retired or transferred after that day. A
 * member who left within the month may or may not have had a last deduction, so is not counted
 * as owing; the payroll file says.
 */
function owedFor(period: string): SQL {
  const lastDay = lastDayOfMonth(period);
  return sql`(${members.dateJoined} <= ${lastDay} and ((${members.status} = 'active' and (${members.statusOn} is null or ${members.statusOn} <= ${lastDay})) or (${members.status} <> 'active' and ${members.statusOn} > ${lastDay})))`;
}

/** Whether the member has any contribution recorded for `period`. */
const paidFor = (period: string): SQL =>
  sql`exists (select 1 from ${contributions} where ${contributions.memberId} = ${members.id} and ${contributions.period} = ${period})`;

/** A member who owed contributions for `period` and has none recorded for it. */
const unpaidFor = (period: string): SQL => sql`(${owedFor(period)} and not ${paidFor(period)})`;

/**
 * Whether a member signs in to an account of their own, or has been invited to one by a link
 * still open at `at`: either way its address reaches them (docs/decisions/0047-member-portal.md).
 * A deactivated account, or an invitation left to expire, does not count.
 */
const hasPortalAddress = (at: Date): SQL => sql`exists (
  select 1 from ${users}
  where ${users.memberId} = ${members.id}
    and (${users.status} = 'active'
      or (${users.status} = 'invited' and ${users.invitedUntil} > ${at.toISOString()}::timestamptz))
)`;

/**
 * The schemes' live members by name: what the work list needs of each, with whether they owed
 * contributions for `period` and have none recorded, and whether a portal account gives an
 * address for them at `at`.
 */
export function liveMembersOf(
  tx: Transaction,
  schemeIds: string[],
  period: string,
  at: Date,
  limit: number,
) {
  return tx
    .select({
      id: members.id,
      firstName: members.firstName,
      lastName: members.lastName,
      email: members.email,
      schemeId: members.schemeId,
      unpaid: sql<boolean>`${unpaidFor(period)}`,
      portalAddress: sql<boolean>`${hasPortalAddress(at)}`,
    })
    .from(members)
    .where(and(inArray(members.schemeId, schemeIds), isNull(members.deletedAt)))
    .orderBy(members.lastName, members.firstName, members.id)
    .limit(limit);
}

/**
 * For each of the schemes with live members, in one pass over them: how many it has, how many owed
 * contributions for `period`, and how many of those have none recorded for it.
 */
export function periodCoverage(tx: Transaction, schemeIds: string[], period: string) {
  return tx
    .select({
      schemeId: members.schemeId,
      live: count(),
      owing: sql<number>`(count(*) filter (where ${owedFor(period)}))::int`,
      unpaid: sql<number>`(count(*) filter (where ${unpaidFor(period)}))::int`,
    })
    .from(members)
    .where(and(inArray(members.schemeId, schemeIds), isNull(members.deletedAt)))
    .groupBy(members.schemeId);
}

/** The live employers, or the one `employerId` names, by name. */
export function employersInReach(tx: Transaction, employerId: string | null, limit: number) {
  return tx
    .select({ id: employers.id, brokerId: employers.brokerId, name: employers.name })
    .from(employers)
    .where(
      and(
        isNull(employers.deletedAt),
        employerId === null ? undefined : eq(employers.id, employerId),
      ),
    )
    .orderBy(employers.name, employers.id)
    .limit(limit);
}

/** The live schemes of the employers. */
export function liveSchemesOf(tx: Transaction, employerIds: string[]) {
  return tx
    .select({ id: schemes.id, employerId: schemes.employerId })
    .from(schemes)
    .where(and(inArray(schemes.employerId, employerIds), isNull(schemes.deletedAt)));
}

/** The live schemes of live employers, of one employer when `employerId` is set, by name. */
export function schemeRowsInReach(tx: Transaction, employerId: string | null, limit: number) {
  return tx
    .select({
      id: schemes.id,
      brokerId: schemes.brokerId,
      employerId: schemes.employerId,
      employerName: employers.name,
      name: schemes.name,
      type: schemes.type,
      status: schemes.status,
    })
    .from(schemes)
    .innerJoin(employers, liveEmployerOf(schemes.employerId))
    .where(
      and(
        isNull(schemes.deletedAt),
        employerId === null ? undefined : eq(schemes.employerId, employerId),
      ),
    )
    .orderBy(schemes.name, schemes.id)
    .limit(limit);
}
