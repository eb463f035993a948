import { and, eq, gt, isNull } from 'drizzle-orm';
import { passwordResetTokens, users } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';

/**
 * The reads and writes of password reset and invitation links
 * (docs/decisions/0020-password-reset.md, docs/decisions/0044-invitations.md): tokens are stored
 * hashed, one row a link.
 */

export type ResetTokenRow = typeof passwordResetTokens.$inferSelect;

/** Unused tokens of the user that could still be used, marked as replaced; answers their ids. */
export async function invalidateOpenTokens(
  tx: Transaction,
  userId: string,
  at: Date,
): Promise<string[]> {
  const replaced = await tx
    .update(passwordResetTokens)
    .set({ invalidatedAt: at })
    .where(
      and(
        eq(passwordResetTokens.userId, userId),
        isNull(passwordResetTokens.usedAt),
        isNull(passwordResetTokens.invalidatedAt),
        gt(passwordResetTokens.expiresAt, at),
      ),
    )
    .returning({ id: passwordResetTokens.id });
  return replaced.map((row) => row.id);
}

/** Writes a new token row, holding only the token's hash. */
export async function insertToken(
  tx: Transaction,
  token: {
    id: string;
    userId: string;
    brokerId: string | null;
    tokenHash: string;
    purpose: 'reset' | 'invitation';
    expiresAt: Date;
    createdAt: Date;
  },
): Promise<void> {
  await tx.insert(passwordResetTokens).values(token);
}

/** Reads the token row stored under this hash, whatever its purpose or state. */
export async function findTokenByHash(
  tx: Transaction,
  tokenHash: string,
): Promise<ResetTokenRow | undefined> {
  const [stored] = await tx
    .select()
    .from(passwordResetTokens)
    .where(eq(passwordResetTokens.tokenHash, tokenHash))
    .limit(1);
  return stored;
}

/** Marks the token used; of two concurrent uses of one token only one finds it still open. */
export async function claimToken(tx: Transaction, tokenId: string, at: Date): Promise<boolean> {
  const [claimed] = await tx
    .update(passwordResetTokens)
    .set({ usedAt: at })
    .where(
      and(
        eq(passwordResetTokens.id, tokenId),
        isNull(passwordResetTokens.usedAt),
        isNull(passwordResetTokens.invalidatedAt),
        gt(passwordResetTokens.expiresAt, at),
      ),
    )
    .returning({ id: passwordResetTokens.id });
  return claimed !== undefined;
}

/** Writes a reset password to the account if it is still active; answers its id when it was. */
export async function setResetPassword(
  tx: Transaction,
  userId: string,
  passwordHash: string,
  at: Date,
): Promise<{ id: string } | undefined> {
  const [updated] = await tx
    .update(users)
    .set({ passwordHash, passwordChangedAt: at, updatedAt: at })
    .where(and(eq(users.id, userId), eq(users.status, 'active')))
    .returning({ id: users.id });
  return updated;
}
