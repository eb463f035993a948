import { describe, expect, it } from 'vitest';
import {
  createPayrollRows,
  PAYROLL_PERSON_COLUMNS,
} from '../../src/server/modules/auto-enrolment/payroll-rows.js';
import { newPpsNumber, testPpsKeyring } from '../helpers/pps.js';

const BROKER = 'broker-of-the-payroll';
const SCHEME = 'scheme-of-the-employer';
const HEADINGS = [
  'PPS Number',
  'Date of Birth',
  'Period Start',
  'Period End',
  'Gross Pay',
  'Employee Pension',
  'Employer Pension',
  'Arrangement',
];

function reader() {
  let made = 0;
  const nextId = () => {
    made += 1;
    return `new-${made}`;
  };
  const rows = createPayrollRows(
    {
      brokerId: BROKER,
      employerId: 'employer',
      at: new Date('2026-11-25T12:00:00Z'),
      schemeIds: new Set([SCHEME]),
    },
    { ppsKeyring: testPpsKeyring, nextId },
  );
  expect(rows.readHeader(HEADINGS, 1)).toEqual([]);
  return rows;
}

/** A week of pay from `start` (YYYY-MM-DD, a Monday), as the file's cells. */
function week(pps: string, start: string, gross = '500.00', arrangement = ''): string[] {
  const end = new Date(Date.parse(`${start}T00:00:00Z`) + 6 * 86_400_000)
    .toISOString()
    .slice(0, 10);
  const pension = arrangement === '' ? '' : '15.00';
  return [pps, '1980-04-02', start, end, gross, pension, pension, arrangement];
}

/** The staged people as records of their columns, read back from the COPY lines. */
function staged(lines: Iterable<string>) {
  return [...lines].map((line) => {
    const values = line.replace(/\n$/, '').split('\t');
    return Object.fromEntries(
      PAYROLL_PERSON_COLUMNS.map((column, index) => [column, values[index]]),
    );
  });
}

describe('the rows of a payroll file, gathered by person', () => {
  it('stages each person once with their lines in period order, whatever order the file gives them in', () => {
    const rows = reader();
    const [anne, brian] = [newPpsNumber(), newPpsNumber()];
    const given = [
      week(anne, '2026-01-19', '300.00', SCHEME),
      week(brian, '2026-01-05'),
      week(anne, '2026-01-05', '100.00', 'prsa'),
      week(anne, '2026-01-12', '200.00'),
    ];
    given.forEach((cells, index) => {
      expect(rows.readRow(cells, index + 2)).toBeNull();
    });
    expect(rows.rowsToWrite).toBe(4);
    expect(rows.repeatedPeriods('PPS Number', 10)).toEqual({ issues: [], total: 0 });

    const [first, second] = staged(rows.people(new Map()));
    expect(first).toMatchObject({
      first_line: '2',
      stored_id: '\\N',
      lines: '{4,5,2}',
      first_period_start: '2026-01-05',
      last_period_end: '2026-01-25',
      period_starts: '{2026-01-05,2026-01-12,2026-01-19}',
      period_ends: '{2026-01-11,2026-01-18,2026-01-25}',
      gross_cents: '{10000,20000,30000}',
      employee_cents: '{1500,0,1500}',
      arrangements: '{prsa,none,scheme}',
      scheme_ids: `{NULL,NULL,"${SCHEME}"}`,
    });
    expect(second).toMatchObject({ lines: '{3}', period_starts: '{2026-01-05}' });
  });

  it('sorts a person given in reverse period order, thousands of lines long', () => {
    const rows = reader();
    const pps = newPpsNumber();
    const weeks = 3_000;
    for (let index = 0; index < weeks; index += 1) {
      const start = new Date(Date.UTC(2100, 0, 4) - index * 7 * 86_400_000);
      expect(rows.readRow(week(pps, start.toISOString().slice(0, 10)), index + 2)).toBeNull();
    }
    const [person] = staged(rows.people(new Map()));
    const starts = String(person?.period_starts).slice(1, -1).split(',');
    expect(starts).toHaveLength(weeks);
    expect(starts).toEqual([...starts].sort());
    expect(person?.lines).toMatch(new RegExp(`^\\{${weeks + 1},${weeks},`));
  });

  it('names every repeat of a person’s pay period by line, with the line that gave it first', () => {
    const rows = reader();
    const [anne, brian] = [newPpsNumber(), newPpsNumber()];
    const given = [
      week(anne, '2026-01-05'),
      week(brian, '2026-01-05'),
      week(anne, '2026-01-12'),
      week(anne, '2026-01-05', '999.00'),
      week(brian, '2026-01-05'),
      week(anne, '2026-01-05'),
    ];
    given.forEach((cells, index) => {
      rows.readRow(cells, index + 2);
    });
    const found = rows.repeatedPeriods('PPS Number', 2);
    expect(found.total).toBe(3);
    expect(found.issues).toEqual([
      {
        line: 5,
        column: 'PPS Number',
        code: 'duplicate_in_file',
        message: 'is the same person and pay period as on line 2',
      },
      {
        line: 6,
        column: 'PPS Number',
        code: 'duplicate_in_file',
        message: 'is the same person and pay period as on line 3',
      },
    ]);
  });

  it('stages a person the employer already has under the stored id, without sealing the number again', () => {
    const rows = reader();
    const [known, unknown] = [newPpsNumber(), newPpsNumber()];
    rows.readRow(week(known, '2026-01-05'), 2);
    rows.readRow(week(unknown, '2026-01-05'), 3);
    const stored = new Map([[testPpsKeyring.lookup(BROKER, known), 'stored-employee']]);
    const [first, second] = staged(rows.people(stored));
    expect(first).toMatchObject({ stored_id: 'stored-employee', pps_encrypted: '\\N' });
    expect(second).toMatchObject({ stored_id: '\\N', id: 'new-2' });
    expect(
      testPpsKeyring.open(
        { encrypted: second?.pps_encrypted as string, keyId: second?.pps_key_id as string },
        { tenantId: BROKER, memberId: 'new-2' },
      ),
    ).toBe(unknown);
  });

  it('keeps no line of a row it refuses', () => {
    const rows = reader();
    const issues = rows.readRow(week(newPpsNumber(), '2026-01-05', '-5.00'), 2);
    expect(issues).toEqual([expect.objectContaining({ line: 2, code: 'negative_amount' })]);
    expect(rows.rowsToWrite).toBe(0);
    expect(staged(rows.people(new Map()))).toEqual([]);
  });
});
