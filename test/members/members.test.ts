import { createDecipheriv } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, members } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { TEST_SECRETS } from '../helpers/config.js';
import { ownerOf } from '../helpers/database.js';
import { createEmployer, createMember, createScheme, createUser } from '../helpers/factories.js';
import { schemeFixture } from '../helpers/fixtures.js';
import { newPpsNumber } from '../helpers/pps.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** A tenant with one employer and scheme, and a user of every tenant role. */
const tenant = () =>
  schemeFixture(t.database, {
    users: {
      admin: 'BrokerAdmin',
      consultant: 'BrokerUser',
      hr: 'EmployerAdmin',
      payroll: 'EmployerUser',
    },
  });

const newMember = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Siobhán',
  lastName: 'Ní Bhriain',
  dateOfBirth: '1980-02-29',
  email: 'siobhan@example.ie',
  address: '12 Quay Street, Galway',
  dateJoined: '2012-06-01',
  salaryCents: 6_250_000,
  ppsNumber: newPpsNumber(),
  ...overrides,
});

const memberRows = async () =>
  (await ownerOf(t.database).select({ n: count() }).from(members))[0]?.n;
const storedMember = async (id: string) =>
  (await ownerOf(t.database).select().from(members).where(eq(members.id, id)))[0];

async function memberAccount(scope: { brokerId: string; employerId: string; memberId: string }) {
  return createUser(t.database, { ...scope, role: 'Member' });
}

