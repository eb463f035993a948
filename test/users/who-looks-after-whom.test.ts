import { createId } from '@paralleldrive/cuid2';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  invitableRoles,
  manageableRoles,
  manageableRolesMessage,
} from '../../src/contracts/invitations.js';
import { POLICY } from '../../src/contracts/policy.js';
import { ROLES } from '../../src/contracts/roles.js';
import { auditLog, users } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { HOLD_MAIL } from '../helpers/config.js';
import { ownerOf } from '../helpers/database.js';
import { createEmployer, createUser, type UserRow } from '../helpers/factories.js';
import { firmFixture } from '../helpers/fixtures.js';
import { readOutbox } from '../helpers/mail.js';

/**
 * Whose accounts an employer's administrator looks after: a new invitation, deactivating and
 * reactivating, for the roles they may give in their own employer
 * (docs/decisions/0143-who-invites-whom.md, "Later").
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: HOLD_MAIL });
});
afterAll(() => t.close());

const as = async (user: UserRow, method: 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({
    method,
    url,
    ...(payload ? { payload } : {}),
    remoteAddress: uniqueClientAddress(),
    headers: { authorization: `Bearer ${await t.tokenFor(user)}` },
  });

const resend = (actor: UserRow, id: string) => as(actor, 'POST', `/api/users/${id}/invitation`);
const setStatus = (actor: UserRow, id: string, status: 'active' | 'deactivated') =>
  as(actor, 'PATCH', `/api/users/${id}`, { status });

const newAddress = () => `colleague-${createId()}@example.ie`;

const mailsTo = async (email: string) =>
  (await readOutbox(t.database, t.config)).filter((row) => row.message?.to === email);

const accountRow = async (id: string) =>
  (await ownerOf(t.database).select().from(users).where(eq(users.id, id)))[0];

const auditOf = async (id: string) =>
  (
    await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, id))
      .orderBy(auditLog.chainIndex)
  ).map((record) => ({ action: record.action, actorId: record.actorId }));

const office = () =>
  firmFixture(t.database, {
    brokerName: 'Murphy & Byrne Brokers',
    employerName: 'Liffey Engineering Ltd',
    users: { admin: 'BrokerAdmin', hr: 'EmployerAdmin', payroll: 'EmployerUser' },
  });

/** An account of the office's employer that nobody has set up yet, invited by the broker. */
const invitedIn = (
  scope: { brokerId: string; employerId: string },
  role: 'EmployerUser' | 'EmployerAdmin',
) => createUser(t.database, { ...scope, role, status: 'invited', email: newAddress() });

describe('the rule of whose accounts each role looks after', () => {
  it('gives an EmployerAdmin exactly the roles they may invite, and nobody else who may not change accounts any', () => {
    expect(manageableRoles('EmployerAdmin')).toEqual(invitableRoles('EmployerAdmin', 'employer'));
    expect(manageableRoles('BrokerAdmin')).not.toContain('SuperAdmin');
    expect(manageableRoles('SuperAdmin')).toEqual(ROLES);
    for (const action of ['user.update', 'user.invitation.resend'] as const) {
      const allowed = ROLES.filter((role) => Object.hasOwn(POLICY[action].roles, role));
      const managing = ROLES.filter((role) => manageableRoles(role).length > 0);
      expect(managing, action).toEqual(allowed);
    }
    expect(manageableRolesMessage('EmployerAdmin')).toBe(
      'You may change only EmployerUser or Member accounts; your broker looks after this one',
    );
  });
});

describe('an EmployerAdmin looking after their employer’s accounts', () => {
  it('sends a payroll colleague a new invitation, then withdraws it and brings it back, each audited', async () => {
    const { hr, brokerId, employerId } = await office();
    const colleague = await invitedIn({ brokerId, employerId }, 'EmployerUser');

    const resent = await resend(hr, colleague.id);
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json()).toMatchObject({ id: colleague.id, status: 'invited' });
    expect((await mailsTo(colleague.email)).at(-1)?.message?.text).toContain(
      'to see the pension schemes of Liffey Engineering Ltd',
    );

    const withdrawn = await setStatus(hr, colleague.id, 'deactivated');
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json()).toMatchObject({ status: 'deactivated', invitedUntil: null });
    const back = await setStatus(hr, colleague.id, 'active');
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().status).toBe('invited');

    expect(await auditOf(colleague.id)).toEqual([
      { action: 'user.invitation_sent', actorId: hr.id },
      { action: 'user.deactivated', actorId: hr.id },
      { action: 'user.reactivated', actorId: hr.id },
    ]);
  });

  it('deactivates a colleague who has left, ending their way in', async () => {
    const { hr, payroll } = await office();
    const off = await setStatus(hr, payroll.id, 'deactivated');
    expect(off.statusCode, off.body).toBe(200);
    expect((await accountRow(payroll.id))?.status).toBe('deactivated');
    expect(await auditOf(payroll.id)).toEqual([{ action: 'user.deactivated', actorId: hr.id }]);
  });

  it('is refused a fellow EmployerAdmin with a plain 403, changing and sending nothing', async () => {
    const { hr, brokerId, employerId } = await office();
    const fellow = await invitedIn({ brokerId, employerId }, 'EmployerAdmin');
    const before = await accountRow(fellow.id);
    const refusal = {
      error:
        'You may change only EmployerUser or Member accounts; your broker looks after this one',
    };
    for (const refused of [
      await resend(hr, fellow.id),
      await setStatus(hr, fellow.id, 'deactivated'),
      await as(hr, 'PATCH', `/api/users/${fellow.id}`, { name: 'Renamed' }),
    ]) {
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json()).toEqual(refusal);
    }
    expect(await accountRow(fellow.id)).toEqual(before);
    expect(await mailsTo(fellow.email)).toEqual([]);
    expect(await auditOf(fellow.id)).toEqual([]);
  });

  it('reaches neither the broker’s staff, another employer’s accounts nor another firm’s: 404, unchanged', async () => {
    const { hr, admin, brokerId } = await office();
    const otherEmployer = await createEmployer(t.database, brokerId, 'Dodder Foods Ltd');
    const theirs = await invitedIn({ brokerId, employerId: otherEmployer }, 'EmployerUser');
    const otherFirm = await firmFixture(t.database, { brokerName: 'Liffey Pensions' });
    const elsewhere = await invitedIn(otherFirm, 'EmployerUser');
    for (const account of [admin, theirs, elsewhere]) {
      const before = await accountRow(account.id);
      expect((await resend(hr, account.id)).statusCode).toBe(404);
      expect((await setStatus(hr, account.id, 'deactivated')).statusCode).toBe(404);
      expect(await accountRow(account.id)).toEqual(before);
      expect(await mailsTo(account.email)).toEqual([]);
      expect(await auditOf(account.id)).toEqual([]);
    }
  });

  it('is not the EmployerUser’s to do', async () => {
    const { payroll, brokerId, employerId } = await office();
    const colleague = await invitedIn({ brokerId, employerId }, 'EmployerUser');
    expect((await resend(payroll, colleague.id)).statusCode).toBe(403);
    expect((await setStatus(payroll, colleague.id, 'deactivated')).statusCode).toBe(403);
    expect((await accountRow(colleague.id))?.status).toBe('invited');
    expect(await mailsTo(colleague.email)).toEqual([]);
  });
});
