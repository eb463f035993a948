import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, contributions } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import { createMember, createScheme } from '../helpers/factories.js';
import { schemeFixture } from '../helpers/fixtures.js';
import { csvFile, leakedPpsNumbers, upload, withWrongCheckLetter } from '../helpers/imports.js';
import { newPpsNumber } from '../helpers/pps.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  expect(leakedPpsNumbers(t.logs.text())).toEqual([]);
  await t.close();
});

/** A scheme with three members, its EmployerAdmin, and a member of another scheme of the employer. */
async function schemeWithMembers() {
  const { brokerId, employerId, schemeId, members, hr } = await schemeFixture(t.database, {
    members: 3,
    users: { hr: 'EmployerAdmin' },
  });
  const otherSchemeId = await createScheme(t.database, { id: employerId, brokerId }, 'Other');
  const people = members;
  const elsewhere = await createMember(t.database, {
    brokerId,
    employerId,
    schemeId: otherSchemeId,
  });
  return {
    brokerId,
    schemeId,
    people,
    elsewhere,
    hr,
    url: `/api/schemes/${schemeId}/contributions/import`,
  };
}

const storedOf = (schemeId: string) =>
  ownerOf(t.database)
    .select()
    .from(contributions)
    .where(eq(contributions.schemeId, schemeId))
    .orderBy(asc(contributions.period), asc(contributions.memberId), asc(contributions.kind));

