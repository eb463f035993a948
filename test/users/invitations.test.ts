import { createId } from '@paralleldrive/cuid2';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, users } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { HOLD_MAIL } from '../helpers/config.js';
import { ownerOf } from '../helpers/database.js';
import { createMember, createScheme, createUser, type UserRow } from '../helpers/factories.js';
import { firmFixture } from '../helpers/fixtures.js';
import { invitationTokenIn, readOutbox, resetTokenIn } from '../helpers/mail.js';

/**
 * New accounts are invitations that the invited person accepts
 * (docs/decisions/0044-invitations.md).
 */

const HOUR = 3_600_000;
let clock = Date.parse('2026-11-23T09:00:00Z');
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ now: () => new Date(clock), env: HOLD_MAIL });
});
afterAll(() => t.close());

/** Each call a second after the last, so the outbox keeps the order mails were queued in. */
const as = async (
  user: UserRow,
  method: 'GET' | 'POST' | 'PATCH',
  url: string,
  payload?: object,
) => {
  clock += 1000;
  return t.app.inject({
    method,
    url,
    ...(payload ? { payload } : {}),
    remoteAddress: uniqueClientAddress(),
    headers: { authorization: `Bearer ${await t.tokenFor(user)}` },
  });
};

const post = (url: string, payload: object) =>
  t.app.inject({ method: 'POST', url, payload, remoteAddress: uniqueClientAddress() });

const firm = (name = 'Murphy & Byrne Brokers') =>
  firmFixture(t.database, {
    brokerName: name,
    employerName: 'Liffey Engineering Ltd',
    users: { admin: 'BrokerAdmin' },
  });

const newAddress = () => `invitee-${createId()}@example.ie`;

/** The last e-mail queued to an address. */
async function lastMailTo(email: string) {
  const rows = (await readOutbox(t.database, t.config)).filter((row) => row.message?.to === email);
  return rows.at(-1);
}

const userRow = async (id: string) =>
  (await ownerOf(t.database).select().from(users).where(eq(users.id, id)))[0];

/** Aoife Murphy, a member of the firm's Liffey Engineering Staff DC Scheme, invited to her account. */
async function invitedMember() {
  const { admin, brokerId, employerId } = await firm();
  const schemeId = await createScheme(
    t.database,
    { id: employerId, brokerId },
    'Liffey Engineering Staff DC Scheme',
  );
  const member = await createMember(t.database, { brokerId, employerId, schemeId });
  const email = newAddress();
  const created = await as(admin, 'POST', `/api/employers/${employerId}/users`, {
    email,
    name: 'Aoife Murphy',
    role: 'Member',
    memberId: member.id,
  });
  expect(created.statusCode, created.body).toBe(201);
  return (await lastMailTo(email))?.message?.text ?? '';
}

const accept = (token: string, password = 'my own chosen passphrase for this') =>
  post('/api/auth/accept-invitation', { token, password });

