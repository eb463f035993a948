import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, contributions, imports, members } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import { createMember, createScheme } from '../helpers/factories.js';
import { schemeFixture } from '../helpers/fixtures.js';
import {
  csvFile,
  getAs,
  leakedPpsNumbers,
  MEMBER_HEADINGS,
  memberRow,
  membersCsv,
  upload,
  withWrongCheckLetter,
} from '../helpers/imports.js';
import { newPpsNumber, testPpsKeyring } from '../helpers/pps.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ now: () => new Date('2026-11-04T09:00:00Z') });
});
afterAll(async () => {
  // No PPS number any test of this file made up reached a log line.
  expect(leakedPpsNumbers(t.logs.text())).toEqual([]);
  await t.close();
});

async function schemeWithAdmin() {
  const { brokerId, employerId, schemeId, admin } = await schemeFixture(t.database, {
    users: { admin: 'BrokerAdmin' },
  });
  return { brokerId, employerId, schemeId, admin, url: `/api/schemes/${schemeId}/members/import` };
}

const membersOf = async (schemeId: string) =>
  (
    await ownerOf(t.database)
      .select({ n: count() })
      .from(members)
      .where(eq(members.schemeId, schemeId))
  )[0]?.n ?? 0;
const contributionCount = async () =>
  (await ownerOf(t.database).select({ n: count() }).from(contributions))[0]?.n ?? 0;
const auditOf = (brokerId: string) =>
  ownerOf(t.database).select().from(auditLog).where(eq(auditLog.tenantId, brokerId));

describe('a members file with one bad row in 10,000', () => {
  it('is refused whole, naming that line; fixed, it is written whole', async () => {
    const { brokerId, schemeId, admin, url } = await schemeWithAdmin();
    const rows = Array.from({ length: 10_000 }, () => memberRow());
    const badIndex = 5_123;
    const good = rows[badIndex]?.PPSN as string;
    rows[badIndex] = {
      ...(rows[badIndex] as (typeof rows)[number]),
      PPSN: withWrongCheckLetter(good),
    };
    const contributionsBefore = await contributionCount();

    const refused = await upload(t, admin, url, membersCsv(rows));
    expect(refused.statusCode).toBe(400);
    const answer = refused.json();
    expect(answer).toMatchObject({ error: 'Validation failed', issueCount: 1 });
    // The heading row is line 1, so the row at index i is on line i + 2.
    expect(answer.issues).toEqual([
      {
        line: badIndex + 2,
        column: 'PPSN',
        code: 'invalid_pps_number',
        message: 'Enter a PPS number: 7 digits and a matching check letter',
      },
    ]);
    expect(leakedPpsNumbers(refused.body)).toEqual([]);
    expect(await membersOf(schemeId)).toBe(0);
    expect(await contributionCount()).toBe(contributionsBefore);
    const rejectedAudit = await auditOf(brokerId);
    expect(rejectedAudit.map((record) => record.action)).toEqual(['import.rejected']);
    const stored = await getAs(t, admin, `/api/imports/${answer.importId}`);
    expect(stored.json()).toMatchObject({
      status: 'rejected',
      rowsRead: 10_000,
      rowsWritten: 0,
      issueCount: 1,
      issues: answer.issues,
    });

    rows[badIndex] = { ...(rows[badIndex] as (typeof rows)[number]), PPSN: good };
    const file = membersCsv(rows);
    const accepted = await upload(t, admin, url, file);
    expect(accepted.statusCode, accepted.body).toBe(201);
    const view = accepted.json();
    expect(view).toMatchObject({
      kind: 'members',
      status: 'succeeded',
      schemeId,
      brokerId,
      rowsRead: 10_000,
      rowsWritten: 10_000,
      issueCount: 0,
      issues: null,
      fileSha256: createHash('sha256').update(file).digest('hex'),
      fileBytes: Buffer.byteLength(file),
    });
    expect(leakedPpsNumbers(accepted.body)).toEqual([]);

    const stored_ = await ownerOf(t.database)
      .select()
      .from(members)
      .where(eq(members.schemeId, schemeId));
    expect(stored_).toHaveLength(10_000);
    const opened = new Set(
      stored_.map((member) =>
        testPpsKeyring.open(
          { encrypted: member.ppsEncrypted, keyId: member.ppsKeyId },
          { tenantId: brokerId, memberId: member.id },
        ),
      ),
    );
    expect(opened).toEqual(new Set(rows.map((row) => row.PPSN)));
    for (const member of stored_.slice(0, 50)) {
      expect(member.ppsLookup).toMatch(/^[0-9a-f]{64}$/);
      expect(member.ppsEncrypted).not.toContain(member.ppsLookup);
    }

    const audit = await auditOf(brokerId);
    expect(audit.map((record) => record.action).sort()).toEqual([
      'import.rejected',
      'import.succeeded',
    ]);
    const succeeded = audit.find((record) => record.action === 'import.succeeded');
    expect(succeeded).toMatchObject({
      entityType: 'import',
      entityId: view.id,
      actorId: admin.id,
      newState: {
        kind: 'members',
        schemeId,
        status: 'succeeded',
        fileSha256: view.fileSha256,
        fileBytes: view.fileBytes,
        rowsRead: 10_000,
        rowsWritten: 10_000,
        issueCount: 0,
      },
    });
    expect(leakedPpsNumbers(JSON.stringify(audit))).toEqual([]);
  }, 120_000);
});

