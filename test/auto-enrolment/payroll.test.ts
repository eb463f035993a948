import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AE_REASONS,
  AE_RULES,
  AE_STATUS_LABELS,
  AE_STATUS_MEANINGS,
  AE_STATUSES,
  type AeStatus,
} from '../../src/contracts/auto-enrolment-rules.js';
import {
  auditLog,
  members,
  payrollEmployees,
  payrollUploadLines,
  payrollUploads,
  schemes,
} from '../../src/server/platform/db/schema.js';
import { previewCsv } from '../../src/web/pages/imports/csvPreview.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { payrollLinesIn as linesIn, ownerOf } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createMember,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';
import {
  csvFile,
  getAs,
  leakedPpsNumbers,
  upload,
  withWrongCheckLetter,
} from '../helpers/imports.js';
import { flowing, readPdf } from '../helpers/pdf-text.js';
import { newPpsNumber, testPpsKeyring } from '../helpers/pps.js';

/**
 * An employer's payroll for the auto-enrolment assessment (docs/imports.md, "Payroll"):
 * all rows or none, people matched by their PPS lookup hash and never by opening a number,
 * erased with the upload that named them, and every report audited with ids and counts only.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ now: () => new Date('2026-04-02T09:00:00Z') });
});
afterAll(async () => {
  expect(leakedPpsNumbers(t.logs.text())).toEqual([]);
  await t.close();
});

const HEADINGS = [
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
] as const;
type PayrollRow = Partial<Record<(typeof HEADINGS)[number], string>>;

/** The 13 weekly periods ending 04/01/2026 … 29/03/2026: the window ending 31/03/2026. */
const WEEKS = Array.from({ length: 13 }, (_, index) => {
  const end = new Date(Date.UTC(2026, 0, 4 + 7 * index));
  const start = new Date(end.getTime() - 6 * 86_400_000);
  return { start: start.toISOString().slice(0, 10), end: end.toISOString().slice(0, 10) };
});

/** Thirteen weeks of pay for one person: €800 a week (€41,600 a year) unless told. */
function weeksOf(pps: string, fields: PayrollRow = {}, weeks = WEEKS): PayrollRow[] {
  return weeks.map((week) => ({
    'PPS Number': pps,
    'First Name': 'Aoife',
    'Last Name': 'Ní Bhriain',
    'Date of Birth': '12/04/1985',
    'Period Start': week.start,
    'Period End': week.end,
    'Gross Pay': '800.00',
    ...fields,
  }));
}

const payrollCsv = (rows: readonly PayrollRow[]) =>
  csvFile(HEADINGS, rows as ReadonlyArray<Record<string, string>>);

async function employerWithStaff() {
  const brokerId = await createBroker(t.database);
  const employerId = await createEmployer(t.database, brokerId);
  const schemeId = await createScheme(t.database, { id: employerId, brokerId });
  const admin = await createUser(t.database, { brokerId, role: 'BrokerAdmin' });
  const employerAdmin = await createUser(t.database, {
    brokerId,
    employerId,
    role: 'EmployerAdmin',
  });
  return { brokerId, employerId, schemeId, admin, employerAdmin };
}

const importUrl = (employerId: string) => `/api/employers/${employerId}/payroll/import`;
const assessmentUrl = (employerId: string, asOf = '2026-03-31') =>
  `/api/employers/${employerId}/auto-enrolment?asOf=${asOf}`;

const employeesOf = (employerId: string) =>
  ownerOf(t.database)
    .select()
    .from(payrollEmployees)
    .where(eq(payrollEmployees.employerId, employerId));
const linesOf = async (employerId: string) =>
  (
    await ownerOf(t.database)
      .select({ n: linesIn })
      .from(payrollUploadLines)
      .where(eq(payrollUploadLines.employerId, employerId))
  )[0]?.n ?? 0;

/** A refused upload stored nothing of its file, and is kept as refused with its issue count. */
async function expectRefusedWhole(employerId: string, importId: string, issueCount: number) {
  expect(await employeesOf(employerId)).toHaveLength(0);
  expect(await linesOf(employerId)).toBe(0);
  const [stored] = await ownerOf(t.database)
    .select()
    .from(payrollUploads)
    .where(eq(payrollUploads.id, importId));
  expect(stored).toMatchObject({ status: 'rejected', issueCount });
}

