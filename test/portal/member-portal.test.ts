import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, members } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { HOLD_MAIL } from '../helpers/config.js';
import { ownerOf } from '../helpers/database.js';
import { documentForm, SAMPLES } from '../helpers/documents.js';
import { createMember, type MemberRow } from '../helpers/factories.js';
import { schemeFixture } from '../helpers/fixtures.js';
import { readOutbox } from '../helpers/mail.js';
import { flowing, readPdf } from '../helpers/pdf-text.js';

/**
 * The member portal is a pension portal, and staff notes stay with staff
 * (docs/decisions/0047-member-portal.md).
 */

// 2 March 2026, Dublin: the tax year (the calendar year) is 2026.
const clock = Date.parse('2026-03-02T10:00:00Z');
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ now: () => new Date(clock), env: HOLD_MAIL });
});
afterAll(() => t.close());

const STAFF_NOTE = 'Payroll keyed the bonus twice; confirmed with Siobhan in HR';

async function memberWithPay(firstName = 'Aoife', { corrected = true } = {}) {
  const { brokerId, employerId, schemeId, members, admin, hr, member } = await schemeFixture(
    t.database,
    {
      brokerName: 'Murphy & Byrne Brokers',
      employerName: 'Liffey Engineering Ltd',
      schemeName: 'Liffey DC Scheme',
      members: [{ firstName }],
      users: { admin: 'BrokerAdmin', hr: 'EmployerAdmin', member: 'Member' },
    },
  );
  const record = members[0] as MemberRow;
  const pay = async (period: string, kind: string, amountCents: number, receivedOn?: string) => {
    const answer = await t.requestAs(admin, 'POST', `/api/members/${record.id}/contributions`, {
      period,
      kind,
      amountCents,
      receivedOn,
    });
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json().id as string;
  };
  await pay('2025-12', 'employee', 20_000);
  await pay('2025-12', 'employer', 30_000);
  // January's schedule and money arrived on 27 February; it is recorded on 2 March.
  const january = await pay('2026-01', 'employee', 25_000, '2026-02-27');
  await pay('2026-01', 'avc', 5_000);
  if (corrected) {
    const correction = await t.requestAs(
      admin,
      'POST',
      `/api/contributions/${january}/adjustments`,
      { deltaCents: -2_500, reason: STAFF_NOTE },
    );
    expect(correction.statusCode, correction.body).toBe(201);
  }
  return { brokerId, employerId, schemeId, record, admin, hr, member };
}

describe('what a member reads never carries a staff note', () => {
  it('shows the member a corrected amount and by how much, never why or by whom', async () => {
    const { record, member, hr } = await memberWithPay();
    const mine = await t.requestAs(member, 'GET', `/api/members/${record.id}/contributions`);
    expect(mine.statusCode).toBe(200);
    expect(mine.body).not.toContain(STAFF_NOTE);
    const adjusted = (mine.json().items as Array<{ adjustments: object[] }>).flatMap(
      (item) => item.adjustments,
    );
    expect(adjusted).toHaveLength(1);
    expect(Object.keys(adjusted[0] ?? {}).sort()).toEqual(['createdAt', 'deltaCents', 'id']);
    // Staff still read their note.
    const staff = await t.requestAs(hr, 'GET', `/api/members/${record.id}/contributions`);
    expect(staff.body).toContain(STAFF_NOTE);
  });

  it('keeps the note out of the member’s own downloads, JSON and CSV, and in the firm’s', async () => {
    const { record, member, admin } = await memberWithPay();
    for (const path of ['export', 'export.csv']) {
      const own = await t.requestAs(member, 'GET', `/api/members/${record.id}/${path}`);
      expect(own.statusCode, own.body).toBe(200);
      expect(own.body).not.toContain(STAFF_NOTE);
      const firms = await t.requestAs(admin, 'GET', `/api/members/${record.id}/${path}`);
      expect(firms.body).toContain(STAFF_NOTE);
    }
  });
});

