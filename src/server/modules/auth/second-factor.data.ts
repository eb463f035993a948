import { createHash, randomInt } from 'node:crypto';
import { createId } from '@paralleldrive/cuid2';
import { and, eq, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import {
  normaliseCode,
  RECOVERY_CODE_COUNT,
  RECOVERY_CODE_GROUP_LENGTH,
  RECOVERY_CODE_GROUPS,
} from '../../../contracts/second-factor.js';
import { ppsKeyId, UnknownPpsKeyError } from '../../platform/crypto/pps-keyring.js';
import { createSealedBox, deriveKey, type SealedBox } from '../../platform/crypto/sealed-box.js';
import type { Database } from '../../platform/db/database.js';
import {
  userPasskeys,
  userRecoveryCodes,
  users,
  userTotpSecrets,
} from '../../platform/db/schema.js';
import { type Transaction, withPlatformRole } from '../../platform/db/with-actor.js';

/**
 * What the second factor's services share: sealing the authenticator-app secret, recovery codes,
 * and the reads and writes every path makes (docs/decisions/0110-second-factor.md).
 */

/** The account a factor row belongs to: the user and their tenant (null for a platform account). */
export interface FactorOwner {
  userId: string;
  brokerId: string | null;
}

export interface SealedSecret {
  sealed: string;
  keyId: string;
}

/**
 * Authenticator-app secrets are sealed as PPS numbers are (AES-256-GCM, bound to their row), under
 * a key derived from PPS_ENCRYPTION_KEY for this one purpose, so the two never share a key. The
 * previous key, while a rotation runs, still opens what it sealed; its fingerprint is the PPS
 * key's, so one rotation covers both (docs/decisions/0110-second-factor.md).
 */
export interface TotpSecretBox {
  currentKeyId: string;
  seal(secretBase32: string, owner: { userId: string; id: string }): SealedSecret;
  open(sealed: SealedSecret, owner: { userId: string; id: string }): string;
}

const totpContext = ({ userId, id }: { userId: string; id: string }) => `user-totp:${userId}:${id}`;

export function createTotpSecretBox(keys: {
  current: string;
  previous: string | null;
}): TotpSecretBox {
  const ringKey = (hexKey: string): { id: string; box: SealedBox } => ({
    id: ppsKeyId(hexKey),
    box: createSealedBox(deriveKey(hexKey.toLowerCase(), 'totp-secret')),
  });
  const current = ringKey(keys.current);
  const ring = keys.previous === null ? [current] : [current, ringKey(keys.previous)];
  return {
    currentKeyId: current.id,
    seal(secretBase32, owner) {
      return { sealed: current.box.seal(secretBase32, totpContext(owner)), keyId: current.id };
    },
    open({ sealed, keyId }, owner) {
      const key = ring.find((candidate) => candidate.id === keyId);
      if (!key) throw new UnknownPpsKeyError();
      return key.box.open(sealed, totpContext(owner));
    },
  };
}

/** Crockford's base 32: no I, L, O or U, so nothing reads as another character. */
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** Ten fresh codes, `XXXX-XXXX-XXXX-XXXX`, 80 random bits each. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () =>
    Array.from({ length: RECOVERY_CODE_GROUPS }, () =>
      Array.from(
        { length: RECOVERY_CODE_GROUP_LENGTH },
        () => CROCKFORD[randomInt(CROCKFORD.length)],
      ).join(''),
    ).join('-'),
  );
}

/**
 * What is stored of a recovery code: SHA-256 over the account and the code as compared (Crockford's
 * reading: I and L are 1, O is 0). Eighty random bits cannot be searched for from the hash, and
 * the account in the hash keeps one account's codes from matching another's.
 */
export function recoveryCodeHash(userId: string, typed: string): string {
  const code = normaliseCode(typed).replace(/[IL]/g, '1').replace(/O/g, '0');
  return createHash('sha256').update(`recovery-code:${userId}:${code}`).digest('hex');
}

/** Replaces an account's recovery codes with ten new ones; answers them, shown once. */
export async function replaceRecoveryCodes(
  tx: Transaction,
  owner: FactorOwner,
  at: Date,
): Promise<string[]> {
  const codes = newRecoveryCodes();
  await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, owner.userId));
  await tx.insert(userRecoveryCodes).values(
    codes.map((code) => ({
      userId: owner.userId,
      id: createId(),
      brokerId: owner.brokerId,
      codeHash: recoveryCodeHash(owner.userId, code),
      createdAt: at,
    })),
  );
  return codes;
}