async function deleteAs(user: UserRow, url: string) {
  return t.app.inject({
    method: 'DELETE',
    url,
    remoteAddress: uniqueClientAddress(),
    headers: { authorization: `Bearer ${await t.tokenFor(user)}` },
  });
}

describe('a payroll upload', () => {
  it('is written whole, one employee a person, and assessed against the members it matches', async () => {
    const { brokerId, employerId, schemeId, employerAdmin } = await employerWithStaff();
    const member = await createMember(t.database, { brokerId, employerId, schemeId });
    const stranger = newPpsNumber();
    const young = newPpsNumber();
    const rows = [
      // The member pays 5% and the employer 5% through payroll: at the standard.
      ...weeksOf(member.ppsNumber, {
        'Employee Pension': '40.00',
        'Employer Pension': '40.00',
        Arrangement: schemeId,
      }),
      ...weeksOf(stranger, { 'First Name': '', 'Last Name': '' }),
      ...weeksOf(young, { 'Date of Birth': '01/06/2004' }),
    ];
    const answer = await upload(t, employerAdmin, importUrl(employerId), payrollCsv(rows));
    expect(answer.statusCode).toBe(201);
    expect(answer.json()).toMatchObject({
      status: 'succeeded',
      rowsRead: 39,
      rowsWritten: 39,
      employeesWritten: 3,
      issueCount: 0,
    });
    expect(await employeesOf(employerId)).toHaveLength(3);

    const assessed = await getAs(t, employerAdmin, assessmentUrl(employerId));
    expect(assessed.statusCode).toBe(200);
    const view = assessed.json();
    expect(view).toMatchObject({
      asOf: '2026-03-31',
      windowStart: '2026-01-01',
      windowEnd: '2026-03-31',
      totals: {
        exempt: 1,
        likely_exempt: 0,
        below_standard: 0,
        likely_enrolled: 1,
        not_eligible: 1,
      },
    });
    const byStatus = Object.fromEntries(
      view.employees.map((employee: { status: string }) => [employee.status, employee]),
    );
    expect(byStatus.exempt).toMatchObject({
      memberId: member.id,
      firstName: 'Aoife',
      reasons: [
        {
          code: 'meets_minimum_standard',
          message: AE_REASONS.meets_minimum_standard,
          label: 'law',
          citation: AE_RULES.minimumStandard.citation,
        },
      ],
    });
    // No name given, none reported: the report holds only what the employer gave.
    expect(byStatus.likely_enrolled).not.toHaveProperty('firstName');
    expect(byStatus.likely_enrolled).not.toHaveProperty('memberId');
    expect(byStatus.not_eligible.reasons[0].code).toBe('under_age_band');
    expect(leakedPpsNumbers(assessed.body)).toEqual([]);
  });

  it('finds one person in a number written with other spacing or case, in one file and across two', async () => {
    const { employerId, admin } = await employerWithStaff();
    const pps = newPpsNumber();
    const spaced = `${pps.slice(0, 4)} ${pps.slice(4, 7)} ${pps.slice(7).toLowerCase()}`;
    const first = await upload(
      t,
      admin,
      importUrl(employerId),
      payrollCsv([
        ...weeksOf(pps, {}, WEEKS.slice(0, 2)),
        ...weeksOf(spaced, {}, WEEKS.slice(2, 4)),
      ]),
    );
    expect(first.json()).toMatchObject({ status: 'succeeded', employeesWritten: 1 });
    const second = await upload(
      t,
      admin,
      importUrl(employerId),
      payrollCsv(weeksOf(pps.toLowerCase(), {}, WEEKS.slice(4, 6))),
    );
    expect(second.json()).toMatchObject({ status: 'succeeded', employeesWritten: 0 });
    const stored = await employeesOf(employerId);
    expect(stored).toHaveLength(1);
    // Sealed as a member's number is: the ciphertext opens to the number for this person only.
    const person = stored[0] as (typeof stored)[number];
    expect(person.ppsEncrypted).not.toContain(pps);
    expect(
      testPpsKeyring.open(
        { encrypted: person.ppsEncrypted, keyId: person.ppsKeyId },
        { tenantId: person.brokerId, memberId: person.id },
      ),
    ).toBe(pps);
    expect(await linesOf(employerId)).toBe(6);
  });

  it('keeps a known person’s sealed number and leaves them unwritten unless the employer now says something else', async () => {
    const { employerId, admin } = await employerWithStaff();
    const pps = newPpsNumber();
    const send = (rows: PayrollRow[]) => upload(t, admin, importUrl(employerId), payrollCsv(rows));
    expect((await send(weeksOf(pps, {}, WEEKS.slice(0, 2)))).statusCode).toBe(201);
    const [first] = await employeesOf(employerId);
    expect((await send(weeksOf(pps, {}, WEEKS.slice(2, 4)))).json()).toMatchObject({
      status: 'succeeded',
      employeesWritten: 0,
    });
    const [same] = await employeesOf(employerId);
    expect(same).toEqual(first);
    expect(
      (await send(weeksOf(pps, { 'Last Name': 'Murphy', 'First Name': '' }, WEEKS.slice(4, 6))))
        .statusCode,
    ).toBe(201);
    const [renamed] = await employeesOf(employerId);
    expect(renamed).toMatchObject({
      id: first?.id,
      ppsEncrypted: first?.ppsEncrypted,
      ppsKeyId: first?.ppsKeyId,
      firstName: 'Aoife',
      lastName: 'Murphy',
    });
  });

  it('never matches a member of another firm with the same PPS number', async () => {
    const { employerId, admin } = await employerWithStaff();
    const other = await employerWithStaff();
    const member = await createMember(t.database, {
      brokerId: other.brokerId,
      employerId: other.employerId,
      schemeId: other.schemeId,
    });
    expect(
      (await upload(t, admin, importUrl(employerId), payrollCsv(weeksOf(member.ppsNumber))))
        .statusCode,
    ).toBe(201);
    const view = (await getAs(t, admin, assessmentUrl(employerId))).json();
    expect(view.employees).toHaveLength(1);
    expect(view.employees[0]).not.toHaveProperty('memberId');
    expect(view.employees[0].status).toBe('likely_enrolled');
  });

  it('is refused whole, every bad row named by its line, and nothing is written', async () => {
    const { employerId, admin } = await employerWithStaff();
    const rows = weeksOf(newPpsNumber());
    rows[1] = { ...rows[1], 'PPS Number': withWrongCheckLetter(rows[1]?.['PPS Number'] as string) };
    rows[4] = { ...rows[4], 'Gross Pay': '12.345' };
    rows[6] = { ...rows[6], 'Employee Pension': '10.00' };
    rows[8] = { ...rows[8], Arrangement: 'no-such-scheme' };
    rows[10] = { ...rows[10], 'Period Start': rows[9]?.['Period Start'] as string };
    rows[11] = { ...rows[11], 'First Name': 'Ao\u0000ife' };
    const answer = await upload(t, admin, importUrl(employerId), payrollCsv(rows));
    expect(answer.statusCode).toBe(400);
    const body = answer.json();
    expect(
      body.issues.map((issue: { line: number; code: string }) => [issue.line, issue.code]),
    ).toEqual([
      [3, 'invalid_pps_number'],
      [6, 'invalid_amount'],
      [8, 'arrangement_required'],
      [10, 'unknown_arrangement'],
      [13, 'control_character'],
    ]);
    expect(leakedPpsNumbers(answer.body)).toEqual([]);
    await expectRefusedWhole(employerId, body.importId, 5);
  });

  it('names a gross pay written 2,600 without quotes on its line, as the preview does, not the arrangement its shifted cells seem to lack', async () => {
    const { employerId, admin } = await employerWithStaff();
    const lines = payrollCsv(weeksOf(newPpsNumber(), { 'Gross Pay': '2600.00' })).split('\n');
    // Line 4: the comma splits the pay in two, 600 lands under Employee Pension and the empty
    // Arrangement cell is pushed past the last heading.
    lines[3] = (lines[3] as string).replace(',2600.00,', ',2,600,');
    const file = lines.join('\n');
    const answer = await upload(t, admin, importUrl(employerId), file);
    expect(answer.statusCode).toBe(400);
    const body = answer.json();
    const shifted = {
      line: 4,
      column: 'column K',
      code: 'too_many_cells',
      message:
        'is beyond the last heading: this row has 11 cells but the file has 10 headings, so its values may have moved to the right. Put a value with a comma in it, such as 2,600, in quotes or write it without the comma, and remove any extra commas at the end of the line',
    };
    expect(body.issues).toEqual([shifted]);
    expect((await previewCsv(new Blob([file]))).problems).toEqual([shifted]);
    await expectRefusedWhole(employerId, body.importId, 1);
  });

  it('takes a scheme by its name as payroll exports write it, or by its id; an unknown or shared name is a problem on its line', async () => {
    const { brokerId, employerId, schemeId, admin } = await employerWithStaff();
    const member = await createMember(t.database, { brokerId, employerId, schemeId });
    // The scheme is "Acme Staff Pension Scheme": any case, spaces around and between its words.
    const byName = await upload(
      t,
      admin,
      importUrl(employerId),
      payrollCsv(
        weeksOf(member.ppsNumber, {
          'Employee Pension': '40.00',
          'Employer Pension': '40.00',
          Arrangement: '  ACME staff  pension SCHEME ',
        }),
      ),
    );
    expect(byName.statusCode, byName.body).toBe(201);
    const view = (await getAs(t, admin, assessmentUrl(employerId))).json();
    expect(view.employees[0]).toMatchObject({
      memberId: member.id,
      status: 'exempt',
      reasons: [{ code: 'meets_minimum_standard' }],
    });

    // Two live schemes of one name, whatever its case: only their ids tell them apart.
    const twinId = await createScheme(t.database, { id: employerId, brokerId }, 'Acme AVC Scheme');
    await createScheme(t.database, { id: employerId, brokerId }, 'ACME AVC SCHEME');
    const refused = await upload(
      t,
      admin,
      importUrl(employerId),
      payrollCsv([
        ...weeksOf(
          newPpsNumber(),
          { 'Employee Pension': '10.00', Arrangement: 'Acme AVC Scheme' },
          WEEKS.slice(0, 1),
        ),
        ...weeksOf(
          newPpsNumber(),
          { 'Employee Pension': '10.00', Arrangement: 'Acme Pension' },
          WEEKS.slice(0, 1),
        ),
        ...weeksOf(
          newPpsNumber(),
          { 'Employee Pension': '10.00', Arrangement: twinId },
          WEEKS.slice(0, 1),
        ),
      ]),
    );
    expect(refused.statusCode).toBe(400);
    expect(
      refused
        .json()
        .issues.map(
          (issue: { line: number; column: string; code: string; message: string }) =>
            `${issue.line} ${issue.column} ${issue.code}: ${issue.message}`,
        ),
    ).toEqual([
      '2 Arrangement ambiguous_arrangement: is the name of more than one scheme of this employer: give the scheme’s id instead',
      '3 Arrangement unknown_arrangement: is not the name or id of a scheme of this employer: give the scheme’s name or id, PRSA, or leave it empty',
    ]);
  });

  it('reports every problem at once: each unknown and missing heading with every row’s problems', async () => {
    const { employerId, admin } = await employerWithStaff();
    // No Gross Pay column, two the service does not read.
    const headings = [...HEADINGS.filter((heading) => heading !== 'Gross Pay'), 'Dept', 'Grade'];
    const rows: Array<Record<string, string | undefined>> = weeksOf(
      newPpsNumber(),
      {},
      WEEKS.slice(0, 3),
    ).map((row) => ({ ...row, Dept: 'Sales', Grade: '4' }));
    rows[1] = { ...rows[1], 'Date of Birth': '31/04/1985' };
    rows[2] = { ...rows[2], 'PPS Number': '' };
    const answer = await upload(
      t,
      admin,
      importUrl(employerId),
      csvFile(headings, rows as ReadonlyArray<Record<string, string>>),
    );
    expect(answer.statusCode).toBe(400);
    expect(
      answer
        .json()
        .issues.map(
          (issue: { line: number; column: string; code: string }) =>
            `${issue.line} ${issue.column} ${issue.code}`,
        ),
    ).toEqual([
      '1 Dept unknown_column',
      '1 Grade unknown_column',
      '1 Gross Pay missing_column',
      '3 Date of Birth invalid_date',
      '4 PPS Number required',
    ]);
    expect(await employeesOf(employerId)).toHaveLength(0);
  });

  it('refuses a pay period given twice, in the file or by an earlier upload, by line', async () => {
    const { employerId, admin } = await employerWithStaff();
    const pps = newPpsNumber();
    const rows = weeksOf(pps, {}, WEEKS.slice(0, 3));
    const twice = await upload(
      t,
      admin,
      importUrl(employerId),
      payrollCsv([...rows, rows[1] as PayrollRow]),
    );
    expect(twice.json().issues).toEqual([
      expect.objectContaining({ line: 5, code: 'duplicate_in_file', column: 'PPS Number' }),
    ]);
    expect((await upload(t, admin, importUrl(employerId), payrollCsv(rows))).statusCode).toBe(201);
    const again = await upload(
      t,
      admin,
      importUrl(employerId),
      payrollCsv([...weeksOf(pps, {}, WEEKS.slice(3, 4)), rows[2] as PayrollRow]),
    );
    expect(again.json().issues).toEqual([
      expect.objectContaining({ line: 3, code: 'already_uploaded', column: 'Period Start' }),
    ]);
  });
});

