import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, fundAllocations } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import { createMember, createScheme, createUser } from '../helpers/factories.js';
import { memberWithPeople } from '../helpers/fixtures.js';

let t: TestApp;
let clock = Date.parse('2026-11-22T10:00:00Z');
beforeAll(async () => {
  t = await buildTestApp({ now: () => new Date(clock) });
});
afterAll(() => t.close());

const tableCount = async (table: typeof fundAllocations) =>
  (await ownerOf(t.database).select({ n: count() }).from(table))[0]?.n ?? 0;

describe('funds and fund choices (whole percent, summing to 100, with history)', () => {
  async function withFunds() {
    const people = await memberWithPeople(t.database);
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
