import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import { dcScheme, runInvestments, testClock } from '../investments/money.js';

/**
 * The member's own export, JSON and CSV (GDPR Art. 15 and 20), carries their DC money
 * (docs/decisions/0127-dc-money.md): what their units are worth on the day of the export, as their
 * holdings read it, and every movement of their unit ledger, as the ledger lists it.
 */
const clock = testClock('2026-05-04');
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ now: clock.now });
});
afterAll(() => t.close());

describe('a member’s data export', () => {
  it('holds their units in each fund with today’s value and every movement of their units', async () => {
    clock.at('2026-05-04');
    const s = await dcScheme(t, [{ name: 'Equity' }, { name: 'Cash' }]);
    const [equity = '', cash = ''] = s.fundIds;
    const member = s.members[0]?.id as string;
    await s.choose(member, [{ fundId: equity, percent: 100 }]);
    const paid = await s.contribute(member, { period: '2026-04', amountCents: 10_000 });
    await s.prices(equity, [{ on: '2026-05-04', price: '1.000000' }]);
    await runInvestments(t);
    // Switched to Cash: 100 units of Equity sold at 1.10 buy 55 of Cash at 2.00.
    clock.at('2026-05-05');
    const asked = await s.staff.post(`/api/members/${member}/switches`, {
      to: [{ fundId: cash, percent: 100 }],
    });
    expect(asked.statusCode, asked.body).toBe(202);
    await s.prices(equity, [{ on: '2026-05-05', price: '1.100000' }]);
    clock.at('2026-05-06');
    await s.prices(cash, [{ on: '2026-05-06', price: '2.000000' }]);
    await runInvestments(t);
    // −€20.00 taken back sells 8 units of Cash at 2.50.
    clock.at('2026-05-07');
    await s.prices(cash, [{ on: '2026-05-07', price: '2.500000' }]);
    const corrected = await s.staff.post(`/api/contributions/${paid.id}/adjustments`, {
      deltaCents: -2_000,
      reason: 'Overpaid',
    });
    expect(corrected.statusCode, corrected.body).toBe(201);
    await runInvestments(t);
    // €50.00 received today waits for Equity's next price.
    clock.at('2026-05-08');
    await s.contribute(member, { period: '2026-05', amountCents: 5_000 });
    await runInvestments(t);

    const exported = await s.as(s.self).get(`/api/members/${member}/export`);
    expect(exported.statusCode, exported.body).toBe(200);
    const data = exported.json();
    expect(data.holdings).toEqual({
      on: '2026-05-08',
      valueCents: 16_750,
      funds: [
        {
          fund: 'Cash',
          units: '47.000000',
          price: '2.500000',
          priceOn: '2026-05-07',
          valueCents: 11_750,
        },
      ],
      uninvestedCents: 5_000,
      switchingCents: 0,
    });
    // What the member's holdings page reads today.
    expect(await s.holdings(member)).toMatchObject({
      valueCents: data.holdings.valueCents,
      uninvestedCents: data.holdings.uninvestedCents,
    });
    expect(data.unitTransactions).toEqual([
      {
        on: '2026-05-07',
        kind: 'contribution',
        fund: 'Cash',
        units: '-8.000000',
        price: '2.500000',
        amountCents: -2_000,
      },
      {
        on: '2026-05-06',
        kind: 'switch_in',
        fund: 'Cash',
        units: '55.000000',
        price: '2.000000',
        amountCents: 11_000,
      },
      {
        on: '2026-05-05',
        kind: 'switch_out',
        fund: 'Equity',
        units: '-100.000000',
        price: '1.100000',
        amountCents: -11_000,
      },
      {
        on: '2026-05-04',
        kind: 'contribution',
        fund: 'Equity',
        units: '100.000000',
        price: '1.000000',
        amountCents: 10_000,
      },
    ]);
    expect(data.unitTransactions).toHaveLength((await s.transactions(member)).length);

    // The readable copy says the same in words, dates as the pages show them.
    const csv = await s.as(s.self).get(`/api/members/${member}/export.csv`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).toContain(
      'Your funds on 8 May 2026\r\n' +
        'Fund,Units,Unit price (€),Price of,Value (€)\r\n' +
        'Cash,47.000000,2.500000,7 May 2026,117.50\r\n' +
        'Waiting to be invested,,,,50.00\r\n' +
        'Being switched between funds,,,,0.00\r\n' +
        'Total value,,,,167.50\r\n',
    );
    // A minus sign first is quoted as text, as every cell a spreadsheet would run is.
    expect(csv.body).toContain(
      'Movement of your units\r\n' +
        'Movement,Fund,Date,Units,Unit price (€),Amount (€)\r\n' +
        "Contribution invested,Cash,7 May 2026,'-8.000000,2.500000,'-20.00\r\n" +
        'Switched in,Cash,6 May 2026,55.000000,2.000000,110.00\r\n' +
        "Switched out,Equity,5 May 2026,'-100.000000,1.100000,'-110.00\r\n" +
        'Contribution invested,Equity,4 May 2026,100.000000,1.000000,100.00\r\n',
    );
    expect(csv.body).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it('has no holdings for a member of a defined benefit scheme, who holds no units', async () => {
    clock.at('2026-06-01');
    const s = await dcScheme(t, [{ name: 'Liability matching' }]);
    const member = s.members[0]?.id as string;
    await s.contribute(member, { period: '2026-05', amountCents: 10_000 });
    await ownerOf(t.database).execute(sql`update schemes set type = 'DB' where id = ${s.schemeId}`);
    const exported = await s.as(s.self).get(`/api/members/${member}/export`);
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.json()).toMatchObject({ holdings: null, unitTransactions: [] });
    const csv = await s.as(s.self).get(`/api/members/${member}/export.csv`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body).not.toContain('Your funds on');
    expect(csv.body).toContain(
      'Movement of your units,No units have been bought or sold for you.\r\n' +
        'Movement,Fund,Date,Units,Unit price (€),Amount (€)',
    );
  });
});

describe('a member’s data export and their requests', () => {
  it('holds the requests they made, as the register holds them, without the staff’s text', async () => {
    clock.at('2026-06-10');
    const s = await dcScheme(t, [{ name: 'Equity' }]);
    const member = s.members[0]?.id as string;
    const recorded = await s.staff.post('/api/data-requests', {
      memberId: member,
      kind: 'erasure',
      receivedOn: '2026-06-01',
    });
    expect(recorded.statusCode, recorded.body).toBe(201);
    const refused = await s.staff.post(`/api/data-requests/${recorded.json().id}/refuse`, {
      reason: 'Contribution records are kept while benefits may be payable',
      citation: 'GDPR Art. 17(3)(b)',
    });
    expect(refused.statusCode, refused.body).toBe(200);
    const exported = await s.as(s.self).get(`/api/members/${member}/export`);
    expect(exported.statusCode, exported.body).toBe(200);
    expect(exported.json().dataRequests).toEqual([
      {
        kind: 'erasure',
        receivedOn: '2026-06-01',
        dueOn: '2026-07-01',
        status: 'refused',
        closedOn: '2026-06-10',
        refusalCitation: 'GDPR Art. 17(3)(b)',
      },
    ]);
    expect(exported.body).not.toContain('benefits may be payable');
  });
});