describe('the list of uploads', () => {
  it('lists an employer’s uploads newest first, page by page, with who uploaded and what each covers, unaudited: it names no one', async () => {
    const { brokerId, employerId, admin, employerAdmin } = await employerWithStaff();
    const pps = newPpsNumber();
    const first = await upload(
      t,
      employerAdmin,
      importUrl(employerId),
      payrollCsv([
        ...weeksOf(pps, {}, WEEKS.slice(0, 2)),
        ...weeksOf(newPpsNumber(), {}, WEEKS.slice(0, 1)),
      ]),
    );
    expect(first.statusCode).toBe(201);
    const refused = await upload(
      t,
      admin,
      importUrl(employerId),
      payrollCsv(weeksOf(pps, { 'Gross Pay': 'lots' }, WEEKS.slice(2, 3))),
    );
    expect(refused.statusCode).toBe(400);
    const second = await upload(
      t,
      admin,
      importUrl(employerId),
      payrollCsv(weeksOf(pps, {}, WEEKS.slice(2, 5))),
    );
    expect(second.statusCode).toBe(201);
    // Another employer's upload is never listed here.
    const other = await employerWithStaff();
    await upload(t, other.admin, importUrl(other.employerId), payrollCsv(weeksOf(newPpsNumber())));

    // The suite's clock stands still: the three uploads are spread a minute apart here.
    const uploadIds = [first.json().id, refused.json().importId, second.json().id] as string[];
    for (const [minute, id] of uploadIds.entries()) {
      await ownerOf(t.database)
        .update(payrollUploads)
        .set({ createdAt: new Date(Date.UTC(2026, 3, 2, 9, minute)) })
        .where(eq(payrollUploads.id, id));
    }

    const listUrl = `/api/employers/${employerId}/payroll/imports`;
    const whole = await getAs(t, employerAdmin, listUrl);
    expect(whole.statusCode).toBe(200);
    const items = whole.json().items;
    expect(items.map((item: { id: string }) => item.id)).toEqual([...uploadIds].reverse());
    expect(whole.json().nextCursor).toBeNull();
    expect(items[0]).toMatchObject({
      status: 'succeeded',
      uploadedBy: { userId: admin.id, name: admin.name, role: 'BrokerAdmin' },
      rowsRead: 3,
      rowsWritten: 3,
      employees: 1,
      payPeriods: 3,
      periodStart: WEEKS[2]?.start,
      periodEnd: WEEKS[4]?.end,
    });
    expect(items[1]).toMatchObject({
      status: 'rejected',
      rowsWritten: 0,
      issueCount: 1,
      employees: 0,
      payPeriods: 0,
      periodStart: null,
      periodEnd: null,
    });
    expect(items[2]).toMatchObject({
      uploadedBy: { userId: employerAdmin.id, name: employerAdmin.name, role: 'EmployerAdmin' },
      rowsWritten: 3,
      employees: 2,
      payPeriods: 2,
      periodStart: WEEKS[0]?.start,
      periodEnd: WEEKS[1]?.end,
    });
    expect(whole.body).not.toContain('@');
    expect(leakedPpsNumbers(whole.body)).toEqual([]);

    const pageOne = await getAs(t, admin, `${listUrl}?limit=2`);
    expect(pageOne.json().items).toEqual(items.slice(0, 2));
    const pageTwo = await getAs(
      t,
      admin,
      `${listUrl}?limit=2&cursor=${encodeURIComponent(pageOne.json().nextCursor)}`,
    );
    expect(pageTwo.json()).toEqual({ items: items.slice(2), nextCursor: null });

    // Only the uploads themselves are recorded; reading the list is not
    // (docs/decisions/0130-what-reads-are-audited.md).
    const records = await ownerOf(t.database)
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.tenantId, brokerId));
    expect(new Set(records.map((record) => record.action))).toEqual(
      new Set(['payroll_upload.succeeded', 'payroll_upload.rejected']),
    );
  });
});