describe('adding a member (docs/decisions/0028-pps-numbers.md)', () => {
  it('stores the PPS number only encrypted, as base64(IV ‖ tag ‖ ciphertext), bound to tenant and member', async () => {
    const { consultant, schemeId, brokerId } = await tenant();
    const input = newMember({ ppsNumber: ' 643 3435 oa ' });
    // The format is checked on a number of its own: a valid one this suite has not used.
    const ppsNumber = newPpsNumber();
    const created = await t.requestAs(consultant, 'POST', `/api/schemes/${schemeId}/members`, {
      ...input,
      ppsNumber: ppsNumber.toLowerCase(),
    });
    expect(created.statusCode, created.body).toBe(201);
    const view = created.json();
    expect(view).toMatchObject({ schemeId, brokerId, ppsNumberOnFile: true, status: 'active' });
    expect(created.body).not.toContain(ppsNumber);
    expect(view).not.toHaveProperty('ppsNumber');

    const row = await storedMember(view.id);
    const bytes = Buffer.from(row?.ppsEncrypted ?? '', 'base64');
    expect(bytes.length).toBe(12 + 16 + ppsNumber.length);
    // Decrypted outside the service: the key, the 12-byte IV, the 16-byte tag and the context.
    const decipher = createDecipheriv(
      'aes-256-gcm',
      Buffer.from(TEST_SECRETS.PPS_ENCRYPTION_KEY, 'hex'),
      bytes.subarray(0, 12),
      { authTagLength: 16 },
    );
    decipher.setAAD(Buffer.from(`member-pps:${brokerId}:${view.id}`));
    decipher.setAuthTag(bytes.subarray(12, 28));
    const plaintext = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]);
    expect(plaintext.toString('utf8')).toBe(ppsNumber);
    expect(JSON.stringify(row)).not.toContain(ppsNumber);
  });

  it('encrypts the same number differently every time (a fresh IV each)', async () => {
    const { consultant, brokerId, employerId } = await tenant();
    const ppsNumber = newPpsNumber();
    const ciphertexts = new Set<string>();
    for (let index = 0; index < 3; index += 1) {
      const schemeId = await createScheme(t.database, { id: employerId, brokerId });
      const created = await t.requestAs(
        consultant,
        'POST',
        `/api/schemes/${schemeId}/members`,
        newMember({ ppsNumber }),
      );
      expect(created.statusCode).toBe(201);
      ciphertexts.add((await storedMember(created.json().id))?.ppsEncrypted ?? '');
    }
    expect(ciphertexts.size).toBe(3);
  });

  it('refuses a PPS number whose check letter is wrong, without echoing it, and writes nothing', async () => {
    const { consultant, schemeId } = await tenant();
    const valid = newPpsNumber();
    const wrongLetter = `${valid.slice(0, 7)}${valid[7] === 'A' ? 'B' : 'A'}${valid.slice(8)}`;
    const before = await memberRows();
    const refused = await t.requestAs(
      consultant,
      'POST',
      `/api/schemes/${schemeId}/members`,
      newMember({ ppsNumber: wrongLetter }),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      error: 'Validation failed',
      issues: [expect.objectContaining({ path: 'ppsNumber' })],
    });
    expect(refused.body).not.toContain(wrongLetter);
    expect(await memberRows()).toBe(before);
    expect(t.logs.text()).not.toContain(wrongLetter);
  });

  it('refuses impossible dates and negative salaries', async () => {
    const { consultant, schemeId } = await tenant();
    for (const bad of [
      { dateOfBirth: '1990-02-30' },
      { dateJoined: '1970-01-01' },
      { dateOfBirth: '2999-01-01' },
      { salaryCents: -1 },
      { salaryCents: 10.5 },
      { firstName: '  ' },
    ]) {
      const refused = await t.requestAs(
        consultant,
        'POST',
        `/api/schemes/${schemeId}/members`,
        newMember(bad),
      );
      expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
    }
  });

  it('refuses the same PPS number twice in one scheme (409), and allows it in another', async () => {
    const { consultant, schemeId, brokerId, employerId } = await tenant();
    const ppsNumber = newPpsNumber();
    const first = await t.requestAs(
      consultant,
      'POST',
      `/api/schemes/${schemeId}/members`,
      newMember({ ppsNumber }),
    );
    expect(first.statusCode).toBe(201);
    const again = await t.requestAs(
      consultant,
      'POST',
      `/api/schemes/${schemeId}/members`,
      newMember({ ppsNumber: ppsNumber.toLowerCase() }),
    );
    expect(again.statusCode).toBe(409);
    expect(again.body).not.toContain(ppsNumber);
    const otherScheme = await createScheme(t.database, { id: employerId, brokerId });
    const elsewhere = await t.requestAs(
      consultant,
      'POST',
      `/api/schemes/${otherScheme}/members`,
      newMember({ ppsNumber }),
    );
    expect(elsewhere.statusCode).toBe(201);
  });

  it('lets the EmployerAdmin add members to their own schemes, not EmployerUsers or Members', async () => {
    const { hr, payroll, schemeId, brokerId, employerId } = await tenant();
    const added = await t.requestAs(hr, 'POST', `/api/schemes/${schemeId}/members`, newMember());
    expect(added.statusCode).toBe(201);
    const refused = await t.requestAs(
      payroll,
      'POST',
      `/api/schemes/${schemeId}/members`,
      newMember(),
    );
    expect(refused.statusCode).toBe(403);
    const member = await memberAccount({ brokerId, employerId, memberId: added.json().id });
    const byMember = await t.requestAs(
      member,
      'POST',
      `/api/schemes/${schemeId}/members`,
      newMember(),
    );
    expect(byMember.statusCode).toBe(403);
  });

  it('keeps personal data out of the audit log', async () => {
    const { consultant, schemeId } = await tenant();
    const input = newMember({ firstName: 'Distinctivefirstname', email: 'distinct@example.ie' });
    const created = await t.requestAs(
      consultant,
      'POST',
      `/api/schemes/${schemeId}/members`,
      input,
    );
    const [record] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'member.created'), eq(auditLog.entityId, created.json().id)));
    expect(record?.actorId).toBe(consultant.id);
    const stored = JSON.stringify(record);
    for (const personal of [
      'Distinctivefirstname',
      'distinct@example.ie',
      input.ppsNumber,
      '1980-02-29',
    ]) {
      expect(stored).not.toContain(personal);
    }
  });
});

