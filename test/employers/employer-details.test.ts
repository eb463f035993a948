import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeLine, stateChanges } from '../../src/contracts/audit-changes.js';
import { FIELD_MESSAGES } from '../../src/contracts/plain-english.js';
import { auditLog, employers } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import { firmFixture } from '../helpers/fixtures.js';

/**
 * An employer's details as a broker keeps them (docs/decisions/0132-employer-and-scheme-details.md):
 * all optional, each validated when given and refused in plain English with nothing changed;
 * changed and cleared by the employer's own roles only; and the contact person, the address and
 * the Revenue number never in the audit log, which names them as changed.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const firm = () =>
  firmFixture(t.database, {
    users: { admin: 'BrokerAdmin', hr: 'EmployerAdmin', staff: 'BrokerUser' },
  });

const employerRow = async (id: string) =>
  (await ownerOf(t.database).select().from(employers).where(eq(employers.id, id)))[0];

const auditOf = async (entityId: string, action: string) =>
  ownerOf(t.database)
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, entityId), eq(auditLog.action, action)));

const contact = {
  contactName: 'Gobnait Ní Chonaill',
  contactEmail: 'gobnait.payroll@example.ie',
  contactPhone: '+353 91 555 0199',
};

const details = {
  croNumber: '654321',
  employerRegistrationNumber: '9876543TA',
  registeredAddress: '12 Sráid na Siopaí\nGaillimh H91 AB12',
  payrollFrequency: 'fortnightly',
  ...contact,
};

describe('an employer’s details', () => {
  it('are all optional when the employer is made, and null until given', async () => {
    const { admin } = await firm();
    const created = await t.requestAs(admin, 'POST', '/api/employers', {
      name: 'Corrib Mills Ltd',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'Corrib Mills Ltd',
      croNumber: null,
      employerRegistrationNumber: null,
      registeredAddress: null,
      contactName: null,
      contactEmail: null,
      contactPhone: null,
      payrollFrequency: null,
    });
  });

  it('are kept as given when the employer is made, references written as the registers write them', async () => {
    const { admin } = await firm();
    const created = await t.requestAs(admin, 'POST', '/api/employers', {
      name: 'Corrib Mills Ltd',
      ...details,
      croNumber: ' 654 321 ',
      employerRegistrationNumber: '9876543 ta',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject(details);
    const read = await t.requestAs(admin, 'GET', `/api/employers/${created.json().id}`);
    expect(read.json()).toMatchObject(details);
  });

  it('refuse what is not in their form with a 400 in plain English, creating nothing', async () => {
    const { admin, brokerId } = await firm();
    const before = await ownerOf(t.database)
      .select()
      .from(employers)
      .where(eq(employers.brokerId, brokerId));
    const refused = await t.requestAs(admin, 'POST', '/api/employers', {
      name: 'Corrib Mills Ltd',
      croNumber: 'IE654321',
      employerRegistrationNumber: '987654T',
      registeredAddress: '',
      contactName: '',
      contactEmail: 'not an address',
      contactPhone: '12345',
      payrollFrequency: 'yearly',
    });
    expect(refused.statusCode).toBe(400);
    const messages = Object.fromEntries(
      (refused.json().issues as { path: string; message: string }[]).map((issue) => [
        issue.path,
        issue.message,
      ]),
    );
    expect(messages).toEqual({
      croNumber: FIELD_MESSAGES.croNumber,
      employerRegistrationNumber: FIELD_MESSAGES.employerRegistrationNumber,
      registeredAddress: FIELD_MESSAGES.address,
      contactName: FIELD_MESSAGES.name,
      contactEmail: FIELD_MESSAGES.email,
      contactPhone: FIELD_MESSAGES.phone,
      payrollFrequency: FIELD_MESSAGES.payrollFrequency,
    });
    // No sentence repeats what it refused.
    expect(refused.body).not.toContain('IE654321');
    expect(refused.body).not.toContain('not an address');
    expect(
      await ownerOf(t.database).select().from(employers).where(eq(employers.brokerId, brokerId)),
    ).toHaveLength(before.length);
  });

  it('are changed and cleared by the employer’s own roles; a refused change changes nothing', async () => {
    const { admin, hr, employerId } = await firm();
    const set = await t.requestAs(admin, 'PATCH', `/api/employers/${employerId}`, details);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject(details);

    // The EmployerAdmin keeps their own employer's details: a new phone, no CRO number.
    const changed = await t.requestAs(hr, 'PATCH', `/api/employers/${employerId}`, {
      contactPhone: '087 123 4567',
      croNumber: null,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      ...details,
      contactPhone: '087 123 4567',
      croNumber: null,
    });

    const kept = await employerRow(employerId);
    const refused = await t.requestAs(admin, 'PATCH', `/api/employers/${employerId}`, {
      name: 'Renamed with a bad detail',
      payrollFrequency: 'quarterly',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues).toEqual([
      expect.objectContaining({
        path: 'payrollFrequency',
        message: FIELD_MESSAGES.payrollFrequency,
      }),
    ]);
    expect(await employerRow(employerId)).toEqual(kept);

    const nothing = await t.requestAs(admin, 'PATCH', `/api/employers/${employerId}`, {});
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().issues[0].message).toBe(FIELD_MESSAGES.somethingToChange);
  });

  it('are not another tenant’s to read or change: 404, nothing changed', async () => {
    const { employerId } = await firm();
    const { admin: stranger } = await firm();
    const before = await employerRow(employerId);
    const changed = await t.requestAs(stranger, 'PATCH', `/api/employers/${employerId}`, details);
    expect(changed.statusCode).toBe(404);
    expect((await t.requestAs(stranger, 'GET', `/api/employers/${employerId}`)).statusCode).toBe(
      404,
    );
    expect(await employerRow(employerId)).toEqual(before);
  });

  it('are not a BrokerUser’s to change', async () => {
    const { staff, employerId } = await firm();
    const refused = await t.requestAs(staff, 'PATCH', `/api/employers/${employerId}`, {
      payrollFrequency: 'weekly',
    });
    expect(refused.statusCode).toBe(403);
    expect((await employerRow(employerId))?.payrollFrequency).toBeNull();
  });
});

describe('the audit log of an employer’s details', () => {
  it('keeps the CRO number and the payroll frequency, and names the personal details without their values', async () => {
    const { admin, employerId } = await firm();
    const created = await t.requestAs(admin, 'POST', '/api/employers', {
      name: 'Spiddal Crafts Ltd',
      ...details,
    });
    expect(created.statusCode, created.body).toBe(201);
    const newId = created.json().id as string;
    expect(
      (
        await t.requestAs(admin, 'PATCH', `/api/employers/${employerId}`, {
          ...details,
          contactEmail: 'gobnait.new@example.ie',
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await t.requestAs(admin, 'PATCH', `/api/employers/${employerId}`, {
          contactEmail: 'someone.else@example.ie',
          contactPhone: '01 555 0100',
          payrollFrequency: 'monthly',
        })
      ).statusCode,
    ).toBe(200);

    const records = [
      ...(await auditOf(newId, 'employer.created')),
      ...(await auditOf(employerId, 'employer.updated')),
    ];
    expect(records).toHaveLength(3);
    const kept = JSON.stringify(records.map((row) => [row.previousState, row.newState]));
    for (const personal of [
      contact.contactName,
      contact.contactEmail,
      'gobnait.new@example.ie',
      'someone.else@example.ie',
      contact.contactPhone,
      '01 555 0100',
      details.registeredAddress,
      'Gaillimh',
      details.employerRegistrationNumber,
    ]) {
      expect(kept, personal).not.toContain(personal);
    }

    // What a reviewer reads of the last change: the frequency's values, the contact's names only.
    const last = records.at(-1);
    expect(
      stateChanges(last?.previousState, last?.newState)
        .map(changeLine)
        .filter((line) => !line.startsWith('Updated at')),
    ).toEqual([
      'Payroll frequency: fortnightly → monthly',
      'Contact email: changed; the audit log keeps no personal data',
      'Contact phone: changed; the audit log keeps no personal data',
    ]);
    // What the employer was made with: its CRO number in full, its contact named.
    const made = records[0];
    expect(stateChanges(made?.previousState, made?.newState).map(changeLine)).toEqual(
      expect.arrayContaining([
        'CRO number: 654321',
        'Payroll frequency: fortnightly',
        'Contact email: changed; the audit log keeps no personal data',
      ]),
    );
  });
});
