import { createId } from '@paralleldrive/cuid2';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  INVITABLE_ROLES,
  invitableRoles,
  invitableRolesMessage,
} from '../../src/contracts/invitations.js';
import {
  brokerUserInput,
  colleagueInput,
  employerUserInput,
} from '../../src/contracts/organisation.js';
import { permits } from '../../src/contracts/permits.js';
import { ROLES } from '../../src/contracts/roles.js';
import { auditLog, users } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { HOLD_MAIL } from '../helpers/config.js';
import { ownerOf } from '../helpers/database.js';
import { createEmployer, createMember, createScheme, type UserRow } from '../helpers/factories.js';
import { schemeFixture } from '../helpers/fixtures.js';
import { readOutbox } from '../helpers/mail.js';

/** Who may invite whom (docs/decisions/0143-who-invites-whom.md). */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: HOLD_MAIL });
});
afterAll(() => t.close());

const as = async (user: UserRow, url: string, payload: object) =>
  t.app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress: uniqueClientAddress(),
    headers: { authorization: `Bearer ${await t.tokenFor(user)}` },
  });

const newAddress = () => `invitee-${createId()}@example.ie`;

const accountsWith = async (email: string) =>
  ownerOf(t.database)
    .select({ id: users.id })
    .from(users)
    .where(eq(sql`lower(${users.email})`, email));

const mailsTo = async (email: string) =>
  (await readOutbox(t.database, t.config)).filter((row) => row.message?.to === email);

const office = () =>
  schemeFixture(t.database, {
    brokerName: 'Murphy & Byrne Brokers',
    employerName: 'Liffey Engineering Ltd',
    members: 2,
    users: {
      admin: 'BrokerAdmin',
      staff: 'BrokerUser',
      hr: 'EmployerAdmin',
      payroll: 'EmployerUser',
      self: 'Member',
    },
  });

describe('the table of who may invite whom', () => {
  it('gives each inviter only roles the route of that place takes, and only where the policy lets them invite', () => {
    const taken = {
      firm: new Set<string>([
        ...brokerUserInput.shape.role.options,
        ...colleagueInput.shape.role.options,
      ]),
      employer: new Set<string>(employerUserInput.shape.role.options),
    };
    for (const role of ROLES) {
      for (const place of ['firm', 'employer'] as const) {
        for (const given of invitableRoles(role, place)) expect(taken[place].has(given)).toBe(true);
      }
    }
    const subject = (role: (typeof ROLES)[number]) => ({
      role,
      tenantId: role === 'SuperAdmin' ? null : 'b',
      employerId: ['EmployerAdmin', 'EmployerUser', 'Member'].includes(role) ? 'e' : null,
      memberId: role === 'Member' ? 'm' : null,
    });
    for (const role of ROLES) {
      const invitesEmployer = INVITABLE_ROLES[role].employer.length > 0;
      expect(permits(subject(role), 'employer.users.create')).toBe(invitesEmployer);
    }
  });

  it('names the roles in words, and says so when there are none', () => {
    expect(invitableRolesMessage('EmployerAdmin', 'employer')).toBe(
      'Choose a role you may give: EmployerUser or Member',
    );
    expect(invitableRolesMessage('BrokerAdmin', 'employer')).toBe(
      'Choose a role you may give: EmployerAdmin, EmployerUser or Member',
    );
    expect(invitableRolesMessage('EmployerUser', 'employer')).toBe(
      'You may not invite accounts here',
    );
  });
});

describe('a firm’s second administrator', () => {
  it('is invited by a BrokerAdmin into their own firm and audited with its role, never its address', async () => {
    const { admin, brokerId } = await office();
    const email = newAddress();
    const invited = await as(admin, '/api/users', {
      email,
      name: 'Róisín Kelly',
      role: 'BrokerAdmin',
    });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(invited.json()).toMatchObject({
      brokerId,
      employerId: null,
      role: 'BrokerAdmin',
      status: 'invited',
    });
    expect((await mailsTo(email)).map((mail) => mail.kind)).toEqual(['account_created']);
    const records = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'user'), eq(auditLog.entityId, invited.json().id)));
    expect(records.map((record) => record.action)).toEqual(['user.created']);
    expect(records[0]?.newState).toMatchObject({ role: 'BrokerAdmin' });
    expect(JSON.stringify(records)).not.toContain(email);
  });

  it('is refused to a BrokerUser, an EmployerAdmin and a Member, writing nothing', async () => {
    const { staff, hr, self } = await office();
    for (const inviter of [staff, hr, self]) {
      const email = newAddress();
      const refused = await as(inviter, '/api/users', {
        email,
        name: 'Not Allowed',
        role: 'BrokerAdmin',
      });
      expect(refused.statusCode).toBe(403);
      expect(await accountsWith(email)).toEqual([]);
    }
  });
});

