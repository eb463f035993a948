import { createId } from '@paralleldrive/cuid2';
import { and, eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lineDiff } from '../../src/contracts/line-diff.js';
import { aiDrafts, auditLog, documents } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { onPostgres, ownerOf } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createScheme,
  createUser,
  type SchemeRef,
  type UserRow,
} from '../helpers/factories.js';

/**
 * Two lifecycle steps of one draft at the same moment (docs/decisions/0082-ai-draft-row-locks.md):
 * each step reads the state it moves from under the draft's row lock, so the second waits for
 * the first and then sees what it did, and is refused (409) when that state is gone. On
 * PostgreSQL the test holds the draft's row itself until both requests are waiting on it, so
 * both have begun before either goes on: the race happens every time, not by chance. PGlite runs
 * one transaction at a time; there the same requests run one after the other and the same answers
 * hold.
 */
const GENERATED = 'Own-risk assessment\n\n1. Scope\nEvery three years.\n';

let t: TestApp;
let scheme: SchemeRef;
let author: UserRow;
let reviewers: [UserRow, UserRow];
let approvers: [UserRow, UserRow];

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore() });
  const brokerId = await createBroker(t.database, 'Erne Pensions');
  const employerId = await createEmployer(t.database, brokerId, 'Erne Boats Ltd');
  const schemeId = await createScheme(t.database, { id: employerId, brokerId }, 'Erne Scheme');
  scheme = { brokerId, employerId, schemeId };
  author = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  reviewers = [
    await createUser(t.database, { brokerId, role: 'BrokerUser' }),
    await createUser(t.database, { brokerId, role: 'BrokerUser' }),
  ];
  approvers = [
    await createUser(t.database, { brokerId, role: 'BrokerAdmin' }),
    await createUser(t.database, { brokerId, role: 'BrokerAdmin' }),
  ];
});
afterAll(async () => {
  await t.close();
});

/** A draft written straight into the table in the state the step moves from. */
async function draftIn(status: 'draft' | 'reviewed' | 'approved'): Promise<string> {
  const id = createId();
  const at = new Date();
  await ownerOf(t.database)
    .insert(aiDrafts)
    .values({
      brokerId: scheme.brokerId,
      id,
      employerId: scheme.employerId,
      schemeId: scheme.schemeId,
      kind: 'ora_outline',
      status,
      generatedBy: 'template',
      generatedContent: GENERATED,
      content: GENERATED,
      createdBy: author.id,
      reviewedBy: status === 'draft' ? null : (reviewers[0] as UserRow).id,
      reviewedAt: status === 'draft' ? null : at,
      approvedBy: status === 'approved' ? (approvers[0] as UserRow).id : null,
      approvedAt: status === 'approved' ? at : null,
      createdAt: at,
      updatedAt: at,
    });
  return id;
}

const waitingOnLocks = async () => {
  const result = await ownerOf(t.database).execute(
    sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
  );
  return (result as unknown as { rows: Array<{ n: number }> }).rows[0]?.n ?? 0;
};

/**
 * The requests, started together. On PostgreSQL the draft's row is held until all of them wait
 * on a lock, then let go: every request has read or tried to read the draft before any goes on.
 */
async function together(
  draftId: string,
  requests: Array<() => Promise<LightMyRequestResponse>>,
): Promise<LightMyRequestResponse[]> {
  if (!onPostgres) return Promise.all(requests.map((request) => request()));
  const { answers } = await ownerOf(t.database).transaction(async (tx) => {
    await tx.execute(sql`select id from ai_drafts where id = ${draftId} for update`);
    const started = Promise.all(requests.map((request) => request()));
    const deadline = Date.now() + 20_000;
    while ((await waitingOnLocks()) < requests.length) {
      if (Date.now() > deadline) throw new Error('the requests never waited on the draft');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { answers: started };
  });
  return answers;
}

const statusesOf = (answers: LightMyRequestResponse[]) =>
  answers.map((answer) => answer.statusCode).sort();

async function draftRow(id: string) {
  const [row] = await ownerOf(t.database).select().from(aiDrafts).where(eq(aiDrafts.id, id));
  return row as typeof aiDrafts.$inferSelect;
}

async function auditActions(id: string): Promise<string[]> {
  const rows = await ownerOf(t.database)
    .select({ action: auditLog.action })
    .from(auditLog)
    .where(and(eq(auditLog.tenantId, scheme.brokerId), eq(auditLog.entityId, id)));
  return rows.map((row) => row.action);
}

const post = (user: UserRow, id: string, step: string) => () =>
  t.requestAs(user, 'POST', `/api/ai/drafts/${id}/${step}`);

describe('two steps of one draft at the same moment', () => {
  it('an edit and an approval: one wins, the other is refused 409, and approved text is always the reviewed text its diff describes', async () => {
    const id = await draftIn('reviewed');
    const edited = `${GENERATED}Added by an edit nobody reviewed.\n`;
    const answers = await together(id, [
      () => t.requestAs(author, 'PATCH', `/api/ai/drafts/${id}`, { content: edited }),
      post(approvers[0], id, 'approve'),
    ]);
    expect(statusesOf(answers)).toEqual([200, 409]);
    const row = await draftRow(id);
    if (row.status === 'approved') {
      expect(row.content).toBe(GENERATED);
      expect(row.approvedDiff).toEqual(lineDiff(row.generatedContent, row.content));
    } else {
      expect(row).toMatchObject({ status: 'draft', content: edited, approvedAt: null });
    }
    expect((await auditActions(id)).length).toBe(1);
  });

  it('two reviews: one is recorded, the other is refused 409', async () => {
    const id = await draftIn('draft');
    const answers = await together(id, [
      post(reviewers[0], id, 'review'),
      post(reviewers[1], id, 'review'),
    ]);
    expect(statusesOf(answers)).toEqual([200, 409]);
    expect(await auditActions(id)).toEqual(['ai.draft_reviewed']);
  });

  it('two approvals: one is recorded, the other is refused 409', async () => {
    const id = await draftIn('reviewed');
    const answers = await together(id, [
      post(approvers[0], id, 'approve'),
      post(approvers[1], id, 'approve'),
    ]);
    expect(statusesOf(answers)).toEqual([200, 409]);
    expect(await auditActions(id)).toEqual(['ai.draft_approved']);
  });

  it('two issues: one document is stored and recorded, the other is refused 409', async () => {
    const id = await draftIn('approved');
    const before = await ownerOf(t.database).select({ id: documents.id }).from(documents);
    const answers = await together(id, [
      post(author, id, 'issue'),
      post(approvers[1], id, 'issue'),
    ]);
    expect(statusesOf(answers)).toEqual([200, 409]);
    const after = await ownerOf(t.database).select({ id: documents.id }).from(documents);
    expect(after).toHaveLength(before.length + 1);
    expect(await auditActions(id)).toEqual(['ai.draft_issued']);
  });
});