describe('inviting an account', () => {
  it('creates it as Invited for 72 hours and e-mails a link naming the firm and the employer', async () => {
    const { admin, employerId } = await firm();
    const email = newAddress();
    const created = await as(admin, 'POST', `/api/employers/${employerId}/users`, {
      email,
      name: 'Niamh Walsh',
      role: 'EmployerAdmin',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      status: 'invited',
      invitedUntil: new Date(clock + 72 * HOUR).toISOString(),
    });
    const mail = await lastMailTo(email);
    expect(mail?.kind).toBe('account_created');
    expect(mail?.message?.subject).toBe(
      'Murphy & Byrne Brokers invited you to Pension Administration',
    );
    expect(mail?.message?.text).toContain(
      'look after the pension schemes of Liffey Engineering Ltd',
    );
    expect(mail?.message?.text).toContain('within 72 hours');
    expect(() => invitationTokenIn(mail?.message?.text ?? '')).not.toThrow();
    expect(t.logs.text()).not.toContain(email);
  });

  it('says a firm’s first account was set up by the platform, whom to ask for a new link', async () => {
    const { brokerId } = await firm('Fitzgerald Pension Brokers');
    const platform = await createUser(t.database, { role: 'SuperAdmin' });
    const email = newAddress();
    const created = await as(platform, 'POST', `/api/brokers/${brokerId}/users`, {
      email,
      name: 'Aoife Fitzgerald',
      role: 'BrokerAdmin',
    });
    expect(created.statusCode, created.body).toBe(201);
    const message = (await lastMailTo(email))?.message;
    expect(message?.subject).toBe(
      'Your account at Fitzgerald Pension Brokers on Pension Administration',
    );
    expect(message?.text).toContain(
      'The administrators of Pension Administration have set up an account for you at Fitzgerald Pension Brokers, as a broker administrator, to work on its clients’ pension schemes.',
    );
    expect(message?.text).toContain(
      'ask the administrators of Pension Administration to send you a new invitation',
    );
    expect(message?.text).not.toContain('ask Fitzgerald Pension Brokers');
  });

  it("names the member's scheme in a Member's invitation", async () => {
    const text = await invitedMember();
    expect(text).toContain(
      'see your pension in Liffey Engineering Staff DC Scheme, the scheme Liffey Engineering Ltd provides',
    );
  });

  it('names the employer as inviting when its administrator invites, the one to ask for a new link, and the firm that runs the service', async () => {
    const { brokerId, employerId, employerAdmin } = await firmFixture(t.database, {
      brokerName: 'Development Brokers Ltd',
      employerName: 'Shannon Bakeries Ltd',
      users: { employerAdmin: 'EmployerAdmin' },
    });
    const email = newAddress();
    const created = await as(employerAdmin, 'POST', `/api/employers/${employerId}/users`, {
      email,
      name: 'Ciarán Daly',
      role: 'EmployerUser',
    });
    expect(created.statusCode, created.body).toBe(201);
    const message = (await lastMailTo(email))?.message;
    expect(message?.subject).toBe('Shannon Bakeries Ltd invited you to Pension Administration');
    expect(message?.text).toContain(
      'Shannon Bakeries Ltd has invited you to Pension Administration as employer staff, to see the pension schemes of Shannon Bakeries Ltd. Pension Administration is run for Shannon Bakeries Ltd by its pension broker, Development Brokers Ltd.',
    );
    expect(message?.html).toContain('is run for Shannon Bakeries Ltd by its pension broker');
    // The employer's administrator sends a new link too: the employer is the one to ask.
    expect(message?.text).toContain('ask Shannon Bakeries Ltd to send you a new invitation');
    // The employer's administrator is not named, only the employer.
    expect(message?.text).not.toContain(employerAdmin.name);

    // Resent by the firm, it reads as the firm's own invitation.
    const admin = await createUser(t.database, { role: 'BrokerAdmin', brokerId });
    const resent = await as(admin, 'POST', `/api/users/${created.json().id}/invitation`);
    expect(resent.statusCode, resent.body).toBe(200);
    expect((await lastMailTo(email))?.message?.subject).toBe(
      'Development Brokers Ltd invited you to Pension Administration',
    );
  });

  it("lets a BrokerAdmin invite a BrokerUser into their own firm, and no one outside the firm's administrators invite there", async () => {
    const { admin, brokerId, employerId } = await firm();
    const email = newAddress();
    const invited = await as(admin, 'POST', '/api/users', {
      email,
      name: 'Cian Byrne',
      role: 'BrokerUser',
    });
    expect(invited.statusCode, invited.body).toBe(201);
    expect(invited.json()).toMatchObject({ brokerId, role: 'BrokerUser', status: 'invited' });
    expect((await lastMailTo(email))?.message?.text).toContain(
      'Murphy & Byrne Brokers has invited you',
    );
    // A firm's own staff only: its employers' accounts are invited on the employer
    // (docs/decisions/0143-who-invites-whom.md).
    const employerRole = await as(admin, 'POST', '/api/users', {
      email: newAddress(),
      name: 'Not Staff',
      role: 'EmployerAdmin',
    });
    expect(employerRole.statusCode).toBe(400);
    for (const role of ['BrokerUser', 'EmployerAdmin'] as const) {
      const someone = await createUser(t.database, { brokerId, employerId, role });
      const refused = await as(someone, 'POST', '/api/users', {
        email: newAddress(),
        name: 'Not Allowed',
        role: 'BrokerUser',
      });
      expect(refused.statusCode).toBe(403);
    }
  });

  it('gives an invited account no way in until it is accepted: no sign-in, no reset e-mail', async () => {
    const { admin, employerId } = await firm();
    const email = newAddress();
    await as(admin, 'POST', `/api/employers/${employerId}/users`, {
      email,
      name: 'Niamh Walsh',
      role: 'EmployerUser',
    });
    const before = (await readOutbox(t.database, t.config)).length;
    expect((await post('/api/auth/forgot-password', { email })).statusCode).toBe(200);
    expect((await readOutbox(t.database, t.config)).length).toBe(before);
    const signIn = await post('/api/auth/signin', { email, password: 'anything at all here' });
    expect(signIn.statusCode).toBe(401);
  });
});

