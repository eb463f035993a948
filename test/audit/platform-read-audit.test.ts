import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createMember,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';

/**
 * The audit log is permanent and read by tenants' BrokerAdmins, so a platform list read is
 * recorded with the kinds of filter used and a count, never what was typed
 * (docs/decisions/0029-audit-states-hold-no-personal-data.md).
 */

let t: TestApp;
let superAdmin: UserRow;
let schemeId: string;
beforeAll(async () => {
  t = await buildTestApp();
  superAdmin = await createUser(t.database, { role: 'SuperAdmin' });
  const brokerId = await createBroker(t.database);
  const employerId = await createEmployer(t.database, brokerId);
  schemeId = await createScheme(t.database, { id: employerId, brokerId });
  await createMember(t.database, { brokerId, employerId, schemeId }, { lastName: 'Ó Briain' });
});
afterAll(() => t.close());

/** The newest `<entity>.listed` record the SuperAdmin left, as stored. */
async function lastListed(entityType: string) {
  const [record] = await ownerOf(t.database)
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.actorId, superAdmin.id), eq(auditLog.action, `${entityType}.listed`)))
    .orderBy(desc(auditLog.chainIndex))
    .limit(1);
  if (!record) throw new Error(`no ${entityType}.listed record`);
  return record;
}

async function listAs(url: string) {
  const response = await t.requestAs(superAdmin, 'GET', url);
  expect(response.statusCode).toBe(200);
  return response.json() as { items: unknown[]; nextCursor: string | null };
}

describe('a SuperAdmin’s list reads in the audit log', () => {
  it('never hold the words a member search was made with, only that a search was made', async () => {
    const found = await listAs(
      `/api/schemes/${schemeId}/members?q=${encodeURIComponent('O Briain')}&status=active&limit=5`,
    );
    const record = await lastListed('member');
    expect(JSON.stringify(record)).not.toMatch(/Briain/i);
    expect(record.newState).toEqual({
      scope: { schemeId },
      filters: ['limit', 'q', 'status'],
      returned: found.items.length,
    });
  });

  it('never hold the values an audit search was filtered by', async () => {
    const words = { entityType: 'member', entityId: 'typed-entity-id', actorId: 'typed-actor-id' };
    await listAs(`/api/audit?${new URLSearchParams(words)}`);
    const stored = JSON.stringify((await lastListed('audit')).newState);
    for (const value of ['typed-entity-id', 'typed-actor-id', '"member"']) {
      expect(stored).not.toContain(value);
    }
    expect((await lastListed('audit')).newState).toMatchObject({
      filters: ['actorId', 'entityId', 'entityType', 'limit'],
    });
  });

  it('never hold the employer text a scheme list was filtered by', async () => {
    await listAs('/api/schemes?employerId=typed-employer-words');
    const record = await lastListed('scheme');
    expect(JSON.stringify(record.newState)).not.toContain('typed-employer-words');
    expect(record.newState).toMatchObject({ filters: ['employerId', 'limit'] });
  });

  it('never hold the cursor a page was asked for', async () => {
    await createBroker(t.database, 'Second Broker');
    const first = await listAs('/api/brokers?limit=1');
    const cursor = first.nextCursor as string;
    expect(cursor).toEqual(expect.any(String));
    await listAs(`/api/brokers?limit=1&cursor=${encodeURIComponent(cursor)}`);
    const record = await lastListed('broker');
    expect(JSON.stringify(record.newState)).not.toContain(cursor);
    expect(record.newState).toMatchObject({ filters: ['cursor', 'limit'] });
  });
});
