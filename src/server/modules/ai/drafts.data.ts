import { and, count, eq, getTableColumns, isNull } from 'drizzle-orm';
import type { PageQuery } from '../../../contracts/pages.js';
import { keyset, pageFrom } from '../../platform/db/keyset.js';
import {
  aiDrafts,
  employers,
  members,
  schemes,
  writtenPolicies,
} from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import { liveEmployerOf } from '../employers/index.js';
import type { AiDraftRow } from './ai.data.js';

/**
 * The draft by id, with its live scheme and employer. `lock` takes the draft's row for the rest
 * of the transaction (FOR UPDATE): a lifecycle step reads the state it moves from under the lock,
 * so two steps at once run one after the other and the second sees what the first did.
 */
export async function findDraft(
  tx: Transaction,
  id: string,
  lock = false,
): Promise<AiDraftRow | undefined> {
  const query = tx
    .select(getTableColumns(aiDrafts))
    .from(aiDrafts)
    .innerJoin(
      schemes,
      and(
        eq(schemes.brokerId, aiDrafts.brokerId),
        eq(schemes.id, aiDrafts.schemeId),
        isNull(schemes.deletedAt),
      ),
    )
    .innerJoin(employers, liveEmployerOf(schemes.employerId))
    .where(eq(aiDrafts.id, id));
  const [row] = lock ? await query.for('update', { of: aiDrafts }) : await query;
  return row;
}

/** A page of a scheme's drafts, oldest first. */
export async function listDrafts(
  tx: Transaction,
  scheme: { brokerId: string; id: string },
  query: PageQuery,
): Promise<{ items: AiDraftRow[]; nextCursor: string | null }> {
  const { after, orderBy, take } = keyset(query, { at: aiDrafts.createdAt, id: aiDrafts.id });
  const rows = await tx
    .select()
    .from(aiDrafts)
    .where(and(eq(aiDrafts.brokerId, scheme.brokerId), eq(aiDrafts.schemeId, scheme.id), after))
    .orderBy(...orderBy)
    .limit(take);
  return pageFrom(rows, query, (row) => ({ at: row.createdAt, id: row.id }));
}

/** Writes a new draft and answers its row. */
export async function insertDraft(
  tx: Transaction,
  values: typeof aiDrafts.$inferInsert,
): Promise<AiDraftRow> {
  const [row] = await tx.insert(aiDrafts).values(values).returning();
  return row as AiDraftRow;
}

/**
 * Writes `values` to a draft still in the state it was read in, and answers the row; undefined
 * when the draft has moved on.
 */
export async function updateDraftFrom(
  tx: Transaction,
  existing: { brokerId: string; id: string; status: string },
  values: Partial<typeof aiDrafts.$inferInsert>,
): Promise<AiDraftRow | undefined> {
  const [row] = await tx
    .update(aiDrafts)
    .set(values)
    .where(
      and(
        eq(aiDrafts.brokerId, existing.brokerId),
        eq(aiDrafts.id, existing.id),
        eq(aiDrafts.status, existing.status),
      ),
    )
    .returning();
  return row as AiDraftRow | undefined;
}

/** Counts a scheme's live members. */
export async function liveMemberCount(tx: Transaction, schemeId: string): Promise<number> {
  const [counted] = await tx
    .select({ n: count() })
    .from(members)
    .where(and(eq(members.schemeId, schemeId), isNull(members.deletedAt)));
  return counted?.n ?? 0;
}

/** Counts the versions of one kind of written policy a scheme has. */
export async function policyVersionCount(
  tx: Transaction,
  policy: { brokerId: string; schemeId: string; kind: string },
): Promise<number> {
  const [versions] = await tx
    .select({ n: count() })
    .from(writtenPolicies)
    .where(
      and(
        eq(writtenPolicies.brokerId, policy.brokerId),
        eq(writtenPolicies.schemeId, policy.schemeId),
        eq(writtenPolicies.kind, policy.kind),
      ),
    );
  return versions?.n ?? 0;
}

/** Writes a written policy's row and answers its id. */
export async function insertWrittenPolicy(
  tx: Transaction,
  values: typeof writtenPolicies.$inferInsert,
): Promise<string> {
  const [policy] = await tx.insert(writtenPolicies).values(values).returning();
  return (policy as { id: string }).id;
}
