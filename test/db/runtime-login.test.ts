import { createId } from '@paralleldrive/cuid2';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/server/platform/db/database.js';
import { openPostgres } from '../../src/server/platform/db/postgres.js';
import {
  RUNTIME_LOGIN_ROLE,
  runtimeDatabaseUrl,
} from '../../src/server/platform/db/runtime-login.js';
import {
  assertDatabaseSafety,
  UnsafeDatabaseError,
} from '../../src/server/platform/db/safety-checks.js';
import { brokers, employers } from '../../src/server/platform/db/schema.js';
import { withActor } from '../../src/server/platform/db/with-actor.js';
import { platformActor, tenantActor } from '../helpers/actors.js';
import {
  databaseErrorOf,
  onPostgres,
  openTestDatabase,
  ownerOf,
  type TestDatabase,
} from '../helpers/database.js';

describe('the pool’s login URL', () => {
  const owner = 'postgres://owner:owner-secret@db.example:5432/pension?sslmode=require';

  it('one URL for everything: the pool logs in as the runtime role, never as the owner', () => {
    const url = new URL(runtimeDatabaseUrl(owner, owner, undefined));
    expect(url.username).toBe(RUNTIME_LOGIN_ROLE);
    expect(url.password).toBe('');
    expect(`${url.host}${url.pathname}${url.search}`).toBe(
      'db.example:5432/pension?sslmode=require',
    );
  });

  it('the runtime password comes from its own setting, not from the owner’s URL', () => {
    const url = new URL(runtimeDatabaseUrl(owner, owner, 'p@ss/word'));
    expect(decodeURIComponent(url.password)).toBe('p@ss/word');
    expect(url.toString()).not.toContain('owner-secret');
  });

  it('a pooled URL with the owner’s login still gets the runtime login, on the pooler’s host', () => {
    const pooled = 'postgres://owner:owner-secret@pooler.example/pension';
    const url = new URL(runtimeDatabaseUrl(pooled, owner, undefined));
    expect([url.username, url.host]).toEqual([RUNTIME_LOGIN_ROLE, 'pooler.example']);
  });

  it('a pooled URL with a login of its own is used as given', () => {
    const pooled = 'postgres://pension_runtime:runtime-secret@pooler.example/pension';
    expect(runtimeDatabaseUrl(pooled, owner, 'ignored')).toBe(pooled);
  });

  it('a URL without a host is refused rather than left logging in as the owner', () => {
    const socket = 'postgres:///pension?host=/var/run/postgresql';
    expect(() => runtimeDatabaseUrl(socket, socket, undefined)).toThrow(/DATABASE_URL_UNPOOLED/);
  });
});

// PGlite runs its one backend as its built-in superuser: it has no second login to give the
// service, so these properties hold on PostgreSQL only (docs/decisions/0040-runtime-database-login.md).
describe.runIf(onPostgres)('the runtime login on PostgreSQL', () => {
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
        { id: createId(), brokerId: tenantB, name: 'B1' },
      ]);
    });
  });
  afterAll(() => t.dispose());

  const ownerName = () => decodeURIComponent(new URL(t.url as string).username) || 'postgres';

  it('a tenant transaction cannot climb back to a role that sees every tenant', async () => {
    const escapes = [
      'reset role',
      'set role none',
      'reset session authorization',
      `set role "${ownerName()}"`,
      `set session authorization "${ownerName()}"`,
    ];
    for (const statement of escapes) {
      const message = await databaseErrorOf(
        withActor(t.database, tenantActor(tenantA), async (tx) => {
          await tx.execute(sql.raw(statement));
          return tx.select().from(employers);
        }),
      );
      expect(message, statement).toMatch(/permission denied/);
    }
    // Not vacuous: the other tenant's rows are there for the owner to see.
    const everyone = await ownerOf(t.database).select().from(employers);
    expect(everyone.map((row) => row.brokerId)).toContain(tenantB);
  });

  it('the pool outside a transaction reads no tenant table', async () => {
    expect(await databaseErrorOf(t.database.db.select().from(employers))).toMatch(
      /permission denied/,
    );
  });

  it('the pool logs in as a role that is no superuser, owns nothing and can only become the restricted roles', async () => {
    const [login] = rowsOf<{ name: string; rolsuper: boolean; owned: number; roles: string[] }>(
      await t.database.db.execute(sql`
        select r.rolname as name, r.rolsuper,
               (select count(*)::int from pg_class where relowner = r.oid) as owned,
               array(select o.rolname::text from pg_roles o
                      where o.oid <> r.oid and pg_has_role(r.oid, o.oid, 'MEMBER')
                      order by o.rolname) as roles
          from pg_roles r where r.rolname = session_user`),
    );
    expect(login).toEqual({
      name: RUNTIME_LOGIN_ROLE,
      rolsuper: false,
      owned: 0,
      roles: [
        'pension_app',
        'pension_auth',
        'pension_cron',
        'pension_mailer',
        'pension_platform',
        'pension_scheduler',
      ],
    });
    await expect(assertDatabaseSafety(t.database)).resolves.toBeUndefined();
  });

  it('the service refuses to start when its pool logs in as a superuser', async () => {
    const asOwner = await openPostgres(t.url as string, t.url as string, 1);
    try {
      const refusal = await assertDatabaseSafety(asOwner).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(UnsafeDatabaseError);
      expect((refusal as UnsafeDatabaseError).problems).toEqual([
        `the service's database login ${ownerName()} is a superuser; log in as pension_runtime (DATABASE_URL)`,
      ]);
    } finally {
      await asOwner.close();
    }
  });

  it('the service refuses a login that owns a table or can become a role beyond the restricted ones', async () => {
    // A login of this test's own: roles belong to the whole server, which other test files share.
    const login = `pension_test_login_${createId().slice(0, 10)}`;
    const owner = ownerOf(t.database);
    await owner.execute(sql.raw(`create role ${login} login noinherit`));
    try {
      await owner.execute(sql.raw(`grant pension_app, pg_read_all_data to ${login}`));
      await owner.execute(sql.raw(`create table ${login}_notes (id text)`));
      await owner.execute(sql.raw(`alter table ${login}_notes owner to ${login}`));
      const url = new URL(t.url as string);
      url.username = login;
      url.password = '';
      const database = await openPostgres(url.toString(), t.url as string, 1);
      try {
        const refusal = await assertDatabaseSafety(database).catch((error: unknown) => error);
        expect((refusal as UnsafeDatabaseError).problems).toEqual([
          `table ${login}_notes does not force row-level security`,
          `the service's database login ${login} owns 1 database object(s)`,
          `the service's database login ${login} can become pg_read_all_data`,
        ]);
      } finally {
        await database.close();
      }
    } finally {
      await owner.execute(sql.raw(`drop table if exists ${login}_notes`));
      await owner.execute(sql.raw(`drop role ${login}`));
    }
  });
});
