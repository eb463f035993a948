import { createId } from '@paralleldrive/cuid2';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrator.js';
import { payrollPeriods } from '../../src/server/db/schema.js';
import { withActor } from '../../src/server/db/with-actor.js';
import { employeeWindows } from '../../src/server/modules/auto-enrolment/auto-enrolment.data.js';
import { tenantActor } from '../helpers/actors.js';
import { databaseErrorOf, openTestDatabase, ownerOf } from '../helpers/database.js';
import { createBroker, createEmployer, createScheme } from '../helpers/factories.js';
import { migrationsBefore } from '../helpers/migrations.js';

/**
 * An employee's pay lines of one upload are one row of parallel arrays (issue 20;
 * docs/decisions.md, "Payroll upload speed (issue 20, the benchmark)"). What the database held of
 * each line when it was a row of its own, it holds of each element; an assessment's window takes
 * the elements ending in it, not whole rows; and the migration carries stored lines over.
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

describe('payroll periods in the database', () => {
  it('refuses a row whose elements break a rule a single pay line was held to', async () => {
    const t = await openTestDatabase();
    try {
      const { brokerId, employerId, schemeId, uploadId, employeeId, owner } =
        await plantedPayroll(t);
      const good = {
        brokerId,
        uploadId,
        employeeId,
        employerId,
        firstPeriodStart: '2026-01-05',
        lastPeriodEnd: '2026-01-18',
        periodStarts: ['2026-01-05', '2026-01-12'],
        periodEnds: ['2026-01-11', '2026-01-18'],
        yearUnits: [52, 52],
        grossCents: [80_000, 80_000],
        employeeCents: [4_000, 0],
        employerCents: [4_000, 0],
        arrangements: ['scheme', 'none'],
        schemeIds: [schemeId, null],
      };
      const broken: Record<string, Partial<typeof good>> = {
        'a period ending before it starts': { periodEnds: ['2026-01-04', '2026-01-18'] },
        'a scheme arrangement without its scheme': { schemeIds: [null, null] },
        'a scheme named for a PRSA': { arrangements: ['prsa', 'none'] },
        'an arrangement not known': { arrangements: ['scheme', 'cash'] },
        'a negative amount': { employerCents: [4_000, -1] },
        'arrays of different lengths': { grossCents: [80_000] },
        'no periods at all': {
          periodStarts: [],
          periodEnds: [],
          yearUnits: [],
          grossCents: [],
          employeeCents: [],
          employerCents: [],
          arrangements: [],
          schemeIds: [],
        },
        'bounds that are not the periods’ own': { lastPeriodEnd: '2026-01-25' },
        'a missing period start': { periodStarts: [null as unknown as string, '2026-01-12'] },
      };
      for (const [rule, change] of Object.entries(broken)) {
        const error = await databaseErrorOf(
          owner.insert(payrollPeriods).values({ ...good, ...change }),
        );
        expect(error, rule).toMatch(/payroll_periods_consistent/);
      }
      // Arrays numbered from 0 rather than 1: the same elements, not the same shape.
      const renumbered = await databaseErrorOf(
        owner.execute(sql`
          insert into payroll_periods (broker_id, upload_id, employee_id, employer_id,
            first_period_start, last_period_end, period_starts, period_ends, year_units,
            gross_cents, employee_cents, employer_cents, arrangements, scheme_ids)
          values (${brokerId}, ${uploadId}, ${employeeId}, ${employerId}, '2026-01-05',
            '2026-01-11', '[0:0]={2026-01-05}', '[0:0]={2026-01-11}', '[0:0]={52}',
            '[0:0]={80000}', '[0:0]={0}', '[0:0]={0}', '[0:0]={none}', '[0:0]={NULL}')
        `),
      );
      expect(renumbered).toMatch(/payroll_periods_consistent/);
      await owner.insert(payrollPeriods).values(good);
      const [stored] = await owner.select().from(payrollPeriods);
      expect(stored?.schemeIds).toEqual([schemeId, null]);
    } finally {
      await t.dispose();
    }
  });

  it('sums only the elements ending within the window, whichever rows they sit in', async () => {
    const t = await openTestDatabase();
    try {
      const { brokerId, employerId, uploadId, employeeId, owner } = await plantedPayroll(t);
      // 26 weeks in one row: 13 ending in January to March at €800, 13 in April to June at €1,000.
      const periods = weeks('2026-01-04', 26);
      const gross = periods.map((_, index) => (index < 13 ? 80_000 : 100_000));
      await owner.insert(payrollPeriods).values({
        brokerId,
        uploadId,
        employeeId,
        employerId,
        firstPeriodStart: periods[0]?.start as string,
        lastPeriodEnd: periods[25]?.end as string,
        periodStarts: periods.map((p) => p.start),
        periodEnds: periods.map((p) => p.end),
        yearUnits: periods.map(() => 52),
        grossCents: gross,
        employeeCents: periods.map(() => 0),
        employerCents: periods.map(() => 0),
        arrangements: periods.map(() => 'none'),
        schemeIds: periods.map(() => null),
      });
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
      // A window inside the row's bounds takes the four weeks ending in February only.
      const [february] = await window('2026-02-01', '2026-02-28');
      expect(february).toMatchObject({ gross_cents: 4 * 80_000, last_period_end: '2026-02-22' });
      // Outside the row's bounds: the employee is listed with nothing paid.
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

  it('adds up an employee’s rows of several uploads, counting each kind of period once, and finds pay into a DB scheme of the tenant', async () => {
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
      // scheme, the employer alone into the DB scheme, the employee alone into a PRSA, nothing
      // through a PRSA, and nothing at all.
      const row = (
        upload: string,
        from: string,
        lines: ReadonlyArray<readonly [number, number, string, string | null]>,
      ) => {
        const periods = weeks(from, lines.length);
        return {
          brokerId,
          uploadId: upload,
          employeeId,
          employerId,
          firstPeriodStart: periods[0]?.start as string,
          lastPeriodEnd: periods.at(-1)?.end as string,
          periodStarts: periods.map((p) => p.start),
          periodEnds: periods.map((p) => p.end),
          yearUnits: periods.map(() => 52),
          grossCents: periods.map(() => 100_000),
          employeeCents: lines.map(([employee]) => employee),
          employerCents: lines.map(([, employer]) => employer),
          arrangements: lines.map(([, , arrangement]) => arrangement),
          schemeIds: lines.map(([, , , scheme]) => scheme),
        };
      };
      await owner.insert(payrollPeriods).values([
        row(uploadId, '2026-01-04', [
          [3_000, 3_000, 'scheme', schemeId],
          [0, 5_000, 'scheme', dbScheme],
          [0, 0, 'prsa', null],
        ]),
        row(laterUpload, '2026-02-01', [
          [2_000, 0, 'prsa', null],
          [0, 0, 'none', null],
        ]),
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

  it('carries lines stored before migration 0028 into one row per upload and employee, in period order', async () => {
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
      expect(result.appliedTags).toContain('0028_payroll_periods');
      const rows = await owner.select().from(payrollPeriods);
      expect(rows).toEqual([
        {
          brokerId,
          uploadId,
          employeeId,
          employerId,
          firstPeriodStart: '2026-01-05',
          lastPeriodEnd: '2026-01-25',
          periodStarts: ['2026-01-05', '2026-01-12', '2026-01-19'],
          periodEnds: ['2026-01-11', '2026-01-18', '2026-01-25'],
          yearUnits: [52, 52, 52],
          grossCents: [80_000, 81_000, 82_000],
          employeeCents: [0, 0, 0],
          employerCents: [100, 0, 0],
          arrangements: ['scheme', 'none', 'prsa'],
          schemeIds: [schemeId, null, null],
        },
      ]);
      const left = rowsOf<{ name: string | null }>(
        await owner.execute(sql`select to_regclass('payroll_lines') :: text as name`),
      );
      expect(left[0]?.name).toBeNull();
    } finally {
      await t.dispose();
    }
  });
});
