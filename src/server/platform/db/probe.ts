import { sql } from 'drizzle-orm';
import type { Database } from './database.js';
import { DatabaseTimeoutError } from './database-errors.js';

/** Resolves when `work` does within `timeoutMs`, rejects with DatabaseTimeoutError otherwise. */
export async function withinTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DatabaseTimeoutError()), timeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** One round trip; rejects when the database does not answer in time. */
export async function pingDatabase(database: Database, timeoutMs: number): Promise<void> {
  await withinTimeout(database.db.execute(sql`select 1`), timeoutMs);
}
