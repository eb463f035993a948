import { eq, getTableColumns } from 'drizzle-orm';
import { employers, imports, schemes } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import { liveEmployerOf } from '../employers/index.js';
import { liveSchemeOf } from '../schemes/index.js';

export type ImportRow = typeof imports.$inferSelect;

/**
 * An import by id, found only while its scheme and employer are live: an import into a deleted
 * scheme, and the issues it lists (lines of a file about its members), read as not found
 * (decisions.md §3).
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
