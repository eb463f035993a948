import { and, eq, isNull, max, sql } from 'drizzle-orm';
import type { keyset } from '../../platform/db/keyset.js';
import { statementAssumptions, statementRuns } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';

export type AssumptionsRow = typeof statementAssumptions.$inferSelect;

/** A set by id, the platform's or the reader's firm's (row-level security); locked with `forUpdate`. */
export async function findAssumptions(
  tx: Transaction,
  id: string,
  { forUpdate = false }: { forUpdate?: boolean } = {},
): Promise<AssumptionsRow | undefined> {
  const query = tx.select().from(statementAssumptions).where(eq(statementAssumptions.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row;
}

/** The next version of a name for its owner (null: the platform's). */
export async function nextVersion(
  tx: Transaction,
  brokerId: string | null,
  name: string,
): Promise<number> {
  const [row] = await tx
    .select({ latest: max(statementAssumptions.version) })
    .from(statementAssumptions)
    .where(
      and(
        brokerId === null
          ? isNull(statementAssumptions.brokerId)
          : eq(statementAssumptions.brokerId, brokerId),
        eq(statementAssumptions.name, name),
      ),
    );
  return (row?.latest ?? 0) + 1;
}

export async function insertAssumptions(
  tx: Transaction,
  values: typeof statementAssumptions.$inferInsert,
): Promise<AssumptionsRow> {
  const [row] = await tx.insert(statementAssumptions).values(values).returning();
  return row as AssumptionsRow;
}

export async function updateAssumptions(
  tx: Transaction,
  id: string,
  values: Partial<typeof statementAssumptions.$inferInsert>,
): Promise<AssumptionsRow> {
  const [row] = await tx
    .update(statementAssumptions)
    .set(values)
    .where(eq(statementAssumptions.id, id))
    .returning();
  return row as AssumptionsRow;
}

/** The ids among `ids` that a run within the reader's reach has used. */
export async function usedAssumptions(
  tx: Transaction,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .selectDistinct({ id: statementRuns.assumptionsId })
    .from(statementRuns)
    .where(sql`${statementRuns.assumptionsId} in ${ids}`);
  return new Set(rows.map((row) => row.id));
}

/** A page of sets: the platform's and the reader's firm's (row-level security), oldest first. */
export async function listAssumptions(
  tx: Transaction,
  page: ReturnType<typeof keyset>,
): Promise<AssumptionsRow[]> {
  return tx
    .select()
    .from(statementAssumptions)
    .where(page.after)
    .orderBy(...page.orderBy)
    .limit(page.take);
}
