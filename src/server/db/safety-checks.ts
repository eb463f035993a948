import { sql } from 'drizzle-orm';
import { type Database, rowsOf } from './database.js';

/** The roles the service works as; none of them may escape row-level security. */
export const RUNTIME_ROLES = ['pension_app', 'pension_platform', 'pension_auth', 'pension_mailer'];

/** Bookkeeping the runtime roles cannot reach at all (no grant): exempt from the RLS rule. */
const INTERNAL_TABLES = ['schema_migrations'];

export class UnsafeDatabaseError extends Error {
  override name = 'UnsafeDatabaseError';
  constructor(readonly problems: string[]) {
    super(`Refusing to start: ${problems.join('; ')}`);
  }
}

/**
 * Row-level security only protects tenants if nothing the service runs as can step around it.
 * Checked at every start-up, after migrations: a runtime role that is a superuser, has BYPASSRLS
 * or owns a table (owners skip RLS unless it is forced), or a table without forced RLS, stops
 * the service with one line naming each problem.
 */
export async function assertDatabaseSafety(database: Database): Promise<void> {
  const problems: string[] = [];
  const roles = rowsOf<{ rolname: string; rolsuper: boolean; rolbypassrls: boolean }>(
    await database.db.execute(sql`
      select rolname, rolsuper, rolbypassrls from pg_roles
       where rolname in (${sql.join(
         RUNTIME_ROLES.map((role) => sql`${role}`),
         sql`, `,
       )})`),
  );
  for (const role of RUNTIME_ROLES) {
    const found = roles.find((row) => row.rolname === role);
    if (!found) problems.push(`runtime role ${role} is missing`);
    else if (found.rolsuper) problems.push(`runtime role ${role} is a superuser`);
    else if (found.rolbypassrls) problems.push(`runtime role ${role} has BYPASSRLS`);
  }
  const owned = rowsOf<{ relname: string; owner: string }>(
    await database.db.execute(sql`
      select c.relname, pg_get_userbyid(c.relowner) as owner
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p', 'v', 'm')
         and pg_get_userbyid(c.relowner) in (${sql.join(
           RUNTIME_ROLES.map((role) => sql`${role}`),
           sql`, `,
         )})`),
  );
  for (const row of owned) problems.push(`runtime role ${row.owner} owns table ${row.relname}`);
  const unprotected = rowsOf<{ relname: string }>(
    await database.db.execute(sql`
      select c.relname
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind in ('r', 'p')
         and not (c.relrowsecurity and c.relforcerowsecurity)
         and c.relname not in (${sql.join(
           INTERNAL_TABLES.map((table) => sql`${table}`),
           sql`, `,
         )})`),
  );
  for (const row of unprotected)
    problems.push(`table ${row.relname} does not force row-level security`);
  if (problems.length > 0) throw new UnsafeDatabaseError(problems);
}
