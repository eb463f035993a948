import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainEuro } from '../../src/contracts/money.js';
import {
  addToMonth,
  monthsBetween,
  remittanceDueOn,
} from '../../src/contracts/remittance-rules.js';
import { schemes } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import { createBroker, createEmployer, createUser, type UserRow } from '../helpers/factories.js';
import { csvFile, memberRow, membersCsv, upload } from '../helpers/imports.js';

/**
 * The remittance report checked against a year of payroll uploads
 * (docs/decisions/0136-contribution-remittance.md): an employer with a DC scheme of three members
 * and a DB scheme of one uploads twelve monthly contribution files through the import route, the
 * payments received are recorded (most on time, one late, one never, one short), and the
 * remittance calendar and the trustees' report are read month by month against sums worked out
 * here from the files themselves.
 */
const clock = new Date('2026-08-05T09:00:00Z');
const MONTHS = monthsBetween('2025-08', '2026-07');
let t: TestApp;
let employerId: string;
let dcSchemeId: string;
let admin: UserRow;

/** What each file pays for one member in one month, in cents: varied from month to month. */
function payslip(memberIndex: number, monthIndex: number) {
  const employee = 18_000 + memberIndex * 2_500 + monthIndex * 137;
  return {
    employee,
    employer: employee * 2,
    // The second member pays AVCs from the sixth month on.
    avc: memberIndex === 1 && monthIndex >= 5 ? 4_000 + monthIndex : null,
  };
}

/** The DB member's month: the employer's own part funds the scheme and is not counted. */
const dbPayslip = (monthIndex: number) => ({ employee: 30_000 + monthIndex, employer: 90_000 });

/** What payroll says was deducted in a month, from the files as written. */
function deductedIn(monthIndex: number): number {
  let total = dbPayslip(monthIndex).employee;
  for (const memberIndex of [0, 1, 2]) {
    const slip = payslip(memberIndex, monthIndex);
    total += slip.employee + slip.employer + (slip.avc ?? 0);
  }
  return total;
}

/** The payments received, by month: on time on various days, one late, one never, one short. */
const NOVEMBER = MONTHS.indexOf('2025-11');
const FEBRUARY = MONTHS.indexOf('2026-02');
const MAY = MONTHS.indexOf('2026-05');
const JULY = MONTHS.indexOf('2026-07');
function paymentsFor(monthIndex: number): Array<{ receivedOn: string; amountCents: number }> {
  const month = MONTHS[monthIndex] as string;
  const next = addToMonth(month, 1);
  const due = deductedIn(monthIndex);
  if (monthIndex === FEBRUARY || monthIndex === JULY) return [];
  if (monthIndex === NOVEMBER) return [{ receivedOn: '2025-12-24', amountCents: due }];
  if (monthIndex === MAY) return [{ receivedOn: `${next}-15`, amountCents: due - 1_000 }];
  // Paid in two parts in March, the second on the due day itself.
  if (month === '2026-03') {
    return [
      { receivedOn: '2026-04-08', amountCents: 50_000 },
      { receivedOn: '2026-04-21', amountCents: due - 50_000 },
    ];
  }
  return [
    { receivedOn: `${next}-${String(10 + (monthIndex % 11)).padStart(2, '0')}`, amountCents: due },
  ];
}

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore(), now: () => clock });
  const brokerId = await createBroker(t.database, 'Lee Valley Pensions');
  employerId = await createEmployer(t.database, brokerId, 'Blackwater Foods Ltd');
  admin = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  const newScheme = async (type: 'DC' | 'DB') => {
    const created = await t.requestAs(admin, 'POST', '/api/schemes', {
      employerId,
      name: `Blackwater ${type}`,
      type,
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id as string;
    await ownerOf(t.database)
      .update(schemes)
      .set({ createdAt: new Date('2025-08-01T09:00:00Z') })
      .where(eq(schemes.id, id));
    return id;
  };
  dcSchemeId = await newScheme('DC');
  const dbSchemeId = await newScheme('DB');

  const dcMembers = [memberRow(), memberRow(), memberRow()];
  const dbMembers = [memberRow()];
  for (const [schemeId, rows] of [
    [dcSchemeId, dcMembers],
    [dbSchemeId, dbMembers],
  ] as const) {
    const imported = await upload(
      t,
      admin,
      `/api/schemes/${schemeId}/members/import`,
      membersCsv(rows),
    );
    expect(imported.statusCode, imported.body).toBe(201);
  }

  // Twelve monthly payroll files for the DC scheme, one a month, as payroll sends them.
  for (const [monthIndex, month] of MONTHS.entries()) {
    const file = csvFile(
      ['PPSN', 'Period', 'Employee', 'Employer', 'AVC'],
      dcMembers.map((member, memberIndex) => {
        const slip = payslip(memberIndex, monthIndex);
        return {
          PPSN: member.PPSN,
          // Month first, as a payroll export writes it.
          Period: `${month.slice(5, 7)}/${month.slice(0, 4)}`,
          Employee: plainEuro(slip.employee),
          Employer: plainEuro(slip.employer),
          AVC: slip.avc === null ? '' : plainEuro(slip.avc),
        };
      }),
    );
    const response = await upload(
      t,
      admin,
      `/api/schemes/${dcSchemeId}/contributions/import`,
      file,
    );
    expect(response.statusCode, `${month}: ${response.body}`).toBe(201);
  }
  // The DB scheme's year in one file.
  const dbFile = csvFile(
    ['PPSN', 'Period', 'Employee', 'Employer'],
    MONTHS.map((month, monthIndex) => ({
      PPSN: dbMembers[0]?.PPSN as string,
      Period: month,
      Employee: plainEuro(dbPayslip(monthIndex).employee),
      Employer: plainEuro(dbPayslip(monthIndex).employer),
    })),
  );
  const dbUpload = await upload(
    t,
    admin,
    `/api/schemes/${dbSchemeId}/contributions/import`,
    dbFile,
  );
  expect(dbUpload.statusCode, dbUpload.body).toBe(201);

  for (const [monthIndex, month] of MONTHS.entries()) {
    for (const payment of paymentsFor(monthIndex)) {
      const response = await t.requestAs(
        admin,
        'POST',
        `/api/employers/${employerId}/remittance-receipts`,
        { month, ...payment, reference: `Blackwater ${month}` },
      );
      expect(response.statusCode, response.body).toBe(201);
    }
  }
});
afterAll(() => t.close());

