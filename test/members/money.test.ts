import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  contributionAdjustments,
  contributions,
  fundAllocations,
} from '../../src/server/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import { createMember, createScheme, createUser, type MemberRow } from '../helpers/factories.js';
import { schemeFixture } from '../helpers/fixtures.js';

let t: TestApp;
let clock = Date.parse('2026-11-22T10:00:00Z');
beforeAll(async () => {
  t = await buildTestApp({ now: () => new Date(clock) });
});
afterAll(() => t.close());

/** A member in a scheme, their own account, and the people around them. */
async function memberWithPeople() {
  const { members, ...rest } = await schemeFixture(t.database, {
    members: 1,
    users: {
      self: 'Member',
      consultant: 'BrokerUser',
      hr: 'EmployerAdmin',
      payroll: 'EmployerUser',
    },
  });
  return { ...rest, member: members[0] as MemberRow };
}

const tableCount = async (
  table: typeof contributions | typeof contributionAdjustments | typeof fundAllocations,
) => (await ownerOf(t.database).select({ n: count() }).from(table))[0]?.n ?? 0;

describe('contributions (domain.md: per member, pay period and kind, in cents)', () => {
  it('records one contribution per member, period and kind, and audits it', async () => {
    const { hr, member } = await memberWithPeople();
    const recorded = await t.requestAs(hr, 'POST', `/api/members/${member.id}/contributions`, {
      period: '2026-10',
      kind: 'employer',
      amountCents: 41_667,
    });
    expect(recorded.statusCode, recorded.body).toBe(201);
    expect(recorded.json()).toMatchObject({
      memberId: member.id,
      period: '2026-10',
      kind: 'employer',
      amountCents: 41_667,
      originalAmountCents: 41_667,
      adjustments: [],
    });
    const again = await t.requestAs(hr, 'POST', `/api/members/${member.id}/contributions`, {
      period: '2026-10',
      kind: 'employer',
      amountCents: 1,
    });
    expect(again.statusCode).toBe(409);
    const [record] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'contribution.created'), eq(auditLog.entityId, recorded.json().id)),
      );
    expect(record?.newState).toMatchObject({ memberId: member.id, amountCents: 41_667 });
  });

  it('refuses negative, fractional and malformed amounts and periods, writing nothing', async () => {
    const { consultant, member } = await memberWithPeople();
    const before = await tableCount(contributions);
    for (const bad of [
      { period: '2026-10', kind: 'employee', amountCents: -1 },
      { period: '2026-10', kind: 'employee', amountCents: 10.5 },
      { period: '2026-13', kind: 'employee', amountCents: 100 },
      { period: '26-10', kind: 'employee', amountCents: 100 },
      { period: '2026-10', kind: 'bonus', amountCents: 100 },
    ]) {
      const refused = await t.requestAs(
        consultant,
        'POST',
        `/api/members/${member.id}/contributions`,
        bad,
      );
      expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect(await tableCount(contributions)).toBe(before);
  });

  it('corrects by audited adjustments, never by editing, and never below zero', async () => {
    const { consultant, member } = await memberWithPeople();
    const recorded = await t.requestAs(
      consultant,
      'POST',
      `/api/members/${member.id}/contributions`,
      {
        period: '2026-09',
        kind: 'avc',
        amountCents: 10_000,
      },
    );
    const id = recorded.json().id;
    const corrected = await t.requestAs(
      consultant,
      'POST',
      `/api/contributions/${id}/adjustments`,
      {
        deltaCents: -2_500,
        reason: 'Payroll keyed the wrong AVC',
      },
    );
    expect(corrected.statusCode, corrected.body).toBe(201);
    expect(corrected.json()).toMatchObject({
      amountCents: 7_500,
      originalAmountCents: 10_000,
      adjustments: [
        expect.objectContaining({ deltaCents: -2_500, reason: 'Payroll keyed the wrong AVC' }),
      ],
    });
    const adjustmentsBefore = await tableCount(contributionAdjustments);
    const belowZero = await t.requestAs(
      consultant,
      'POST',
      `/api/contributions/${id}/adjustments`,
      {
        deltaCents: -7_501,
        reason: 'Too much',
      },
    );
    expect(belowZero.statusCode).toBe(400);
    expect(belowZero.json().issues[0].path).toBe('deltaCents');
    expect(await tableCount(contributionAdjustments)).toBe(adjustmentsBefore);
    const toZero = await t.requestAs(consultant, 'POST', `/api/contributions/${id}/adjustments`, {
      deltaCents: -7_500,
      reason: 'Paid in error',
    });
    expect(toZero.json().amountCents).toBe(0);
    const audited = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'contribution.adjusted'), eq(auditLog.entityId, id)));
    expect(audited.map((record) => record.newState)).toEqual([
      expect.objectContaining({ amountCents: 7_500, deltaCents: -2_500 }),
      expect.objectContaining({ amountCents: 0, deltaCents: -7_500 }),
    ]);
    const noEditPath = await t.requestAs(consultant, 'PATCH', `/api/contributions/${id}`, {
      amountCents: 1,
    });
    expect(noEditPath.statusCode).toBe(404);
  });

  it('shows a Member their own contributions, read-only, and not a colleague’s', async () => {
    const { self, consultant, member, brokerId, employerId, schemeId } = await memberWithPeople();
    await t.requestAs(consultant, 'POST', `/api/members/${member.id}/contributions`, {
      period: '2026-08',
      kind: 'employee',
      amountCents: 20_000,
    });
    const own = await t.requestAs(self, 'GET', `/api/members/${member.id}/contributions`);
    expect(own.statusCode).toBe(200);
    expect(own.json().items).toEqual([
      expect.objectContaining({ period: '2026-08', amountCents: 20_000 }),
    ]);
    const write = await t.requestAs(self, 'POST', `/api/members/${member.id}/contributions`, {
      period: '2026-07',
      kind: 'employee',
      amountCents: 1,
    });
    expect(write.statusCode).toBe(403);
    const colleague = await createMember(t.database, { brokerId, employerId, schemeId });
    const other = await t.requestAs(self, 'GET', `/api/members/${colleague.id}/contributions`);
    expect(other.statusCode).toBe(404);
  });

  it('filters by pay period and pages newest first', async () => {
    const { consultant, payroll, member } = await memberWithPeople();
    for (const period of ['2026-01', '2026-02', '2026-03']) {
      clock += 1_000;
      await t.requestAs(consultant, 'POST', `/api/members/${member.id}/contributions`, {
        period,
        kind: 'employee',
        amountCents: 100,
      });
    }
    const ranged = await t.requestAs(
      payroll,
      'GET',
      `/api/members/${member.id}/contributions?from=2026-02&to=2026-03`,
    );
    expect(ranged.json().items.map((item: { period: string }) => item.period)).toEqual([
      '2026-03',
      '2026-02',
    ]);
    const first = await t.requestAs(
      payroll,
      'GET',
      `/api/members/${member.id}/contributions?limit=2`,
    );
    const second = await t.requestAs(
      payroll,
      'GET',
      `/api/members/${member.id}/contributions?limit=2&cursor=${first.json().nextCursor}`,
    );
    expect(second.json().items.map((item: { period: string }) => item.period)).toEqual(['2026-01']);
  });
});