describe('GET /api/members/:id/summary', () => {
  it('totals what was paid in, all time and this tax year, by who paid it, corrections applied', async () => {
    const { record, member } = await memberWithPay();
    const answer = await t.requestAs(member, 'GET', `/api/members/${record.id}/summary`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({
      scheme: { name: 'Liffey DC Scheme', type: 'DC' },
      employer: { name: 'Liffey Engineering Ltd' },
      allTime: {
        employeeCents: 42_500,
        employerCents: 30_000,
        avcCents: 5_000,
        totalCents: 77_500,
      },
      taxYear: {
        year: 2026,
        employeeCents: 22_500,
        employerCents: 0,
        avcCents: 5_000,
        totalCents: 27_500,
      },
      lastPeriod: '2026-01',
    });
  });

  it('answers another member’s summary as not found', async () => {
    const mine = await memberWithPay();
    const other = await createMember(t.database, {
      brokerId: mine.brokerId,
      employerId: mine.employerId,
      schemeId: mine.schemeId,
    });
    const answer = await t.requestAs(mine.member, 'GET', `/api/members/${other.id}/summary`);
    expect(answer.statusCode).toBe(404);
  });
});

describe('PATCH /api/members/:id/contact', () => {
  it('lets the member change their e-mail and postal address, audited by field name only', async () => {
    const { record, member } = await memberWithPay();
    const changed = await t.requestAs(member, 'PATCH', `/api/members/${record.id}/contact`, {
      email: 'aoife.new@example.ie',
      address: '4 Quay Street\nGalway',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toEqual({
      email: 'aoife.new@example.ie',
      address: '4 Quay Street\nGalway',
    });
    const [row] = await ownerOf(t.database).select().from(members).where(eq(members.id, record.id));
    expect(row).toMatchObject({ email: 'aoife.new@example.ie', address: '4 Quay Street\nGalway' });
    const audited = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, record.id), eq(auditLog.action, 'member.contact_updated')));
    expect(audited).toHaveLength(1);
    expect(audited[0]?.newState).toEqual({ fields: ['email', 'address'] });
    expect(JSON.stringify(audited)).not.toContain('Quay Street');
  });

  it('refuses a bad address and an empty change, changing nothing; staff use the member record', async () => {
    const { record, member, hr } = await memberWithPay();
    const [before] = await ownerOf(t.database)
      .select()
      .from(members)
      .where(eq(members.id, record.id));
    const bad = await t.requestAs(member, 'PATCH', `/api/members/${record.id}/contact`, {
      email: 'not an address',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues[0].path).toBe('email');
    const empty = await t.requestAs(member, 'PATCH', `/api/members/${record.id}/contact`, {});
    expect(empty.statusCode).toBe(400);
    const staff = await t.requestAs(hr, 'PATCH', `/api/members/${record.id}/contact`, {
      address: 'Somewhere else',
    });
    expect(staff.statusCode).toBe(403);
    const [after] = await ownerOf(t.database)
      .select()
      .from(members)
      .where(eq(members.id, record.id));
    expect(after).toEqual(before);
  });
});

describe('GET /api/members/:id/export.csv', () => {
  it('is a readable CSV of the member’s data, safe to open in a spreadsheet, and audited', async () => {
    const { record, member } = await memberWithPay('=HYPERLINK("http://x.example")');
    const answer = await t.requestAs(member, 'GET', `/api/members/${record.id}/export.csv`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toBe(
      'attachment; filename="my-pension-data.csv"',
    );
    // A byte-order mark first, so a spreadsheet reads "Ní Bhriain" as written.
    expect(answer.body.startsWith('\uFEFF')).toBe(true);
    expect(answer.body).toContain('Scheme,Liffey DC Scheme');
    expect(answer.body).toContain('Scheme type,Defined contribution');
    expect(answer.body).toContain('Status,Active');
    // Pay periods, dates and times as the web shows them (docs/decisions/0129), Irish time.
    expect(answer.body).toContain('Your pension data,"Exported 2 Mar 2026, 10:00"');
    // The columns in the words of the member's page: the month, who paid, the amount, and a
    // corrected row's note in plain words beside it.
    expect(answer.body).toContain('Month,Paid by,Amount (€),Received on,Recorded,Correction\r\n');
    // The day the money arrived, as the other dates are, beside the moment it was recorded; each
    // month newest first, and within it you, your employer, then your AVCs.
    const rows = answer.body.split('\r\n');
    const table = rows.indexOf('Month,Paid by,Amount (€),Received on,Recorded,Correction');
    expect(rows.slice(table + 1, table + 5)).toEqual([
      'Jan 2026,Paid by you,225.00,27 Feb 2026,"2 Mar 2026, 10:00",Corrected from €250.00 on 2 Mar 2026',
      'Jan 2026,Your extra contributions (AVC),50.00,2 Mar 2026,"2 Mar 2026, 10:00",',
      'Dec 2025,Paid by you,200.00,2 Mar 2026,"2 Mar 2026, 10:00",',
      'Dec 2025,Paid by your employer,300.00,2 Mar 2026,"2 Mar 2026, 10:00",',
    ]);
    expect(answer.body).not.toContain('First recorded as');
    // What was done with the data, in the audit log's sentences: never a code or an ISO time.
    expect(answer.body).toContain('What was done with your data\r\nWhat was done,By,When');
    expect(answer.body).toContain(
      'Corrected a contribution,Your pension administrator,"2 Mar 2026, 10:00"',
    );
    for (const code of ['contribution.created', 'contribution.adjusted', 'member.viewed']) {
      expect(answer.body).not.toContain(code);
    }
    expect(answer.body).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    // A formula is shown as text, never run.
    expect(answer.body).toContain(`"'=HYPERLINK(""http://x.example"") Murphy"`);
    const audited = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, record.id), eq(auditLog.action, 'member.exported')));
    expect(audited.map((entry) => entry.newState)).toEqual([{ format: 'csv' }]);
  });

  it('has no correction column for a member whose contributions were never corrected', async () => {
    const { record, member, admin } = await memberWithPay('Niamh', { corrected: false });
    for (const reader of [member, admin]) {
      const answer = await t.requestAs(reader, 'GET', `/api/members/${record.id}/export.csv`);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(answer.body).toContain('Month,Paid by,Amount (€),Received on,Recorded\r\n');
      expect(answer.body).not.toMatch(/Correct/);
    }
  });

  it('has the JSON copy say each action in words and who acted, beside its code', async () => {
    const { record, member } = await memberWithPay();
    const answer = await t.requestAs(member, 'GET', `/api/members/${record.id}/export`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().contributions).toContainEqual(
      expect.objectContaining({ period: '2026-01', kind: 'employee', receivedOn: '2026-02-27' }),
    );
    const processing = answer.json().processing as Array<Record<string, string>>;
    expect(processing).toContainEqual({
      id: expect.any(String),
      action: 'contribution.adjusted',
      summary: 'Corrected a contribution',
      actorType: 'BrokerAdmin',
      by: 'Your pension administrator',
      timestamp: '2026-03-02T10:00:00.000Z',
    });
    // Each entry names its audit record, by which the firm finds it in its log.
    const ids = processing.map((entry) => entry.id);
    const records = await ownerOf(t.database)
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(inArray(auditLog.id, ids as string[]));
    expect(records).toHaveLength(ids.length);
  });

  it('counts a document filed for the member among what was done with their data', async () => {
    const { record, member, admin } = await memberWithPay();
    const form = documentForm('Statement Aoife.pdf', SAMPLES.pdf, {
      documentType: 'benefit_statement',
      memberId: record.id,
    });
    const filed = await t.app.inject({
      method: 'POST',
      url: `/api/schemes/${record.schemeId}/documents`,
      headers: { ...form.headers, authorization: `Bearer ${await t.tokenFor(admin)}` },
      payload: form.payload,
    });
    expect(filed.statusCode, filed.body).toBe(201);
    const answer = await t.requestAs(member, 'GET', `/api/members/${record.id}/export`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().processing).toContainEqual(
      expect.objectContaining({ action: 'document.uploaded', summary: 'Uploaded a document' }),
    );
    // The readable copy says it in words, as the member reads it.
    const readable = await t.requestAs(member, 'GET', `/api/members/${record.id}/export.csv`);
    expect(readable.body).toContain('Uploaded a document,Your pension administrator');
  });

  it('is a readable PDF too, saying what the CSV says, with the documents about the member and their requests, and audited', async () => {
    const { record, member, admin } = await memberWithPay();
    const request = await t.requestAs(admin, 'POST', '/api/data-requests', {
      memberId: record.id,
      kind: 'access',
      receivedOn: '2026-03-02',
    });
    expect(request.statusCode, request.body).toBe(201);
    const answer = await t.app.inject({
      method: 'GET',
      url: `/api/members/${record.id}/export.pdf`,
      headers: { authorization: `Bearer ${await t.tokenFor(member)}` },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    expect(answer.headers['content-disposition']).toBe(
      'attachment; filename="my-pension-data.pdf"',
    );
    const text = flowing(readPdf(answer.rawPayload).text);
    expect(text).toContain('Your pension data');
    expect(text).toContain('Exported 2 Mar 2026, 10:00');
    expect(text).toContain('Scheme: Liffey DC Scheme');
    // Each table under its own title, a value that already says its column written alone.
    expect(text).toContain('Your contributions');
    expect(text).toContain('Jan 2026; Paid by you; Amount (€): 225.00');
    expect(text).not.toContain('Paid by: Paid by you');
    expect(text).toMatch(/Salary a year: €\d{1,3}(,\d{3})*\.\d{2}/);
    // The fixture's scheme has no default fund: the member is told the money waits, as their page
    // tells them, never that it went to a default fund.
    expect(text).toContain(
      'Your fund choices You have not chosen your funds and the scheme has no default fund: your money waits, uninvested, until a fund choice is made.',
    );
    expect(text).toContain('Your requests about your data');
    expect(text).toContain('Access (Art. 15); Received: 2 Mar 2026; Due by: 2 Apr 2026');
    expect(text).toContain('Corrected a contribution');
    expect(text).not.toContain(STAFF_NOTE);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    const audited = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, record.id), eq(auditLog.action, 'member.exported')));
    expect(audited.map((entry) => entry.newState)).toEqual([{ format: 'pdf' }]);
  });

  it('is refused to employer staff, who do not export a member’s data', async () => {
    const { record, hr } = await memberWithPay();
    expect((await t.requestAs(hr, 'GET', `/api/members/${record.id}/export.csv`)).statusCode).toBe(
      403,
    );
  });
});

