import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeLine, stateChanges } from '../../src/contracts/audit-changes.js';
import { FIELD_MESSAGES } from '../../src/contracts/plain-english.js';
import { auditLog, schemes } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import { firmFixture, schemeFixture } from '../helpers/fixtures.js';

/**
 * A scheme's details as a broker keeps them (docs/decisions/0132-employer-and-scheme-details.md):
 * the Pensions Authority's registration (SR) number, the day it began, and the contribution
 * rates in whole basis points of salary; all optional, each validated when given and refused in
 * plain English with nothing changed.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const scheme = () =>
  schemeFixture(t.database, { users: { admin: 'BrokerAdmin', hr: 'EmployerAdmin' } });

const schemeRow = async (id: string) =>
  (await ownerOf(t.database).select().from(schemes).where(eq(schemes.id, id)))[0];

const details = {
  srNumber: 'SR123456',
  startDate: '2024-01-01',
  employeeContributionBasisPoints: 500,
  employerContributionBasisPoints: 725,
};

const issuesOf = (body: { issues: { path: string; message: string }[] }) =>
  Object.fromEntries(body.issues.map((issue) => [issue.path, issue.message]));

describe('a scheme’s details', () => {
  it('are optional when the scheme is made, and kept as given: the SR number as the Authority writes it', async () => {
    const { admin, employerId } = await firmFixture(t.database, {
      users: { admin: 'BrokerAdmin' },
    });
    const plain = await t.requestAs(admin, 'POST', '/api/schemes', {
      employerId,
      name: 'Aran Knitwear DC Scheme',
      type: 'DC',
    });
    expect(plain.statusCode, plain.body).toBe(201);
    expect(plain.json()).toMatchObject({
      srNumber: null,
      startDate: null,
      employeeContributionBasisPoints: null,
      employerContributionBasisPoints: null,
    });

    const detailed = await t.requestAs(admin, 'POST', '/api/schemes', {
      employerId,
      name: 'Aran Knitwear Executive Scheme',
      type: 'DB',
      ...details,
      srNumber: 'sr 123456',
    });
    expect(detailed.statusCode, detailed.body).toBe(201);
    expect(detailed.json()).toMatchObject(details);
    // The digits alone are the same number.
    const digitsOnly = await t.requestAs(admin, 'PATCH', `/api/schemes/${detailed.json().id}`, {
      srNumber: '0012345',
    });
    expect(digitsOnly.json().srNumber).toBe('SR0012345');
  });

  it('refuse what is not in their form with a 400 in plain English, creating nothing', async () => {
    const { admin, employerId } = await firmFixture(t.database, {
      users: { admin: 'BrokerAdmin' },
    });
    const refused = await t.requestAs(admin, 'POST', '/api/schemes', {
      employerId,
      name: 'Aran Knitwear DC Scheme',
      type: 'DC',
      srNumber: 'PB-12',
      startDate: '2024-02-30',
      employeeContributionBasisPoints: 5.5,
      employerContributionBasisPoints: 10_001,
    });
    expect(refused.statusCode).toBe(400);
    expect(issuesOf(refused.json())).toEqual({
      srNumber: FIELD_MESSAGES.srNumber,
      startDate: FIELD_MESSAGES.realDate,
      employeeContributionBasisPoints: FIELD_MESSAGES.contributionRate,
      employerContributionBasisPoints: FIELD_MESSAGES.contributionRate,
    });
    expect(
      await ownerOf(t.database).select().from(schemes).where(eq(schemes.employerId, employerId)),
    ).toEqual([]);
    // A rate is a number of basis points, never a percentage in words or a negative one.
    for (const rate of ['5%', -1, null]) {
      const answer = await t.requestAs(admin, 'POST', '/api/schemes', {
        employerId,
        name: 'Aran Knitwear DC Scheme',
        type: 'DC',
        employeeContributionBasisPoints: rate,
      });
      expect(answer.statusCode, String(rate)).toBe(rate === null ? 201 : 400);
    }
  });

  it('are changed by whoever may change the scheme, cleared with null; a refused change changes nothing', async () => {
    const { admin, hr, schemeId } = await scheme();
    const set = await t.requestAs(admin, 'PATCH', `/api/schemes/${schemeId}`, details);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ ...details, hasMembers: false });

    const changed = await t.requestAs(hr, 'PATCH', `/api/schemes/${schemeId}`, {
      employerContributionBasisPoints: 800,
      startDate: null,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      ...details,
      employerContributionBasisPoints: 800,
      startDate: null,
    });

    const kept = await schemeRow(schemeId);
    const refused = await t.requestAs(admin, 'PATCH', `/api/schemes/${schemeId}`, {
      name: 'Renamed with a bad date',
      startDate: '1899-12-31',
    });
    expect(refused.statusCode).toBe(400);
    expect(issuesOf(refused.json())).toEqual({ startDate: FIELD_MESSAGES.dateAfter1900 });
    expect(await schemeRow(schemeId)).toEqual(kept);
  });

  it('are not another tenant’s to read or change: 404, nothing changed', async () => {
    const { schemeId } = await scheme();
    const { admin: stranger } = await scheme();
    const before = await schemeRow(schemeId);
    const changed = await t.requestAs(stranger, 'PATCH', `/api/schemes/${schemeId}`, details);
    expect(changed.statusCode).toBe(404);
    expect((await t.requestAs(stranger, 'GET', `/api/schemes/${schemeId}`)).statusCode).toBe(404);
    expect(await schemeRow(schemeId)).toEqual(before);
  });

  it('read in the audit log as a reviewer reads them: the SR number, the date and the rates', async () => {
    const { admin, schemeId } = await scheme();
    expect(
      (await t.requestAs(admin, 'PATCH', `/api/schemes/${schemeId}`, details)).statusCode,
    ).toBe(200);
    const [record] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, schemeId), eq(auditLog.action, 'scheme.updated')));
    expect(
      stateChanges(record?.previousState, record?.newState)
        .map(changeLine)
        .filter((line) => !line.startsWith('Updated at')),
    ).toEqual([
      'SR number: none → SR123456',
      'Start date: none → 1 Jan 2024',
      'Employee contribution rate: none → 5%',
      'Employer contribution rate: none → 7.25%',
    ]);
  });
});
