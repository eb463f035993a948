import { describe, expect, it } from 'vitest';
import { FIELD_MESSAGES } from '../../src/contracts/plain-english.js';
import {
  PAY_LINES_FORMAT,
  type PayLine,
  readPayLines,
} from '../../src/server/modules/auto-enrolment/pay-lines.rules.js';
import {
  createPayrollRows,
  PAYROLL_PERSON_COLUMNS,
  type PayrollRowReader,
  type StoredPerson,
} from '../../src/server/modules/auto-enrolment/payroll-rows.rules.js';
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
      schemes: [{ id: SCHEME, name: 'Acme Staff Pension' }],
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

/** The upload's lines as it would store them, read back, each with its person's id. */
async function storedLines(rows: PayrollRowReader) {
  const document = rows.document();
  const employeeIds = rows.employeeIds();
  const lines: Array<PayLine & { id: string }> = [];
  readPayLines(
    { format: PAY_LINES_FORMAT, lineCount: document.lineCount, lines: await document.lines },
    { people: employeeIds.length, schemes: document.schemeIds.length },
    (line) => lines.push({ ...line, id: employeeIds[line.person] as string }),
  );
  return { document: { ...document, employeeIds }, lines };
}

const storedAs = (id: string): StoredPerson => ({
  id,
  firstName: null,
  lastName: null,
  dateOfBirth: '1980-04-02',
});

describe('the rows of a payroll file, gathered by person', () => {
  it('stages each person once with their lines in period order, whatever order the file gives them in', async () => {
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
    expect(first).toMatchObject({ id: 'new-1', stored_id: '\\N', date_of_birth: '1980-04-02' });
    expect(second).toMatchObject({ id: 'new-2' });
    const { document, lines } = await storedLines(rows);
    expect(document).toMatchObject({
      lineCount: 4,
      payPeriods: 3,
      firstPeriodStart: '2026-01-05',
      lastPeriodEnd: '2026-01-25',
      employeeIds: ['new-1', 'new-2'],
      schemeIds: [SCHEME],
    });
    expect(lines).toEqual([
      expect.objectContaining({
        id: 'new-1',
        periodStart: 20260105,
        periodEnd: 20260111,
        grossCents: 10_000,
        employeeCents: 1_500,
        arrangement: -1,
      }),
      expect.objectContaining({
        id: 'new-1',
        periodStart: 20260112,
        grossCents: 20_000,
        employeeCents: 0,
        arrangement: -2,
      }),
      expect.objectContaining({
        id: 'new-1',
        periodStart: 20260119,
        periodEnd: 20260125,
        grossCents: 30_000,
        employerCents: 1_500,
        arrangement: 0,
      }),
      expect.objectContaining({ id: 'new-2', periodStart: 20260105, grossCents: 50_000 }),
    ]);
  });

  it('sorts a person given in reverse period order, thousands of lines long', async () => {
    const rows = reader();
    const pps = newPpsNumber();
    const weeks = 3_000;
    for (let index = 0; index < weeks; index += 1) {
      const start = new Date(Date.UTC(2100, 0, 4) - index * 7 * 86_400_000);
      expect(rows.readRow(week(pps, start.toISOString().slice(0, 10)), index + 2)).toBeNull();
    }
    expect(staged(rows.people(new Map()))).toHaveLength(1);
    const starts = (await storedLines(rows)).lines.map((line) => line.periodStart);
    expect(starts).toHaveLength(weeks);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    const earliest = new Date(Date.UTC(2100, 0, 4) - (weeks - 1) * 7 * 86_400_000);
    expect(starts[0]).toBe(Number(earliest.toISOString().slice(0, 10).replaceAll('-', '')));
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

  it('stages a person the employer already has under the stored id, without sealing the number again', async () => {
    const rows = reader();
    const [known, unknown] = [newPpsNumber(), newPpsNumber()];
    rows.readRow(week(known, '2026-01-05'), 2);
    rows.readRow(week(unknown, '2026-01-05'), 3);
    const stored = new Map([
      [testPpsKeyring.lookup(BROKER, known), { ...storedAs('stored-employee'), firstName: 'Áine' }],
    ]);
    const [first, second] = staged(rows.people(stored));
    // The file gives no name: the stored one stands, so the known person is not staged at all.
    expect(first).toMatchObject({ stored_id: '\\N', id: 'new-1' });
    expect(second).toBeUndefined();
    expect((await storedLines(rows)).document.employeeIds).toEqual(['stored-employee', 'new-1']);
    expect(
      testPpsKeyring.open(
        { encrypted: first?.pps_encrypted as string, keyId: first?.pps_key_id as string },
        { tenantId: BROKER, memberId: 'new-1' },
      ),
    ).toBe(unknown);
  });

  it('stages a stored person again only where the file says something new of them', () => {
    const rows = reader();
    const known = newPpsNumber();
    const named = [...week(known, '2026-01-05')];
    rows.readRow(week(known, '2026-01-05'), 2);
    const stored = new Map([[testPpsKeyring.lookup(BROKER, known), storedAs('stored-employee')]]);
    expect(staged(rows.people(stored))).toEqual([]);

    const moved = reader();
    named[1] = '1980-04-03';
    moved.readRow(named, 2);
    expect(staged(moved.people(stored))).toEqual([
      expect.objectContaining({
        id: 'stored-employee',
        stored_id: 'stored-employee',
        pps_encrypted: '\\N',
        date_of_birth: '1980-04-03',
      }),
    ]);
  });

  it('names each line giving a stored person a pay period an earlier upload gave', () => {
    const rows = reader();
    const [known, unknown] = [newPpsNumber(), newPpsNumber()];
    rows.readRow(week(known, '2026-01-05'), 2);
    rows.readRow(week(unknown, '2026-01-12'), 3);
    rows.readRow(week(known, '2026-01-12'), 4);
    const stored = new Map([[testPpsKeyring.lookup(BROKER, known), storedAs('stored-employee')]]);
    [...rows.people(stored)];
    // The new person's id is new: another person's earlier periods never count against them.
    const earlier = new Map([
      ['stored-employee', new Set([20260112])],
      ['new-1', new Set([20260112])],
    ]);
    expect(rows.alreadyGiven(earlier, 'Period Start', 10)).toEqual({
      issues: [
        {
          line: 4,
          column: 'Period Start',
          code: 'already_uploaded',
          message: 'is a pay period of this person that an earlier upload already gave',
        },
      ],
      total: 1,
    });
  });

  it('keeps no line of a row it refuses', () => {
    const rows = reader();
    const issues = rows.readRow(week(newPpsNumber(), '2026-01-05', '-5.00'), 2);
    expect(issues).toEqual([expect.objectContaining({ line: 2, code: 'negative_amount' })]);
    expect(rows.rowsToWrite).toBe(0);
    expect(staged(rows.people(new Map()))).toEqual([]);
  });

  it('refuses gross pay with a decimal comma as ambiguous, by the rule a form reads euro with', () => {
    const rows = reader();
    for (const [line, gross] of [
      [2, '500,50'],
      [3, '1,23'],
    ] as const) {
      expect(rows.readRow(week(newPpsNumber(), '2026-01-05', gross), line)).toEqual([
        expect.objectContaining({
          line,
          code: 'ambiguous_amount',
          message: FIELD_MESSAGES.ambiguousEuroAmount,
        }),
      ]);
    }
    expect(rows.rowsToWrite).toBe(0);
    expect(staged(rows.people(new Map()))).toEqual([]);
  });
});
