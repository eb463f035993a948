import { and, eq } from 'drizzle-orm';
import { users } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';

/** Writes a new password to an active account still holding `checkedHash`; answers its id if so. */
export async function replaceCheckedPassword(
  tx: Transaction,
  userId: string,
  checkedHash: string,
  passwordHash: string,
  at: Date,
): Promise<{ id: string } | undefined> {
  const [updated] = await tx
    .update(users)
    .set({ passwordHash, passwordChangedAt: at, updatedAt: at })
    .where(
      and(eq(users.id, userId), eq(users.status, 'active'), eq(users.passwordHash, checkedHash)),
    )
    .returning({ id: users.id });
  return updated;
}
