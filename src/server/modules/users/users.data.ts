import { eq } from 'drizzle-orm';
import type { UserRow } from '../../auth/user-lookup.js';
import { users } from '../../db/schema.js';
import type { Transaction } from '../../db/with-actor.js';

export type { UserRow };

/** An account by id, as far as row-level security lets this actor see. */
export async function findUser(tx: Transaction, id: string): Promise<UserRow | undefined> {
  const [row] = await tx.select().from(users).where(eq(users.id, id));
  return row;
}
