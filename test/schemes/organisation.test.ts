import { createId } from '@paralleldrive/cuid2';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, schemes, users } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { ownerOf } from '../helpers/database.js';
import { createEmployer, createScheme, createUser, type UserRow } from '../helpers/factories.js';
import { firmFixture } from '../helpers/fixtures.js';

let t: TestApp;
let clock = Date.parse('2026-11-04T09:00:00Z');
beforeAll(async () => {
  t = await buildTestApp({ now: () => new Date(clock) });
});
afterAll(() => t.close());

async function as(
  user: UserRow,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  payload?: object,
) {
  return t.app.inject({
    method,
    url,
    payload,
    remoteAddress: uniqueClientAddress(),
    headers: { authorization: `Bearer ${await t.tokenFor(user)}` },
  });
}

/** A tenant with a BrokerAdmin, an employer, and that employer's EmployerAdmin. */
const tenant = () =>
  firmFixture(t.database, { users: { admin: 'BrokerAdmin', hr: 'EmployerAdmin' } });

const rowCount = async (table: typeof schemes | typeof auditLog | typeof users) =>
  (await ownerOf(t.database).select({ n: count() }).from(table))[0]?.n ?? 0;

describe('POST /api/schemes: a scheme under an employer within reach', () => {
  it('creates the scheme in the employer’s tenant and answers 201 with it', async () => {
    const { admin, employerId, brokerId } = await tenant();
    const created = await as(admin, 'POST', '/api/schemes', {
      employerId,
      name: 'x'.repeat(200),
      type: 'PRSA',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      employerId,
      brokerId,
      type: 'PRSA',
      name: 'x'.repeat(200),
    });
    const [record] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, created.json().id));
    expect(record).toMatchObject({
      action: 'scheme.created',
      actorId: admin.id,
      tenantId: brokerId,
    });
  });

  it('refuses bad input with 400 and the issues, writing nothing', async () => {
    const { admin, employerId } = await tenant();
    const cases: Array<[object, string]> = [
      [{ employerId: 'not-a-cuid!', name: 'Plan', type: 'DC' }, 'employerId'],
      [{ employerId, name: '', type: 'DC' }, 'name'],
      [{ employerId, name: '   ', type: 'DC' }, 'name'],
      [{ employerId, name: 'x'.repeat(201), type: 'DC' }, 'name'],
      [{ employerId, name: 'Plan', type: 'DDC' }, 'type'],
      [{ employerId, name: 'Plan' }, 'type'],
      [{ name: 'Plan', type: 'DC' }, 'employerId'],
    ];
    const [schemesBefore, auditBefore] = [await rowCount(schemes), await rowCount(auditLog)];
    for (const [payload, path] of cases) {
      const refused = await as(admin, 'POST', '/api/schemes', payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(400);
      expect(refused.json().error).toBe('Validation failed');
      expect(refused.json().issues.map((issue: { path: string }) => issue.path)).toContain(path);
    }
    expect([await rowCount(schemes), await rowCount(auditLog)]).toEqual([
      schemesBefore,
      auditBefore,
    ]);
  });

  it('does not create a scheme under an employer of another tenant: 403, nothing written', async () => {
    const mine = await tenant();
    const theirs = await tenant();
    const [schemesBefore, auditBefore] = [await rowCount(schemes), await rowCount(auditLog)];
    for (const employerId of [theirs.employerId, createId()]) {
      const refused = await as(mine.admin, 'POST', '/api/schemes', {
        employerId,
        name: 'Plan',
        type: 'DC',
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: 'Forbidden' });
    }
    expect([await rowCount(schemes), await rowCount(auditLog)]).toEqual([
      schemesBefore,
      auditBefore,
    ]);
    const forbidden = t.logs
      .entries()
      .filter((entry) => entry.securityEvent === 'access.forbidden');
    expect(forbidden.some((entry) => entry.userId === mine.admin.id)).toBe(true);
  });

  it('does not create a scheme for a cookie session posting from another site', async () => {
    const { admin, employerId } = await tenant();
    const cookiePost = async (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/schemes',
        payload: { employerId, name: 'Plan', type: 'DC' },
        remoteAddress: uniqueClientAddress(),
        cookies: { session: await t.tokenFor(admin) },
        headers,
      });
    const [schemesBefore, auditBefore] = [await rowCount(schemes), await rowCount(auditLog)];
    const crossSite: Array<Record<string, string>> = [
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of crossSite) {
      const refused = await cookiePost(headers);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: 'Forbidden' });
    }
    expect([await rowCount(schemes), await rowCount(auditLog)]).toEqual([
      schemesBefore,
      auditBefore,
    ]);
    const ours = await cookiePost({ origin: 'https://pensions.example.ie' });
    expect(ours.statusCode).toBe(201);
  });
});

