import { count, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payrollEmployees, payrollUploadLines } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { payrollLinesIn as linesIn, ownerOf } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';
import { leakedPpsNumbers, upload, withWrongCheckLetter } from '../helpers/imports.js';
import { newPpsNumber } from '../helpers/pps.js';

/**
 * Property (docs/decisions/0068-auto-enrolment-readiness.md): whatever text arrives as an employer's payroll file, the answer is a 201,
 * or a 400 or 409 of the documented shape, never a 500; a refusal writes no employee and no pay
 * line, and no answer repeats a PPS number.
 */

let t: TestApp;
let admin: UserRow;
let employerId: string;
let schemeId: string;
beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore() });
  const brokerId = await createBroker(t.database);
  employerId = await createEmployer(t.database, brokerId);
  schemeId = await createScheme(t.database, { id: employerId, brokerId });
  admin = await createUser(t.database, { brokerId, role: 'BrokerUser' });
});
afterAll(async () => {
  expect(leakedPpsNumbers(t.logs.text())).toEqual([]);
  await t.close();
});

const stored = async () => [
  (
    await ownerOf(t.database)
      .select({ n: count() })
      .from(payrollEmployees)
      .where(eq(payrollEmployees.employerId, employerId))
  )[0]?.n,
  (
    await ownerOf(t.database)
      .select({ n: linesIn })
      .from(payrollUploadLines)
      .where(eq(payrollUploadLines.employerId, employerId))
  )[0]?.n,
];

describe('whatever text arrives as a payroll file', () => {
  const headings = fc.constantFrom(
    'PPS Number',
    'First Name',
    'Last Name',
    'Date of Birth',
    'Period Start',
    'Period End',
    'Gross Pay',
    'Employee Pension',
    'Employer Pension',
    'Arrangement',
    'Notes',
    '',
  );
  const cells = fc.oneof(
    fc.constantFrom(
      '',
      '2026-01-05',
      '2026-01-11',
      '11/01/2026',
      '1985-04-12',
      '800.00',
      '-1',
      '0',
      'PRSA',
      'prsa',
      '=1+1',
    ),
    fc.constant(null).map(() => schemeId),
    fc.constant(null).map(() => newPpsNumber()),
    fc.constant(null).map(() => withWrongCheckLetter(newPpsNumber())),
    fc.string({ maxLength: 12 }),
    fc.constantFrom('"', '""', ',', '\n', '\r\n', '\\', '\t', '\u0000', '€'),
  );
  const files = fc.oneof(
    fc.string({ maxLength: 400 }),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc
      .tuple(
        fc.uniqueArray(headings, { minLength: 1, maxLength: 10 }),
        fc.array(fc.array(cells, { maxLength: 11 }), { maxLength: 8 }),
      )
      .map(([names, rows]) => [names.join(','), ...rows.map((row) => row.join(','))].join('\n')),
  );

  it('answers 201, 400 or 409 with the documented body, never a 500, and writes nothing on a refusal', async () => {
    const url = `/api/employers/${employerId}/payroll/import`;
    const seen = new Set<number>();
    await fc.assert(
      fc.asyncProperty(files, async (file) => {
        const before = await stored();
        const response = await upload(t, admin, url, file);
        seen.add(response.statusCode);
        expect([201, 400, 409], response.body).toContain(response.statusCode);
        expect(leakedPpsNumbers(response.body)).toEqual([]);
        if (response.statusCode !== 201) {
          expect(typeof response.json().error).toBe('string');
          expect(await stored()).toEqual(before);
        }
        if (response.statusCode === 400) expect(Array.isArray(response.json().issues)).toBe(true);
      }),
      { numRuns: 100 },
    );
    expect(seen.has(400)).toBe(true);
  }, 180_000);
});
