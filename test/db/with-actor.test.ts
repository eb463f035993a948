import { createId } from '@paralleldrive/cuid2';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, rowsOf } from '../../src/server/db/database.js';
import { brokers, employers } from '../../src/server/db/schema.js';
import { withActor } from '../../src/server/db/with-actor.js';
import { platformActor, tenantActor } from '../helpers/actors.js';
import {
  databaseErrorOf,
  onPostgres,
  openTestDatabase,
  type TestDatabase,
} from '../helpers/database.js';

let t: TestDatabase;
const tenantA = createId();
const tenantB = createId();
beforeAll(async () => {
  t = await openTestDatabase();
  await withActor(t.database, platformActor(), async (tx) => {
    await tx.insert(brokers).values([
      { id: tenantA, name: 'A' },
      { id: tenantB, name: 'B' },
    ]);
    await tx.insert(employers).values([
      { id: createId(), brokerId: tenantA, name: 'A1' },
      { id: createId(), brokerId: tenantA, name: 'A2' },
      { id: createId(), brokerId: tenantB, name: 'B1' },
    ]);
  });
});
afterAll(() => t.dispose());

describe('withActor and row-level security', () => {
  it('returns no other tenant’s rows to a deliberately unscoped query', async () => {
    const rows = await withActor(t.database, tenantActor(tenantA), (tx) =>
      tx.select().from(employers),
    );
    expect(rows.map((row) => row.name).sort()).toEqual(['A1', 'A2']);
    const visibleBrokers = await withActor(t.database, tenantActor(tenantB), (tx) =>
      tx.select().from(brokers),
    );
    expect(visibleBrokers.map((row) => row.id)).toEqual([tenantB]);
  });

  it('does not update a row of another tenant, even by primary key', async () => {
    const [bEmployer] = await withActor(t.database, tenantActor(tenantB), (tx) =>
      tx.select().from(employers),
    );
    const updated = await withActor(t.database, tenantActor(tenantA), (tx) =>
      tx
        .update(employers)
        .set({ name: 'Hijacked' })
        .where(sql`${employers.id} = ${bEmployer?.id}`)
        .returning(),
    );
    expect(updated).toEqual([]);
  });

  it('refuses to write a row into another tenant (WITH CHECK)', async () => {
    const message = await databaseErrorOf(
      withActor(t.database, tenantActor(tenantA), (tx) =>
        tx.insert(employers).values({ id: createId(), brokerId: tenantB, name: 'Planted' }),
      ),
    );
    expect(message).toMatch(/row-level security/);
  });

  it('fails closed when the restricted role runs without a tenant setting', async () => {
    const rows = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('role', 'pension_app', true)`);
      return rowsOf(await tx.execute(sql`select * from employers`));
    });
    expect(rows).toEqual([]);
  });

  it('lets the platform role see every tenant', async () => {
    const rows = await withActor(t.database, platformActor(), (tx) => tx.select().from(employers));
    expect(rows.length).toBeGreaterThanOrEqual(3);
  });

  it('runs tenant work as pension_app, which is no superuser, cannot bypass RLS and owns no table', async () => {
    const [role] = await withActor(t.database, tenantActor(tenantA), async (tx) =>
      rowsOf<{ user: string; rolsuper: boolean; rolbypassrls: boolean }>(
        await tx.execute(
          sql`select current_user as user, rolsuper, rolbypassrls from pg_roles where rolname = current_user`,
        ),
      ),
    );
    expect(role).toEqual({ user: 'pension_app', rolsuper: false, rolbypassrls: false });
    const owned = rowsOf(
      await t.database.db.execute(
        sql`select tablename from pg_tables where tableowner in ('pension_app', 'pension_platform')`,
      ),
    );
    expect(owned).toEqual([]);
    const unforced = rowsOf(
      await t.database.db.execute(
        sql`select relname from pg_class where relname in ('brokers', 'employers', 'audit_log') and not (relrowsecurity and relforcerowsecurity)`,
      ),
    );
    expect(unforced).toEqual([]);
  });

  it.runIf(onPostgres)(
    'leaks no tenant setting or role between requests sharing one pooled connection',
    async () => {
      const url = t.url as string;
      const single = await openPostgres(url, url, 1);
      try {
        const seen = await Promise.all(
          [tenantA, tenantB, tenantA, tenantB, tenantA, tenantB].map((tenant) =>
            withActor(single, tenantActor(tenant), async (tx) =>
              (await tx.select().from(employers)).map((row) => row.brokerId),
            ),
          ),
        );
        seen.forEach((brokerIds, index) => {
          const expected = index % 2 === 0 ? tenantA : tenantB;
          expect(new Set(brokerIds)).toEqual(new Set([expected]));
        });
        const [after] = rowsOf<{ user: string; tenant: string | null }>(
          await single.db.execute(
            sql`select current_user as user, nullif(current_setting('app.tenant_id', true), '') as tenant`,
          ),
        );
        expect(after?.tenant).toBeNull();
        expect(after?.user).not.toBe('pension_app');
      } finally {
        await single.close();
      }
    },
  );

  it('rolls back everything in the transaction when the work throws', async () => {
    const id = createId();
    await expect(
      withActor(t.database, tenantActor(tenantA), async (tx) => {
        await tx.insert(employers).values({ id, brokerId: tenantA, name: 'Rolled back' });
        throw new Error('business rule failed');
      }),
    ).rejects.toThrow('business rule failed');
    const rows = await withActor(t.database, tenantActor(tenantA), (tx) =>
      tx.select().from(employers).where(sql`${employers.id} = ${id}`),
    );
    expect(rows).toEqual([]);
  });
});