describe('a change of fund choice', () => {
  it('is confirmed to the member by e-mail, naming the funds, whoever made it', async () => {
    const { record, member, admin } = await memberWithPay();
    const funds = [];
    for (const name of ['Irish Equity Fund', 'Euro Bond Fund']) {
      const fund = await t.requestAs(admin, 'POST', `/api/schemes/${record.schemeId}/funds`, {
        name,
      });
      funds.push(fund.json().id as string);
    }
    const mine = await t.requestAs(member, 'PUT', `/api/members/${record.id}/fund-choices`, {
      allocations: [
        { fundId: funds[0], percent: 60 },
        { fundId: funds[1], percent: 40 },
      ],
    });
    expect(mine.statusCode, mine.body).toBe(200);
    const theirs = await t.requestAs(admin, 'PUT', `/api/members/${record.id}/fund-choices`, {
      allocations: [{ fundId: funds[1], percent: 100 }],
    });
    expect(theirs.statusCode, theirs.body).toBe(200);
    const notices = (await readOutbox(t.database, t.config)).filter(
      (row) => row.kind === 'fund_choice_changed' && row.userId === member.id,
    );
    expect(notices.map((row) => row.message?.to)).toEqual([member.email, member.email]);
    const [own, staff] = notices.map((row) => row.message?.text ?? '');
    expect(own).toContain(
      'You changed how your pension contributions are invested, from 02/03/2026',
    );
    expect(own).toContain('- Irish Equity Fund: 60%');
    expect(own).toContain('- Euro Bond Fund: 40%');
    expect(staff).toContain('Your pension administrator changed');
    expect(staff).toContain('- Euro Bond Fund: 100%');
    expect(t.logs.text()).not.toContain(member.email);
  });
});