describe('deleting an upload', () => {
  it('erases the employees only it named, PPS number and all, and keeps an audit of ids and counts', async () => {
    const { brokerId, employerId, admin } = await employerWithStaff();
    const kept = newPpsNumber();
    const erased = newPpsNumber();
    await upload(t, admin, importUrl(employerId), payrollCsv(weeksOf(kept, {}, WEEKS.slice(0, 1))));
    const second = await upload(
      t,
      admin,
      importUrl(employerId),
      payrollCsv([
        ...weeksOf(kept, {}, WEEKS.slice(1, 2)),
        ...weeksOf(erased, {}, WEEKS.slice(1, 2)),
      ]),
    );
    const uploadId = second.json().id as string;
    expect(await employeesOf(employerId)).toHaveLength(2);

    const gone = await deleteAs(admin, `/api/employers/${employerId}/payroll/imports/${uploadId}`);
    expect(gone.statusCode).toBe(204);
    const left = await employeesOf(employerId);
    expect(left).toHaveLength(1);
    expect(left[0]?.ppsLookup).toBe(testPpsKeyring.lookup(brokerId, kept));
    expect(await linesOf(employerId)).toBe(1);
    const records = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, brokerId), eq(auditLog.action, 'payroll_upload.deleted')));
    expect(records).toHaveLength(1);
    expect(records[0]?.newState).toEqual({ linesErased: 2, employeesErased: 1 });
    const everything = JSON.stringify(
      await ownerOf(t.database).select().from(auditLog).where(eq(auditLog.tenantId, brokerId)),
    );
    expect(everything).not.toContain(erased);
    expect(everything).not.toContain('Ní Bhriain');
    expect(
      (await deleteAs(admin, `/api/employers/${employerId}/payroll/imports/${uploadId}`))
        .statusCode,
    ).toBe(404);
  });
});