describe('schemes and employers', () => {
  it('lets an EmployerAdmin rename their own employer’s scheme, audited with both states', async () => {
    const { hr, employerId, brokerId } = await tenant();
    const schemeId = await createScheme(t.database, { id: employerId, brokerId }, 'Old name');
    const renamed = await as(hr, 'PATCH', `/api/schemes/${schemeId}`, { name: 'New name' });
    expect(renamed.statusCode).toBe(200);
    const [record] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, schemeId));
    expect(record).toMatchObject({
      action: 'scheme.updated',
      previousState: expect.objectContaining({ name: 'Old name' }),
      newState: expect.objectContaining({ name: 'New name' }),
    });
    expect((await as(hr, 'PATCH', `/api/schemes/${schemeId}`, {})).statusCode).toBe(400);
  });

  it('keeps an employer with live schemes, and soft-deletes it once they are gone', async () => {
    const { admin, employerId, brokerId } = await tenant();
    const schemeId = await createScheme(t.database, { id: employerId, brokerId });
    const blocked = await as(admin, 'DELETE', `/api/employers/${employerId}`);
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json()).toEqual({ error: 'Employer still has schemes' });
    expect((await as(admin, 'DELETE', `/api/schemes/${schemeId}`)).statusCode).toBe(204);
    expect((await as(admin, 'GET', `/api/schemes/${schemeId}`)).statusCode).toBe(404);
    expect((await as(admin, 'DELETE', `/api/employers/${employerId}`)).statusCode).toBe(204);
    expect((await as(admin, 'GET', `/api/employers/${employerId}`)).statusCode).toBe(404);
    expect((await as(admin, 'GET', '/api/employers')).json().items).toEqual([]);
    // Kept for the record, and the deletion audited.
    const [kept] = await ownerOf(t.database).select().from(schemes).where(eq(schemes.id, schemeId));
    expect(kept?.deletedAt).not.toBeNull();
    const actions = (
      await ownerOf(t.database).select().from(auditLog).where(eq(auditLog.tenantId, brokerId))
    ).map((record) => record.action);
    expect(actions).toEqual(expect.arrayContaining(['scheme.deleted', 'employer.deleted']));
    // A deleted employer takes no new schemes.
    const late = await as(admin, 'POST', '/api/schemes', { employerId, name: 'Late', type: 'DC' });
    expect(late.statusCode).toBe(403);
  });
});

