import { createId } from '@paralleldrive/cuid2';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptsChanges, WOUND_UP_REFUSAL } from '../../src/contracts/scheme-wind-up.js';
import {
  documents,
  funds,
  members as membersTable,
  trustees,
} from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { ownerOf, writableTableCounts } from '../helpers/database.js';
import { documentForm, SAMPLES } from '../helpers/documents.js';
import { schemeFixture } from '../helpers/fixtures.js';

/**
 * Beneath a wound-up scheme nothing changes (docs/decisions/0146-schemes-wound-up-not-deleted.md):
 * a member's record, their contributions and corrections, fund choices and switches, their own
 * contact details, a document's deletion, a fund's and a register entry's change and a statement
 * run are all refused as the scheme's own
 * changes are, and nothing is written, the audit log included.
 */

// 10:00 in Dublin on 20 November 2026.
const clock = Date.parse('2026-11-20T10:00:00Z');
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore(), now: () => new Date(clock) });
});
afterAll(() => t.close());

describe('acceptsChanges', () => {
  it('accepts changes under an active scheme and one read without its status, never a wound-up one', () => {
    expect(acceptsChanges({ status: 'active' })).toBe(true);
    expect(acceptsChanges({})).toBe(true);
    expect(acceptsChanges({ status: 'wound_up' })).toBe(false);
  });
});

describe('beneath a wound-up scheme', () => {
  it('refuses every change to a member and their money, writing nothing', async () => {
    const { admin, self, schemeId, members } = await schemeFixture(t.database, {
      members: 1,
      users: { admin: 'BrokerAdmin', self: 'Member' },
    });
    const memberId = (members[0] as { id: string }).id;
    const ok = async (response: { statusCode: number; body: string }) => {
      expect(response.statusCode, response.body).toBeLessThan(300);
      return JSON.parse(response.body) as { id: string };
    };
    const fund = await ok(
      await t.requestAs(admin, 'POST', `/api/schemes/${schemeId}/funds`, { name: 'Cash Fund' }),
    );
    const contribution = await ok(
      await t.requestAs(admin, 'POST', `/api/members/${memberId}/contributions`, {
        period: '2026-09',
        kind: 'employee',
        amountCents: 20_000,
      }),
    );
    const form = documentForm('Member letter.pdf', SAMPLES.pdf, {
      documentType: 'other',
      memberId,
    });
    const document = await ok(
      await t.app.inject({
        method: 'POST',
        url: `/api/schemes/${schemeId}/documents`,
        remoteAddress: uniqueClientAddress(),
        headers: { ...form.headers, authorization: `Bearer ${await t.tokenFor(admin)}` },
        payload: form.payload,
      }),
    );
    const trustee = await ok(
      await t.requestAs(admin, 'POST', `/api/schemes/${schemeId}/trustees`, {
        name: 'Siobhán Kelly',
        kind: 'individual',
        appointedOn: '2024-05-01',
        fitnessAndProbity: 'confirmed',
      }),
    );
    await ok(
      await t.requestAs(admin, 'POST', `/api/schemes/${schemeId}/wind-up`, {
        woundUpOn: '2026-10-31',
        reason: 'all_benefits_settled',
      }),
    );

    const rowsOf = async () => ({
      member: await ownerOf(t.database)
        .select()
        .from(membersTable)
        .where(eq(membersTable.id, memberId)),
      document: await ownerOf(t.database)
        .select()
        .from(documents)
        .where(eq(documents.id, document.id)),
      fund: await ownerOf(t.database).select().from(funds).where(eq(funds.id, fund.id)),
      trustee: await ownerOf(t.database).select().from(trustees).where(eq(trustees.id, trustee.id)),
    });
    const rows = await rowsOf();
    const before = await writableTableCounts(t.database);
    const writes: Array<[typeof admin, 'POST' | 'PUT' | 'PATCH' | 'DELETE', string, object?]> = [
      [
        admin,
        'POST',
        `/api/members/${memberId}/contributions`,
        { period: '2026-10', kind: 'employer', amountCents: 30_000 },
      ],
      [
        admin,
        'POST',
        `/api/contributions/${contribution.id}/adjustments`,
        { deltaCents: -500, reason: 'Overpaid in the payroll file' },
      ],
      [
        admin,
        'PUT',
        `/api/members/${memberId}/fund-choices`,
        { allocations: [{ fundId: fund.id, percent: 100 }] },
      ],
      [
        admin,
        'POST',
        `/api/members/${memberId}/switches`,
        { to: [{ fundId: fund.id, percent: 100 }] },
      ],
      [
        self,
        'POST',
        `/api/members/${memberId}/switches`,
        { to: [{ fundId: fund.id, percent: 100 }] },
      ],
      [self, 'PATCH', `/api/members/${memberId}/contact`, { address: '4 Quay Street\nGalway' }],
      [admin, 'PATCH', `/api/members/${memberId}`, { address: '3 New Road\nCork' }],
      [admin, 'DELETE', `/api/members/${memberId}`],
      [admin, 'DELETE', `/api/documents/${document.id}`],
      [admin, 'PATCH', `/api/funds/${fund.id}`, { name: 'Deposit Fund' }],
      [admin, 'POST', '/api/ai/drafts', { schemeId, kind: 'ora_outline' }],
      [admin, 'PATCH', `/api/trustees/${trustee.id}`, { name: 'Siobhán Ní Cheallaigh' }],
      [admin, 'DELETE', `/api/trustees/${trustee.id}`],
      [
        admin,
        'POST',
        `/api/schemes/${schemeId}/statement-runs`,
        { informationDate: '2026-10-31', membersBy: '2027-04-30', assumptionsId: createId() },
      ],
    ];
    for (const [user, method, url, body] of writes) {
      const refused = await t.requestAs(user, method, url, body);
      expect(refused.statusCode, `${method} ${url}: ${refused.body}`).toBe(409);
      expect(refused.json()).toEqual({ error: WOUND_UP_REFUSAL });
    }
    // Nothing written anywhere, the audit log included.
    expect(await writableTableCounts(t.database)).toEqual(before);
    expect(await rowsOf()).toEqual(rows);

    // Still read as it was.
    const read = await t.requestAs(self, 'GET', `/api/members/${memberId}/contributions`);
    expect(read.statusCode).toBe(200);
    expect(read.json().items).toHaveLength(1);
    const summary = await t.requestAs(self, 'GET', `/api/members/${memberId}/summary`);
    expect(summary.json().scheme).toMatchObject({ id: schemeId, status: 'wound_up' });
  });
});