describe('funds and fund choices (whole percent, summing to 100, with history)', () => {
  async function withFunds() {
    const people = await memberWithPeople();
    const fundIds: string[] = [];
    for (const name of ['Global Equity', 'Cash', 'Bonds']) {
      const created = await t.requestAs(
        people.consultant,
        'POST',
        `/api/schemes/${people.schemeId}/funds`,
        { name },
      );
      expect(created.statusCode, created.body).toBe(201);
      fundIds.push(created.json().id);
    }
    return { ...people, fundIds };
  }

  it('lets the Member change their own choice and keeps the history, the latest current', async () => {
    const { self, member, fundIds } = await withFunds();
    const [equity = '', cash = '', bonds = ''] = fundIds;
    const funds = await t.requestAs(self, 'GET', `/api/schemes/${member.schemeId}/funds`);
    expect(funds.statusCode).toBe(200);
    expect(funds.json().items).toHaveLength(3);
    const first = await t.requestAs(self, 'PUT', `/api/members/${member.id}/fund-choices`, {
      allocations: [
        { fundId: equity, percent: 70 },
        { fundId: bonds, percent: 30 },
      ],
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ effectiveFrom: '2026-11-22', current: true });
    clock += 60_000;
    const second = await t.requestAs(self, 'PUT', `/api/members/${member.id}/fund-choices`, {
      allocations: [{ fundId: cash, percent: 100 }],
    });
    expect(second.statusCode).toBe(200);
    const history = await t.requestAs(self, 'GET', `/api/members/${member.id}/fund-choices`);
    expect(history.json().items).toEqual([
      expect.objectContaining({
        current: true,
        allocations: [expect.objectContaining({ fundName: 'Cash', percent: 100 })],
      }),
      expect.objectContaining({
        current: false,
        allocations: expect.arrayContaining([
          expect.objectContaining({ fundName: 'Global Equity', percent: 70 }),
        ]),
      }),
    ]);
    const [record] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'fund_choice.changed'), eq(auditLog.entityId, member.id)));
    expect(record?.actorId).toBe(self.id);
  });

  it('refuses totals other than 100, fractions, repeats, closed and foreign funds, writing nothing', async () => {
    const { self, consultant, member, fundIds, brokerId, employerId } = await withFunds();
    const [equity = '', cash = '', bonds = ''] = fundIds;
    await t.requestAs(consultant, 'PATCH', `/api/funds/${bonds}`, { closed: true });
    const otherScheme = await createScheme(t.database, { id: employerId, brokerId });
    const foreign = await t.requestAs(consultant, 'POST', `/api/schemes/${otherScheme}/funds`, {
      name: 'Elsewhere',
    });
    const before = await tableCount(fundAllocations);
    const cases: Array<[string, unknown]> = [
      [
        '99 in all',
        [
          { fundId: equity, percent: 60 },
          { fundId: cash, percent: 39 },
        ],
      ],
      [
        '101 in all',
        [
          { fundId: equity, percent: 61 },
          { fundId: cash, percent: 40 },
        ],
      ],
      [
        'a fraction',
        [
          { fundId: equity, percent: 50.5 },
          { fundId: cash, percent: 49.5 },
        ],
      ],
      [
        'a fund twice',
        [
          { fundId: equity, percent: 50 },
          { fundId: equity, percent: 50 },
        ],
      ],
      ['a closed fund', [{ fundId: bonds, percent: 100 }]],
      ['another scheme’s fund', [{ fundId: foreign.json().id, percent: 100 }]],
      ['nothing', []],
    ];
    for (const [label, allocations] of cases) {
      const refused = await t.requestAs(self, 'PUT', `/api/members/${member.id}/fund-choices`, {
        allocations,
      });
      expect(refused.statusCode, label).toBe(400);
      expect(refused.json().error, label).toBe('Validation failed');
    }
    const past = await t.requestAs(self, 'PUT', `/api/members/${member.id}/fund-choices`, {
      effectiveFrom: '2026-11-21',
      allocations: [{ fundId: cash, percent: 100 }],
    });
    expect(past.statusCode).toBe(400);
    expect(await tableCount(fundAllocations)).toBe(before);
  });

  it('lets brokers and the EmployerAdmin choose for a member; not EmployerUsers or another member', async () => {
    const { hr, payroll, consultant, member, fundIds, brokerId, employerId, schemeId } =
      await withFunds();
    const choice = { allocations: [{ fundId: fundIds[1], percent: 100 }] };
    expect(
      (await t.requestAs(hr, 'PUT', `/api/members/${member.id}/fund-choices`, choice)).statusCode,
    ).toBe(200);
    expect(
      (await t.requestAs(consultant, 'PUT', `/api/members/${member.id}/fund-choices`, choice))
        .statusCode,
    ).toBe(200);
    expect(
      (await t.requestAs(payroll, 'PUT', `/api/members/${member.id}/fund-choices`, choice))
        .statusCode,
    ).toBe(403);
    const colleague = await createMember(t.database, { brokerId, employerId, schemeId });
    const other = await createUser(t.database, {
      brokerId,
      employerId,
      role: 'Member',
      memberId: colleague.id,
    });
    expect(
      (await t.requestAs(other, 'PUT', `/api/members/${member.id}/fund-choices`, choice))
        .statusCode,
    ).toBe(404);
  });

  it('schedules a later switch that becomes current on its date', async () => {
    const { self, member, fundIds } = await withFunds();
    await t.requestAs(self, 'PUT', `/api/members/${member.id}/fund-choices`, {
      allocations: [{ fundId: fundIds[0], percent: 100 }],
    });
    clock += 1_000;
    const scheduled = await t.requestAs(self, 'PUT', `/api/members/${member.id}/fund-choices`, {
      effectiveFrom: '2026-12-01',
      allocations: [{ fundId: fundIds[1], percent: 100 }],
    });
    expect(scheduled.json().current).toBe(false);
    const saved = clock;
    clock = Date.parse('2026-12-01T08:00:00Z');
    const later = await t.requestAs(self, 'GET', `/api/members/${member.id}/fund-choices`);
    clock = saved;
    expect(later.json().items[0]).toMatchObject({ effectiveFrom: '2026-12-01', current: true });
  });

  it('does not show a Member the funds of another scheme', async () => {
    const { self, brokerId, employerId } = await withFunds();
    const otherScheme = await createScheme(t.database, { id: employerId, brokerId });
    expect((await t.requestAs(self, 'GET', `/api/schemes/${otherScheme}/funds`)).statusCode).toBe(
      404,
    );
  });
});
