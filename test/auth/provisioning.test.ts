import { spawnSync } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordHasher } from '../../src/server/modules/auth/passwords.rules.js';
import {
  createSuperAdmin,
  ProvisioningError,
} from '../../src/server/modules/auth/provisioning.service.js';
import { openPglite } from '../../src/server/platform/db/database.js';
import { migrate } from '../../src/server/platform/db/migrator.js';
import { auditLog, users } from '../../src/server/platform/db/schema.js';
import { withActor } from '../../src/server/platform/db/with-actor.js';
import { platformActor } from '../helpers/actors.js';
import { testAuditService, verifyTestChains } from '../helpers/audit.js';
import { TEST_PASSWORD_HASH_COST, testDataDir } from '../helpers/config.js';
import { onPostgres, openTestDatabase, type TestDatabase } from '../helpers/database.js';

const audit = testAuditService();
const hashPassword = passwordHasher(TEST_PASSWORD_HASH_COST);
let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.dispose());

const superAdmins = () =>
  withActor(t.database, platformActor(), (tx) =>
    tx.select().from(users).where(sql`${users.role} = 'SuperAdmin'`),
  );

describe('the bootstrap SuperAdmin', () => {
  it('is created once, audited, and skipped when a SuperAdmin exists', async () => {
    const first = await createSuperAdmin(t.database, audit, {
      email: 'ops@platform.example',
      password: 'a strong first password',
      onlyIfNone: true,
      hashPassword,
    });
    const second = await createSuperAdmin(t.database, audit, {
      email: 'other@platform.example',
      password: 'a strong other password',
      onlyIfNone: true,
      hashPassword,
    });
    expect([first, second]).toEqual(['created', 'skipped']);
    const admins = await superAdmins();
    expect(admins.map((admin) => admin.email)).toEqual(['ops@platform.example']);
    const records = await withActor(t.database, platformActor(), (tx) =>
      tx.select().from(auditLog).where(sql`${auditLog.entityId} = ${admins[0]?.id}`),
    );
    expect(records).toEqual([
      expect.objectContaining({ action: 'user.created', chainKey: '@platform', actorId: 'system' }),
    ]);
    expect((await verifyTestChains(t.database)).broken).toEqual([]);
  });

  it('refuses a weak password and a taken e-mail, creating nothing', async () => {
    const before = (await superAdmins()).length;
    await expect(
      createSuperAdmin(t.database, audit, {
        email: 'weak@platform.example',
        password: 'short',
        onlyIfNone: false,
        hashPassword,
      }),
    ).rejects.toBeInstanceOf(ProvisioningError);
    await expect(
      createSuperAdmin(t.database, audit, {
        email: 'OPS@platform.example',
        password: 'a strong first password',
        onlyIfNone: false,
        hashPassword,
      }),
    ).rejects.toThrow(/already exists/);
    expect((await superAdmins()).length).toBe(before);
  });
});

describe('the create-superadmin CLI command', () => {
  // The CLI is started through tsx, which compiles the server as it loads: past 30 s on a busy
  // 2-core CI machine.
  it('creates a SuperAdmin with the password from standard input', async () => {
    const env: Record<string, string | undefined> = {
      PATH: process.env.PATH,
      APP_ENV: 'test',
      DATA_DIR: testDataDir(),
    };
    let check: TestDatabase['database'];
    if (onPostgres && t.url) {
      env.DATABASE_URL = t.url;
    } else {
      const onDisk = await openPglite(`${env.DATA_DIR}/pglite`);
      await migrate(onDisk);
      await onDisk.close();
    }
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/server/cli.ts', 'create-superadmin', 'cli-admin@platform.example'],
      {
        env,
        input: 'a strong password from stdin\n',
        encoding: 'utf8',
        timeout: 80_000,
      },
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    if (onPostgres) {
      check = t.database;
    } else {
      check = await openPglite(`${env.DATA_DIR}/pglite`);
    }
    const created = await withActor(check, platformActor(), (tx) =>
      tx.select().from(users).where(sql`${users.email} = 'cli-admin@platform.example'`),
    );
    expect(created).toEqual([expect.objectContaining({ role: 'SuperAdmin', brokerId: null })]);
    if (!onPostgres) await check.close();
  }, 90_000);
});