describe('pagination (docs/api.md, "Requests and answers")', () => {
  it('walks a list in pages by cursor without skipping or repeating', async () => {
    const { admin, brokerId } = await tenant();
    for (let i = 0; i < 4; i += 1) {
      clock += 1000;
      await createEmployer(t.database, brokerId, `Employer ${i}`);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `&cursor=${cursor}` : '';
      const page = await as(admin, 'GET', `/api/employers?limit=2${query}`);
      expect(page.statusCode).toBe(200);
      seen.push(...page.json().items.map((item: { id: string }) => item.id));
      cursor = page.json().nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(5);
  });

  it('refuses a limit outside 1–100 and a cursor it did not issue', async () => {
    const { admin } = await tenant();
    for (const query of ['limit=0', 'limit=101', 'limit=abc', 'cursor=not-a-cursor']) {
      const refused = await as(admin, 'GET', `/api/employers?${query}`);
      expect(refused.statusCode, query).toBe(400);
      expect(refused.json().error).toBe('Validation failed');
    }
    expect((await as(admin, 'GET', '/api/employers?limit=100')).statusCode).toBe(200);
  });
});

describe('accounts (docs/decisions/0044-invitations.md)', () => {
  // Another tenant's address is answered as a new one: test/users/account-creation-privacy.test.ts.
  it("refuses an e-mail address already in use in the actor's own tenant, in any case, with 409", async () => {
    const mine = await tenant();
    const taken = await as(mine.admin, 'POST', `/api/employers/${mine.employerId}/users`, {
      email: mine.hr.email.toUpperCase(),
      name: 'Duplicate',
      role: 'EmployerUser',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ error: 'An account with that e-mail address already exists' });
  });

  it('refuses a password chosen by a BrokerAdmin for someone else, and creates nothing', async () => {
    const { admin, employerId } = await tenant();
    const before = await rowCount(users);
    const refused = await as(admin, 'POST', `/api/employers/${employerId}/users`, {
      email: `chosen-${createId()}@example.ie`,
      name: 'Chosen For',
      role: 'EmployerUser',
      password: 'a sufficiently long passphrase',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues).toMatchObject([
      {
        path: 'password',
        message: 'Accounts are invited by e-mail: the person chooses their own password',
      },
    ]);
    expect(await rowCount(users)).toBe(before);
  });

  it('refuses a common password chosen by a SuperAdmin as a validation failure, creating nothing', async () => {
    const { brokerId } = await tenant();
    const platform = await createUser(t.database, { role: 'SuperAdmin' });
    const before = await rowCount(users);
    const refused = await as(platform, 'POST', `/api/brokers/${brokerId}/users`, {
      email: `weak-${createId()}@example.ie`,
      name: 'Weak',
      role: 'BrokerUser',
      password: 'qwerty123456',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues).toEqual([
      {
        path: 'password',
        code: 'password_policy',
        message: 'This password is too common: choose one that is harder to guess',
      },
    ]);
    expect(await rowCount(users)).toBe(before);
  });

  it('deactivates an account, which ends its sessions at once, and reactivates it', async () => {
    const { admin, hr } = await tenant();
    const session = await t.tokenFor(hr);
    const deactivated = await as(admin, 'PATCH', `/api/users/${hr.id}`, { status: 'deactivated' });
    expect(deactivated.statusCode).toBe(200);
    expect(deactivated.json().status).toBe('deactivated');
    const after = await t.app.inject({
      url: '/api/me',
      remoteAddress: uniqueClientAddress(),
      headers: { authorization: `Bearer ${session}` },
    });
    expect(after.statusCode).toBe(401);
    expect((await as(admin, 'PATCH', `/api/users/${hr.id}`, { status: 'active' })).statusCode).toBe(
      200,
    );
    const actions = (
      await ownerOf(t.database).select().from(auditLog).where(eq(auditLog.entityId, hr.id))
    ).map((record) => record.action);
    expect(actions).toEqual(['user.deactivated', 'user.reactivated']);
  });

  it('does not let a BrokerAdmin deactivate themself or see a platform account', async () => {
    const { admin } = await tenant();
    const self = await as(admin, 'PATCH', `/api/users/${admin.id}`, { status: 'deactivated' });
    expect(self.statusCode).toBe(400);
    const platformUser = await createUser(t.database, { role: 'SuperAdmin' });
    expect((await as(admin, 'GET', `/api/users/${platformUser.id}`)).statusCode).toBe(404);
    expect(
      (await as(admin, 'PATCH', `/api/users/${platformUser.id}`, { name: 'x' })).statusCode,
    ).toBe(404);
  });

  it('answers /api/me with the signed-in account', async () => {
    const { hr } = await tenant();
    const me = await as(hr, 'GET', '/api/me');
    expect(me.json()).toMatchObject({ id: hr.id, email: hr.email, role: 'EmployerAdmin' });
    expect(me.json()).not.toHaveProperty('passwordHash');
  });
});

describe('GET /api/audit (docs/api.md, "The audit log")', () => {
  it('filters by time window and entity, and hides platform records from a BrokerAdmin', async () => {
    const { admin, employerId } = await tenant();
    clock = Date.parse('2026-11-05T10:00:00Z');
    await as(admin, 'PATCH', `/api/employers/${employerId}`, { name: 'Morning name' });
    clock = Date.parse('2026-11-05T15:00:00Z');
    await as(admin, 'PATCH', `/api/employers/${employerId}`, { name: 'Afternoon name' });
    const morning = await as(
      admin,
      'GET',
      `/api/audit?entityId=${employerId}&from=2026-11-05T09:00:00Z&to=2026-11-05T12:00:00Z`,
    );
    expect(morning.json().items).toHaveLength(1);
    expect(morning.json().items[0].newState.name).toBe('Morning name');
    const all = await as(admin, 'GET', `/api/audit?entityType=employer&entityId=${employerId}`);
    expect(
      all.json().items.map((item: { newState: { name: string } }) => item.newState.name),
    ).toEqual(['Afternoon name', 'Morning name']);
    const broker = await as(
      await createUser(t.database, { role: 'SuperAdmin' }),
      'POST',
      '/api/brokers',
      {
        name: 'Platform-made broker',
      },
    );
    const platformRecords = await as(admin, 'GET', `/api/audit?entityId=${broker.json().id}`);
    expect(platformRecords.json().items).toEqual([]);
    expect((await as(admin, 'GET', '/api/audit?from=yesterday')).statusCode).toBe(400);
  });
});

describe('platform staff reading tenant data (docs/api.md, "The audit log")', () => {
  it('is audited: a record read in the tenant’s own chain, a list in the platform chain', async () => {
    const { admin, employerId, brokerId } = await tenant();
    const schemeId = await createScheme(t.database, { id: employerId, brokerId });
    const platform = await createUser(t.database, { role: 'SuperAdmin' });
    const auditCount = await rowCount(auditLog);
    expect((await as(admin, 'GET', `/api/schemes/${schemeId}`)).statusCode).toBe(200);
    expect(await rowCount(auditLog)).toBe(auditCount);

    expect((await as(platform, 'GET', `/api/schemes/${schemeId}`)).statusCode).toBe(200);
    clock += 1000;
    expect((await as(platform, 'GET', '/api/schemes?limit=5')).statusCode).toBe(200);
    const seenByTenant = await as(admin, 'GET', `/api/audit?entityId=${schemeId}`);
    expect(seenByTenant.json().items).toMatchObject([
      {
        action: 'scheme.viewed',
        actorId: platform.id,
        actorType: 'SuperAdmin',
        tenantId: brokerId,
      },
    ]);
    const listing = await as(
      platform,
      'GET',
      `/api/audit?actorId=${platform.id}&entityType=scheme`,
    );
    expect(listing.json().items.map((item: { action: string }) => item.action)).toEqual([
      'scheme.listed',
      'scheme.viewed',
    ]);
    expect(listing.json().items[0]).toMatchObject({
      tenantId: null,
      newState: { filters: ['limit'], returned: expect.any(Number) },
    });
  });
});
