import { eq, sql } from 'drizzle-orm';
import { brokers, users } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import type { Role } from '../../platform/tenancy/roles.js';

/** Reads whether any account has this e-mail address, in any case. */
export async function emailTaken(tx: Transaction, email: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`);
  return row !== undefined;
}

/** Writes a new account row, with no employer. */
export async function insertAccountRow(
  tx: Transaction,
  account: {
    id: string;
    email: string;
    name: string;
    role: Role;
    brokerId: string | null;
    passwordHash: string;
    isDevelopmentAccount: boolean;
  },
): Promise<void> {
  await tx.insert(users).values({ ...account, employerId: null });
}

/** Reads whether a broker firm with this id exists. */
export async function brokerExists(tx: Transaction, id: string): Promise<boolean> {
  const [broker] = await tx.select().from(brokers).where(eq(brokers.id, id));
  return broker !== undefined;
}

/** Writes a new broker firm row. */
export async function insertBroker(
  tx: Transaction,
  broker: { id: string; name: string },
): Promise<void> {
  await tx.insert(brokers).values(broker);
}

/** Reads whether any SuperAdmin exists besides the development accounts. */
export async function operatorSuperAdminExists(tx: Transaction): Promise<boolean> {
  const [existing] = await tx
    .select({ id: users.id })
    .from(users)
    .where(sql`${users.role} = 'SuperAdmin' and not ${users.isDevelopmentAccount}`)
    .limit(1);
  return existing !== undefined;
}