describe('accepting an invitation', () => {
  it('sets the password, signs the person in and reads Active, with the acceptance audited', async () => {
    const { admin, employerId } = await firm();
    const email = newAddress();
    const created = await as(admin, 'POST', `/api/employers/${employerId}/users`, {
      email,
      name: 'Niamh Walsh',
      role: 'EmployerAdmin',
    });
    const token = invitationTokenIn((await lastMailTo(email))?.message?.text ?? '');
    const accepted = await accept(token);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().user).toMatchObject({ id: created.json().id, role: 'EmployerAdmin' });
    const cookie = accepted.cookies.find((entry) => entry.name === 'session');
    const me = await t.app.inject({
      url: '/api/me',
      remoteAddress: uniqueClientAddress(),
      cookies: { session: cookie?.value ?? '' },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ status: 'active', invitedUntil: null });
    const signIn = await post('/api/auth/signin', {
      email,
      password: 'my own chosen passphrase for this',
    });
    expect(signIn.statusCode).toBe(200);
    const audited = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entityId, created.json().id),
          eq(auditLog.action, 'user.invitation_accepted'),
        ),
      );
    expect(audited).toHaveLength(1);
    expect(JSON.stringify(audited)).not.toContain(email);
    // The link works once.
    expect((await accept(token, 'another passphrase entirely')).statusCode).toBe(400);
  });

  it('refuses a link after 72 hours, and a reset link in its place, changing nothing', async () => {
    const { admin, employerId } = await firm();
    const email = newAddress();
    const created = await as(admin, 'POST', `/api/employers/${employerId}/users`, {
      email,
      name: 'Late Person',
      role: 'EmployerUser',
    });
    const token = invitationTokenIn((await lastMailTo(email))?.message?.text ?? '');
    clock += 72 * HOUR + 1000;
    try {
      const late = await accept(token);
      expect(late.statusCode).toBe(400);
      expect(late.json().error).toMatch(/not valid or has expired/);
      expect(await userRow(created.json().id)).toMatchObject({
        status: 'invited',
        passwordHash: null,
      });
      // An invitation link is not a reset link, nor the other way round.
      const asReset = await post('/api/auth/reset-password', {
        token,
        password: 'my own chosen passphrase for this',
      });
      expect(asReset.statusCode).toBe(400);
    } finally {
      clock -= 72 * HOUR + 1000;
    }
    const { user: active } = await t.signedInUser();
    await post('/api/auth/forgot-password', { email: active.email });
    const reset = resetTokenIn((await lastMailTo(active.email))?.message?.text ?? '');
    expect((await accept(reset)).statusCode).toBe(400);
  });

  it('refuses a weak password by saying why, leaving the link usable', async () => {
    const { admin, employerId } = await firm();
    const email = newAddress();
    await as(admin, 'POST', `/api/employers/${employerId}/users`, {
      email,
      name: 'Weak Choice',
      role: 'EmployerUser',
    });
    const token = invitationTokenIn((await lastMailTo(email))?.message?.text ?? '');
    const weak = await accept(token, 'qwerty123456');
    expect(weak.statusCode).toBe(400);
    expect(weak.json().issues).toEqual([
      {
        path: 'password',
        code: 'password_policy',
        message: 'This password is too common: choose one that is harder to guess',
      },
    ]);
    expect((await accept(token)).statusCode).toBe(200);
  });

  it('allows three tries per link, then answers 429', async () => {
    const answers: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      answers.push((await accept('A'.repeat(43))).statusCode);
    }
    expect(answers).toEqual([400, 400, 400, 429]);
  });

  it('lets the first of two firms’ invitations to one address be accepted, and the other say so', async () => {
    const first = await firm('Liffey Pensions');
    const second = await firm('Shannon Brokers');
    const email = newAddress();
    for (const { admin, employerId } of [first, second]) {
      const created = await as(admin, 'POST', `/api/employers/${employerId}/users`, {
        email,
        name: 'Sought After',
        role: 'EmployerUser',
      });
      expect(created.statusCode).toBe(201);
    }
    const mails = (await readOutbox(t.database, t.config)).filter(
      (row) => row.message?.to === email,
    );
    expect(mails.map((mail) => mail.message?.subject)).toEqual([
      'Liffey Pensions invited you to Pension Administration',
      'Shannon Brokers invited you to Pension Administration',
    ]);
    const [one, two] = mails.map((mail) => invitationTokenIn(mail.message?.text ?? ''));
    expect((await accept(one as string)).statusCode).toBe(200);
    const taken = await accept(two as string, 'a different passphrase for the second');
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({
      error: 'This e-mail address already has an account. Sign in with it instead.',
    });
    const signIn = await post('/api/auth/signin', {
      email,
      password: 'my own chosen passphrase for this',
    });
    expect(signIn.json().user.brokerId).toBe(first.brokerId);
  });
});