describe('every bad row, each with its line and reason', () => {
  it('reports the rules of a member and the duplicates together, and writes nothing', async () => {
    const { brokerId, employerId, schemeId, admin, url } = await schemeWithAdmin();
    const existing = await createMember(t.database, { brokerId, employerId, schemeId });
    const first = memberRow();
    const rows = [
      first, // line 2
      memberRow({ PPSN: withWrongCheckLetter(newPpsNumber()) }), // 3
      memberRow({ 'Date of Birth': '1985-02-30' }), // 4
      memberRow({ Salary: '-100' }), // 5
      memberRow({ Salary: '55k' }), // 6
      memberRow({ 'First Name': '' }), // 7
      memberRow({ PPSN: first.PPSN.toLowerCase() }), // 8: the number of line 2, as typed
      memberRow({ PPSN: existing.ppsNumber }), // 9
      memberRow({ 'Date Joined': '31/02/2015' }), // 10
      memberRow({ Email: 'not an address' }), // 11
      memberRow({ Status: 'dead' }), // 12
      memberRow({ 'Date of Birth': '2030-01-01' }), // 13
      memberRow({ 'Date of Birth': '1990-01-01', 'Date Joined': '1989-12-31' }), // 14
      memberRow({ PPSN: '' }), // 15
      memberRow({ 'Date Joined': 'soon' }), // 16
      memberRow({ Surname: 'x'.repeat(101) }), // 17
    ];
    const response = await upload(t, admin, url, membersCsv(rows));
    expect(response.statusCode).toBe(400);
    const summary = response
      .json()
      .issues.map(
        (issue: { line: number; column: string; code: string }) =>
          `${issue.line} ${issue.column} ${issue.code}`,
      );
    expect(summary).toEqual([
      '3 PPSN invalid_pps_number',
      '4 Date of Birth invalid_date',
      '5 Salary negative_amount',
      '6 Salary invalid_amount',
      '7 First Name required',
      '8 PPSN duplicate_in_file',
      '9 PPSN already_member',
      '10 Date Joined invalid_date',
      '11 Email invalid_email',
      '12 Status invalid_status',
      // Born in the future, and so also joined before being born, as the API says too.
      '13 Date Joined invalid_date',
      '13 Date of Birth invalid_date',
      '14 Date Joined invalid_date',
      '15 PPSN required',
      '16 Date Joined invalid_date',
      '17 Surname too_long',
    ]);
    const issues = response.json().issues as Array<{ line: number; message: string }>;
    expect(issues.find((issue) => issue.line === 8)?.message).toBe(
      'is the same PPS number as on line 2',
    );
    expect(issues.filter((issue) => issue.line === 13).map((issue) => issue.message)).toEqual([
      'The date joined cannot be before the date of birth',
      'The date of birth cannot be in the future',
    ]);
    expect(leakedPpsNumbers(response.body)).toEqual([]);
    expect(response.body).not.toContain('55k');
    expect(await membersOf(schemeId)).toBe(1);
  });

  it('names unknown and missing columns on the heading line', async () => {
    const { admin, url } = await schemeWithAdmin();
    const unknown = await upload(
      t,
      admin,
      url,
      csvFile(
        [
          'PPSN',
          'First Name',
          'Surname',
          'Date of Birth',
          'Date Joined',
          'Salary',
          'Favourite Colour',
        ],
        [memberRow() as unknown as Record<string, string>],
      ),
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().issues).toEqual([
      expect.objectContaining({ line: 1, column: 'Favourite Colour', code: 'unknown_column' }),
    ]);

    const missing = await upload(
      t,
      admin,
      url,
      csvFile(
        ['PPSN', 'First Name', 'Date of Birth', 'Date Joined'],
        [memberRow() as unknown as Record<string, string>],
      ),
    );
    expect(missing.json().issues).toEqual([
      expect.objectContaining({ line: 1, column: 'Salary', code: 'missing_column' }),
      expect.objectContaining({ line: 1, column: 'Surname', code: 'missing_column' }),
    ]);

    const twice = await upload(
      t,
      admin,
      url,
      csvFile(['PPSN', 'PPS No', 'First Name', 'Surname', 'DOB', 'Date Joined', 'Salary'], []),
    );
    expect(twice.json().issues).toEqual([
      expect.objectContaining({ line: null, code: 'no_rows' }),
      expect.objectContaining({ line: 1, column: 'PPS No', code: 'duplicate_column' }),
    ]);
  });

  it('reports every problem at once: each unknown and missing heading, and every row’s problems', async () => {
    const { admin, url, schemeId } = await schemeWithAdmin();
    const headings = [
      'PPSN',
      'First Name',
      'Date of Birth',
      'Date Joined',
      'Favourite Colour',
      'Shoe Size',
    ];
    const response = await upload(
      t,
      admin,
      url,
      csvFile(headings, [
        memberRow({ PPSN: withWrongCheckLetter(newPpsNumber()) }) as unknown as Record<
          string,
          string
        >,
        memberRow({ 'Date of Birth': '31/04/1985' }) as unknown as Record<string, string>,
        memberRow() as unknown as Record<string, string>,
      ]),
    );
    expect(response.statusCode).toBe(400);
    const found = (
      response.json().issues as Array<{ line: number; column: string; code: string }>
    ).map((issue) => `${issue.line} ${issue.column} ${issue.code}`);
    // The missing Surname and Salary once, on the heading line; never a "required" on each row.
    expect(found).toEqual([
      '1 Favourite Colour unknown_column',
      '1 Salary missing_column',
      '1 Shoe Size unknown_column',
      '1 Surname missing_column',
      '2 PPSN invalid_pps_number',
      '3 Date of Birth invalid_date',
    ]);
    expect(leakedPpsNumbers(response.body)).toEqual([]);
    expect(await membersOf(schemeId)).toBe(0);
  });

  it('reports an unknown heading with the problems found against the whole file', async () => {
    const { admin, url, schemeId } = await schemeWithAdmin();
    const twin = memberRow();
    const response = await upload(
      t,
      admin,
      url,
      csvFile(
        [...MEMBER_HEADINGS, 'Notes'],
        [
          twin as unknown as Record<string, string>,
          memberRow({ PPSN: twin.PPSN }) as unknown as Record<string, string>,
        ],
      ),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json().issues).toEqual([
      expect.objectContaining({ line: 1, column: 'Notes', code: 'unknown_column' }),
      expect.objectContaining({ line: 3, column: 'PPSN', code: 'duplicate_in_file' }),
    ]);
    expect(await membersOf(schemeId)).toBe(0);
  });

  it('never repeats a data row taken for headings', async () => {
    const { admin, url } = await schemeWithAdmin();
    const row = memberRow();
    const withoutHeadings = membersCsv([row, memberRow()]).split('\n').slice(1).join('\n');
    const response = await upload(t, admin, url, withoutHeadings);
    expect(response.statusCode).toBe(400);
    expect(leakedPpsNumbers(response.body)).toEqual([]);
    expect(response.body).not.toContain(row.Email);
    expect(response.json().issues).toContainEqual(
      expect.objectContaining({ line: 1, column: 'column A', code: 'unknown_column' }),
    );
  });

  it('refuses a file with headings and no rows, and an empty file', async () => {
    const { admin, url } = await schemeWithAdmin();
    const headingsOnly = await upload(t, admin, url, membersCsv([]));
    expect(headingsOnly.statusCode).toBe(400);
    expect(headingsOnly.json().issues).toEqual([expect.objectContaining({ code: 'no_rows' })]);
    const empty = await upload(t, admin, url, '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().issues).toEqual([expect.objectContaining({ line: 1, code: 'empty_file' })]);
  });
});

describe('what a file may look like', () => {
  it('takes heading aliases in any case, euro amounts, Irish dates and quoted cells', async () => {
    const { brokerId, schemeId, admin, url } = await schemeWithAdmin();
    const [one, two, three] = [memberRow(), memberRow(), memberRow()];
    const headings = [
      ' pps no. ',
      'FORENAME',
      'Last Name',
      'DOB',
      'E-mail',
      'Postal Address',
      'Join Date',
      'Annual Salary',
      'member status',
    ];
    const file = csvFile(headings, [
      {
        ' pps no. ': `${one?.PPSN.slice(0, 4)} ${one?.PPSN.slice(4).toLowerCase()}`,
        FORENAME: 'Seán',
        'Last Name': "O'Brien",
        DOB: '12/04/1985',
        'E-mail': 'sean@example.ie',
        'Postal Address': '1 Main Street,\nGalway',
        'Join Date': '2015-09-01',
        'Annual Salary': '55,000.00',
        'member status': 'Deferred',
      },
      {
        ' pps no. ': two?.PPSN as string,
        FORENAME: 'Niamh',
        'Last Name': 'Kelly',
        DOB: '1/9/1990',
        'E-mail': '',
        'Postal Address': '',
        'Join Date': '01/09/2020',
        'Annual Salary': '€42000.5',
        'member status': '',
      },
      {
        ' pps no. ': three?.PPSN as string,
        FORENAME: 'Ciara',
        'Last Name': 'Byrne',
        DOB: '1970-01-31',
        'E-mail': 'ciara@example.ie',
        'Postal Address': 'Tab\there \\ backslash',
        'Join Date': '2000-01-01',
        'Annual Salary': '0.07',
        'member status': 'retired',
      },
    ]);
    const response = await upload(t, admin, url, file);
    expect(response.statusCode, response.body).toBe(201);
    const stored = await ownerOf(t.database)
      .select()
      .from(members)
      .where(eq(members.schemeId, schemeId))
      .orderBy(members.firstName);
    expect(
      stored.map((member) => ({
        firstName: member.firstName,
        lastName: member.lastName,
        dateOfBirth: member.dateOfBirth,
        email: member.email,
        address: member.address,
        dateJoined: member.dateJoined,
        salaryCents: Number(member.salaryCents),
        status: member.status,
        pps: testPpsKeyring.open(
          { encrypted: member.ppsEncrypted, keyId: member.ppsKeyId },
          { tenantId: brokerId, memberId: member.id },
        ),
      })),
    ).toEqual([
      {
        firstName: 'Ciara',
        lastName: 'Byrne',
        dateOfBirth: '1970-01-31',
        email: 'ciara@example.ie',
        address: 'Tab\there \\ backslash',
        dateJoined: '2000-01-01',
        salaryCents: 7,
        status: 'retired',
        pps: three?.PPSN,
      },
      {
        firstName: 'Niamh',
        lastName: 'Kelly',
        dateOfBirth: '1990-09-01',
        email: null,
        address: null,
        dateJoined: '2020-09-01',
        salaryCents: 4_200_050,
        status: 'active',
        pps: two?.PPSN,
      },
      {
        firstName: 'Seán',
        lastName: "O'Brien",
        dateOfBirth: '1985-04-12',
        email: 'sean@example.ie',
        address: '1 Main Street,\nGalway',
        dateJoined: '2015-09-01',
        salaryCents: 5_500_000,
        status: 'deferred',
        pps: one?.PPSN,
      },
    ]);
  });

  it('takes a file Excel saved as Windows-1252 with its fadas, and refuses one that changes encoding part way, naming the line', async () => {
    const { schemeId, admin, url } = await schemeWithAdmin();
    const first = memberRow({ 'First Name': 'Seán' });
    const second = memberRow({ Surname: 'Ó Briain' });
    const text = membersCsv([first, second]);
    const windows1252 = Buffer.from(text, 'latin1');
    expect(windows1252.includes(0xe1)).toBe(true);
    const taken = await upload(t, admin, url, Readable.from([windows1252]));
    expect(taken.statusCode).toBe(201);
    const names = await ownerOf(t.database)
      .select({ firstName: members.firstName, lastName: members.lastName })
      .from(members)
      .where(eq(members.schemeId, schemeId));
    expect(names.map((name) => name.firstName)).toContain('Seán');
    expect(names.map((name) => name.lastName)).toContain('Ó Briain');

    // UTF-8 up to its third line, where an é is written as Windows-1252 writes it.
    const other = await schemeWithAdmin();
    const rows = [memberRow({ 'First Name': 'Seán' }), memberRow(), memberRow({ Address: 'Café' })];
    const [head, tail] = membersCsv(rows).split('Café') as [string, string];
    const mixed = Buffer.concat([
      Buffer.from(head),
      Buffer.from([0x43, 0x61, 0x66, 0xe9]),
      Buffer.from(tail),
    ]);
    const refused = await upload(t, other.admin, other.url, Readable.from([mixed]));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues).toEqual([
      {
        line: 4,
        column: null,
        code: 'not_utf8',
        message:
          'Line 4 is not UTF-8 text, though the lines before it are: save the file again as "CSV UTF-8 (Comma delimited)"',
      },
    ]);
    expect(await membersOf(other.schemeId)).toBe(0);

    // A byte Windows-1252 leaves undefined reads as an invisible C1 control: refused at its cell.
    const third = await schemeWithAdmin();
    const [before, after] = membersCsv([memberRow({ 'First Name': 'AoXife' })]).split('AoXife') as [
      string,
      string,
    ];
    const undefinedByte = Buffer.concat([
      Buffer.from(before, 'latin1'),
      Buffer.from([0x41, 0x6f, 0x81, 0x69, 0x66, 0x65]),
      Buffer.from(after, 'latin1'),
    ]);
    const control = await upload(t, third.admin, third.url, Readable.from([undefinedByte]));
    expect(control.statusCode).toBe(400);
    expect(control.json().issues).toMatchObject([
      { line: 2, column: 'First Name', code: 'control_character' },
    ]);
    expect(await membersOf(third.schemeId)).toBe(0);
  });

  it('takes the salary in cents from a Salary Cents column, but not beside Salary', async () => {
    const { schemeId, admin, url } = await schemeWithAdmin();
    const row = memberRow();
    const headings = [
      'PPSN',
      'First Name',
      'Surname',
      'Date of Birth',
      'Date Joined',
      'Salary Cents',
    ];
    const response = await upload(
      t,
      admin,
      url,
      csvFile(headings, [
        { ...row, 'Salary Cents': '5500001' } as unknown as Record<string, string>,
      ]),
    );
    expect(response.statusCode, response.body).toBe(201);
    const [stored] = await ownerOf(t.database)
      .select()
      .from(members)
      .where(eq(members.schemeId, schemeId));
    expect(Number(stored?.salaryCents)).toBe(5_500_001);

    const both = await upload(
      t,
      admin,
      url,
      csvFile([...headings, 'Salary'], [memberRow() as unknown as Record<string, string>]),
    );
    expect(both.json().issues).toEqual([
      expect.objectContaining({ line: 1, column: 'Salary Cents', code: 'duplicate_column' }),
    ]);
  });

  it('takes an Arrangement column naming this scheme by its name in any case or its id, or empty, and refuses another scheme’s name by its line', async () => {
    const { brokerId, employerId, schemeId, admin, url } = await schemeWithAdmin();
    await createScheme(t.database, { id: employerId, brokerId }, 'Other');
    const headings = [...MEMBER_HEADINGS, 'Arrangement'];
    const rows = (arrangements: string[]) =>
      arrangements.map((Arrangement) => ({ ...memberRow(), Arrangement }));
    const refused = await upload(
      t,
      admin,
      url,
      csvFile(headings, rows(['ACME STAFF PENSION SCHEME', 'Other', schemeId, ''])),
    );
    expect(refused.statusCode).toBe(400);
    expect(
      refused
        .json()
        .issues.map(
          (issue: { line: number; column: string; code: string }) =>
            `${issue.line} ${issue.column} ${issue.code}`,
        ),
    ).toEqual(['3 Arrangement other_arrangement']);
    const [none] = await ownerOf(t.database)
      .select({ count: count() })
      .from(members)
      .where(eq(members.schemeId, schemeId));
    expect(none?.count).toBe(0);

    const taken = await upload(
      t,
      admin,
      url,
      csvFile(headings, rows([' acme staff pension  scheme', schemeId, ''])),
    );
    expect(taken.statusCode, taken.body).toBe(201);
    expect(taken.json()).toMatchObject({ status: 'succeeded', rowsWritten: 3 });
  });
});

