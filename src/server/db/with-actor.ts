import { sql } from 'drizzle-orm';
import type { RecordedActor } from '../tenancy/actor.js';
import type { Database, Transaction } from './database.js';

export type { Transaction };

/**
 * The only way services reach tenant data. An actor without a tenant (SuperAdmin, or an anonymous
 * request about a platform account) works as the platform role. One transaction, in which the connection drops to
 * the restricted role and carries the actor's tenant, so row-level security filters every
 * query even when the service forgets to. Both settings are transaction-local: nothing leaks to
 * the next request that gets the same pooled connection.
 */
export function withActor<T>(
  database: Database,
  actor: RecordedActor,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return database.db.transaction(async (tx) => {
    if (actor.tenantId === null) {
      await tx.execute(sql`select set_config('role', 'pension_platform', true)`);
    } else {
      await tx.execute(
        sql`select set_config('role', 'pension_app', true), set_config('app.tenant_id', ${actor.tenantId}, true)`,
      );
    }
    return work(tx);
  });
}

/**
 * Read-only operations tooling (the audit chain verifier) that must see every tenant. Runs as the
 * platform role, never as the connecting user, so it obeys the same grants as SuperAdmin work.
 */
export function withPlatformReadOnly<T>(
  database: Database,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return database.db.transaction(
    async (tx) => {
      await tx.execute(sql`select set_config('role', 'pension_platform', true)`);
      return work(tx);
    },
    { accessMode: 'read only' },
  );
}

/**
 * Sign-in and session checks: they find a user by e-mail or id before any tenant is known. The
 * role may read users and nothing else, so this path cannot reach tenant data.
 */
export function withAuthenticationRole<T>(
  database: Database,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('role', 'pension_auth', true)`);
    return work(tx);
  });
}

/**
 * The mail worker: it reads and settles the outbox of every tenant, and its role can reach no
 * other table.
 */
export function withMailerRole<T>(
  database: Database,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`select set_config('role', 'pension_mailer', true)`);
    return work(tx);
  });
}
