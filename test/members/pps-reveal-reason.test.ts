import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateChanges } from '../../src/contracts/audit-changes.js';
import { PPS_REVEAL_REASON_WORDS, PPS_REVEAL_REASONS } from '../../src/contracts/pps-reveal.js';
import { auditLog, ppsReveals } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import { createMember } from '../helpers/factories.js';
import { schemeFixture } from '../helpers/fixtures.js';

/** A PPS number is revealed for a reason (docs/decisions/0145-a-reason-for-a-pps-reveal.md). */

let clock = Date.parse('2026-11-20T10:00:00Z');
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ now: () => new Date(clock) });
});
afterAll(() => t.close());

const tenant = async () => {
  const setup = await schemeFixture(t.database, {
    users: { admin: 'BrokerAdmin', consultant: 'BrokerUser' },
  });
  const member = await createMember(t.database, setup);
  return { ...setup, member };
};

const revealsOf = (memberId: string) =>
  ownerOf(t.database).select().from(ppsReveals).where(eq(ppsReveals.memberId, memberId));

const auditOf = (memberId: string) =>
  ownerOf(t.database)
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, 'member.pps_decrypted'), eq(auditLog.entityId, memberId)));

describe('revealing a PPS number', () => {
  it('keeps the reason’s code in the audit record and the note only with the reveal', async () => {
    const { consultant, member } = await tenant();
    const note = 'Aoife Byrne at Irish Life asked for it for the transfer value';
    const revealed = await t.requestAs(consultant, 'POST', `/api/members/${member.id}/pps/reveal`, {
      reason: 'transfer',
      note,
    });
    expect(revealed.statusCode, revealed.body).toBe(200);
    const [record] = await auditOf(member.id);
    expect(record?.newState).toEqual({ ppsRevealReason: 'transfer' });
    expect(JSON.stringify(record)).not.toContain('Aoife');
    expect(await revealsOf(member.id)).toEqual([
      expect.objectContaining({
        reason: 'transfer',
        note,
        revealedBy: consultant.id,
        revealedAt: new Date(clock),
      }),
    ]);
  });

  it('refuses a reveal without a reason, an unknown reason, and another reason without a note, revealing and recording nothing', async () => {
    const { consultant, member } = await tenant();
    const cases: Array<[object | undefined, string]> = [
      [{}, 'reason'],
      [{ reason: 'curiosity' }, 'reason'],
      [{ reason: 'other' }, 'note'],
      [{ reason: 'other', note: '   ' }, 'note'],
      [{ reason: 'transfer', note: 'x'.repeat(301) }, 'note'],
    ];
    for (const [body, path] of cases) {
      const refused = await t.requestAs(
        consultant,
        'POST',
        `/api/members/${member.id}/pps/reveal`,
        body,
      );
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.body).not.toContain(member.ppsNumber);
      expect(refused.json().issues.map((issue: { path: string }) => issue.path)).toContain(path);
    }
    expect(await auditOf(member.id)).toEqual([]);
    expect(await revealsOf(member.id)).toEqual([]);
  });

  it('reads in the audit log as the reason in words', async () => {
    for (const reason of PPS_REVEAL_REASONS) {
      expect(stateChanges(null, { ppsRevealReason: reason })).toEqual([
        { field: 'PPS reveal reason', after: PPS_REVEAL_REASON_WORDS[reason], technical: false },
      ]);
    }
    const { admin, member } = await tenant();
    await t.requestAs(admin, 'POST', `/api/members/${member.id}/pps/reveal`, {
      reason: 'benefit_payment',
    });
    const log = await t.requestAs(admin, 'GET', `/api/audit?entityId=${member.id}`);
    expect(log.statusCode, log.body).toBe(200);
    const entry = (log.json().items as Array<{ action: string }>).find(
      (item) => item.action === 'member.pps_decrypted',
    );
    expect(JSON.stringify(entry)).toContain('benefit_payment');
  });
});

describe('GET /api/members/:id/pps/reveals', () => {
  it('lists to a BrokerAdmin who revealed it, when and why, newest first', async () => {
    const { admin, consultant, member } = await tenant();
    await t.requestAs(consultant, 'POST', `/api/members/${member.id}/pps/reveal`, {
      reason: 'revenue',
    });
    clock += 60_000;
    await t.requestAs(admin, 'POST', `/api/members/${member.id}/pps/reveal`, {
      reason: 'other',
      note: 'Checking the number against a P60',
    });
    const answer = await t.requestAs(admin, 'GET', `/api/members/${member.id}/pps/reveals`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().items).toEqual([
      expect.objectContaining({
        revealedBy: admin.name,
        reason: 'other',
        note: 'Checking the number against a P60',
        revealedAt: new Date(clock).toISOString(),
      }),
      expect.objectContaining({ revealedBy: consultant.name, reason: 'revenue', note: null }),
    ]);
  });

  it('is refused to a BrokerUser, and another firm’s member is not found', async () => {
    const { consultant, member } = await tenant();
    expect(
      (await t.requestAs(consultant, 'GET', `/api/members/${member.id}/pps/reveals`)).statusCode,
    ).toBe(403);
    const other = await tenant();
    expect(
      (await t.requestAs(other.admin, 'GET', `/api/members/${member.id}/pps/reveals`)).statusCode,
    ).toBe(404);
  });
});