describe('reading and changing members', () => {
  it('shows a Member their own record and no one else’s, as not found', async () => {
    const { brokerId, employerId, schemeId } = await tenant();
    const mine = await createMember(t.database, { brokerId, employerId, schemeId });
    const colleague = await createMember(t.database, { brokerId, employerId, schemeId });
    const member = await memberAccount({ brokerId, employerId, memberId: mine.id });
    const own = await t.requestAs(member, 'GET', `/api/members/${mine.id}`);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ id: mine.id, ppsNumberOnFile: true });
    expect(own.body).not.toContain(mine.ppsNumber);
    const other = await t.requestAs(member, 'GET', `/api/members/${colleague.id}`);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ error: 'Not found' });
    const list = await t.requestAs(member, 'GET', `/api/schemes/${schemeId}/members`);
    expect(list.statusCode).toBe(403);
  });

  it('lists a scheme’s members for the employer’s users, searchable by name, PPS masked', async () => {
    const { payroll, brokerId, employerId, schemeId } = await tenant();
    const found = await createMember(
      t.database,
      { brokerId, employerId, schemeId },
      { lastName: 'Ó Súilleabháin' },
    );
    await createMember(t.database, { brokerId, employerId, schemeId }, { lastName: 'Walsh' });
    const page = await t.requestAs(payroll, 'GET', `/api/schemes/${schemeId}/members?q=súille`);
    expect(page.statusCode).toBe(200);
    expect(page.json().items.map((item: { id: string }) => item.id)).toEqual([found.id]);
    expect(page.body).not.toContain(found.ppsNumber);
    const everyone = await t.requestAs(payroll, 'GET', `/api/schemes/${schemeId}/members?limit=1`);
    expect(everyone.json().items).toHaveLength(1);
    expect(everyone.json().nextCursor).toEqual(expect.any(String));
  });

  it('does not show or change a member of another tenant', async () => {
    const mine = await tenant();
    const theirs = await tenant();
    const member = await createMember(t.database, theirs);
    const read = await t.requestAs(mine.admin, 'GET', `/api/members/${member.id}`);
    expect(read.statusCode).toBe(404);
    const change = await t.requestAs(mine.admin, 'PATCH', `/api/members/${member.id}`, {
      salaryCents: 1,
    });
    expect(change.statusCode).toBe(404);
    expect((await storedMember(member.id))?.salaryCents).toBe(5_500_000);
  });

  it('corrects a member’s PPS number by re-encrypting it, and audits which fields changed', async () => {
    const { hr, brokerId, employerId, schemeId, consultant } = await tenant();
    const member = await createMember(t.database, { brokerId, employerId, schemeId });
    const corrected = newPpsNumber();
    const changed = await t.requestAs(hr, 'PATCH', `/api/members/${member.id}`, {
      ppsNumber: corrected,
      salaryCents: 6_000_000,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().salaryCents).toBe(6_000_000);
    const revealed = await t.requestAs(consultant, 'POST', `/api/members/${member.id}/pps/reveal`, {
      reason: 'identity_check',
    });
    expect(revealed.json()).toEqual({ ppsNumber: corrected });
    const [record] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'member.updated'), eq(auditLog.entityId, member.id)));
    expect(record?.newState).toMatchObject({ changedFields: ['ppsNumber', 'salaryCents'] });
    expect(JSON.stringify(record)).not.toContain(corrected);
  });

  it('soft-deletes a member for the BrokerAdmin only, then hides it', async () => {
    const { admin, consultant, brokerId, employerId, schemeId } = await tenant();
    const member = await createMember(t.database, { brokerId, employerId, schemeId });
    expect((await t.requestAs(consultant, 'DELETE', `/api/members/${member.id}`)).statusCode).toBe(
      403,
    );
    expect((await t.requestAs(admin, 'DELETE', `/api/members/${member.id}`)).statusCode).toBe(204);
    expect((await t.requestAs(admin, 'GET', `/api/members/${member.id}`)).statusCode).toBe(404);
    expect((await storedMember(member.id))?.deletedAt).toBeInstanceOf(Date);
  });
});

