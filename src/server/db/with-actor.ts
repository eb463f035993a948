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
  const prelude =
    actor.tenantId === null
      ? "select set_config('role', 'pension_platform', true)"
      : `select set_config('role', 'pension_app', true), set_config('app.tenant_id', ${tenantLiteral(actor.tenantId)}, true)`;
  return database.transaction([prelude], work);
}

/**
 * The tenant id as an SQL literal for the prelude, which travels without parameters. Tenant ids
 * come from verified sessions and our own rows, and are plain identifiers; anything else is
 * refused rather than escaped.
 */
function tenantLiteral(tenantId: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(tenantId)) throw new Error('malformed tenant id');
  return `'${tenantId}'`;
}

/**
 * Read-only operations tooling (the audit chain verifier) that must see every tenant. Runs as the
 * platform role, never as the connecting user, so it obeys the same grants as SuperAdmin work.
 */
export function withPlatformReadOnly<T>(
  database: Database,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return database.transaction(
    ['set transaction read only', "select set_config('role', 'pension_platform', true)"],
    work,
  );
}

/**
 * Pre-authentication work that needs more than the user lookup functions (a reset token found by
 * its hash). The role may read users and reset tokens and nothing else, so this path cannot reach
 * tenant data.
 */
export function withAuthenticationRole<T>(
  database: Database,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return database.transaction(["select set_config('role', 'pension_auth', true)"], work);
}

/**
 * The mail worker: it reads and settles the outbox of every tenant, and its role can reach no
 * other table.
 */
export function withMailerRole<T>(
  database: Database,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return database.transaction(["select set_config('role', 'pension_mailer', true)"], work);
}
