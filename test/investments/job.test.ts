import { createId } from '@paralleldrive/cuid2';
import { and, count, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/server/platform/db/database.js';
import { migrate } from '../../src/server/platform/db/migrator.js';
import { auditLog, memberTransactions } from '../../src/server/platform/db/schema.js';
import { withActor } from '../../src/server/platform/db/with-actor.js';
import { callJob } from '../cron/helpers.js';
import { platformActor } from '../helpers/actors.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { openTestDatabase, ownerOf } from '../helpers/database.js';
import { createBroker, createEmployer, createMember, createScheme } from '../helpers/factories.js';
import { migrationsBefore } from '../helpers/migrations.js';
import { dcScheme, runInvestments, testClock } from './money.js';

/**
 * The investments job (docs/decisions/0127-dc-money.md): every tenant's invested schemes settled
 * daily, each movement written once by its source whether the job runs twice, twice at once or
 * after an outage; a DB scheme never invested.
 */
const clock = testClock('2026-09-01');
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ now: clock.now });
});
afterAll(() => t.close());

const movementsOf = async (memberId: string) =>
  (
    await ownerOf(t.database)
      .select({ n: count() })
      .from(memberTransactions)
      .where(and(eq(memberTransactions.memberId, memberId), isNull(memberTransactions.voidedAt)))
  )[0]?.n ?? 0;

describe('the investments job', () => {
  it('writes each movement once, run twice or twice at once, in every tenant', async () => {
    clock.at('2026-09-01');
    const first = await dcScheme(t, [{ name: 'Tracker', annualChargeBasisPoints: 100 }], 3);
    const second = await dcScheme(t, [{ name: 'Tracker' }]);
    for (const s of [first, second]) {
      const [fund = ''] = s.fundIds;
      for (const member of s.members) {
        await s.choose(member.id, [{ fundId: fund, percent: 100 }]);
        await s.contribute(member.id, { period: '2026-08', amountCents: 50_000 });
      }
      await s.prices(fund, [{ on: '2026-09-01', price: '1.000000' }]);
    }
    // Two instances at once: between them, each movement once.
    const both = await Promise.all([runInvestments(t), runInvestments(t)]);
    expect(both.reduce((total, run) => total + (run.invested ?? 0), 0)).toBe(4);
    expect(await runInvestments(t)).toMatchObject({ invested: 0, charged: 0 });
    for (const member of [...first.members, ...second.members]) {
      expect(await movementsOf(member.id)).toBe(1);
    }

    // The next month: the charges of September, again once.
    clock.at('2026-10-01');
    const charged = await Promise.all([runInvestments(t), runInvestments(t)]);
    expect(charged.reduce((total, run) => total + (run.charged ?? 0), 0)).toBe(3);
    expect(await runInvestments(t)).toMatchObject({ charged: 0 });
    for (const member of first.members) expect(await movementsOf(member.id)).toBe(2);
    // Recorded as done by the service itself, naming no member.
    const settled = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'scheme.ledger_settled'), eq(auditLog.entityId, first.schemeId)),
      );
    expect(settled.map((record) => record.actorId)).toEqual(['system', 'system']);
    expect(JSON.stringify(settled.map((record) => record.newState))).not.toContain(
      first.members[0]?.id,
    );
  });

  it('is run by the scheduler as the job investments, once a day', async () => {
    clock.at('2026-10-02');
    const s = await dcScheme(t, [{ name: 'Index' }]);
    const [fund = ''] = s.fundIds;
    const member = s.members[0]?.id as string;
    await s.choose(member, [{ fundId: fund, percent: 100 }]);
    await s.contribute(member, { period: '2026-09', amountCents: 7_500 });
    await s.prices(fund, [{ on: '2026-10-02', price: '1.500000' }]);
    const ran = await callJob(t, 'investments');
    expect(ran.statusCode, ran.body).toBe(200);
    expect(ran.json()).toMatchObject({ job: 'investments', outcome: 'succeeded', invested: 1 });
    const again = await callJob(t, 'investments');
    expect(again.json()).toMatchObject({ outcome: 'already_ran' });
    expect(await s.holdings(member)).toMatchObject({
      funds: [{ units: '50.000000', valueCents: 7_500 }],
    });
  });

  it('never invests the contributions of a DB scheme, whose members hold no units', async () => {
    clock.at('2026-10-05');
    const s = await dcScheme(t, [{ name: 'Liability matching' }]);
    const [fund = ''] = s.fundIds;
    const member = s.members[0]?.id as string;
    await s.choose(member, [{ fundId: fund, percent: 100 }]);
    await s.contribute(member, { period: '2026-09', amountCents: 10_000 });
    await s.prices(fund, [{ on: '2026-10-05', price: '1.000000' }]);
    await ownerOf(t.database).execute(sql`update schemes set type = 'DB' where id = ${s.schemeId}`);
    await runInvestments(t);
    expect(await movementsOf(member)).toBe(0);
    const holdings = await s.staff.get(`/api/members/${member}/holdings`);
    expect(holdings.statusCode).toBe(409);
    expect(holdings.json().error).toMatch(/defined benefit/);
    expect((await s.staff.get(`/api/members/${member}/value-history`)).statusCode).toBe(409);
    const assets = await s.staff.get(`/api/schemes/${s.schemeId}/fund-assets`);
    expect(assets.statusCode).toBe(409);
    const switched = await s.staff.post(`/api/members/${member}/switches`, {
      to: [{ fundId: fund, percent: 100 }],
    });
    expect(switched.statusCode).toBe(409);
    const defaulted = await s.staff.patch(`/api/schemes/${s.schemeId}`, { defaultFundId: fund });
    expect(defaulted.statusCode).toBe(400);
    expect(defaulted.json().issues[0]).toMatchObject({
      path: 'defaultFundId',
      code: 'not_invested',
    });
  });

  it('gives the trustees the units all members hold in each fund, and their value', async () => {
    clock.at('2026-10-06');
    const s = await dcScheme(t, [{ name: 'Equity' }, { name: 'Cash' }], 3);
    const [equity = '', cash = ''] = s.fundIds;
    const [a = '', b = '', c = ''] = s.members.map((member) => member.id);
    await s.choose(a, [{ fundId: equity, percent: 100 }]);
    await s.choose(b, [
      { fundId: equity, percent: 50 },
      { fundId: cash, percent: 50 },
    ]);
    await s.contribute(a, { period: '2026-09', amountCents: 10_000 });
    await s.contribute(b, { period: '2026-09', amountCents: 20_000 });
    // No choice and no default fund: waiting.
    await s.contribute(c, { period: '2026-09', amountCents: 3_000 });
    await s.prices(equity, [{ on: '2026-10-06', price: '2.000000' }]);
    await s.prices(cash, [{ on: '2026-10-06', price: '1.000000' }]);
    await runInvestments(t);
    const assets = await s.staff.get(`/api/schemes/${s.schemeId}/fund-assets?on=2026-10-06`);
    expect(assets.statusCode, assets.body).toBe(200);
    expect(assets.json()).toEqual({
      on: '2026-10-06',
      funds: [
        {
          fundId: equity,
          fundName: 'Equity',
          units: '100.000000',
          price: '2.000000',
          priceOn: '2026-10-06',
          valueCents: 20_000,
          members: 2,
        },
        {
          fundId: cash,
          fundName: 'Cash',
          units: '100.000000',
          price: '1.000000',
          priceOn: '2026-10-06',
          valueCents: 10_000,
          members: 1,
        },
      ].sort((x, y) => (x.fundId < y.fundId ? -1 : 1)),
      uninvestedCents: 3_000,
      switchingCents: 0,
      totalCents: 33_000,
    });
    // The day before, nothing had been received yet.
    const before = await s.staff.get(`/api/schemes/${s.schemeId}/fund-assets?on=2026-10-05`);
    expect(before.json()).toMatchObject({ funds: [], uninvestedCents: 0, totalCents: 0 });
  });
});