/** The account a second-factor change is about: its id, firm, e-mail address and role. */
export interface FactorAccount {
  id: string;
  brokerId: string | null;
  email: string;
  role: string;
}

/** Reads the id, firm, e-mail address and role of an account by its id. */
export async function findFactorAccount(
  tx: Transaction,
  userId: string,
): Promise<FactorAccount | undefined> {
  const [row] = await tx
    .select({ id: users.id, brokerId: users.brokerId, email: users.email, role: users.role })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

/** Reads the id, firm, e-mail address and role of an account by its e-mail address as stored. */
export async function findFactorAccountByEmail(
  tx: Transaction,
  email: string,
): Promise<FactorAccount | undefined> {
  const [row] = await tx
    .select({ id: users.id, brokerId: users.brokerId, email: users.email, role: users.role })
    .from(users)
    .where(eq(users.email, email));
  return row;
}

/** Reads what an administrator's reset needs of an account: its firm, employer, address and role. */
export async function findResetTarget(
  tx: Transaction,
  userId: string,
): Promise<(FactorAccount & { employerId: string | null }) | undefined> {
  const [target] = await tx
    .select({
      id: users.id,
      brokerId: users.brokerId,
      employerId: users.employerId,
      email: users.email,
      role: users.role,
    })
    .from(users)
    .where(eq(users.id, userId));
  return target;
}

type TotpSecretRow = typeof userTotpSecrets.$inferSelect;

/** Reads an account's confirmed authenticator-app secret, sealed. */
export async function confirmedTotpSecret(
  tx: Transaction,
  userId: string,
): Promise<TotpSecretRow | undefined> {
  const [secret] = await tx
    .select()
    .from(userTotpSecrets)
    .where(and(eq(userTotpSecrets.userId, userId), isNotNull(userTotpSecrets.confirmedAt)));
  return secret;
}

/** Reads and locks an account's authenticator-app secret awaiting its first code, sealed. */
export async function pendingTotpSecretForUpdate(
  tx: Transaction,
  userId: string,
): Promise<TotpSecretRow | undefined> {
  const [pending] = await tx
    .select()
    .from(userTotpSecrets)
    .where(and(eq(userTotpSecrets.userId, userId), isNull(userTotpSecrets.confirmedAt)))
    .for('update');
  return pending;
}

/** Moves a secret's last used time step from `previousStep` to `step`; answers whether it moved. */
export async function spendTotpStep(
  tx: Transaction,
  secret: { userId: string; id: string },
  previousStep: number | null,
  step: number,
): Promise<boolean> {
  const [spent] = await tx
    .update(userTotpSecrets)
    .set({ lastUsedStep: step })
    .where(
      and(
        eq(userTotpSecrets.userId, secret.userId),
        eq(userTotpSecrets.id, secret.id),
        previousStep === null
          ? isNull(userTotpSecrets.lastUsedStep)
          : eq(userTotpSecrets.lastUsedStep, previousStep),
      ),
    )
    .returning({ id: userTotpSecrets.id });
  return spent !== undefined;
}

/** Marks the account's unused recovery code matching `code` used; answers whether there was one. */
export async function spendRecoveryCode(
  tx: Transaction,
  userId: string,
  code: string,
  at: Date,
): Promise<boolean> {
  const [spent] = await tx
    .update(userRecoveryCodes)
    .set({ usedAt: at })
    .where(
      and(
        eq(userRecoveryCodes.userId, userId),
        eq(userRecoveryCodes.codeHash, recoveryCodeHash(userId, code)),
        isNull(userRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: userRecoveryCodes.id });
  return spent !== undefined;
}

/** Deletes an account's authenticator-app secret awaiting its first code, if any. */
export async function deletePendingTotpSecret(tx: Transaction, userId: string): Promise<void> {
  await tx
    .delete(userTotpSecrets)
    .where(and(eq(userTotpSecrets.userId, userId), isNull(userTotpSecrets.confirmedAt)));
}

/** Deletes an account's confirmed authenticator-app secret, if any. */
export async function deleteConfirmedTotpSecret(tx: Transaction, userId: string): Promise<void> {
  await tx
    .delete(userTotpSecrets)
    .where(and(eq(userTotpSecrets.userId, userId), isNotNull(userTotpSecrets.confirmedAt)));
}

/** Deletes every authenticator-app secret of an account, confirmed or not. */
export async function deleteTotpSecrets(tx: Transaction, userId: string): Promise<void> {
  await tx.delete(userTotpSecrets).where(eq(userTotpSecrets.userId, userId));
}

/** Writes a new authenticator-app secret, sealed, awaiting its first code. */
export async function insertTotpSecret(
  tx: Transaction,
  secret: {
    userId: string;
    id: string;
    brokerId: string | null;
    secretSealed: string;
    keyId: string;
    createdAt: Date;
  },
): Promise<void> {
  await tx.insert(userTotpSecrets).values(secret);
}

/** Writes a pending secret confirmed, with the time step its first code was accepted for. */
export async function confirmTotpSecret(
  tx: Transaction,
  secret: { userId: string; id: string },
  step: number,
  at: Date,
): Promise<void> {
  await tx
    .update(userTotpSecrets)
    .set({ confirmedAt: at, lastUsedStep: step })
    .where(and(eq(userTotpSecrets.userId, secret.userId), eq(userTotpSecrets.id, secret.id)));
}

/** What second factors an account has, read in the caller's transaction. */
export interface FactorsHeld {
  totp: boolean;
  passkeys: number;
  recoveryCodesLeft: number;
}

export async function factorsHeld(tx: Transaction, userId: string): Promise<FactorsHeld> {
  const [totp] = await tx
    .select({ id: userTotpSecrets.id })
    .from(userTotpSecrets)
    .where(and(eq(userTotpSecrets.userId, userId), isNotNull(userTotpSecrets.confirmedAt)));
  const [passkeys] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(userPasskeys)
    .where(eq(userPasskeys.userId, userId));
  const [codes] = await tx
    .select({ count: sql<number>`count(*)::int` })
    .from(userRecoveryCodes)
    .where(and(eq(userRecoveryCodes.userId, userId), isNull(userRecoveryCodes.usedAt)));
  return {
    totp: totp !== undefined,
    passkeys: Number(passkeys?.count ?? 0),
    recoveryCodesLeft: Number(codes?.count ?? 0),
  };
}

export const hasFactor = (held: FactorsHeld) => held.totp || held.passkeys > 0;

/**
 * Ends every session of the account: its epoch rises and each token issued before stops matching
 * (docs/decisions/0036-session-epochs.md). The caller issues the person who made the change a
 * fresh session, as a password change does.
 */
export async function endSessionsOf(tx: Transaction, userId: string): Promise<void> {
  await tx
    .update(users)
    .set({ sessionEpoch: sql`${users.sessionEpoch} + 1` })
    .where(eq(users.id, userId));
}

/**
 * What follows removing one of an account's second factors, whichever it was: the recovery codes
 * go with the last factor (they are a way round a factor, not one of their own), and every
 * session of the account ends.
 */
export async function afterFactorRemoved(tx: Transaction, userId: string): Promise<void> {
  if (!hasFactor(await factorsHeld(tx, userId))) {
    await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
  }
  await endSessionsOf(tx, userId);
}

/** Removes every second factor of an account and its recovery codes. */
export async function removeAllFactors(tx: Transaction, userId: string): Promise<void> {
  await tx.delete(userTotpSecrets).where(eq(userTotpSecrets.userId, userId));
  await tx.delete(userPasskeys).where(eq(userPasskeys.userId, userId));
  await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
}

/**
 * Part of a PPS key rotation (`pps:rotate`): every authenticator-app secret not sealed under the
 * current key is opened with the key that sealed it and sealed again under the current one, in
 * one transaction that locks the rows, so the previous key can be dropped without locking anyone
 * out. Counts what it re-sealed and what no key in the ring opens (left as they were).
 */
export async function resealTotpSecrets(
  database: Database,
  keys: { current: string; previous: string | null },
): Promise<{ resealed: number; unopened: number }> {
  const box = createTotpSecretBox(keys);
  return withPlatformRole(database, async (tx) => {
    const rows = await tx
      .select()
      .from(userTotpSecrets)
      .where(ne(userTotpSecrets.keyId, box.currentKeyId))
      .for('update');
    let resealed = 0;
    let unopened = 0;
    for (const row of rows) {
      let secret: string;
      try {
        secret = box.open({ sealed: row.secretSealed, keyId: row.keyId }, row);
      } catch {
        unopened += 1;
        continue;
      }
      const sealed = box.seal(secret, row);
      await tx
        .update(userTotpSecrets)
        .set({ secretSealed: sealed.sealed, keyId: sealed.keyId })
        .where(and(eq(userTotpSecrets.userId, row.userId), eq(userTotpSecrets.id, row.id)));
      resealed += 1;
    }
    return { resealed, unopened };
  });
}
