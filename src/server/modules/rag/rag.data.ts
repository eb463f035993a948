import { eq, inArray, sql } from 'drizzle-orm';
import { arrayLiteral } from '../../platform/db/database.js';
import { ragChunks, ragSources } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';

/** Rows per INSERT: well under PostgreSQL's 65,535 bound parameters at nine columns a row. */
const ROWS_PER_INSERT = 500;

export type SourceRow = typeof ragSources.$inferSelect;
export type ChunkRow = Omit<typeof ragChunks.$inferInsert, 'search'>;

/**
 * Ingest runs one at a time across every instance: two instances starting together would
 * otherwise both find a source missing and insert it twice.
 */
export async function lockCorpus(tx: Transaction): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('pension-admin:rag-corpus'))`);
}

export async function findSource(tx: Transaction, source: string): Promise<SourceRow | undefined> {
  const [row] = await tx.select().from(ragSources).where(eq(ragSources.source, source));
  return row;
}

export async function saveSource(tx: Transaction, row: SourceRow): Promise<void> {
  const { source, ...rest } = row;
  await tx
    .insert(ragSources)
    .values(row)
    .onConflictDoUpdate({ target: ragSources.source, set: rest });
}

/** The stored chunks of a source by their content hash. */
export async function chunkHashes(tx: Transaction, source: string): Promise<Map<string, string>> {
  const rows = await tx
    .select({ id: ragChunks.id, hash: ragChunks.contentSha256 })
    .from(ragChunks)
    .where(eq(ragChunks.source, source));
  return new Map(rows.map((row) => [row.hash, row.id]));
}

export async function deleteChunks(tx: Transaction, ids: readonly string[]): Promise<void> {
  for (let start = 0; start < ids.length; start += ROWS_PER_INSERT) {
    await tx
      .delete(ragChunks)
      .where(inArray(ragChunks.id, ids.slice(start, start + ROWS_PER_INSERT)));
  }
}

export async function insertChunks(tx: Transaction, rows: readonly ChunkRow[]): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
    await tx.insert(ragChunks).values(rows.slice(start, start + ROWS_PER_INSERT));
  }
}

/** Kept chunks take their place in the new text's order. */
export async function reorderChunks(
  tx: Transaction,
  order: readonly { id: string; ordinal: number }[],
): Promise<void> {
  for (let start = 0; start < order.length; start += ROWS_PER_INSERT) {
    const slice = order.slice(start, start + ROWS_PER_INSERT);
    const ids = arrayLiteral(slice.map((entry) => entry.id));
    const ordinals = arrayLiteral(slice.map((entry) => entry.ordinal));
    await tx.execute(sql`
      update rag_chunks as c set ordinal = v.ordinal
        from unnest(${ids}::text[], ${ordinals}::int[]) as v(id, ordinal)
       where c.id = v.id and c.ordinal <> v.ordinal`);
  }
}
