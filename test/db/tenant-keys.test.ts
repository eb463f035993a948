import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/server/platform/db/database.js';
import { openTestDatabase, ownerOf, type TestDatabase } from '../helpers/database.js';

/*
 * The schema's readiness to be distributed by tenant (docs/deployment.md, "Scaling past one
 * database"; docs/decisions/0076-tenant-keys-for-distribution.md). A table
 * with a broker_id column is a tenant table, to be distributed on broker_id, unless it is listed
 * here with the reason it would stay whole on every node (a Citus reference table).
 */
const REFERENCE_TABLES: Record<string, string> = {
  // Sign-in finds an account by its e-mail address before any tenant is known, and SuperAdmin
  // accounts have no tenant (broker_id is null), so the table cannot be split by broker_id.
  users: 'platform accounts: looked up by e-mail before the tenant is known; SuperAdmin has none',
  // Tokens and mail follow the account they are for, SuperAdmin's included (broker_id null).
  password_reset_tokens: 'belongs to an account, which may be SuperAdmin (no tenant)',
  email_outbox: 'mail to an account, which may be SuperAdmin (no tenant); drained across tenants',
  // An account's second factors are read at sign-in before any tenant is known, and SuperAdmin
  // has them too (docs/decisions/0110-second-factor.md).
  user_totp_secrets: 'belongs to an account, which may be SuperAdmin (no tenant)',
  user_recovery_codes: 'belongs to an account, which may be SuperAdmin (no tenant)',
  user_passkeys: 'found by its credential at sign-in, before the tenant is known; SuperAdmin too',
  // Projection assumption sets are the platform's (broker_id null) or a firm's own, and every
  // firm's runs read the platform's (docs/decisions/0141-pension-benefit-statements.md).
  statement_assumptions:
    "the platform's sets (no tenant) beside each firm's own; read by every firm",
};

interface Constraint {
  table: string;
  name: string;
  type: 'p' | 'u' | 'f';
  columns: string[];
  foreignTable: string | null;
  foreignColumns: string[];
}

let t: TestDatabase;
let tenantTables: string[];
let constraints: Constraint[];
let uniqueIndexes: { table: string; name: string; columns: (string | null)[] }[];

async function query<T>(text: ReturnType<typeof sql>): Promise<T[]> {
  return rowsOf(await ownerOf(t.database).execute(text)) as T[];
}

beforeAll(async () => {
  t = await openTestDatabase();
  const withBrokerId = await query<{ table_name: string }>(sql`
    select table_name from information_schema.columns
    where table_schema = 'public' and column_name = 'broker_id'
    order by table_name`);
  tenantTables = withBrokerId.map((r) => r.table_name).filter((n) => !(n in REFERENCE_TABLES));
  constraints = (
    await query<{
      table: string;
      name: string;
      type: 'p' | 'u' | 'f';
      columns: string[];
      foreign_table: string | null;
      foreign_columns: string[] | null;
    }>(sql`
      select c.conrelid::regclass::text as table, c.conname as name, c.contype as type,
        array(select a.attname::text from unnest(c.conkey) with ordinality k(n, i)
              join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n
              order by k.i) as columns,
        case when c.confrelid = 0 then null else c.confrelid::regclass::text end as foreign_table,
        array(select a.attname::text from unnest(c.confkey) with ordinality k(n, i)
              join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.n
              order by k.i) as foreign_columns
      from pg_constraint c join pg_namespace s on s.oid = c.connamespace
      where s.nspname = 'public' and c.contype in ('p', 'u', 'f')`)
  ).map((r) => ({
    table: r.table,
    name: r.name,
    type: r.type,
    columns: r.columns,
    foreignTable: r.foreign_table,
    foreignColumns: r.foreign_columns ?? [],
  }));
  // Unique indexes not behind a constraint (partial ones, expression ones) are checked too:
  // a distributed table enforces uniqueness only when the distribution column is part of it.
  uniqueIndexes = await query<{ table: string; name: string; columns: (string | null)[] }>(sql`
    select i.indrelid::regclass::text as table, x.relname as name,
      array(select a.attname::text from unnest(i.indkey) k
            left join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k) as columns
    from pg_index i join pg_class x on x.oid = i.indexrelid
    join pg_namespace s on s.oid = x.relnamespace
    where s.nspname = 'public' and i.indisunique
      and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`);
});

afterAll(async () => {
  await t?.dispose();
});

describe('tenant keys: every tenant table can be distributed by broker_id', () => {
  it('finds the tenant tables, and every listed reference table still exists with broker_id', async () => {
    expect(tenantTables.length).toBeGreaterThan(20);
    const all = await query<{ table_name: string }>(sql`
      select table_name from information_schema.columns
      where table_schema = 'public' and column_name = 'broker_id'`);
    const names = new Set(all.map((r) => r.table_name));
    for (const reference of Object.keys(REFERENCE_TABLES)) expect(names).toContain(reference);
  });

  it('gives every tenant table a primary key that includes broker_id', () => {
    const failing = tenantTables.filter((table) => {
      const pk = constraints.find((c) => c.table === table && c.type === 'p');
      return !pk?.columns.includes('broker_id');
    });
    expect(failing).toEqual([]);
  });

  it('keys the audit log on its chain first, the tenant it would be distributed by', () => {
    const pk = constraints.find((c) => c.table === 'audit_log' && c.type === 'p');
    expect(pk?.columns).toEqual(['chain_key', 'id']);
  });

  it('includes broker_id in every unique constraint and unique index of a tenant table', () => {
    const failing = [
      ...constraints
        .filter((c) => c.type === 'u' && tenantTables.includes(c.table))
        .filter((c) => !c.columns.includes('broker_id'))
        .map((c) => c.name),
      ...uniqueIndexes
        .filter((i) => tenantTables.includes(i.table))
        .filter((i) => !i.columns.includes('broker_id'))
        .map((i) => i.name),
    ];
    expect(failing).toEqual([]);
  });

  it('pairs broker_id with broker_id in every foreign key between tenant tables', () => {
    const failing = constraints
      .filter((c) => c.type === 'f' && tenantTables.includes(c.table))
      .filter((c) => c.foreignTable !== null && tenantTables.includes(c.foreignTable))
      .filter((c) => {
        const at = c.columns.indexOf('broker_id');
        return at < 0 || c.foreignColumns[at] !== 'broker_id';
      })
      .map((c) => c.name);
    expect(failing).toEqual([]);
  });

  it('lets a tenant table reference only tenant tables, brokers and the reference tables', () => {
    const allowed = new Set([...tenantTables, 'brokers', ...Object.keys(REFERENCE_TABLES)]);
    const failing = constraints
      .filter((c) => c.type === 'f' && tenantTables.includes(c.table))
      .filter((c) => c.foreignTable !== null && !allowed.has(c.foreignTable))
      .map((c) => c.name);
    expect(failing).toEqual([]);
  });
});
