import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { brokers, employers, ictProviders, members, schemes } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import { liveEmployerOf } from '../employers/index.js';

/** The firm as the register names it, as far as row-level security lets the actor see. */
export async function firmOf(tx: Transaction, brokerId: string) {
  const [row] = await tx
    .select({
      id: brokers.id,
      name: brokers.name,
      lei: brokers.lei,
      createdAt: brokers.createdAt,
    })
    .from(brokers)
    .where(eq(brokers.id, brokerId));
  return row;
}

/**
 * The firm's live schemes still running, each with its active and deferred members counted (the
 * count DORA's scope is read from, as on the scheme's governance panel), in the order they were
 * added.
 */
export async function schemesWithMembers(tx: Transaction, brokerId: string) {
  const counted = tx
    .select({
      schemeId: members.schemeId,
      members: sql<number>`count(*)::int`.as('members'),
    })
    .from(members)
    .where(
      and(
        eq(members.brokerId, brokerId),
        isNull(members.deletedAt),
        inArray(members.status, ['active', 'deferred']),
      ),
    )
    .groupBy(members.schemeId)
    .as('counted');
  return tx
    .select({
      id: schemes.id,
      name: schemes.name,
      lei: schemes.lei,
      type: schemes.type,
      racKind: schemes.racKind,
      createdAt: schemes.createdAt,
      updatedAt: schemes.updatedAt,
      members: sql<number>`coalesce(${counted.members}, 0)`,
    })
    .from(schemes)
    .innerJoin(employers, liveEmployerOf(schemes.employerId))
    .leftJoin(counted, eq(counted.schemeId, schemes.id))
    .where(
      and(eq(schemes.brokerId, brokerId), isNull(schemes.deletedAt), eq(schemes.status, 'active')),
    )
    .orderBy(asc(schemes.createdAt), asc(schemes.id));
}

/** The firm's other ICT providers, ended arrangements included, in the order they were added. */
export async function providersOf(tx: Transaction, brokerId: string) {
  return tx
    .select()
    .from(ictProviders)
    .where(eq(ictProviders.brokerId, brokerId))
    .orderBy(asc(ictProviders.createdAt), asc(ictProviders.id));
}
