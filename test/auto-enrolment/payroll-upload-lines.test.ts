import { createId } from '@paralleldrive/cuid2';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { employeeWindows } from '../../src/server/modules/auto-enrolment/auto-enrolment.data.js';
import {
  type PayLine,
  RECORDS_FORMAT,
  readPayLines,
} from '../../src/server/modules/auto-enrolment/pay-lines.rules.js';
import { rowsOf } from '../../src/server/platform/db/database.js';
import { migrate } from '../../src/server/platform/db/migrator.js';
import { payrollUploadLines } from '../../src/server/platform/db/schema.js';
import { withActor } from '../../src/server/platform/db/with-actor.js';
import { tenantActor } from '../helpers/actors.js';
import { databaseErrorOf, openTestDatabase, ownerOf } from '../helpers/database.js';
import { createBroker, createEmployer, createScheme } from '../helpers/factories.js';
import { migrationsBefore } from '../helpers/migrations.js';
import { payLinesRow } from '../helpers/pay-lines.js';

/**
 * An upload's pay lines are one row, every line a record in one value (pay-lines.rules.ts;
 * docs/decisions/0075-pay-lines-one-row-per-upload.md). The database holds the
 * row's shape; an assessment's window takes the lines ending in it, whichever uploads hold them;
 * and the migrations carry stored lines over.
 */

const AT = new Date('2026-04-02T09:00:00Z');

/** A tenant with an employer, its scheme, one upload and one payroll employee, planted by the owner. */
async function plantedPayroll(t: Awaited<ReturnType<typeof openTestDatabase>>) {
  const brokerId = await createBroker(t.database);
  const employerId = await createEmployer(t.database, brokerId);
  const schemeId = await createScheme(t.database, { id: employerId, brokerId });
  const uploadId = createId();
  const employeeId = createId();
  const owner = ownerOf(t.database);
  await owner.execute(sql`
    insert into payroll_uploads (broker_id, id, employer_id, status, created_by, created_at, updated_at)
    values (${brokerId}, ${uploadId}, ${employerId}, 'succeeded', 'seed', ${AT}, ${AT})
  `);
  await owner.execute(sql`
    insert into payroll_employees (broker_id, id, employer_id, pps_encrypted, pps_lookup,
      pps_key_id, date_of_birth, created_at, updated_at)
    values (${brokerId}, ${employeeId}, ${employerId}, 'sealed', ${'b'.repeat(64)}, 'k1',
      '1985-04-12', ${AT}, ${AT})
  `);
  return { brokerId, employerId, schemeId, uploadId, employeeId, owner };
}

/** The employer's employees with their pay in a window, as the assessment reads them. */
const windowsOf =
  (t: Awaited<ReturnType<typeof openTestDatabase>>, brokerId: string, employerId: string) =>
  (windowStart: string, windowEnd: string) =>
    withActor(t.database, tenantActor(brokerId), (tx) =>
      employeeWindows(tx, { brokerId, employerId, windowStart, windowEnd }),
    );

/** Weekly periods: the week ending `firstEnd` and the `count - 1` weeks after it. */
function weeks(firstEnd: string, count: number) {
  return Array.from({ length: count }, (_, index) => {
    const end = new Date(Date.parse(`${firstEnd}T00:00:00Z`) + index * 7 * 86_400_000);
    const start = new Date(end.getTime() - 6 * 86_400_000);
    return { start: start.toISOString().slice(0, 10), end: end.toISOString().slice(0, 10) };
  });
}