describe('the same file twice', () => {
  it('is refused with 409 once it succeeded in the scheme, and taken by another scheme', async () => {
    const { brokerId, employerId, schemeId, admin, url } = await schemeWithAdmin();
    const file = membersCsv([memberRow(), memberRow()]);
    expect((await upload(t, admin, url, file)).statusCode).toBe(201);
    const again = await upload(t, admin, url, file);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'This file has already been imported into this scheme' });
    expect(await membersOf(schemeId)).toBe(2);
    const [latest] = await ownerOf(t.database)
      .select()
      .from(imports)
      .where(and(eq(imports.schemeId, schemeId), eq(imports.status, 'rejected')));
    expect(latest).toMatchObject({
      issueCount: 1,
      issues: [expect.objectContaining({ code: 'already_imported', line: null })],
    });
    const audit = await auditOf(brokerId);
    expect(audit.map((record) => record.action).sort()).toEqual([
      'import.rejected',
      'import.succeeded',
    ]);

    const otherScheme = await createScheme(t.database, { id: employerId, brokerId }, 'Second');
    const elsewhere = await upload(t, admin, `/api/schemes/${otherScheme}/members/import`, file);
    expect(elsewhere.statusCode).toBe(201);
  });

  it('is not refused as a repeat when it was rejected before', async () => {
    const { admin, url } = await schemeWithAdmin();
    const file = membersCsv([memberRow({ Salary: 'lots' })]);
    expect((await upload(t, admin, url, file)).statusCode).toBe(400);
    expect((await upload(t, admin, url, file)).statusCode).toBe(400);
  });
});