describe('a contributions file', () => {
  it('records one row per amount, by PPS number or member id, with the import and its uploader', async () => {
    const { brokerId, schemeId, people, hr, url } = await schemeWithMembers();
    const [a, b, c] = people as [(typeof people)[0], (typeof people)[0], (typeof people)[0]];
    const file = csvFile(
      ['PPS No', 'Member ID', 'Pay Period', 'Employee', 'Employer', 'AVC'],
      [
        {
          'PPS No': a.ppsNumber,
          'Pay Period': '2026-01',
          Employee: '250.00',
          Employer: '500',
          AVC: '',
        },
        {
          'Member ID': b.id,
          'Pay Period': '2026-01',
          Employee: '1,250.5',
          Employer: '0',
          AVC: '100.01',
        },
        { 'PPS No': c.ppsNumber, 'Member ID': c.id, 'Pay Period': '2026-01', AVC: '0.99' },
        {
          'PPS No': a.ppsNumber.toLowerCase(),
          'Pay Period': '2026-02',
          Employee: '250',
          Employer: '500',
        },
      ],
    );
    const response = await upload(t, hr, url, file);
    expect(response.statusCode, response.body).toBe(201);
    const view = response.json();
    expect(view).toMatchObject({
      kind: 'contributions',
      status: 'succeeded',
      rowsRead: 4,
      rowsWritten: 8,
      createdBy: hr.id,
    });
    const stored = await storedOf(schemeId);
    expect(
      stored.map((row) => [row.period, row.memberId, row.kind, Number(row.amountCents)]),
    ).toEqual(
      [
        ['2026-01', a.id, 'employee', 25_000],
        ['2026-01', a.id, 'employer', 50_000],
        ['2026-01', b.id, 'avc', 10_001],
        ['2026-01', b.id, 'employee', 125_050],
        ['2026-01', b.id, 'employer', 0],
        ['2026-01', c.id, 'avc', 99],
        ['2026-02', a.id, 'employee', 25_000],
        ['2026-02', a.id, 'employer', 50_000],
      ].sort((x, y) => `${x[0]}${x[1]}${x[2]}`.localeCompare(`${y[0]}${y[1]}${y[2]}`)),
    );
    for (const row of stored) {
      expect(row).toMatchObject({ importId: view.id, createdBy: hr.id, brokerId });
      expect(row.id).toMatch(/^[a-z][0-9a-z]{23}$/);
    }
    const audit = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, view.id));
    expect(audit).toEqual([
      expect.objectContaining({
        action: 'import.succeeded',
        actorId: hr.id,
        actorType: 'EmployerAdmin',
        newState: expect.objectContaining({ kind: 'contributions', rowsWritten: 8 }),
      }),
    ]);
    expect(leakedPpsNumbers(JSON.stringify(audit))).toEqual([]);
  });

  it('reports every bad row with its line and writes nothing', async () => {
    const { schemeId, people, elsewhere, hr, url } = await schemeWithMembers();
    const [a, b] = people as [(typeof people)[0], (typeof people)[0]];
    const recorded = await upload(
      t,
      hr,
      url,
      csvFile(
        ['PPSN', 'Period', 'Employee'],
        [{ PPSN: b.ppsNumber, Period: '2026-03', Employee: '10' }],
      ),
    );
    expect(recorded.statusCode).toBe(201);
    const headings = ['PPSN', 'Member ID', 'Period', 'Employee', 'Employer', 'AVC'];
    const file = csvFile(headings, [
      { PPSN: a.ppsNumber, Period: '2026-03', Employee: '100' }, // 2: fine
      { PPSN: newPpsNumber(), Period: '2026-03', Employee: '100' }, // 3: no such member
      { PPSN: elsewhere.ppsNumber, Period: '2026-03', Employee: '100' }, // 4: member of another scheme
      { 'Member ID': 'nosuchmember0000000000000', Period: '2026-03', Employer: '1' }, // 5
      { 'Member ID': a.id, Period: '2026-03', Employee: '5' }, // 6: same member, period, kind as 2
      { PPSN: b.ppsNumber, Period: '2026-03', Employee: '10' }, // 7: already recorded
      { PPSN: a.ppsNumber, Period: '2026-04', Employee: '-10' }, // 8
      { PPSN: a.ppsNumber, Period: '2026-05', Employer: '12.345' }, // 9
      { PPSN: a.ppsNumber, Period: '13/2026', AVC: '1' }, // 10: no month 13
      { Period: '2026-06', Employee: '1' }, // 11: no member named
      { PPSN: a.ppsNumber, Period: '2026-07' }, // 12: no amount
      { PPSN: withWrongCheckLetter(a.ppsNumber), Period: '2026-08', AVC: '1' }, // 13
      { PPSN: b.ppsNumber, 'Member ID': a.id, Period: '2026-09', AVC: '1' }, // 14: disagree
      { PPSN: a.ppsNumber, Period: '', Employee: '1' }, // 15
    ]);
    const before = (await storedOf(schemeId)).length;
    const response = await upload(t, hr, url, file);
    expect(response.statusCode).toBe(400);
    expect(
      response
        .json()
        .issues.map(
          (issue: { line: number; column: string | null; code: string }) =>
            `${issue.line} ${issue.column} ${issue.code}`,
        ),
    ).toEqual([
      '3 PPSN unknown_member',
      '4 PPSN unknown_member',
      '5 Member ID unknown_member',
      '6 Employee duplicate_in_file',
      '7 Employee already_recorded',
      '8 Employee negative_amount',
      '9 Employer invalid_amount',
      '10 Period invalid_period',
      '11 PPSN required',
      '12 null no_amount',
      '13 PPSN invalid_pps_number',
      '14 Member ID unknown_member',
      '15 Period required',
    ]);
    expect(response.json().issues[3].message).toBe('repeats the member, period and kind of line 2');
    expect(leakedPpsNumbers(response.body)).toEqual([]);
    expect(await storedOf(schemeId)).toHaveLength(before);
  });

  it('takes periods as MM/YYYY too, as payroll exports write them', async () => {
    const { schemeId, people, hr, url } = await schemeWithMembers();
    const [a, b] = people as [(typeof people)[0], (typeof people)[0]];
    const response = await upload(
      t,
      hr,
      url,
      csvFile(
        ['PPSN', 'Period', 'Employee'],
        [
          { PPSN: a.ppsNumber, Period: '03/2026', Employee: '100' },
          { PPSN: b.ppsNumber, Period: '3/2026', Employee: '200' },
          { PPSN: a.ppsNumber, Period: '12/2025', Employee: '300' },
          { PPSN: b.ppsNumber, Period: '2026-04', Employee: '400' },
        ],
      ),
    );
    expect(response.statusCode, response.body).toBe(201);
    const byPeriodAndMember = (x: unknown[], y: unknown[]) =>
      `${x[0]}${x[1]}`.localeCompare(`${y[0]}${y[1]}`);
    expect(
      (await storedOf(schemeId))
        .map((row) => [row.period, row.memberId, Number(row.amountCents)])
        .sort(byPeriodAndMember),
    ).toEqual(
      [
        ['2025-12', a.id, 30_000],
        ['2026-03', a.id, 10_000],
        ['2026-03', b.id, 20_000],
        ['2026-04', b.id, 40_000],
      ].sort(byPeriodAndMember),
    );
  });

  it('reports a period that names no month, or a two-digit year, by line, writing nothing', async () => {
    const { schemeId, people, hr, url } = await schemeWithMembers();
    const [a] = people as [(typeof people)[0]];
    const periods = ['03/2026', '13/2026', '3/26', '00/2026', '2026-13', '03-2026'];
    const response = await upload(
      t,
      hr,
      url,
      csvFile(
        ['PPSN', 'Period', 'Employee'],
        periods.map((period) => ({ PPSN: a.ppsNumber, Period: period, Employee: '1' })),
      ),
    );
    expect(response.statusCode).toBe(400);
    const issues = response.json().issues as Array<{
      line: number;
      column: string;
      code: string;
      message: string;
    }>;
    expect(issues).toEqual(
      [3, 4, 5, 6, 7].map((line) => ({
        line,
        column: 'Period',
        code: 'invalid_period',
        message: 'Enter a pay period as YYYY-MM or MM/YYYY',
      })),
    );
    expect(await storedOf(schemeId)).toEqual([]);
  });

  it('refuses an amount with a decimal comma (12,50, 1,23) as ambiguous, never read as thousands, writing nothing', async () => {
    const { schemeId, people, hr, url } = await schemeWithMembers();
    const [a, b] = people as [(typeof people)[0], (typeof people)[0]];
    const response = await upload(
      t,
      hr,
      url,
      csvFile(
        ['PPSN', 'Period', 'Employee', 'Employer'],
        [
          { PPSN: a.ppsNumber, Period: '2026-05', Employee: '12.50', Employer: '1,250.00' }, // 2
          { PPSN: b.ppsNumber, Period: '2026-05', Employee: '12,50', Employer: '€1,23' }, // 3
          { PPSN: a.ppsNumber, Period: '2026-06', Employee: '1.234,56' }, // 4
        ],
      ),
    );
    expect(response.statusCode).toBe(400);
    const ambiguous = {
      code: 'ambiguous_amount',
      message:
        'Write the cents after a full stop, like 12.50: a comma only separates thousands, as in 1,250.00',
    };
    expect(response.json().issues).toEqual([
      { line: 3, column: 'Employee', ...ambiguous },
      { line: 3, column: 'Employer', ...ambiguous },
      { line: 4, column: 'Employee', ...ambiguous },
    ]);
    expect(await storedOf(schemeId)).toEqual([]);

    const fixed = await upload(
      t,
      hr,
      url,
      csvFile(
        ['PPSN', 'Period', 'Employee'],
        [
          { PPSN: a.ppsNumber, Period: '2026-05', Employee: '12.50' },
          { PPSN: b.ppsNumber, Period: '2026-05', Employee: '1,250.00' },
        ],
      ),
    );
    expect(fixed.statusCode, fixed.body).toBe(201);
    expect((await storedOf(schemeId)).map((row) => Number(row.amountCents)).sort()).toEqual(
      [1_250, 125_000].sort(),
    );
  });

  it('needs a member column, a period and at least one amount column', async () => {
    const { hr, url } = await schemeWithMembers();
    const response = await upload(
      t,
      hr,
      url,
      csvFile(['Name', 'Month'], [{ Name: 'x', Month: '2026-01' }]),
    );
    expect(response.statusCode).toBe(400);
    expect(
      response
        .json()
        .issues.map((issue: { code: string; column: string }) => `${issue.column} ${issue.code}`),
    ).toEqual(['Employee missing_column', 'Name unknown_column', 'PPSN missing_column']);
  });

  it('reports every problem at once: each unknown and missing heading, every row’s problems, and those found against the scheme', async () => {
    const { hr, url, people, schemeId } = await schemeWithMembers();
    const [a] = people as [(typeof people)[0]];
    // No period column, two unknown ones: each row is still checked by the columns there are.
    const response = await upload(
      t,
      hr,
      url,
      csvFile(
        ['PPSN', 'Employee', 'Notes', 'Cost Centre'],
        [
          { PPSN: a.ppsNumber, Employee: '25.00' },
          { PPSN: withWrongCheckLetter(a.ppsNumber), Employee: 'twelve' },
          { PPSN: '', Employee: '10.00' },
        ],
      ),
    );
    expect(response.statusCode).toBe(400);
    const found = (
      response.json().issues as Array<{ line: number; column: string | null; code: string }>
    ).map((issue) => `${issue.line} ${issue.column} ${issue.code}`);
    expect(found).toEqual([
      '1 Cost Centre unknown_column',
      '1 Notes unknown_column',
      '1 Period missing_column',
      '3 Employee invalid_amount',
      '3 PPSN invalid_pps_number',
      '4 PPSN required',
    ]);
    expect(leakedPpsNumbers(response.body)).toEqual([]);

    // Every column there, one unknown: the rows are checked against the scheme as well.
    const withUnknown = await upload(
      t,
      hr,
      url,
      csvFile(
        ['PPSN', 'Period', 'Employee', 'Notes'],
        [
          { PPSN: a.ppsNumber, Period: '2026-02', Employee: '25.00' },
          { PPSN: newPpsNumber(), Period: '2026-02', Employee: '25.00' },
        ],
      ),
    );
    expect(withUnknown.statusCode).toBe(400);
    expect(
      withUnknown
        .json()
        .issues.map(
          (issue: { line: number; column: string; code: string }) =>
            `${issue.line} ${issue.column} ${issue.code}`,
        ),
    ).toEqual(['1 Notes unknown_column', '3 PPSN unknown_member']);
    expect(await storedOf(schemeId)).toEqual([]);
  });

  it('takes an Arrangement column naming this scheme, by its name in any case and spacing or by its id, or left empty', async () => {
    const { schemeId, people, hr, url } = await schemeWithMembers();
    const [a, b, c] = people as [(typeof people)[0], (typeof people)[0], (typeof people)[0]];
    const response = await upload(
      t,
      hr,
      url,
      csvFile(
        ['PPSN', 'Period', 'Employee', 'pension SCHEME'],
        [
          {
            PPSN: a.ppsNumber,
            Period: '2026-03',
            Employee: '10',
            'pension SCHEME': 'Acme Staff Pension Scheme',
          },
          {
            PPSN: b.ppsNumber,
            Period: '2026-03',
            Employee: '20',
            'pension SCHEME': '  ACME staff  pension scheme ',
          },
          { PPSN: c.ppsNumber, Period: '2026-03', Employee: '30', 'pension SCHEME': schemeId },
          { PPSN: a.ppsNumber, Period: '2026-04', Employee: '40', 'pension SCHEME': '' },
        ],
      ),
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ status: 'succeeded', rowsRead: 4, rowsWritten: 4 });
    expect(
      (await storedOf(schemeId)).map((row) => [row.period, row.memberId, Number(row.amountCents)]),
    ).toEqual(
      [
        ['2026-03', a.id, 1_000],
        ['2026-03', b.id, 2_000],
        ['2026-03', c.id, 3_000],
        ['2026-04', a.id, 4_000],
      ].sort((x, y) => `${x[0]}${x[1]}`.localeCompare(`${y[0]}${y[1]}`)),
    );
  });

  it('refuses a row whose Arrangement names another scheme, or none, by its line, with every other problem, writing nothing', async () => {
    const { schemeId, people, hr, url } = await schemeWithMembers();
    const [a, b] = people as [(typeof people)[0], (typeof people)[0]];
    const response = await upload(
      t,
      hr,
      url,
      csvFile(
        ['PPSN', 'Period', 'Employee', 'Arrangement'],
        [
          {
            PPSN: a.ppsNumber,
            Period: '2026-05',
            Employee: '10',
            Arrangement: 'acme staff pension scheme',
          }, // 2: fine
          { PPSN: b.ppsNumber, Period: '2026-05', Employee: '20', Arrangement: 'Other' }, // 3: the employer's other scheme
          { PPSN: a.ppsNumber, Period: '2026-06', Employee: '-5', Arrangement: 'PRSA' }, // 4: two problems
          { PPSN: newPpsNumber(), Period: '2026-06', Employee: '5', Arrangement: '' }, // 5: no such member
        ],
      ),
    );
    expect(response.statusCode).toBe(400);
    const issues = response.json().issues as Array<{
      line: number;
      column: string | null;
      code: string;
      message: string;
    }>;
    expect(issues.map((issue) => `${issue.line} ${issue.column} ${issue.code}`)).toEqual([
      '3 Arrangement other_arrangement',
      '4 Arrangement other_arrangement',
      '4 Employee negative_amount',
      '5 PPSN unknown_member',
    ]);
    expect(issues[0]?.message).toBe(
      'names an arrangement other than this scheme: give this scheme’s name or id, or leave it empty',
    );
    expect(leakedPpsNumbers(response.body)).toEqual([]);
    expect(await storedOf(schemeId)).toEqual([]);
  });
});
