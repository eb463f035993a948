import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, fundPrices, memberTransactions } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { ownerOf, writableTableCounts } from '../helpers/database.js';
import type { UserRow } from '../helpers/factories.js';
import { dcScheme, runInvestments, testClock } from './money.js';

/**
 * Unit prices (docs/decisions/0127-dc-money.md): one in force a fund and day; the same price again
 * changes nothing; a different one corrects it, keeping the old one superseded, and where the old
 * one was used, the ledger of every member it touched is voided from that day and replayed at the
 * prices now in force, in the same transaction. A file of a scheme's prices is recorded whole or
 * not at all, every problem listed by line.
 */
const clock = testClock('2026-05-04');
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ now: clock.now });
});
afterAll(() => t.close());

function uploadPrices(user: UserRow, schemeId: string, csv: string, contentType = 'text/csv') {
  return t.tokenFor(user).then((token) =>
    t.app.inject({
      method: 'POST',
      url: `/api/schemes/${schemeId}/fund-prices/import`,
      remoteAddress: uniqueClientAddress(),
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      payload: csv,
    }),
  );
}

describe('correcting a price', () => {
  it('that was used voids the movements from its day and replays them at the corrected price; one unused is just replaced', async () => {
    clock.at('2026-05-04');
    const s = await dcScheme(t, [{ name: 'Growth', annualChargeBasisPoints: 150 }]);
    const [growth = ''] = s.fundIds;
    const member = s.members[0]?.id as string;
    await s.choose(member, [{ fundId: growth, percent: 100 }]);
    await s.contribute(member, { period: '2026-04', amountCents: 30_000 });
    expect(await s.prices(growth, [{ on: '2026-05-04', price: '1.5' }])).toEqual({
      recorded: 1,
      unchanged: 0,
      corrected: 0,
      replayed: 0,
    });
    expect(await runInvestments(t)).toMatchObject({ invested: 1 });
    clock.at('2026-06-01');
    await s.prices(growth, [
      { on: '2026-05-20', price: '1.520000' },
      { on: '2026-05-29', price: '1.550000' },
    ]);
    // May's charge: 200 units × 150 / 120,000 = 0.25 units, at 1.55 = 38.75 cents.
    expect(await runInvestments(t)).toMatchObject({ charged: 1 });
    const before = await s.transactions(member);
    expect(before.map(({ kind, units, amountCents }) => [kind, units, amountCents])).toEqual([
      ['charge', '-0.250000', -39],
      ['contribution', '200.000000', 30_000],
    ]);

    // The same price again changes nothing.
    expect(await s.prices(growth, [{ on: '2026-05-04', price: '1.500000' }])).toMatchObject({
      unchanged: 1,
      corrected: 0,
    });
    // 20 May's price was used by nothing: it is replaced, and no movement changes.
    clock.at('2026-06-02');
    expect(await s.prices(growth, [{ on: '2026-05-20', price: '1.530000' }])).toEqual({
      recorded: 0,
      unchanged: 0,
      corrected: 1,
      replayed: 0,
    });
    expect((await s.transactions(member)).map((row) => row.id)).toEqual(
      before.map((row) => row.id),
    );

    // 4 May's price bought the units: corrected, the contribution buys 187.5 units, and May's
    // charge is retaken on them, 0.234375 units at 1.55 = 36.33 cents.
    expect(await s.prices(growth, [{ on: '2026-05-04', price: '1.600000' }])).toEqual({
      recorded: 0,
      unchanged: 0,
      corrected: 1,
      replayed: 1,
    });
    const after = await s.transactions(member);
    expect(
      after.map(({ kind, units, price, amountCents }) => [kind, units, price, amountCents]),
    ).toEqual([
      ['charge', '-0.234375', '1.550000', -36],
      ['contribution', '187.500000', '1.600000', 30_000],
    ]);
    expect(await s.holdings(member)).toMatchObject({
      funds: [{ units: '187.265625', price: '1.550000', valueCents: 29_026 }],
      valueCents: 29_026,
    });
    // The voided movements are kept, marked with the correction.
    const owner = ownerOf(t.database);
    const voided = await owner
      .select()
      .from(memberTransactions)
      .where(and(eq(memberTransactions.memberId, member), isNotNull(memberTransactions.voidedAt)));
    expect(voided.map((row) => row.id).sort()).toEqual(before.map((row) => row.id).sort());
    const [correction] = await owner
      .select()
      .from(fundPrices)
      .where(and(eq(fundPrices.fundId, growth), eq(fundPrices.pricedOn, '2026-05-04')))
      .orderBy(fundPrices.createdAt);
    expect(voided.every((row) => row.voidedBy !== null)).toBe(true);
    expect(correction?.supersededAt).not.toBeNull();
    const history = await s.staff.get(`/api/funds/${growth}/prices?from=2026-05-01&to=2026-05-31`);
    expect(history.json()).toEqual({
      fundId: growth,
      from: '2026-05-01',
      to: '2026-05-31',
      items: [
        { on: '2026-05-04', price: '1.600000', corrected: true },
        { on: '2026-05-20', price: '1.530000', corrected: true },
        { on: '2026-05-29', price: '1.550000', corrected: false },
      ],
    });
    const audited = await owner.select().from(auditLog).where(eq(auditLog.tenantId, s.brokerId));
    const actions = audited.map((record) => record.action);
    expect(actions.filter((action) => action === 'fund_price.corrected')).toHaveLength(2);
    expect(
      audited.find(
        (record) =>
          record.action === 'scheme.ledger_settled' &&
          (record.newState as { voided?: number }).voided === 2,
      ),
    ).toBeDefined();
  });

  it('carries out again a switch whose sale used the corrected price', async () => {
    clock.at('2026-07-01');
    const s = await dcScheme(t, [{ name: 'Alpha' }, { name: 'Beta' }]);
    const [alpha = '', beta = ''] = s.fundIds;
    const member = s.members[0]?.id as string;
    await s.choose(member, [{ fundId: alpha, percent: 100 }]);
    await s.contribute(member, { period: '2026-06', amountCents: 10_000 });
    await s.prices(alpha, [{ on: '2026-07-01', price: '1.000000' }]);
    await runInvestments(t);
    clock.at('2026-07-02');
    const asked = await s.staff.post(`/api/members/${member}/switches`, {
      to: [{ fundId: beta, percent: 100 }],
    });
    expect(asked.statusCode).toBe(202);
    await s.prices(alpha, [{ on: '2026-07-02', price: '1.100000' }]);
    clock.at('2026-07-03');
    await s.prices(beta, [{ on: '2026-07-03', price: '2.000000' }]);
    await runInvestments(t);
    expect(await s.holdings(member)).toMatchObject({
      funds: [{ fundId: beta, units: '55.000000', valueCents: 11_000 }],
    });

    clock.at('2026-07-04');
    expect(await s.prices(alpha, [{ on: '2026-07-02', price: '1.200000' }])).toMatchObject({
      corrected: 1,
      replayed: 1,
    });
    // Sold at 1.20 now: €120.00, which buys 60 units of Beta at 2.00.
    expect(await s.holdings(member)).toMatchObject({
      funds: [{ fundId: beta, units: '60.000000', valueCents: 12_000 }],
      switchingCents: 0,
    });
    const switches = await s.staff.get(`/api/members/${member}/switches`);
    expect(switches.json().items[0]).toMatchObject({
      status: 'completed',
      completedOn: '2026-07-03',
    });
    expect((await s.transactions(member)).map(({ kind, units }) => [kind, units])).toEqual([
      ['switch_in', '60.000000'],
      ['switch_out', '-100.000000'],
      ['contribution', '100.000000'],
    ]);
  });
});

