import { and, eq, exists, isNotNull, sql } from 'drizzle-orm';
import type { keyset } from '../../platform/db/keyset.js';
import {
  brokers,
  employers,
  members,
  schemes,
  userPasskeys,
  users,
  userTotpSecrets,
} from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import type { UserRow } from '../auth/index.js';
import type { UserChange } from './users.schemas.js';

export type { UserRow };

/** An account by id, as far as row-level security lets this actor see. */
export async function findUser(tx: Transaction, id: string): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(eq(users.id, id));
  return row;
}

/**
 * A member's place (firm and employer, for the policy) and their portal account if one was made;
 * undefined for a member this actor cannot see.
 */
export async function findMemberAccount(tx: Transaction, memberId: string) {
  const [row] = await tx
    .select({
      brokerId: members.brokerId,
      employerId: members.employerId,
      accountId: users.id,
      status: users.status,
      invitedUntil: users.invitedUntil,
    })
    .from(members)
    .leftJoin(users, eq(users.memberId, members.id))
    .where(eq(members.id, memberId));
  return row;
}

/** Reads a broker firm's id, when this actor can see the firm. */
export async function findBrokerId(
  tx: Transaction,
  brokerId: string,
): Promise<{ id: string } | undefined> {
  const [row] = await tx.select({ id: brokers.id }).from(brokers).where(eq(brokers.id, brokerId));
  return row;
}

/** Reads a broker firm's name. */
export async function brokerName(
  tx: Transaction,
  brokerId: string,
): Promise<{ name: string } | undefined> {
  const [row] = await tx
    .select({ name: brokers.name })
    .from(brokers)
    .where(eq(brokers.id, brokerId));
  return row;
}

/** Reads an employer's name. */
export async function employerName(
  tx: Transaction,
  employerId: string,
): Promise<{ name: string } | undefined> {
  const [row] = await tx
    .select({ name: employers.name })
    .from(employers)
    .where(eq(employers.id, employerId));
  return row;
}

/** Reads a scheme's name. */
export async function schemeName(
  tx: Transaction,
  schemeId: string,
): Promise<{ name: string } | undefined> {
  const [row] = await tx
    .select({ name: schemes.name })
    .from(schemes)
    .where(eq(schemes.id, schemeId));
  return row;
}

/** Inserts an account and reads it back. */
export async function insertUserRow(
  tx: Transaction,
  values: typeof users.$inferInsert,
): Promise<UserRow> {
  const [row] = await tx.insert(users).values(values).returning();
  return row as UserRow;
}

/** Writes when an account's invitation link expires. */
export async function setInvitedUntil(
  tx: Transaction,
  userId: string,
  invitedUntil: Date,
): Promise<void> {
  await tx.update(users).set({ invitedUntil }).where(eq(users.id, userId));
}

/** An account by id while it is still invited, as far as row-level security lets this actor see. */
export async function findInvitedUser(tx: Transaction, id: string): Promise<UserRow | undefined> {
  const [row] = await tx
    .select()
    .from(users)
    .where(and(eq(users.id, id), eq(users.status, 'invited')));
  return row;
}

/**
 * Reads a page of accounts, of a firm, an employer or all the actor sees, as `page` orders it,
 * each with whether it has a second factor set up: a confirmed authenticator app or a passkey.
 */
export async function listUsers(
  tx: Transaction,
  filter: { brokerId?: string; employerId?: string },
  page: ReturnType<typeof keyset>,
): Promise<Array<{ user: UserRow; secondFactor: boolean }>> {
  const where =
    filter.brokerId !== undefined
      ? eq(users.brokerId, filter.brokerId)
      : filter.employerId !== undefined
        ? eq(users.employerId, filter.employerId)
        : undefined;
  const appSet = tx
    .select({ id: userTotpSecrets.id })
    .from(userTotpSecrets)
    .where(and(eq(userTotpSecrets.userId, users.id), isNotNull(userTotpSecrets.confirmedAt)));
  const passkeyHeld = tx
    .select({ id: userPasskeys.id })
    .from(userPasskeys)
    .where(eq(userPasskeys.userId, users.id));
  return tx
    .select({
      user: users,
      secondFactor: sql<boolean>`${exists(appSet)} or ${exists(passkeyHeld)}`,
    })
    .from(users)
    .where(and(where, page.after))
    .orderBy(...page.orderBy)
    .limit(page.take);
}

/** Writes a change to an account and reads it back. */
export async function updateUserRow(
  tx: Transaction,
  id: string,
  change: Omit<UserChange, 'status'> & {
    status: string;
    invitedUntil: Date | null;
    updatedAt: Date;
  },
): Promise<UserRow> {
  const [row] = await tx.update(users).set(change).where(eq(users.id, id)).returning();
  return row as UserRow;
}

/** Reads an account with the names of its firm and employer. */
export async function findUserWithPlaces(
  tx: Transaction,
  id: string,
): Promise<{ user: UserRow; firmName: string | null; employerName: string | null } | undefined> {
  const [row] = await tx
    .select({ user: users, firmName: brokers.name, employerName: employers.name })
    .from(users)
    .leftJoin(brokers, eq(brokers.id, users.brokerId))
    .leftJoin(employers, eq(employers.id, users.employerId))
    .where(eq(users.id, id));
  return row;
}
