import { eq } from 'drizzle-orm';
import { members } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import type { ContactChange } from './portal.schemas.js';

/** Writes a member's contact details and answers them as stored. */
export async function updateMemberContact(
  tx: Transaction,
  memberId: string,
  values: ContactChange & { updatedAt: Date },
): Promise<{ email: string | null; address: string | null } | undefined> {
  const [updated] = await tx
    .update(members)
    .set(values)
    .where(eq(members.id, memberId))
    .returning({ email: members.email, address: members.address });
  return updated;
}