describe('the reports', () => {
  it('export CSV that a spreadsheet cannot take for a formula', async () => {
    const { employerId, admin } = await employerWithStaff();
    await upload(
      t,
      admin,
      importUrl(employerId),
      payrollCsv(
        weeksOf(newPpsNumber(), { 'First Name': '=HYPERLINK("http://x")', 'Last Name': '+1' }),
      ),
    );
    const csv = await getAs(
      t,
      admin,
      `/api/employers/${employerId}/auto-enrolment/export?asOf=2026-03-31`,
    );
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const line = csv.body.split('\r\n')[1] as string;
    expect(line).toContain(`"'=HYPERLINK(""http://x"")"`);
    expect(line).toContain(`,'+1,`);
    expect(line).not.toMatch(/,=|,\+|,-|,@/);
  });

  it('give a tagged PDF summary in English with the fonts embedded', async () => {
    const { employerId, admin } = await employerWithStaff();
    await upload(t, admin, importUrl(employerId), payrollCsv(weeksOf(newPpsNumber())));
    const pdf = await getAs(
      t,
      admin,
      `/api/employers/${employerId}/auto-enrolment/summary.pdf?asOf=2026-03-31`,
    );
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const raw = pdf.rawPayload.toString('latin1');
    expect(raw.startsWith('%PDF-1.7')).toBe(true);
    expect(raw).toContain('/StructTreeRoot');
    expect(raw).toContain('/MarkInfo');
    expect(raw).toMatch(/\/Lang \(en-IE\)/);
    expect(raw).toContain('NotoSans');
  });

  it('name each status in the CSV export and the PDF summary as the pages name it', async () => {
    const { brokerId, employerId, schemeId, admin } = await employerWithStaff();
    const member = await createMember(t.database, { brokerId, employerId, schemeId });
    await upload(
      t,
      admin,
      importUrl(employerId),
      payrollCsv([
        ...weeksOf(member.ppsNumber, {
          'Employee Pension': '8.00',
          'Employer Pension': '8.00',
          Arrangement: schemeId,
        }),
        ...weeksOf(newPpsNumber()),
      ]),
    );
    const view = (await getAs(t, admin, assessmentUrl(employerId))).json() as {
      totals: Record<AeStatus, number>;
      employees: Array<{ employeeId: string; status: AeStatus }>;
    };
    const statuses = new Set(view.employees.map((employee) => employee.status));
    expect(statuses.size).toBe(2);

    const csv = await getAs(
      t,
      admin,
      `/api/employers/${employerId}/auto-enrolment/export?asOf=2026-03-31`,
    );
    const rows = csv.body.trim().split('\r\n').slice(1);
    for (const employee of view.employees) {
      const row = rows.find((line) => line.startsWith(`${employee.employeeId},`));
      expect(row?.split(',')[4]).toBe(AE_STATUS_LABELS[employee.status]);
    }

    const pdf = await getAs(
      t,
      admin,
      `/api/employers/${employerId}/auto-enrolment/summary.pdf?asOf=2026-03-31`,
    );
    const text = flowing(readPdf(pdf.rawPayload).text);
    for (const status of AE_STATUSES) {
      expect(text).toContain(`${AE_STATUS_LABELS[status]}: ${view.totals[status]}`);
      // What each status means, as the pages explain it.
      expect(text).toContain(
        flowing(`${AE_STATUS_LABELS[status]}: ${AE_STATUS_MEANINGS[status]}.`),
      );
    }
    // The Act is named once, its sections together; counts in words.
    expect(text.split('Automatic Enrolment Retirement Savings System Act 2024')).toHaveLength(2);
    expect(text).toContain('s.50(2)–(3) and s.51');
    expect(text).toContain('For the one member below the standard');
    // The CSV's shortfall says what period it is over.
    expect(csv.body.split('\r\n')[0]).toContain('Shortfall EUR over the three months assessed');
  });

  it('compare the cost of the standard with My Future Fund for below-standard members', async () => {
    const { brokerId, employerId, schemeId, admin } = await employerWithStaff();
    const member = await createMember(t.database, { brokerId, employerId, schemeId });
    await upload(
      t,
      admin,
      importUrl(employerId),
      payrollCsv(
        weeksOf(member.ppsNumber, {
          'Employee Pension': '8.00',
          'Employer Pension': '8.00',
          Arrangement: schemeId,
        }),
      ),
    );
    const view = (await getAs(t, admin, assessmentUrl(employerId))).json();
    // €10,400 over the quarter: employer at least €156, total at least €364; €104 each paid.
    expect(view.employees[0]).toMatchObject({
      status: 'below_standard',
      shortfallCents: 15_600,
      reasons: [{ code: 'employer_below_minimum' }, { code: 'total_below_minimum' }],
    });
    const cost = (
      await getAs(t, admin, `/api/employers/${employerId}/auto-enrolment/cost?asOf=2026-03-31`)
    ).json();
    expect(cost.employees).toBe(1);
    expect(cost.years).toHaveLength(10);
    // A year: pay €41,600; the standard needs €1,456 in all, of which the employee pays €416.
    // Each year by its calendar year: year 1 of the rate schedule is 2026.
    expect(cost.years[0]).toMatchObject({
      year: 2026,
      myFutureFundCents: 62_400,
      minimumStandardCents: 145_600 - 41_600 - 41_600,
    });
    expect(cost.years[9]).toMatchObject({ year: 2035, myFutureFundCents: 249_600 });
  });

  it('count a DB member as exempt with contributions through payroll, and only likely exempt without', async () => {
    const { brokerId, employerId, schemeId, admin } = await employerWithStaff();
    await ownerOf(t.database).update(schemes).set({ type: 'DB' }).where(eq(schemes.id, schemeId));
    const paying = await createMember(t.database, { brokerId, employerId, schemeId });
    const unseen = await createMember(t.database, { brokerId, employerId, schemeId });
    await upload(
      t,
      admin,
      importUrl(employerId),
      payrollCsv([
        ...weeksOf(paying.ppsNumber, { 'Employee Pension': '40.00', Arrangement: schemeId }),
        ...weeksOf(unseen.ppsNumber),
      ]),
    );
    const view = (await getAs(t, admin, assessmentUrl(employerId))).json();
    const byMember = Object.fromEntries(
      view.employees.map((employee: { memberId: string }) => [employee.memberId, employee]),
    );
    expect(byMember[paying.id]).toMatchObject({
      status: 'exempt',
      reasons: [{ code: 'defined_benefit' }],
    });
    // s.51 tests contributions notified through payroll, not membership: confirm the reporting.
    expect(byMember[unseen.id]).toMatchObject({
      status: 'likely_exempt',
      reasons: [
        {
          code: 'defined_benefit_unconfirmed',
          label: 'law',
          citation: AE_RULES.exemptEmployment.citation,
        },
      ],
    });
    expect(view.totals).toMatchObject({ exempt: 1, likely_exempt: 1 });
  });

  it('give the broker every employer’s totals, and leave the audit log alone: counts are no one’s data', async () => {
    const { brokerId, employerId, schemeId, admin } = await employerWithStaff();
    const second = await createEmployer(t.database, brokerId);
    await upload(t, admin, importUrl(employerId), payrollCsv(weeksOf(newPpsNumber())));
    await upload(
      t,
      admin,
      importUrl(second),
      payrollCsv(weeksOf(newPpsNumber(), { Arrangement: 'PRSA' })),
    );
    const before = await ownerOf(t.database)
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(eq(auditLog.tenantId, brokerId));
    const overview = await getAs(t, admin, '/api/auto-enrolment/overview?asOf=2026-03-31');
    expect(overview.statusCode).toBe(200);
    const rows = overview.json().employers;
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.totals.likely_enrolled).toBe(1);
    const after = await ownerOf(t.database)
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(eq(auditLog.tenantId, brokerId));
    expect(after).toHaveLength(before.length);
    expect(schemeId).toBeTruthy();
  });

  it('audit the reads that show people, the assessment and its CSV, and not the counts and sums', async () => {
    const { brokerId, employerId, admin } = await employerWithStaff();
    const uploaded = await upload(
      t,
      admin,
      importUrl(employerId),
      payrollCsv(weeksOf(newPpsNumber())),
    );
    expect(uploaded.statusCode).toBe(201);
    const reads = [
      assessmentUrl(employerId),
      `/api/employers/${employerId}/auto-enrolment/export?asOf=2026-03-31`,
      `/api/employers/${employerId}/auto-enrolment/summary.pdf?asOf=2026-03-31`,
      `/api/employers/${employerId}/auto-enrolment/cost?asOf=2026-03-31`,
      `/api/employers/${employerId}/payroll/imports`,
      `/api/employers/${employerId}/payroll/imports/${uploaded.json().id}`,
      '/api/auto-enrolment/overview?asOf=2026-03-31',
    ];
    for (const url of reads) expect((await getAs(t, admin, url)).statusCode, url).toBe(200);
    const records = await ownerOf(t.database)
      .select({ action: auditLog.action, newState: auditLog.newState })
      .from(auditLog)
      .where(eq(auditLog.tenantId, brokerId))
      .orderBy(auditLog.chainIndex);
    expect(records.map((record) => record.action)).toEqual([
      'payroll_upload.succeeded',
      'auto_enrolment.viewed',
      'auto_enrolment.exported',
    ]);
    expect(records[1]?.newState).toMatchObject({ asOf: '2026-03-31', employees: 1 });
  });
});

