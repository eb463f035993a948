import { and, eq } from 'drizzle-orm';
import { brokers, employers, members, schemes, users } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';

/** Activates an invited account with its chosen password; answers its id if it was still invited. */
export async function activateInvitedAccount(
  tx: Transaction,
  userId: string,
  passwordHash: string,
  at: Date,
): Promise<{ id: string } | undefined> {
  const [updated] = await tx
    .update(users)
    .set({
      status: 'active',
      invitedUntil: null,
      passwordHash,
      passwordChangedAt: at,
      updatedAt: at,
    })
    .where(and(eq(users.id, userId), eq(users.status, 'invited')))
    .returning({ id: users.id });
  return updated;
}

/**
 * The names an open invitation names, read inside the account's own tenant: the firm's; for an
 * account of one of its employers, the employer's; and for a member's account, the scheme the
 * member is in as well.
 */
export async function invitingNames(
  tx: Transaction,
  brokerId: string,
  employerId: string | null,
  memberId: string | null,
): Promise<{ firm: string | null; employer: string | null; scheme: string | null }> {
  const [firm] = await tx
    .select({ name: brokers.name })
    .from(brokers)
    .where(eq(brokers.id, brokerId));
  const [employer] =
    employerId === null
      ? []
      : await tx
          .select({ name: employers.name })
          .from(employers)
          .where(and(eq(employers.brokerId, brokerId), eq(employers.id, employerId)));
  const [scheme] =
    memberId === null
      ? []
      : await tx
          .select({ name: schemes.name })
          .from(members)
          .innerJoin(
            schemes,
            and(eq(schemes.brokerId, members.brokerId), eq(schemes.id, members.schemeId)),
          )
          .where(and(eq(members.brokerId, brokerId), eq(members.id, memberId)));
  return {
    firm: firm?.name ?? null,
    employer: employer?.name ?? null,
    scheme: scheme?.name ?? null,
  };
}