describe('a file of prices', () => {
  it('is recorded whole, naming funds by name or ISIN, or not at all, every problem listed by line', async () => {
    clock.at('2026-08-10');
    const s = await dcScheme(t, [
      { name: 'Global Equity', isin: 'IE00B4L5Y983' },
      { name: 'Cash Fund' },
    ]);
    const [equity = '', cash = ''] = s.fundIds;
    const before = await writableTableCounts(t.database);
    const bad = await uploadPrices(
      s.consultant,
      s.schemeId,
      [
        'Fund,Date,Price',
        'Global Equity,2026-08-03,1.250000',
        'Unknown Fund,2026-08-03,1.000000',
        'Cash Fund,2026-08-03,"1,25"',
        'Cash Fund,2026-09-01,1.000000',
        'IE00B4L5Y983,2026-08-03,1.250000',
        'cash fund,03/08/2026,0',
        '',
      ].join('\n'),
    );
    expect(bad.statusCode, bad.body).toBe(400);
    const answer = bad.json();
    expect(answer.error).toBe('Validation failed');
    expect(answer.issues.map((issue: { line: number }) => issue.line)).toEqual([3, 4, 5, 6, 7]);
    expect(answer.issueCount).toBe(5);
    for (const issue of answer.issues) expect(issue.message).toMatch(/^[A-Z]/);
    expect(answer.issues[0].message).toMatch(/^Fund: no fund/);
    expect(answer.issues[1].message).toMatch(/^Price: /);
    expect(answer.issues[2].message).toMatch(/^Date: the day is after today/);
    expect(answer.issues[3].message).toMatch(/same fund and date as line 2/);
    expect(answer.issues[4].message).toMatch(/^Price: Enter a unit price above 0/);
    expect(await writableTableCounts(t.database)).toEqual(before);

    const good = [
      'Fund,Date,Price',
      'global equity,2026-08-03,1.25',
      'IE00B4L5Y983,04/08/2026,1.260000',
      'Cash Fund,2026-08-03,1',
      '',
    ].join('\n');
    const imported = await uploadPrices(s.consultant, s.schemeId, good);
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json()).toEqual({ recorded: 3, unchanged: 0, corrected: 0, replayed: 0 });
    const again = await uploadPrices(s.consultant, s.schemeId, good);
    expect(again.json()).toEqual({ recorded: 0, unchanged: 3, corrected: 0, replayed: 0 });
    const equityPrices = await s.staff.get(
      `/api/funds/${equity}/prices?from=2026-08-01&to=2026-08-31`,
    );
    expect(equityPrices.json().items).toEqual([
      { on: '2026-08-03', price: '1.250000', corrected: false },
      { on: '2026-08-04', price: '1.260000', corrected: false },
    ]);
    const cashPrices = await s.staff.get(`/api/funds/${cash}/prices`);
    expect(cashPrices.json().items).toEqual([
      { on: '2026-08-03', price: '1.000000', corrected: false },
    ]);

    // Only CSV; a file with no prices, or none at all, is refused whole too.
    expect(
      (await uploadPrices(s.consultant, s.schemeId, '{}', 'application/json')).statusCode,
    ).toBe(415);
    const headingOnly = await uploadPrices(s.consultant, s.schemeId, 'Fund,Date,Price\n');
    expect(headingOnly.statusCode).toBe(400);
    expect(headingOnly.json().issues[0].message).toMatch(/no prices/);
    const empty = await uploadPrices(s.consultant, s.schemeId, '');
    expect(empty.statusCode).toBe(400);
  });
});