describe('who sees an employer’s payroll', () => {
  it('is the employer’s staff and its broker; another employer’s admin finds nothing, a member is refused', async () => {
    const { brokerId, employerId, schemeId, admin } = await employerWithStaff();
    await upload(t, admin, importUrl(employerId), payrollCsv(weeksOf(newPpsNumber())));
    const employerUser = await createUser(t.database, {
      brokerId,
      employerId,
      role: 'EmployerUser',
    });
    const otherAdmin = await createUser(t.database, { brokerId, role: 'EmployerAdmin' });
    const member = await createMember(t.database, { brokerId, employerId, schemeId });
    const memberUser = await createUser(t.database, {
      brokerId,
      employerId,
      role: 'Member',
      memberId: member.id,
    });
    expect((await getAs(t, employerUser, assessmentUrl(employerId))).statusCode).toBe(200);
    expect((await getAs(t, otherAdmin, assessmentUrl(employerId))).statusCode).toBe(404);
    expect((await getAs(t, memberUser, assessmentUrl(employerId))).statusCode).toBe(403);
    expect(
      (await upload(t, employerUser, importUrl(employerId), payrollCsv(weeksOf(newPpsNumber()))))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await ownerOf(t.database)
          .select({ n: count() })
          .from(members)
          .where(eq(members.employerId, employerId))
      )[0]?.n,
    ).toBe(1);
  });
});