describe('the migration that brings the day money was received', () => {
  it('gives the contributions and corrections recorded before it the Irish day they were recorded', async () => {
    const db = await openTestDatabase({ migrated: false });
    try {
      await migrate(db.database, migrationsBefore('0037_dc_money'));
      const brokerId = await createBroker(db.database);
      const employerId = await createEmployer(db.database, brokerId);
      const schemeId = await createScheme(db.database, { id: employerId, brokerId });
      const member = await createMember(db.database, { brokerId, employerId, schemeId });
      const [summer, winter] = [createId(), createId()];
      await withActor(db.database, platformActor(), async (tx) => {
        // 23:30 UTC on 30 June is 00:30 on 1 July in Ireland; in January the two agree.
        await tx.execute(sql`insert into contributions
          (id, broker_id, employer_id, scheme_id, member_id, period, kind, amount_cents, created_by, created_at)
          values (${summer}, ${brokerId}, ${employerId}, ${schemeId}, ${member.id}, '2026-06', 'employee', 100, 'seed', '2026-06-30T23:30:00Z'),
                 (${winter}, ${brokerId}, ${employerId}, ${schemeId}, ${member.id}, '2026-01', 'employee', 100, 'seed', '2026-01-31T23:30:00Z')`);
        await tx.execute(sql`insert into contribution_adjustments
          (id, broker_id, contribution_id, delta_cents, reason, created_by, created_at)
          values (${createId()}, ${brokerId}, ${summer}, 5, 'Seeded', 'seed', '2026-07-31T23:10:00Z')`);
      });
      await migrate(db.database);
      const owner = ownerOf(db.database);
      const received = rowsOf<{ id: string; received_on: string }>(
        await owner.execute(sql`select id, received_on :: text from contributions order by period`),
      );
      expect(received).toEqual([
        { id: winter, received_on: '2026-01-31' },
        { id: summer, received_on: '2026-07-01' },
      ]);
      const corrected = rowsOf<{ received_on: string }>(
        await owner.execute(sql`select received_on :: text from contribution_adjustments`),
      );
      expect(corrected).toEqual([{ received_on: '2026-08-01' }]);
    } finally {
      await db.dispose();
    }
  });
});