describe('checking an invitation link before asking for a password', () => {
  const linkState = async (token: string, remoteAddress = uniqueClientAddress()) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/invitation-link',
      payload: { token },
      remoteAddress,
    });

  const auditCount = async () => (await ownerOf(t.database).select().from(auditLog)).length;

  it('says whether the link is open, used, expired or not valid, without a session and without using it up', async () => {
    const { admin, employerId } = await firm();
    const email = newAddress();
    await as(admin, 'POST', `/api/employers/${employerId}/users`, {
      email,
      name: 'Careful Reader',
      role: 'EmployerUser',
    });
    const token = invitationTokenIn((await lastMailTo(email))?.message?.text ?? '');
    const audited = await auditCount();
    // Read more often than a link may be tried, and still usable: a check is not an attempt.
    for (let check = 0; check < 4; check += 1) {
      const open = await linkState(token);
      expect(open.statusCode, open.body).toBe(200);
      // What the invitation is to, as its e-mail says; nothing of the person: no name or address.
      expect(open.json()).toEqual({
        state: 'open',
        invitation: {
          firm: 'Murphy & Byrne Brokers',
          employer: 'Liffey Engineering Ltd',
          scheme: null,
          role: 'EmployerUser',
        },
      });
    }
    // Reading changed nothing and recorded nothing.
    expect(await auditCount()).toBe(audited);
    clock += 72 * HOUR + 1000;
    try {
      expect((await linkState(token)).json()).toEqual({ state: 'expired' });
    } finally {
      clock -= 72 * HOUR + 1000;
    }
    expect((await accept(token)).statusCode).toBe(200);
    // A dead or unknown link says its state alone, as before: nothing of the firm or the employer.
    const used = await linkState(token);
    expect(used.json()).toEqual({ state: 'used' });
    expect(used.body).not.toContain('Murphy');
    expect((await linkState('A'.repeat(43))).json()).toEqual({ state: 'not_valid' });
    expect((await linkState('not a token')).json()).toEqual({ state: 'not_valid' });
    const logs = t.logs.text();
    expect(logs).not.toContain(token);
    expect(logs).not.toContain('Liffey Engineering');
  });

  it("names the firm alone for a firm's own staff", async () => {
    const { admin } = await firm('Shannon Brokers');
    const email = newAddress();
    await as(admin, 'POST', '/api/users', { email, name: 'Cian Byrne', role: 'BrokerUser' });
    const token = invitationTokenIn((await lastMailTo(email))?.message?.text ?? '');
    expect((await linkState(token)).json()).toEqual({
      state: 'open',
      invitation: { firm: 'Shannon Brokers', employer: null, scheme: null, role: 'BrokerUser' },
    });
  });

  it("names a member's scheme and its employer, as the member's e-mail does", async () => {
    const text = await invitedMember();
    const token = invitationTokenIn(text);
    expect((await linkState(token)).json()).toEqual({
      state: 'open',
      invitation: {
        firm: 'Murphy & Byrne Brokers',
        employer: 'Liffey Engineering Ltd',
        scheme: 'Liffey Engineering Staff DC Scheme',
        role: 'Member',
      },
    });
  });

  it('calls a link withdrawn by deactivating the account not valid, naming nothing', async () => {
    const { admin, employerId } = await firm();
    const email = newAddress();
    const created = await as(admin, 'POST', `/api/employers/${employerId}/users`, {
      email,
      name: 'Withdrawn Invitee',
      role: 'EmployerAdmin',
    });
    const token = invitationTokenIn((await lastMailTo(email))?.message?.text ?? '');
    const withdrawn = await as(admin, 'PATCH', `/api/users/${created.json().id}`, {
      status: 'deactivated',
    });
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect((await linkState(token)).json()).toEqual({ state: 'not_valid' });
  });

  it('calls a link replaced by a newer invitation not valid, and a reset link not an invitation', async () => {
    const { admin, employerId } = await firm();
    const email = newAddress();
    const created = await as(admin, 'POST', `/api/employers/${employerId}/users`, {
      email,
      name: 'Twice Invited',
      role: 'EmployerUser',
    });
    const old = invitationTokenIn((await lastMailTo(email))?.message?.text ?? '');
    await as(admin, 'POST', `/api/users/${created.json().id}/invitation`);
    expect((await linkState(old)).json()).toEqual({ state: 'not_valid' });
    const { user: active } = await t.signedInUser();
    await post('/api/auth/forgot-password', { email: active.email });
    const reset = resetTokenIn((await lastMailTo(active.email))?.message?.text ?? '');
    expect((await linkState(reset)).json()).toEqual({ state: 'not_valid' });
  });

  it('is limited per address as the other authentication routes are', async () => {
    const address = uniqueClientAddress();
    const answers: number[] = [];
    for (let check = 0; check < 11; check += 1) {
      answers.push((await linkState('A'.repeat(43), address)).statusCode);
    }
    expect(answers.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(answers.at(-1)).toBe(429);
  });
});