describe('payroll upload lines in the database', () => {
  it('refuses a row whose shape does not hold its lines', async () => {
    const t = await openTestDatabase();
    try {
      const { brokerId, employerId, uploadId, employeeId, owner } = await plantedPayroll(t);
      const good = await payLinesRow(
        { brokerId, uploadId, employerId },
        [
          { employeeId, start: '2026-01-05', end: '2026-01-11', grossCents: 80_000 },
          { employeeId, start: '2026-01-12', end: '2026-01-18', grossCents: 80_000 },
        ],
        RECORDS_FORMAT,
      );
      const broken: Record<string, Partial<typeof good>> = {
        'a value one byte short': { lines: (good.lines as Buffer).subarray(1) },
        'more lines counted than held': { lineCount: 3 },
        'no lines at all': { lineCount: 0, payPeriods: 0, lines: Buffer.alloc(0) },
        'a format not known': { format: 3 },
        'bounds out of order': { firstPeriodStart: '2026-01-19' },
        'no employee named': { employeeIds: [] },
        'more pay periods than lines': { payPeriods: 3 },
      };
      for (const [rule, change] of Object.entries(broken)) {
        const error = await databaseErrorOf(
          owner.insert(payrollUploadLines).values({ ...good, ...change }),
        );
        expect(error, rule).toMatch(/payroll_upload_lines_shape/);
      }
      await owner.insert(payrollUploadLines).values(good);
      const [stored] = await owner.select().from(payrollUploadLines);
      expect(Buffer.from(stored?.lines as Uint8Array)).toEqual(good.lines);
    } finally {
      await t.dispose();
    }
  });

  it('sums only the lines ending within the window, wherever they sit in the value', async () => {
    const t = await openTestDatabase();
    try {
      const { brokerId, employerId, uploadId, employeeId, owner } = await plantedPayroll(t);
      // 26 weeks in one upload: 13 ending in January to March at €800, 13 in April to June at €1,000.
      const periods = weeks('2026-01-04', 26);
      await owner.insert(payrollUploadLines).values(
        await payLinesRow(
          { brokerId, uploadId, employerId },
          periods.map((period, index) => ({
            employeeId,
            ...period,
            grossCents: index < 13 ? 80_000 : 100_000,
          })),
        ),
      );
      const window = windowsOf(t, brokerId, employerId);
      const [firstQuarter] = await window('2026-01-01', '2026-03-31');
      expect(firstQuarter).toMatchObject({
        gross_cents: 13 * 80_000,
        year_units: 13 * 52,
        last_period_end: '2026-03-29',
        periods_neither: 13,
      });
      const [secondQuarter] = await window('2026-04-01', '2026-06-30');
      expect(secondQuarter).toMatchObject({ gross_cents: 13 * 100_000, periods_neither: 13 });
      // A window inside the upload's bounds takes the four weeks ending in February only.
      const [february] = await window('2026-02-01', '2026-02-28');
      expect(february).toMatchObject({ gross_cents: 4 * 80_000, last_period_end: '2026-02-22' });
      // Outside the upload's bounds: the employee is listed with nothing paid.
      const [later] = await window('2026-10-01', '2026-12-31');
      expect(later).toMatchObject({
        employee_id: employeeId,
        gross_cents: 0,
        last_period_end: null,
      });
    } finally {
      await t.dispose();
    }
  });

  it('adds up an employee’s lines of several uploads, counting each kind of period once, and finds pay into a DB scheme of the tenant', async () => {
    const t = await openTestDatabase();
    try {
      const { brokerId, employerId, schemeId, uploadId, employeeId, owner } =
        await plantedPayroll(t);
      const dbScheme = await createScheme(t.database, { id: employerId, brokerId });
      await owner.execute(sql`update schemes set type = 'DB' where id = ${dbScheme}`);
      const laterUpload = createId();
      await owner.execute(sql`
        insert into payroll_uploads (broker_id, id, employer_id, status, created_by, created_at, updated_at)
        values (${brokerId}, ${laterUpload}, ${employerId}, 'succeeded', 'seed', ${AT}, ${AT})
      `);
      // January from one upload, February from the next: both employee and employer into the DC
      // scheme, the employer alone into the DB scheme, nothing through a PRSA, the employee alone
      // into a PRSA, and nothing at all.
      const lines = (from: string, given: ReadonlyArray<readonly [number, number, string]>) =>
        weeks(from, given.length).map((period, index) => {
          const [employee, employer, arrangement] = given[index] as readonly [
            number,
            number,
            string,
          ];
          return {
            employeeId,
            ...period,
            grossCents: 100_000,
            employeeCents: employee,
            employerCents: employer,
            arrangement,
          };
        });
      await owner.insert(payrollUploadLines).values([
        await payLinesRow(
          { brokerId, uploadId, employerId },
          lines('2026-01-04', [
            [3_000, 3_000, schemeId],
            [0, 5_000, dbScheme],
            [0, 0, 'prsa'],
          ]),
        ),
        await payLinesRow(
          { brokerId, uploadId: laterUpload, employerId },
          lines('2026-02-01', [
            [2_000, 0, 'prsa'],
            [0, 0, 'none'],
          ]),
        ),
      ]);
      const window = windowsOf(t, brokerId, employerId);
      const [both] = await window('2026-01-01', '2026-02-28');
      expect(both).toMatchObject({
        gross_cents: 5 * 100_000,
        employee_cents: 5_000,
        employer_cents: 8_000,
        year_units: 5 * 52,
        last_period_end: '2026-02-08',
        periods_both: 1,
        periods_employer_only: 1,
        periods_employee_only: 1,
        periods_neither: 2,
        prsa_without_deductions: true,
        pays_through_payroll: true,
        pays_into_db: true,
      });
      // February alone: the DB scheme's week and the empty PRSA week are outside it.
      const [february] = await window('2026-02-01', '2026-02-28');
      expect(february).toMatchObject({
        gross_cents: 2 * 100_000,
        periods_both: 0,
        periods_employee_only: 1,
        periods_neither: 1,
        prsa_without_deductions: false,
        pays_into_db: false,
      });
    } finally {
      await t.dispose();
    }
  });

  it('refuses to assess from a stored value that names an employee the payroll does not hold', async () => {
    const t = await openTestDatabase();
    try {
      const { brokerId, employerId, uploadId, owner } = await plantedPayroll(t);
      await owner
        .insert(payrollUploadLines)
        .values(
          await payLinesRow({ brokerId, uploadId, employerId }, [
            { employeeId: 'gone', start: '2026-01-05', end: '2026-01-11', grossCents: 1 },
          ]),
        );
      await expect(windowsOf(t, brokerId, employerId)('2026-01-01', '2026-03-31')).rejects.toThrow(
        /names an employee who is not stored/,
      );
    } finally {
      await t.dispose();
    }
  });

  it('carries lines stored before migration 0028 into one row per upload, in period order', async () => {
    const t = await openTestDatabase({ migrated: false });
    try {
      await migrate(t.database, migrationsBefore('0028_payroll_periods'));
      const { brokerId, employerId, schemeId, uploadId, employeeId, owner } =
        await plantedPayroll(t);
      // Written out of period order, as an import's rows may arrive.
      const lines = [
        ['2026-01-12', '2026-01-18', 81_000, 'none', null],
        ['2026-01-05', '2026-01-11', 80_000, 'scheme', schemeId],
        ['2026-01-19', '2026-01-25', 82_000, 'prsa', null],
      ] as const;
      for (const [start, end, gross, arrangement, scheme] of lines) {
        await owner.execute(sql`
          insert into payroll_lines (broker_id, id, employer_id, upload_id, employee_id,
            period_start, period_end, year_units, gross_cents, employee_cents, employer_cents,
            arrangement, scheme_id)
          values (${brokerId}, ${createId()}, ${employerId}, ${uploadId}, ${employeeId},
            ${start}, ${end}, 52, ${gross}, 0, ${arrangement === 'scheme' ? 100 : 0},
            ${arrangement}, ${scheme})
        `);
      }
      const result = await migrate(t.database);
      expect(result.appliedTags).toEqual(
        expect.arrayContaining(['0028_payroll_periods', '0029_payroll_upload_lines']),
      );
      const { row, read } = await storedRow(owner);
      expect(row).toMatchObject({
        brokerId,
        uploadId,
        employerId,
        lineCount: 3,
        payPeriods: 3,
        firstPeriodStart: '2026-01-05',
        lastPeriodEnd: '2026-01-25',
        employeeIds: [employeeId],
        schemeIds: [schemeId],
      });
      expect(read).toEqual([
        line(0, 20260105, 20260111, 0, 80_000, 0, 100),
        line(0, 20260112, 20260118, -2, 81_000, 0, 0),
        line(0, 20260119, 20260125, -1, 82_000, 0, 0),
      ]);
      for (const gone of ['payroll_lines', 'payroll_periods']) {
        const left = rowsOf<{ name: string | null }>(
          await owner.execute(sql`select to_regclass(${gone}) :: text as name`),
        );
        expect(left[0]?.name, gone).toBeNull();
      }
    } finally {
      await t.dispose();
    }
  });

  it('carries rows of payroll_periods into one row per upload, every person and scheme numbered', async () => {
    const t = await openTestDatabase({ migrated: false });
    try {
      await migrate(t.database, migrationsBefore('0029_payroll_upload_lines'));
      const { brokerId, employerId, schemeId, uploadId, employeeId, owner } =
        await plantedPayroll(t);
      const second = await createScheme(t.database, { id: employerId, brokerId });
      // An id that sorts first, so the people are numbered by id, not by insertion.
      const otherEmployee = `0${createId()}`;
      await owner.execute(sql`
        insert into payroll_employees (broker_id, id, employer_id, pps_encrypted, pps_lookup,
          pps_key_id, date_of_birth, created_at, updated_at)
        values (${brokerId}, ${otherEmployee}, ${employerId}, 'sealed', ${'c'.repeat(64)}, 'k1',
          '1990-01-01', ${AT}, ${AT})
      `);
      await owner.execute(sql`
        insert into payroll_periods (broker_id, upload_id, employee_id, employer_id,
          first_period_start, last_period_end, period_starts, period_ends, year_units,
          gross_cents, employee_cents, employer_cents, arrangements, scheme_ids)
        values
          (${brokerId}, ${uploadId}, ${employeeId}, ${employerId}, '2026-01-05', '2026-01-18',
            '{2026-01-05,2026-01-12}', '{2026-01-11,2026-01-18}', '{52,52}',
            '{80000,9007199254740991}', '{4000,0}', '{4000,0}', '{scheme,prsa}',
            ${`{${schemeId},NULL}`}),
          (${brokerId}, ${uploadId}, ${otherEmployee}, ${employerId}, '2026-01-05', '2026-01-31',
            '{2026-01-05}', '{2026-01-31}', '{12}', '{300000}', '{0}', '{9000}', '{scheme}',
            ${`{${second}}`})
      `);
      await migrate(t.database);
      const { row, read } = await storedRow(owner);
      const schemes = [schemeId, second].sort();
      expect(row).toMatchObject({
        lineCount: 3,
        payPeriods: 3,
        firstPeriodStart: '2026-01-05',
        lastPeriodEnd: '2026-01-31',
        employeeIds: [otherEmployee, employeeId],
        schemeIds: schemes,
      });
      expect(read).toEqual([
        {
          ...line(0, 20260105, 20260131, schemes.indexOf(second), 300_000, 0, 9_000),
          yearUnits: 12,
        },
        line(1, 20260105, 20260111, schemes.indexOf(schemeId), 80_000, 4_000, 4_000),
        line(1, 20260112, 20260118, -1, Number.MAX_SAFE_INTEGER, 0, 0),
      ]);
    } finally {
      await t.dispose();
    }
  });
});

/** A stored line as read back, weekly unless changed. */
const line = (
  person: number,
  periodStart: number,
  periodEnd: number,
  arrangement: number,
  grossCents: number,
  employeeCents: number,
  employerCents: number,
): PayLine => ({
  person,
  periodStart,
  periodEnd,
  yearUnits: 52,
  arrangement,
  grossCents,
  employeeCents,
  employerCents,
});

/** The one stored row of `payroll_upload_lines`, with its lines read back. */
async function storedRow(owner: ReturnType<typeof ownerOf>) {
  const rows = await owner.select().from(payrollUploadLines);
  expect(rows).toHaveLength(1);
  const row = rows[0] as typeof payrollUploadLines.$inferSelect;
  const read: PayLine[] = [];
  readPayLines(row, { people: row.employeeIds.length, schemes: row.schemeIds.length }, (l) =>
    read.push({ ...l }),
  );
  return { row, read };
}
