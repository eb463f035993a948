import { sql } from 'drizzle-orm';
import { type Database, rowsOf } from './database.js';

/** The roles the service works as; none of them may escape row-level security. */
export const RUNTIME_ROLES = [
  'pension_app',
  'pension_platform',
  'pension_auth',
  'pension_mailer',
  'pension_scheduler',
  'pension_cron',
];

/**
 * Bookkeeping no tenant role can reach (no grant): exempt from the RLS rule. The runtime login
 * reads its migration hashes for readiness (migration 0010).
 */
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
  if (database.kind === 'postgres') problems.push(...(await runtimeLoginProblems(database)));
  if (problems.length > 0) throw new UnsafeDatabaseError(problems);
}

/**
 * The pool's own login (docs/decisions/0040-runtime-database-login.md): a transaction may RESET ROLE, SET ROLE or SET SESSION
 * AUTHORIZATION back to it, so it must be no stronger than the roles it switches to. Refused: a
 * superuser (always allowed to become anyone), BYPASSRLS, CREATEROLE (could grant itself any
 * role), owning anything in this database, or being able to become any role but the restricted
 * ones. The embedded engine is exempt: PGlite runs its single backend as its built-in superuser
 * and cannot do otherwise (docs/decisions/0040-runtime-database-login.md).
 */
async function runtimeLoginProblems(database: Database): Promise<string[]> {
  const [login] = rowsOf<{
    name: string;
    rolsuper: boolean;
    rolbypassrls: boolean;
    rolcreaterole: boolean;
    owned: number;
    others: string[];
  }>(
    await database.db.execute(sql`
      -- Relations the login could reach as owner, not the TOAST tables and indexes under them.
      select r.rolname as name, r.rolsuper, r.rolbypassrls, r.rolcreaterole,
             (select count(*)::int from pg_class where relowner = r.oid
                 and relkind in ('r', 'p', 'v', 'm', 'S', 'f'))
           + (select count(*)::int from pg_proc where proowner = r.oid)
           + (select count(*)::int from pg_namespace where nspowner = r.oid
                 and left(nspname, 3) <> 'pg_' and nspname <> 'information_schema') as owned,
             array(select o.rolname::text from pg_roles o
                    where o.oid <> r.oid and pg_has_role(r.oid, o.oid, 'MEMBER')
                      and o.rolname not in (${sql.join(
                        RUNTIME_ROLES.map((role) => sql`${role}`),
                        sql`, `,
                      )})
                    order by o.rolname) as others
        from pg_roles r where r.rolname = session_user`),
  );
  if (!login) return ['the database login has no role entry'];
  const refuse = (why: string) => `the service's database login ${login.name} ${why}`;
  if (login.rolsuper) return [refuse('is a superuser; log in as pension_runtime (DATABASE_URL)')];
  const problems: string[] = [];
  if (login.rolbypassrls) problems.push(refuse('has BYPASSRLS'));
  if (login.rolcreaterole) problems.push(refuse('has CREATEROLE'));
  if (login.owned > 0) problems.push(refuse(`owns ${login.owned} database object(s)`));
  if (login.others.length > 0) problems.push(refuse(`can become ${login.others.join(', ')}`));
  return problems;
}
