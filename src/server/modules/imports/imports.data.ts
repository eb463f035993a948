import { and, eq, getTableColumns, type SQL } from 'drizzle-orm';
import { employers, imports, schemes } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import { liveEmployerOf } from '../employers/index.js';
import { liveSchemeOf } from '../schemes/index.js';

export type ImportRow = typeof imports.$inferSelect;

/**
 * An import by id, found only while its scheme and employer are live: an import into a deleted
 * scheme, and the issues it lists (lines of a file about its members), read as not found
 * (docs/decisions/0038-soft-delete-reaches-beneath.md).
 */
export async function findImport(tx: Transaction, id: string): Promise<ImportRow | undefined> {
  const [row] = await tx
    .select(getTableColumns(imports))
    .from(imports)
    .innerJoin(schemes, liveSchemeOf(imports.schemeId))
    .innerJoin(employers, liveEmployerOf(imports.employerId))
    .where(eq(imports.id, id));
  return row;
}

/** Every column but the issues, which a list leaves out: they can run to thousands. */
const { issues: _issues, ...summaryColumns } = getTableColumns(imports);

/** Writes a new import's row. */
export async function insertImport(
  tx: Transaction,
  values: typeof imports.$inferInsert,
): Promise<void> {
  await tx.insert(imports).values(values);
}

/** Writes how far the reading of an import's file has got. */
export async function recordImportProgress(
  tx: Transaction,
  importId: string,
  progress: { rowsRead: number; fileBytes: number; updatedAt: Date },
): Promise<void> {
  await tx.update(imports).set(progress).where(eq(imports.id, importId));
}

/** Writes how an import ended and answers its row; undefined when the row is missing. */
export async function finishImport(
  tx: Transaction,
  importId: string,
  values: Partial<typeof imports.$inferInsert>,
): Promise<ImportRow | undefined> {
  const [row] = await tx.update(imports).set(values).where(eq(imports.id, importId)).returning();
  return row;
}

/** An earlier import of the same kind and file into the scheme that succeeded, if any. */
export async function findSucceededImport(
  tx: Transaction,
  file: { schemeId: string; kind: string; fileSha256: string },
): Promise<{ id: string } | undefined> {
  const [earlier] = await tx
    .select({ id: imports.id })
    .from(imports)
    .where(
      and(
        eq(imports.schemeId, file.schemeId),
        eq(imports.kind, file.kind),
        eq(imports.fileSha256, file.fileSha256),
        eq(imports.status, 'succeeded'),
      ),
    )
    .limit(1);
  return earlier;
}

/** A page of a scheme's imports in the keyset's order, without their issues. */
export function listImports(
  tx: Transaction,
  schemeId: string,
  page: { after: SQL | undefined; orderBy: SQL[]; take: number },
): Promise<Omit<ImportRow, 'issues'>[]> {
  return tx
    .select(summaryColumns)
    .from(imports)
    .where(and(eq(imports.schemeId, schemeId), page.after))
    .orderBy(...page.orderBy)
    .limit(page.take);
}
