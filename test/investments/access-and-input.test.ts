import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { writableTableCounts } from '../helpers/database.js';
import { createScheme, createUser } from '../helpers/factories.js';
import { expectPlainEnglish } from '../helpers/plain-english.js';
import { dcScheme, runInvestments, testClock } from './money.js';

/**
 * Who reaches DC money (src/contracts/policy.ts) and what bad input gets
 * (docs/decisions/0127-dc-money.md): a Member reads only their own holdings, ledger and switches
 * and their own scheme's prices; another tenant's member, fund or scheme is not found; every new
 * route and field answers bad input with a 400 in plain English and changes nothing.
 */
const clock = testClock('2026-06-15');
let t: TestApp;
let s: Awaited<ReturnType<typeof dcScheme>>;
let elsewhere: Awaited<ReturnType<typeof dcScheme>>;
let equity: string;
let closed: string;
let otherSchemeFund: string;
let member: string;
let colleague: string;

beforeAll(async () => {
  t = await buildTestApp({ now: clock.now });
  s = await dcScheme(t, [{ name: 'Equity' }, { name: 'Closed fund' }], 2);
  [equity = '', closed = ''] = s.fundIds;
  [member = '', colleague = ''] = s.members.map((row) => row.id);
  expect((await s.staff.patch(`/api/funds/${closed}`, { closed: true })).statusCode).toBe(200);
  const otherScheme = await createScheme(t.database, { id: s.employerId, brokerId: s.brokerId });
  const created = await s.staff.post(`/api/schemes/${otherScheme}/funds`, { name: 'Elsewhere' });
  otherSchemeFund = created.json().id;
  await s.choose(member, [{ fundId: equity, percent: 100 }]);
  await s.contribute(member, { period: '2026-05', amountCents: 10_000 });
  await s.prices(equity, [{ on: '2026-06-15', price: '1.000000' }]);
  await runInvestments(t);
  elsewhere = await dcScheme(t, [{ name: 'Another firm’s fund' }]);
});
afterAll(() => t.close());

describe('who reaches DC money', () => {
  it('lets a Member read their own holdings, ledger and switches and their scheme’s prices, and nobody else’s', async () => {
    const self = s.as(s.self);
    for (const path of ['holdings', 'value-history', 'transactions', 'switches']) {
      expect((await self.get(`/api/members/${member}/${path}`)).statusCode, path).toBe(200);
      const other = await self.get(`/api/members/${colleague}/${path}`);
      expect(other.statusCode, path).toBe(404);
      expect(other.json()).toEqual({ error: 'Not found' });
    }
    expect((await self.get(`/api/members/${member}/transactions`)).json().items).toHaveLength(1);
    expect((await self.get(`/api/funds/${equity}/prices`)).statusCode).toBe(200);
    expect((await self.get(`/api/funds/${otherSchemeFund}/prices`)).statusCode).toBe(404);
    expect(
      (
        await self.post(`/api/members/${colleague}/switches`, {
          to: [{ fundId: equity, percent: 100 }],
        })
      ).statusCode,
    ).toBe(404);
    // Prices and the trustees' view are the firm's.
    expect(
      (
        await self.post(`/api/funds/${equity}/prices`, {
          prices: [{ on: '2026-06-14', price: '1' }],
        })
      ).statusCode,
    ).toBe(403);
    expect((await self.get(`/api/schemes/${s.schemeId}/fund-assets`)).statusCode).toBe(403);
  });

  it('lets the employer’s staff read, and only the firm set prices and a default fund', async () => {
    const payroll = s.as(s.payroll);
    expect((await payroll.get(`/api/members/${member}/holdings`)).statusCode).toBe(200);
    expect((await payroll.get(`/api/schemes/${s.schemeId}/fund-assets`)).statusCode).toBe(200);
    expect(
      (
        await payroll.post(`/api/members/${member}/switches`, {
          to: [{ fundId: equity, percent: 100 }],
        })
      ).statusCode,
    ).toBe(403);
    const hr = s.as(
      await createUser(t.database, {
        brokerId: s.brokerId,
        employerId: s.employerId,
        role: 'EmployerAdmin',
      }),
    );
    // An employer's administrator renames the scheme, but its default fund is the firm's choice.
    expect(
      (await hr.patch(`/api/schemes/${s.schemeId}`, { defaultFundId: equity })).statusCode,
    ).toBe(403);
    expect(
      (await hr.patch(`/api/schemes/${s.schemeId}`, { name: 'Renamed scheme' })).statusCode,
    ).toBe(200);
    expect(
      (await hr.post(`/api/funds/${equity}/prices`, { prices: [{ on: '2026-06-14', price: '1' }] }))
        .statusCode,
    ).toBe(403);
  });

  it('answers another tenant’s member, fund and scheme as not found', async () => {
    const stranger = elsewhere.staff;
    const before = await writableTableCounts(t.database);
    const requests: Array<[string, () => ReturnType<typeof stranger.get>]> = [
      ['holdings', () => stranger.get(`/api/members/${member}/holdings`)],
      ['transactions', () => stranger.get(`/api/members/${member}/transactions`)],
      ['switches', () => stranger.get(`/api/members/${member}/switches`)],
      [
        'switch',
        () =>
          stranger.post(`/api/members/${member}/switches`, {
            to: [{ fundId: equity, percent: 100 }],
          }),
      ],
      ['prices', () => stranger.get(`/api/funds/${equity}/prices`)],
      [
        'record prices',
        () =>
          stranger.post(`/api/funds/${equity}/prices`, {
            prices: [{ on: '2026-06-14', price: '9' }],
          }),
      ],
      ['fund assets', () => stranger.get(`/api/schemes/${s.schemeId}/fund-assets`)],
    ];
    for (const [label, request] of requests) {
      const answer = await request();
      expect(answer.statusCode, label).toBe(404);
      expect(answer.json(), label).toEqual({ error: 'Not found' });
    }
    // Their own fund as another scheme's default is refused as any fund not the scheme's own.
    const foreign = await s.staff.patch(`/api/schemes/${s.schemeId}`, {
      defaultFundId: elsewhere.fundIds[0],
    });
    expect(foreign.statusCode).toBe(400);
    expect(await writableTableCounts(t.database)).toEqual(before);
  });
});

