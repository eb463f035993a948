import { eq } from 'drizzle-orm';
import { users } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import type { UserRow } from '../auth/index.js';

export type { UserRow };

/** An account by id, as far as row-level security lets this actor see. */
export async function findUser(tx: Transaction, id: string): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(eq(users.id, id));
  return row;
}