describe('a year of payroll uploads against the payments received', () => {
  it('answers each month with what the files deducted, what arrived, when, and how it stands', async () => {
    const response = await t.requestAs(
      admin,
      'GET',
      `/api/employers/${employerId}/remittances?from=2025-08&to=2026-07`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const items = response.json().items as Array<Record<string, unknown>>;
    expect(items).toHaveLength(12);
    const statuses: Record<string, string> = {
      '2025-11': 'late',
      '2026-02': 'missing',
      '2026-05': 'missing',
      '2026-07': 'due',
    };
    for (const [monthIndex, month] of MONTHS.entries()) {
      const payments = paymentsFor(monthIndex);
      const received = payments.reduce((sum, payment) => sum + payment.amountCents, 0);
      const expected = deductedIn(monthIndex);
      const inFull = received >= expected;
      expect(items[monthIndex], month).toEqual({
        month,
        dueOn: remittanceDueOn(month),
        expectedCents: expected,
        receivedCents: received,
        receivedOn: inFull ? (payments.at(-1)?.receivedOn ?? null) : null,
        status: statuses[month] ?? 'on_time',
      });
    }
    // The second part of March came on the 21st: on time.
    expect(items[MONTHS.indexOf('2026-03')]).toMatchObject({
      receivedOn: '2026-04-21',
      status: 'on_time',
    });
  });

  it('gives the trustees each year’s late and missing months, with the days late', async () => {
    const last = await t.requestAs(
      admin,
      'GET',
      `/api/schemes/${dcSchemeId}/late-remittances?year=2025`,
    );
    expect(last.json().items).toEqual([
      expect.objectContaining({ month: '2025-11', status: 'late', daysLate: 3 }),
    ]);
    const current = await t.requestAs(
      admin,
      'GET',
      `/api/schemes/${dcSchemeId}/late-remittances?year=2026`,
    );
    expect(current.json().items).toEqual([
      // Due 21 March 2026; 137 days by 5 August.
      expect.objectContaining({ month: '2026-02', status: 'missing', daysLate: 137 }),
      expect.objectContaining({
        month: '2026-05',
        status: 'missing',
        receivedCents: deductedIn(MAY) - 1_000,
        daysLate: 45,
      }),
    ]);
  });

  it('shows the scheme overdue for the earliest month missing', async () => {
    const compliance = await t.requestAs(admin, 'GET', `/api/schemes/${dcSchemeId}/compliance`);
    expect(compliance.json().obligations).toContainEqual(
      expect.objectContaining({
        kind: 'contribution_remittance',
        status: 'overdue',
        dueOn: '2026-03-21',
        reason:
          'The deductions for Feb 2026 were due at the scheme by 21 Mar 2026 and are not received; 1 later month is missing too',
      }),
    );
  });
});