describe('POST /api/members/:id/pps/reveal', () => {
  it('returns the number to a BrokerUser, uncached, and records who asked', async () => {
    const { consultant, brokerId, employerId, schemeId } = await tenant();
    const member = await createMember(t.database, { brokerId, employerId, schemeId });
    const revealed = await t.requestAs(consultant, 'POST', `/api/members/${member.id}/pps/reveal`, {
      reason: 'identity_check',
    });
    expect(revealed.statusCode).toBe(200);
    expect(revealed.json()).toEqual({ ppsNumber: member.ppsNumber });
    expect(revealed.headers['cache-control']).toBe('no-store');
    const records = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'member.pps_decrypted'), eq(auditLog.entityId, member.id)));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      actorId: consultant.id,
      actorType: 'BrokerUser',
      tenantId: brokerId,
    });
    expect(JSON.stringify(records[0])).not.toContain(member.ppsNumber);
  });

  it('is refused to EmployerAdmin, EmployerUser and the Member themself, and unaudited', async () => {
    const { hr, payroll, brokerId, employerId, schemeId } = await tenant();
    const member = await createMember(t.database, { brokerId, employerId, schemeId });
    const own = await memberAccount({ brokerId, employerId, memberId: member.id });
    for (const user of [hr, payroll, own]) {
      const refused = await t.requestAs(user, 'POST', `/api/members/${member.id}/pps/reveal`, {
        reason: 'identity_check',
      });
      expect(refused.statusCode, user.role).toBe(403);
      expect(refused.body).not.toContain(member.ppsNumber);
    }
    const records = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'member.pps_decrypted'), eq(auditLog.entityId, member.id)));
    expect(records).toHaveLength(0);
  });

  it('answers not found for a member of another tenant', async () => {
    const mine = await tenant();
    const theirs = await tenant();
    const member = await createMember(t.database, theirs);
    const refused = await t.requestAs(
      mine.consultant,
      'POST',
      `/api/members/${member.id}/pps/reveal`,
      { reason: 'identity_check' },
    );
    expect(refused.statusCode).toBe(404);
  });

  it('refuses a tampered ciphertext, and one copied from another member, with no detail', async () => {
    const { consultant, brokerId, employerId, schemeId } = await tenant();
    const victim = await createMember(t.database, { brokerId, employerId, schemeId });
    const donor = await createMember(t.database, { brokerId, employerId, schemeId });
    const original = (await storedMember(victim.id))?.ppsEncrypted ?? '';
    const bytes = Buffer.from(original, 'base64');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 0x01;
    await ownerOf(t.database)
      .update(members)
      .set({ ppsEncrypted: bytes.toString('base64') })
      .where(eq(members.id, victim.id));
    const tampered = await t.requestAs(consultant, 'POST', `/api/members/${victim.id}/pps/reveal`, {
      reason: 'identity_check',
    });
    expect(tampered.statusCode).toBe(500);
    expect(tampered.json()).toEqual({ error: 'Internal server error' });

    const donorRow = await storedMember(donor.id);
    await ownerOf(t.database)
      .update(members)
      .set({ ppsEncrypted: donorRow?.ppsEncrypted ?? '' })
      .where(eq(members.id, victim.id));
    const copied = await t.requestAs(consultant, 'POST', `/api/members/${victim.id}/pps/reveal`, {
      reason: 'identity_check',
    });
    expect(copied.statusCode).toBe(500);
    expect(copied.body).not.toContain(donor.ppsNumber);
    const audited = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'member.pps_decrypted'), eq(auditLog.entityId, victim.id)));
    expect(audited).toHaveLength(0);
  });
});

