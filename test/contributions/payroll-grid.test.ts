import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, contributions } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ownerOf, writableTableCounts } from '../helpers/database.js';
import { createMember, createScheme, type MemberRow } from '../helpers/factories.js';
import { schemeFixture } from '../helpers/fixtures.js';

/**
 * One pay period of a whole scheme, entered and corrected in one grid
 * (docs/decisions/0048-contributions-as-a-payroll-grid.md).
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function scheme() {
  const { members, ...rest } = await schemeFixture(t.database, {
    employerName: 'Tuam Sugar Ltd',
    members: [{ lastName: 'Burke' }, { lastName: 'Concannon' }, { lastName: 'Fahy' }],
    users: { payroll: 'EmployerAdmin', reader: 'EmployerUser' },
  });
  const [burke, concannon, fahy] = members as [MemberRow, MemberRow, MemberRow];
  return { ...rest, burke, concannon, fahy };
}

type Cell = { amountCents: number } | null;
type Grid = {
  rows: Array<{ memberId: string; employee: Cell; employer: Cell; avc: Cell }>;
  totals: { employeeCents: number; employerCents: number; avcCents: number; totalCents: number };
};

describe('the payroll grid', () => {
  it('records a whole period in one save, each contribution audited, and reads it back', async () => {
    const { schemeId, burke, concannon, fahy, payroll, reader } = await scheme();
    const saved = await t.requestAs(payroll, 'PUT', `/api/schemes/${schemeId}/payroll/2026-10`, {
      rows: [
        { memberId: burke.id, employeeCents: 25_000, employerCents: 37_500 },
        { memberId: concannon.id, employeeCents: 20_000, employerCents: 30_000, avcCents: 5_000 },
        // Nothing paid for Fahy this month: a zero records nothing.
        { memberId: fahy.id, employeeCents: 0 },
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      created: 5,
      corrected: 0,
      totals: {
        employeeCents: 45_000,
        employerCents: 67_500,
        avcCents: 5_000,
        totalCents: 117_500,
      },
    });
    const read = (
      await t.requestAs(reader, 'GET', `/api/schemes/${schemeId}/payroll/2026-10`)
    ).json() as Grid;
    expect(read.rows.map((row) => row.memberId)).toEqual([burke.id, concannon.id, fahy.id]);
    expect(read.rows[2]).toMatchObject({ employee: null, employer: null, avc: null });
    const audited = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'contribution.created'));
    const ours = audited.filter((entry) =>
      [burke.id, concannon.id].includes((entry.newState as { memberId: string }).memberId),
    );
    expect(ours).toHaveLength(5);
  });

  it('corrects recorded amounts only with a reason, as adjustments; without one changes nothing', async () => {
    const { schemeId, burke, payroll } = await scheme();
    const url = `/api/schemes/${schemeId}/payroll/2026-09`;
    await t.requestAs(payroll, 'PUT', url, {
      rows: [{ memberId: burke.id, employeeCents: 25_000 }],
    });
    const before = await writableTableCounts(t.database);
    const silent = await t.requestAs(payroll, 'PUT', url, {
      rows: [{ memberId: burke.id, employeeCents: 22_500 }],
    });
    expect(silent.statusCode).toBe(400);
    expect(silent.json().issues[0]).toMatchObject({ path: 'reason', code: 'required' });
    expect(await writableTableCounts(t.database)).toEqual(before);

    const fixed = await t.requestAs(payroll, 'PUT', url, {
      rows: [{ memberId: burke.id, employeeCents: 22_500, employerCents: 30_000 }],
      reason: 'September payroll re-run after the pay rise was reversed',
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.json()).toMatchObject({ created: 1, corrected: 1 });
    expect((fixed.json() as Grid).rows[0]?.employee?.amountCents).toBe(22_500);
    // The first amount stands as recorded; the correction is beside it.
    const [stored] = await ownerOf(t.database)
      .select()
      .from(contributions)
      .where(and(eq(contributions.memberId, burke.id), eq(contributions.kind, 'employee')));
    expect(stored?.amountCents).toBe(25_000);
  });

  it('takes amounts as whole cents only: euro sent as text (12,50, 1,23, 12.50) gets a clear 400 and writes nothing', async () => {
    const { schemeId, burke, concannon, payroll } = await scheme();
    const url = `/api/schemes/${schemeId}/payroll/2026-07`;
    const before = await writableTableCounts(t.database);
    for (const typed of ['12,50', '1,23', '12.50', 1_250.5]) {
      const refused = await t.requestAs(payroll, 'PUT', url, {
        rows: [
          { memberId: burke.id, employeeCents: 10_000 },
          { memberId: concannon.id, employeeCents: typed },
        ],
      });
      expect(refused.statusCode, String(typed)).toBe(400);
      expect(refused.json().issues).toEqual([
        expect.objectContaining({
          path: 'rows.1.employeeCents',
          message: 'Enter a whole number of cents',
        }),
      ]);
    }
    expect(await writableTableCounts(t.database)).toEqual(before);
  });

  it('writes nothing when any row names someone who is not a member of the scheme', async () => {
    const { brokerId, employerId, schemeId, burke, payroll } = await scheme();
    const elsewhere = await createMember(t.database, {
      brokerId,
      employerId,
      schemeId: await createScheme(t.database, { id: employerId, brokerId }, 'Another scheme'),
    });
    const url = `/api/schemes/${schemeId}/payroll/2026-08`;
    const before = await writableTableCounts(t.database);
    const refused = await t.requestAs(payroll, 'PUT', url, {
      rows: [
        { memberId: burke.id, employeeCents: 10_000 },
        { memberId: elsewhere.id, employeeCents: 10_000 },
      ],
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues[0]).toMatchObject({
      path: 'rows.1.memberId',
      code: 'unknown_member',
    });
    const twice = await t.requestAs(payroll, 'PUT', url, {
      rows: [
        { memberId: burke.id, employeeCents: 1 },
        { memberId: burke.id, employeeCents: 2 },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect(await writableTableCounts(t.database)).toEqual(before);
  });

  it('lets an EmployerUser read but not save, and answers another firm’s scheme as not found', async () => {
    const mine = await scheme();
    const theirs = await scheme();
    const url = `/api/schemes/${mine.schemeId}/payroll/2026-07`;
    expect((await t.requestAs(mine.reader, 'PUT', url, { rows: [] })).statusCode).toBe(403);
    expect((await t.requestAs(theirs.payroll, 'GET', url)).statusCode).toBe(404);
    expect((await t.requestAs(theirs.payroll, 'PUT', url, { rows: [] })).statusCode).toBe(404);
  });
});

describe('GET /api/schemes/:id/contribution-periods', () => {
  it('totals each pay period by kind with corrections applied, newest first, a page at a time', async () => {
    const { schemeId, burke, concannon, payroll } = await scheme();
    for (const period of ['2026-05', '2026-06', '2026-07']) {
      await t.requestAs(payroll, 'PUT', `/api/schemes/${schemeId}/payroll/${period}`, {
        rows: [
          { memberId: burke.id, employeeCents: 10_000, employerCents: 15_000 },
          { memberId: concannon.id, employeeCents: 8_000 },
        ],
      });
    }
    await t.requestAs(payroll, 'PUT', `/api/schemes/${schemeId}/payroll/2026-07`, {
      rows: [{ memberId: concannon.id, employeeCents: 9_000 }],
      reason: 'Overtime missed in the first run',
    });
    const url = `/api/schemes/${schemeId}/contribution-periods`;
    const first = await t.requestAs(payroll, 'GET', `${url}?limit=2`);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      items: [
        {
          schemeId,
          period: '2026-07',
          employeeCents: 19_000,
          employerCents: 15_000,
          avcCents: 0,
          totalCents: 34_000,
          memberCount: 2,
        },
        {
          schemeId,
          period: '2026-06',
          employeeCents: 18_000,
          employerCents: 15_000,
          avcCents: 0,
          totalCents: 33_000,
          memberCount: 2,
        },
      ],
      nextCursor: '2026-06',
    });
    const rest = await t.requestAs(payroll, 'GET', `${url}?limit=2&cursor=2026-06`);
    expect(rest.json()).toMatchObject({ items: [{ period: '2026-05' }], nextCursor: null });
  });
});
