import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateChanges } from '../../src/contracts/audit-changes.js';
import { dateInWords } from '../../src/contracts/irish-dates.js';
import { WIND_UP_REASON_WORDS, WOUND_UP_REFUSAL } from '../../src/contracts/scheme-wind-up.js';
import { auditLog, schemes } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import { schemeFixture } from '../helpers/fixtures.js';
import { newPpsNumber } from '../helpers/pps.js';

/** A scheme is wound up, never deleted once it has had members (docs/decisions/0146). */

// 10:00 in Dublin on 20 November 2026.
const clock = Date.parse('2026-11-20T10:00:00Z');
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ now: () => new Date(clock) });
});
afterAll(() => t.close());

const tenant = () =>
  schemeFixture(t.database, {
    members: 1,
    users: { admin: 'BrokerAdmin', consultant: 'BrokerUser', hr: 'EmployerAdmin' },
  });

const stored = async (id: string) =>
  (await ownerOf(t.database).select().from(schemes).where(eq(schemes.id, id)))[0];

const auditOf = (id: string, action: string) =>
  ownerOf(t.database)
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, id), eq(auditLog.action, action)));

const windUp = {
  woundUpOn: '2026-10-31',
  reason: 'moved_to_another_arrangement',
  note: 'All members moved to the Irish Life Empower master trust',
};

describe('closing a scheme', () => {
  it('refuses to delete a scheme that has had members, changing nothing', async () => {
    const { admin, schemeId } = await tenant();
    const refused = await t.requestAs(admin, 'DELETE', `/api/schemes/${schemeId}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      error: 'A scheme that has had members is wound up, not deleted: its records are kept',
    });
    expect((await stored(schemeId))?.deletedAt).toBeNull();
    expect(await auditOf(schemeId, 'scheme.deleted')).toEqual([]);
  });

  it('winds it up on a day for a reason, the note kept with the scheme and out of the audit log', async () => {
    const { admin, schemeId } = await tenant();
    const wound = await t.requestAs(admin, 'POST', `/api/schemes/${schemeId}/wind-up`, windUp);
    expect(wound.statusCode, wound.body).toBe(200);
    expect(wound.json()).toMatchObject({
      status: 'wound_up',
      woundUpOn: '2026-10-31',
      windUpReason: 'moved_to_another_arrangement',
      windUpNote: windUp.note,
    });
    const read = await t.requestAs(admin, 'GET', `/api/schemes/${schemeId}`);
    expect(read.json()).toMatchObject({ status: 'wound_up', windUpNote: windUp.note });
    const [record] = await auditOf(schemeId, 'scheme.wound_up');
    expect(record?.newState).toEqual({
      status: 'wound_up',
      woundUpOn: '2026-10-31',
      windUpReason: 'moved_to_another_arrangement',
    });
    expect(JSON.stringify(record)).not.toContain('Empower');
    expect(stateChanges(record?.previousState, record?.newState)).toContainEqual({
      field: 'Wind up reason',
      before: 'none',
      after: WIND_UP_REASON_WORDS.moved_to_another_arrangement,
      technical: false,
    });
  });

  it('refuses a day after today or before the scheme began, another reason without a note, and a BrokerUser, changing nothing', async () => {
    const { admin, consultant, schemeId } = await tenant();
    await t.requestAs(admin, 'PATCH', `/api/schemes/${schemeId}`, { startDate: '2019-01-01' });
    const cases: Array<[object, string]> = [
      [{ ...windUp, woundUpOn: '2026-11-21' }, 'woundUpOn'],
      [{ ...windUp, woundUpOn: '2018-12-31' }, 'woundUpOn'],
      [{ woundUpOn: '2026-10-31', reason: 'other' }, 'note'],
      [{ woundUpOn: '2026-10-31', reason: 'bankrupt' }, 'reason'],
    ];
    for (const [body, path] of cases) {
      const refused = await t.requestAs(admin, 'POST', `/api/schemes/${schemeId}/wind-up`, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json().issues.map((issue: { path: string }) => issue.path)).toContain(path);
    }
    const staff = await t.requestAs(consultant, 'POST', `/api/schemes/${schemeId}/wind-up`, windUp);
    expect(staff.statusCode).toBe(403);
    expect((await stored(schemeId))?.status).toBe('active');
    expect(await auditOf(schemeId, 'scheme.wound_up')).toEqual([]);
  });

  it('leaves a wound-up scheme read only: no second wind-up, no change, member, fund or register entry', async () => {
    const { admin, schemeId } = await tenant();
    await t.requestAs(admin, 'POST', `/api/schemes/${schemeId}/wind-up`, windUp);
    const again = await t.requestAs(admin, 'POST', `/api/schemes/${schemeId}/wind-up`, windUp);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: `This scheme was wound up on ${dateInWords('2026-10-31')}`,
    });
    const writes: Array<[string, string, object]> = [
      ['PATCH', `/api/schemes/${schemeId}`, { name: 'Renamed' }],
      [
        'POST',
        `/api/schemes/${schemeId}/members`,
        {
          firstName: 'Late',
          lastName: 'Joiner',
          dateOfBirth: '1990-01-01',
          dateJoined: '2026-11-01',
          salaryCents: 3_000_000,
          ppsNumber: newPpsNumber(),
        },
      ],
      ['POST', `/api/schemes/${schemeId}/funds`, { name: 'Cash Fund' }],
      [
        'POST',
        `/api/schemes/${schemeId}/trustees`,
        {
          name: 'Siobhán Kelly',
          kind: 'individual',
          appointedOn: '2024-05-01',
          fitnessAndProbity: 'confirmed',
        },
      ],
    ];
    for (const [method, url, body] of writes) {
      const refused = await t.requestAs(admin, method as 'POST', url, body);
      expect(refused.statusCode, `${method} ${url}`).toBe(409);
      expect(refused.json()).toEqual({ error: WOUND_UP_REFUSAL });
    }
    expect((await stored(schemeId))?.name).not.toBe('Renamed');
    // It is still read, as it was.
    expect((await t.requestAs(admin, 'GET', `/api/schemes/${schemeId}/members`)).statusCode).toBe(
      200,
    );
  });

  it('ends its duties: no standing counted, no obligation listed', async () => {
    const { admin, consultant, schemeId } = await tenant();
    await t.requestAs(admin, 'POST', `/api/schemes/${schemeId}/wind-up`, windUp);
    const compliance = await t.requestAs(consultant, 'GET', `/api/schemes/${schemeId}/compliance`);
    expect(compliance.statusCode, compliance.body).toBe(200);
    expect(compliance.json()).toMatchObject({ status: 'ok', obligations: [] });
    const dashboard = await t.requestAs(consultant, 'GET', '/api/compliance/dashboard');
    expect(
      (dashboard.json().schemes as Array<{ schemeId: string }>).map((row) => row.schemeId),
    ).not.toContain(schemeId);
  });
});