describe('Member accounts (docs/decisions/0030-member-accounts-and-gdpr-export.md)', () => {
  it('links a new Member account to one member of the employer, once', async () => {
    const { admin, brokerId, employerId, schemeId } = await tenant();
    const member = await createMember(t.database, { brokerId, employerId, schemeId });
    const created = await t.requestAs(admin, 'POST', `/api/employers/${employerId}/users`, {
      email: `member-account-${member.id}@example.ie`,
      name: 'Aoife Murphy',
      role: 'Member',
      memberId: member.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ role: 'Member', memberId: member.id, employerId });
    const twice = await t.requestAs(admin, 'POST', `/api/employers/${employerId}/users`, {
      email: `second-${member.id}@example.ie`,
      name: 'Aoife Murphy',
      role: 'Member',
      memberId: member.id,
    });
    expect(twice.statusCode).toBe(409);
  });

  it('refuses a member of another employer, and a Member account without a member', async () => {
    const { admin, brokerId, employerId } = await tenant();
    const otherEmployer = await createEmployer(t.database, brokerId);
    const otherScheme = await createScheme(t.database, { id: otherEmployer, brokerId });
    const elsewhere = await createMember(t.database, {
      brokerId,
      employerId: otherEmployer,
      schemeId: otherScheme,
    });
    const wrong = await t.requestAs(admin, 'POST', `/api/employers/${employerId}/users`, {
      email: 'wrong-employer@example.ie',
      name: 'Someone',
      role: 'Member',
      memberId: elsewhere.id,
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().issues[0].path).toBe('memberId');
    const missing = await t.requestAs(admin, 'POST', `/api/employers/${employerId}/users`, {
      email: 'no-member@example.ie',
      name: 'Someone',
      role: 'Member',
    });
    expect(missing.statusCode).toBe(400);
  });
});

describe('GET /api/members/:id/export (GDPR access and portability)', () => {
  it('gives the member everything held about them, without the PPS number, and records it', async () => {
    const { consultant, brokerId, employerId, schemeId } = await tenant();
    const member = await createMember(t.database, { brokerId, employerId, schemeId });
    const own = await memberAccount({ brokerId, employerId, memberId: member.id });
    await t.requestAs(consultant, 'POST', `/api/members/${member.id}/contributions`, {
      period: '2026-10',
      kind: 'employee',
      amountCents: 25_000,
    });
    const exported = await t.requestAs(own, 'GET', `/api/members/${member.id}/export`);
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.headers['content-disposition']).toContain('attachment');
    const data = exported.json();
    expect(data.member.id).toBe(member.id);
    expect(data.contributions).toEqual([
      expect.objectContaining({ period: '2026-10', kind: 'employee', amountCents: 25_000 }),
    ]);
    expect(data.accounts).toEqual([expect.objectContaining({ role: 'Member' })]);
    expect(data.processing.map((entry: { action: string }) => entry.action)).toContain(
      'contribution.created',
    );
    expect(exported.body).not.toContain(member.ppsNumber);
    const [record] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'member.exported'), eq(auditLog.entityId, member.id)));
    expect(record?.actorId).toBe(own.id);
  });

  it('is for the BrokerAdmin and the member only', async () => {
    const { admin, consultant, hr, brokerId, employerId, schemeId } = await tenant();
    const member = await createMember(t.database, { brokerId, employerId, schemeId });
    expect((await t.requestAs(admin, 'GET', `/api/members/${member.id}/export`)).statusCode).toBe(
      200,
    );
    for (const user of [consultant, hr]) {
      expect((await t.requestAs(user, 'GET', `/api/members/${member.id}/export`)).statusCode).toBe(
        403,
      );
    }
    const colleague = await createMember(t.database, { brokerId, employerId, schemeId });
    const other = await memberAccount({ brokerId, employerId, memberId: colleague.id });
    expect((await t.requestAs(other, 'GET', `/api/members/${member.id}/export`)).statusCode).toBe(
      404,
    );
  });
});
