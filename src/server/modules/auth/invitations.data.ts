import { and, eq } from 'drizzle-orm';
import { users } from '../../platform/db/schema.js';
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
