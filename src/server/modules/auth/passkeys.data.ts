import { createId } from '@paralleldrive/cuid2';
import { and, eq } from 'drizzle-orm';
import { userPasskeys, users } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';

/** The reads and writes of passkeys (docs/decisions/0111-passkeys.md). */

export type PasskeyRow = typeof userPasskeys.$inferSelect;

/** Reads the id, firm and e-mail address of the account a passkey change is about. */
export async function findPasskeyOwner(
  tx: Transaction,
  userId: string,
): Promise<{ id: string; brokerId: string | null; email: string } | undefined> {
  const [row] = await tx
    .select({ id: users.id, brokerId: users.brokerId, email: users.email })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

/** Reads the passkey with this credential id, of whichever account. */
export async function findPasskeyByCredential(
  tx: Transaction,
  credentialId: string,
): Promise<PasskeyRow | undefined> {
  const [passkey] = await tx
    .select()
    .from(userPasskeys)
    .where(eq(userPasskeys.credentialId, credentialId));
  return passkey;
}

/** Writes a passkey's new signature counter, backup state and time of use. */
export async function recordPasskeyUse(
  tx: Transaction,
  passkey: { userId: string; id: string },
  use: { counter: number; backedUp: boolean; lastUsedAt: Date },
): Promise<void> {
  await tx
    .update(userPasskeys)
    .set({ counter: use.counter, backedUp: use.backedUp, lastUsedAt: use.lastUsedAt })
    .where(and(eq(userPasskeys.userId, passkey.userId), eq(userPasskeys.id, passkey.id)));
}

/** Reads the credential ids and transports of an account's passkeys. */
export function passkeyCredentialsOf(tx: Transaction, userId: string) {
  return tx
    .select({ id: userPasskeys.credentialId, transports: userPasskeys.transports })
    .from(userPasskeys)
    .where(eq(userPasskeys.userId, userId));
}

/** Reads an account's passkeys, oldest first. */
export function passkeysOf(tx: Transaction, userId: string): Promise<PasskeyRow[]> {
  return tx
    .select()
    .from(userPasskeys)
    .where(eq(userPasskeys.userId, userId))
    .orderBy(userPasskeys.createdAt);
}

/** Reads whether a passkey with this credential id is registered, to any account. */
export async function credentialRegistered(
  tx: Transaction,
  credentialId: string,
): Promise<boolean> {
  const [taken] = await tx
    .select({ id: userPasskeys.id })
    .from(userPasskeys)
    .where(eq(userPasskeys.credentialId, credentialId));
  return taken !== undefined;
}

/** Writes a new passkey row under a fresh id; answers the row. */
export async function insertPasskey(
  tx: Transaction,
  passkey: {
    userId: string;
    brokerId: string | null;
    credentialId: string;
    publicKey: string;
    counter: number;
    transports: string[];
    name: string;
    backedUp: boolean;
    createdAt: Date;
  },
): Promise<PasskeyRow | undefined> {
  const [row] = await tx
    .insert(userPasskeys)
    .values({
      userId: passkey.userId,
      id: createId(),
      brokerId: passkey.brokerId,
      credentialId: passkey.credentialId,
      publicKey: passkey.publicKey,
      counter: passkey.counter,
      transports: passkey.transports,
      name: passkey.name,
      backedUp: passkey.backedUp,
      createdAt: passkey.createdAt,
    })
    .returning();
  return row;
}

/** Deletes one passkey of an account; answers its id when there was one. */
export async function deletePasskey(
  tx: Transaction,
  userId: string,
  passkeyId: string,
): Promise<{ id: string } | undefined> {
  const [removed] = await tx
    .delete(userPasskeys)
    .where(and(eq(userPasskeys.userId, userId), eq(userPasskeys.id, passkeyId)))
    .returning({ id: userPasskeys.id });
  return removed;
}