describe('resending and withdrawing an invitation', () => {
  it('sends a new link that renews the 72 hours and ends the old link, audited', async () => {
    const { admin, employerId } = await firm();
    const email = newAddress();
    const created = await as(admin, 'POST', `/api/employers/${employerId}/users`, {
      email,
      name: 'Slow Reader',
      role: 'EmployerUser',
    });
    const old = invitationTokenIn((await lastMailTo(email))?.message?.text ?? '');
    clock += 80 * HOUR;
    try {
      const listed = await as(admin, 'GET', `/api/users/${created.json().id}`);
      expect(Date.parse(listed.json().invitedUntil)).toBeLessThan(clock);
      const resent = await as(admin, 'POST', `/api/users/${created.json().id}/invitation`);
      expect(resent.statusCode, resent.body).toBe(200);
      expect(resent.json()).toMatchObject({
        status: 'invited',
        invitedUntil: new Date(clock + 72 * HOUR).toISOString(),
      });
      const fresh = invitationTokenIn((await lastMailTo(email))?.message?.text ?? '');
      expect(fresh).not.toBe(old);
      expect((await accept(old)).statusCode).toBe(400);
      expect((await accept(fresh)).statusCode).toBe(200);
    } finally {
      clock -= 80 * HOUR;
    }
    const actions = (
      await ownerOf(t.database)
        .select()
        .from(auditLog)
        .where(eq(auditLog.entityId, created.json().id))
        .orderBy(auditLog.chainIndex)
    ).map((record) => record.action);
    expect(actions).toEqual(['user.created', 'user.invitation_sent', 'user.invitation_accepted']);
  });

  it('answers 409 for an account already set up, and 404 for another firm’s invitation', async () => {
    const { admin, brokerId, employerId } = await firm();
    const active = await createUser(t.database, { brokerId, employerId, role: 'EmployerUser' });
    const setUp = await as(admin, 'POST', `/api/users/${active.id}/invitation`);
    expect(setUp.statusCode).toBe(409);
    const other = await firm('Liffey Pensions');
    const theirs = await createUser(t.database, {
      brokerId: other.brokerId,
      employerId: other.employerId,
      role: 'EmployerUser',
      status: 'invited',
    });
    const before = (await readOutbox(t.database, t.config)).length;
    expect((await as(admin, 'POST', `/api/users/${theirs.id}/invitation`)).statusCode).toBe(404);
    expect((await readOutbox(t.database, t.config)).length).toBe(before);
  });

  it('withdraws the link when the account is deactivated; reactivated, it waits for a resend', async () => {
    const { admin, employerId } = await firm();
    const email = newAddress();
    const created = await as(admin, 'POST', `/api/employers/${employerId}/users`, {
      email,
      name: 'Changed Mind',
      role: 'EmployerUser',
    });
    const id = created.json().id as string;
    const token = invitationTokenIn((await lastMailTo(email))?.message?.text ?? '');
    const off = await as(admin, 'PATCH', `/api/users/${id}`, { status: 'deactivated' });
    expect(off.json()).toMatchObject({ status: 'deactivated', invitedUntil: null });
    expect((await accept(token)).statusCode).toBe(400);
    const on = await as(admin, 'PATCH', `/api/users/${id}`, { status: 'active' });
    expect(on.statusCode).toBe(200);
    // Never set up, so it is an invitation again, with no live link until one is sent.
    expect(on.json().status).toBe('invited');
    expect(Date.parse(on.json().invitedUntil)).toBeLessThanOrEqual(clock);
    expect((await accept(token)).statusCode).toBe(400);
    const resent = await as(admin, 'POST', `/api/users/${id}/invitation`);
    expect(resent.statusCode, resent.body).toBe(200);
    const fresh = invitationTokenIn((await lastMailTo(email))?.message?.text ?? '');
    expect((await accept(fresh)).statusCode).toBe(200);
  });
});
