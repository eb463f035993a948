import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import { createBroker, createEmployer, createScheme, createUser } from '../helpers/factories.js';
import { newPpsNumber } from '../helpers/pps.js';

/**
 * The audit chain is append-only (docs/api.md, "The audit log"), so nothing personal may enter it:
 * a record carries ids and what changed, never the values of names, e-mail addresses, birth dates
 * or salaries, so that an erasure under GDPR Art. 17 never has to touch it
 * (docs/decisions/0098-no-personal-data-in-the-audit-chain.md). Accounts and members are created
 * and changed through the API, then the whole log is searched for what was sent.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function wholeAuditLog(): Promise<string> {
  const rows = await ownerOf(t.database).select().from(auditLog);
  return JSON.stringify(rows);
}

describe('the audit log', () => {
  it('holds no name, e-mail address, birth date or salary of an account or member it records', async () => {
    const brokerId = await createBroker(t.database);
    const employerId = await createEmployer(t.database, brokerId);
    const schemeId = await createScheme(t.database, { id: employerId, brokerId });
    const admin = await createUser(t.database, { brokerId, role: 'BrokerAdmin' });

    const accountName = 'Gráinne Ní Mhaoldomhnaigh';
    const renamed = 'Gráinne Uí Bhriain';
    const accountEmail = 'grainne.personal@example.ie';
    const created = await t.requestAs(admin, 'POST', `/api/employers/${employerId}/users`, {
      email: accountEmail,
      name: accountName,
      role: 'EmployerUser',
    });
    expect(created.statusCode, created.body).toBe(201);
    const userId = created.json().id as string;
    const changed = await t.requestAs(admin, 'PATCH', `/api/users/${userId}`, { name: renamed });
    expect(changed.statusCode, changed.body).toBe(200);
    const deactivated = await t.requestAs(admin, 'PATCH', `/api/users/${userId}`, {
      status: 'deactivated',
    });
    expect(deactivated.statusCode, deactivated.body).toBe(200);

    const member = {
      firstName: 'Tadhg',
      lastName: 'Ó Loingsigh',
      dateOfBirth: '1983-07-19',
      dateJoined: '2020-03-01',
      salaryCents: 6_123_457,
      email: 'tadhg.personal@example.ie',
      address: '17 Bóthar na Trá, Gaillimh',
      ppsNumber: newPpsNumber(),
    };
    const added = await t.requestAs(admin, 'POST', `/api/schemes/${schemeId}/members`, member);
    expect(added.statusCode, added.body).toBe(201);
    const memberId = added.json().id as string;
    const moved = await t.requestAs(admin, 'PATCH', `/api/members/${memberId}`, {
      lastName: 'Ó Súilleabháin',
      email: 'tadhg.new@example.ie',
      salaryCents: 6_500_001,
      dateOfBirth: '1983-07-20',
    });
    expect(moved.statusCode, moved.body).toBe(200);

    const logged = await wholeAuditLog();
    const actions = (await ownerOf(t.database).select().from(auditLog))
      .filter((row) => row.entityId === userId || row.entityId === memberId)
      .map((row) => row.action);
    expect(actions).toEqual(
      expect.arrayContaining(['user.created', 'user.updated', 'user.deactivated']),
    );
    expect(actions).toEqual(expect.arrayContaining(['member.created', 'member.updated']));
    for (const personal of [
      accountName,
      renamed,
      accountEmail,
      member.firstName,
      member.lastName,
      'Ó Súilleabháin',
      member.email,
      'tadhg.new@example.ie',
      member.dateOfBirth,
      '1983-07-20',
      String(member.salaryCents),
      '6500001',
      member.address,
      member.ppsNumber,
      admin.email,
      admin.name,
    ]) {
      expect(logged, personal).not.toContain(personal);
    }
    // What changed is still recorded, by field name.
    const update = (await ownerOf(t.database).select().from(auditLog)).find(
      (row) => row.entityId === userId && row.action === 'user.updated',
    );
    expect(update?.newState).toMatchObject({ id: userId, changedFields: ['name'] });
  });
});
