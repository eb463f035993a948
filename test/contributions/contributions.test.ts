import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  contributionAdjustments,
  contributions,
} from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import { createMember } from '../helpers/factories.js';
import { memberWithPeople } from '../helpers/fixtures.js';

let t: TestApp;
let clock = Date.parse('2026-11-22T10:00:00Z');
beforeAll(async () => {
  t = await buildTestApp({ now: () => new Date(clock) });
});
afterAll(() => t.close());

const tableCount = async (table: typeof contributions | typeof contributionAdjustments) =>
  (await ownerOf(t.database).select({ n: count() }).from(table))[0]?.n ?? 0;

describe('contributions (per member, pay period and kind, in cents)', () => {
  it('records one contribution per member, period and kind, and audits it', async () => {
    const { hr, member } = await memberWithPeople(t.database);
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
    const { consultant, member } = await memberWithPeople(t.database);
    const before = await tableCount(contributions);
    for (const bad of [
      { period: '2026-10', kind: 'employee', amountCents: -1 },
      { period: '2026-10', kind: 'employee', amountCents: 10.5 },
      // Euro as text is not cents, and a decimal comma is not read either way.
      { period: '2026-10', kind: 'employee', amountCents: '12,50' },
      { period: '2026-10', kind: 'employee', amountCents: '1,23' },
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
    const { consultant, member } = await memberWithPeople(t.database);
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
    const { self, consultant, member, brokerId, employerId, schemeId } = await memberWithPeople(
      t.database,
    );
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
    const { consultant, payroll, member } = await memberWithPeople(t.database);
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

  it('lists each month in the one order, the member, the employer, then AVCs, page after page', async () => {
    const { consultant, payroll, member } = await memberWithPeople(t.database);
    const recorded = [
      ['2026-09', 'employer'],
      ['2026-09', 'avc'],
      ['2026-09', 'employee'],
      ['2026-10', 'employee'],
      ['2026-10', 'avc'],
      ['2026-10', 'employer'],
    ];
    for (const [period, kind] of recorded) {
      clock += 1_000;
      const answer = await t.requestAs(
        consultant,
        'POST',
        `/api/members/${member.id}/contributions`,
        {
          period,
          kind,
          amountCents: 100,
        },
      );
      expect(answer.statusCode, answer.body).toBe(201);
    }
    const expected = [
      '2026-10 employee',
      '2026-10 employer',
      '2026-10 avc',
      '2026-09 employee',
      '2026-09 employer',
      '2026-09 avc',
    ];
    const read: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await t.requestAs(
        payroll,
        'GET',
        `/api/members/${member.id}/contributions?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.statusCode, page.body).toBe(200);
      const body = page.json() as {
        items: { period: string; kind: string }[];
        nextCursor: string | null;
      };
      read.push(...body.items.map((item) => `${item.period} ${item.kind}`));
      cursor = body.nextCursor;
    } while (cursor !== null);
    expect(read).toEqual(expected);
    const bad = await t.requestAs(
      payroll,
      'GET',
      `/api/members/${member.id}/contributions?cursor=not-a-cursor`,
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().issues[0].path).toBe('cursor');
  });
});