describe('bad input to DC money', () => {
  it('gets a 400 in plain English from every new route and field, and changes nothing', async () => {
    const staff = s.staff;
    const self = s.as(s.self);
    const before = await writableTableCounts(t.database);
    const refused: Array<[string, () => ReturnType<typeof staff.get>]> = [
      ['no prices', () => staff.post(`/api/funds/${equity}/prices`, { prices: [] })],
      [
        'a decimal comma',
        () =>
          staff.post(`/api/funds/${equity}/prices`, {
            prices: [{ on: '2026-06-10', price: '1,5' }],
          }),
      ],
      [
        'a JSON number',
        () =>
          staff.post(`/api/funds/${equity}/prices`, { prices: [{ on: '2026-06-10', price: 1.5 }] }),
      ],
      [
        'a price of 0',
        () =>
          staff.post(`/api/funds/${equity}/prices`, { prices: [{ on: '2026-06-10', price: '0' }] }),
      ],
      [
        '€10,000',
        () =>
          staff.post(`/api/funds/${equity}/prices`, {
            prices: [{ on: '2026-06-10', price: '10000' }],
          }),
      ],
      [
        'seven decimals',
        () =>
          staff.post(`/api/funds/${equity}/prices`, {
            prices: [{ on: '2026-06-10', price: '1.0000001' }],
          }),
      ],
      [
        'no such day',
        () =>
          staff.post(`/api/funds/${equity}/prices`, { prices: [{ on: '2026-02-30', price: '1' }] }),
      ],
      [
        'a day twice',
        () =>
          staff.post(`/api/funds/${equity}/prices`, {
            prices: [
              { on: '2026-06-10', price: '1' },
              { on: '2026-06-10', price: '1.1' },
            ],
          }),
      ],
      [
        'tomorrow’s price',
        () =>
          staff.post(`/api/funds/${equity}/prices`, { prices: [{ on: '2026-06-16', price: '1' }] }),
      ],
      [
        'prices from after to',
        () => staff.get(`/api/funds/${equity}/prices?from=2026-06-10&to=2026-06-01`),
      ],
      [
        'more than a year of prices',
        () => staff.get(`/api/funds/${equity}/prices?from=2025-01-01&to=2026-06-01`),
      ],
      ['no date', () => staff.get(`/api/funds/${equity}/prices?from=yesterday`)],
      ['holdings tomorrow', () => staff.get(`/api/members/${member}/holdings?on=2026-06-16`)],
      ['holdings on no date', () => staff.get(`/api/members/${member}/holdings?on=15/06/2026`)],
      [
        'a value history from tomorrow',
        () => staff.get(`/api/members/${member}/value-history?from=2026-06-16`),
      ],
      [
        'a value history from no date',
        () => staff.get(`/api/members/${member}/value-history?from=2026-02-30x`),
      ],
      ['assets tomorrow', () => staff.get(`/api/schemes/${s.schemeId}/fund-assets?on=2026-06-16`)],
      [
        'a made-up cursor',
        () => staff.get(`/api/members/${member}/transactions?cursor=bm90IGEgY3Vyc29y`),
      ],
      ['no page', () => staff.get(`/api/members/${member}/transactions?limit=0`)],
      ['too long a page', () => staff.get(`/api/members/${member}/switches?limit=101`)],
      [
        'a switch of 99%',
        () =>
          self.post(`/api/members/${member}/switches`, { to: [{ fundId: equity, percent: 99 }] }),
      ],
      ['a switch into nothing', () => self.post(`/api/members/${member}/switches`, { to: [] })],
      [
        'a switch into a closed fund',
        () =>
          self.post(`/api/members/${member}/switches`, { to: [{ fundId: closed, percent: 100 }] }),
      ],
      [
        'a switch into another scheme’s fund',
        () =>
          self.post(`/api/members/${member}/switches`, {
            to: [{ fundId: otherSchemeFund, percent: 100 }],
          }),
      ],
      [
        'a fund twice',
        () =>
          self.post(`/api/members/${member}/switches`, {
            to: [
              { fundId: equity, percent: 50 },
              { fundId: equity, percent: 50 },
            ],
          }),
      ],
      [
        'a closed default fund',
        () => staff.patch(`/api/schemes/${s.schemeId}`, { defaultFundId: closed }),
      ],
      [
        'another scheme’s default fund',
        () => staff.patch(`/api/schemes/${s.schemeId}`, { defaultFundId: otherSchemeFund }),
      ],
      [
        'no such default fund',
        () =>
          staff.patch(`/api/schemes/${s.schemeId}`, { defaultFundId: 'nosuchfund000000000000000' }),
      ],
      [
        'a charge of 501 basis points',
        () =>
          staff.post(`/api/schemes/${s.schemeId}/funds`, {
            name: 'Dear',
            annualChargeBasisPoints: 501,
          }),
      ],
      [
        'a negative charge',
        () => staff.patch(`/api/funds/${equity}`, { annualChargeBasisPoints: -1 }),
      ],
      [
        'a fraction of a basis point',
        () => staff.patch(`/api/funds/${equity}`, { annualChargeBasisPoints: 1.5 }),
      ],
      [
        'money received tomorrow',
        () =>
          staff.post(`/api/members/${member}/contributions`, {
            period: '2026-06',
            kind: 'employer',
            amountCents: 100,
            receivedOn: '2026-06-16',
          }),
      ],
      [
        'money received on no day',
        () =>
          staff.post(`/api/members/${member}/contributions`, {
            period: '2026-06',
            kind: 'employer',
            amountCents: 100,
            receivedOn: '2026-13-01',
          }),
      ],
    ];
    for (const [label, request] of refused) {
      const answer = await request();
      expect(answer.statusCode, `${label}: ${answer.body}`).toBe(400);
      expect(answer.json().error, label).toBe('Validation failed');
      for (const issue of answer.json().issues) expectPlainEnglish(issue.message);
    }
    expect(await writableTableCounts(t.database)).toEqual(before);
  });

  it('keeps the default fund open while it is the default, and shows each fund’s charge', async () => {
    const staff = s.staff;
    const created = await staff.post(`/api/schemes/${s.schemeId}/funds`, { name: 'Default fund' });
    expect(created.json()).toMatchObject({ annualChargeBasisPoints: 0 });
    const fund = created.json().id as string;
    const charged = await staff.patch(`/api/funds/${fund}`, { annualChargeBasisPoints: 75 });
    expect(charged.json()).toMatchObject({ annualChargeBasisPoints: 75 });
    expect(
      (await staff.patch(`/api/schemes/${s.schemeId}`, { defaultFundId: fund })).json(),
    ).toMatchObject({
      defaultFundId: fund,
    });
    const closing = await staff.patch(`/api/funds/${fund}`, { closed: true });
    expect(closing.statusCode).toBe(400);
    expect(closing.json().issues[0]).toMatchObject({ path: 'closed', code: 'default_fund' });
    expect(
      (await staff.patch(`/api/schemes/${s.schemeId}`, { defaultFundId: null })).json(),
    ).toMatchObject({
      defaultFundId: null,
    });
    expect((await staff.patch(`/api/funds/${fund}`, { closed: true })).statusCode).toBe(200);
  });
});
