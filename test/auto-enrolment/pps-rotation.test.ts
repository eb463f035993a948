import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../src/server/modules/auth/provisioning.service.js';
import { rotatePpsKeys } from '../../src/server/modules/members/pps-rotation.service.js';
import { createPpsKeyring, ppsKeyId } from '../../src/server/platform/crypto/pps-keyring.js';
import { auditLog, members, payrollEmployees } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { testAuditService } from '../helpers/audit.js';
import { TEST_SECRETS } from '../helpers/config.js';
import { ownerOf } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createMember,
  createScheme,
  createUser,
} from '../helpers/factories.js';
import { csvFile, getAs, leakedPpsNumbers, upload } from '../helpers/imports.js';
import { newPpsNumber } from '../helpers/pps.js';

/**
 * PPS key rotation covers the employees of employers' payroll uploads as it covers members
 * (docs/decisions/0031-pps-key-rotation.md): the assessment matches the two by lookup hash, so an
 * employee left under the old key would stop matching the member re-sealed under the new one.
 */

const OLD_KEY = TEST_SECRETS.PPS_ENCRYPTION_KEY;
const NEW_KEY = 'e'.repeat(64);
const newOnlyRing = createPpsKeyring({ current: NEW_KEY, previous: null });
const now = () => new Date('2026-04-02T09:00:00Z');

let before: TestApp;
let after: TestApp;
beforeAll(async () => {
  before = await buildTestApp({ now });
});
afterAll(async () => {
  for (const app of [before, after]) expect(leakedPpsNumbers(app?.logs.text() ?? '')).toEqual([]);
  await after?.close();
  await before.close();
});

const HEADINGS = ['PPS Number', 'Date of Birth', 'Period Start', 'Period End', 'Gross Pay'];
/** Three monthly periods of the window ending 31/03/2026, €3,500 a month. */
const monthsOf = (pps: string) =>
  [
    ['2026-01-01', '2026-01-31'],
    ['2026-02-01', '2026-02-28'],
    ['2026-03-01', '2026-03-31'],
  ].map(([start, end]) => ({
    'PPS Number': pps,
    'Date of Birth': '12/04/1985',
    'Period Start': start as string,
    'Period End': end as string,
    'Gross Pay': '3500.00',
  }));

it('re-seals payroll employees with the members, so an employee uploaded before still matches after, and nothing stays under the old key', async () => {
  const { database } = before;
  const brokerId = await createBroker(database);
  const employerId = await createEmployer(database, brokerId);
  const schemeId = await createScheme(database, { id: employerId, brokerId });
  const admin = await createUser(database, { brokerId, role: 'BrokerAdmin' });
  const member = await createMember(database, { brokerId, employerId, schemeId });
  const stranger = newPpsNumber();

  const uploaded = await upload(
    before,
    admin,
    `/api/employers/${employerId}/payroll/import`,
    csvFile(HEADINGS, [...monthsOf(member.ppsNumber), ...monthsOf(stranger)]),
  );
  expect(uploaded.statusCode).toBe(201);
  const assessmentUrl = `/api/employers/${employerId}/auto-enrolment?asOf=2026-03-31`;
  const matched = async (app: TestApp) =>
    (await getAs(app, admin, assessmentUrl))
      .json()
      .employees.map((employee: { memberId?: string }) => employee.memberId ?? null)
      .sort();
  expect(await matched(before)).toEqual([member.id, null].sort());

  const result = await rotatePpsKeys(database, testAuditService(), {
    keys: { current: NEW_KEY, previous: OLD_KEY },
    actor: SYSTEM_ACTOR,
    batchSize: 1,
  });
  expect(result).toMatchObject({ total: 3, rotated: 3, remaining: 0 });

  // The service as it runs once the old key is dropped: only the new key in its ring.
  after = await buildTestApp({ now, database, env: { PPS_ENCRYPTION_KEY: NEW_KEY } });
  expect(await matched(after)).toEqual([member.id, null].sort());

  const employees = await ownerOf(database)
    .select()
    .from(payrollEmployees)
    .where(eq(payrollEmployees.employerId, employerId));
  expect(employees).toHaveLength(2);
  for (const employee of employees) {
    expect(employee.ppsKeyId).toBe(ppsKeyId(NEW_KEY));
    const ppsNumber = newOnlyRing.open(
      { encrypted: employee.ppsEncrypted, keyId: employee.ppsKeyId },
      { tenantId: brokerId, memberId: employee.id },
    );
    expect([member.ppsNumber, stranger]).toContain(ppsNumber);
    expect(employee.ppsLookup).toBe(newOnlyRing.lookup(brokerId, ppsNumber));
  }
  const [rotatedMember] = await ownerOf(database)
    .select()
    .from(members)
    .where(and(eq(members.brokerId, brokerId), eq(members.id, member.id)));
  expect(employees.map((employee) => employee.ppsLookup)).toContain(rotatedMember?.ppsLookup);

  const [record] = await ownerOf(database)
    .select()
    .from(auditLog)
    .where(eq(auditLog.action, 'pps_key.rotated'));
  expect(record?.newState).toMatchObject({
    rowsToRotate: 3,
    membersToRotate: 1,
    payrollEmployeesToRotate: 2,
  });
});