describe('an EmployerAdmin’s invitations', () => {
  it('bring in a payroll colleague and a member of their own employer', async () => {
    const { hr, employerId, members } = await office();
    const payrollEmail = newAddress();
    const colleague = await as(hr, `/api/employers/${employerId}/users`, {
      email: payrollEmail,
      name: 'Seán Walsh',
      role: 'EmployerUser',
    });
    expect(colleague.statusCode, colleague.body).toBe(201);
    expect(colleague.json()).toMatchObject({ employerId, role: 'EmployerUser', status: 'invited' });
    expect((await mailsTo(payrollEmail))[0]?.message?.text).toContain(
      'as employer staff, to see the pension schemes of Liffey Engineering Ltd',
    );

    const member = members[1];
    if (!member) throw new Error('the fixture makes two members');
    const memberEmail = newAddress();
    const own = await as(hr, `/api/employers/${employerId}/users`, {
      email: memberEmail,
      name: 'Aoife Murphy',
      role: 'Member',
      memberId: member.id,
    });
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json()).toMatchObject({ role: 'Member', memberId: member.id });
    // A member has one account: a second invitation for them is refused.
    const again = await as(hr, `/api/employers/${employerId}/users`, {
      email: newAddress(),
      name: 'Aoife Murphy',
      role: 'Member',
      memberId: member.id,
    });
    expect(again.statusCode).toBe(409);
  });

  it('refuse another EmployerAdmin beside the role, before anything is written', async () => {
    const { hr, employerId } = await office();
    const email = newAddress();
    const refused = await as(hr, `/api/employers/${employerId}/users`, {
      email,
      name: 'Second Administrator',
      role: 'EmployerAdmin',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues).toEqual([
      {
        path: 'role',
        code: 'role_not_invitable',
        message: 'Choose a role you may give: EmployerUser or Member',
      },
    ]);
    expect(await accountsWith(email)).toEqual([]);
    expect(await mailsTo(email)).toEqual([]);
  });

  it('reach no other employer of the firm, nor its members', async () => {
    const { hr, brokerId, employerId } = await office();
    const other = await createEmployer(t.database, brokerId, 'Dodder Foods Ltd');
    const email = newAddress();
    const elsewhere = await as(hr, `/api/employers/${other}/users`, {
      email,
      name: 'Not Theirs',
      role: 'EmployerUser',
    });
    expect(elsewhere.statusCode).toBe(403);
    const stranger = await createMember(t.database, {
      brokerId,
      employerId: other,
      schemeId: await createScheme(t.database, { id: other, brokerId }, 'Dodder Foods Pension'),
    });
    const notTheirs = await as(hr, `/api/employers/${employerId}/users`, {
      email,
      name: 'Not Theirs',
      role: 'Member',
      memberId: stranger.id,
    });
    expect(notTheirs.statusCode).toBe(400);
    expect(notTheirs.json().issues[0]).toMatchObject({ path: 'memberId' });
    expect(await accountsWith(email)).toEqual([]);
  });

  it('are not the EmployerUser’s, the BrokerUser’s or a Member’s to make', async () => {
    const { payroll, staff, self, employerId } = await office();
    for (const inviter of [payroll, staff, self]) {
      const email = newAddress();
      const refused = await as(inviter, `/api/employers/${employerId}/users`, {
        email,
        name: 'Not Allowed',
        role: 'EmployerUser',
      });
      expect(refused.statusCode).toBe(403);
      expect(await accountsWith(email)).toEqual([]);
    }
  });
});

describe('a BrokerAdmin still gives every employer role', () => {
  it('invites an EmployerAdmin for one of the firm’s employers', async () => {
    const { admin, employerId } = await office();
    const invited = await as(admin, `/api/employers/${employerId}/users`, {
      email: newAddress(),
      name: 'Niamh Walsh',
      role: 'EmployerAdmin',
    });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(invited.json()).toMatchObject({ role: 'EmployerAdmin', employerId });
  });
});
