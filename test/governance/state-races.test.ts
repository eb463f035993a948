import { and, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  keyFunctionHolders,
  oraReports,
  trustees,
  writtenPolicies,
} from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { onPostgres, openTestDatabase, ownerOf, type TestDatabase } from '../helpers/database.js';
import { documentForm, SAMPLES } from '../helpers/documents.js';
import {
  createBroker,
  createEmployer,
  createKeyFunctionHolder,
  createOraReport,
  createPolicy,
  createScheme,
  createTrustee,
  createUser,
  type SchemeRef,
  type UserRow,
} from '../helpers/factories.js';

/**
 * Every state change of the governance registers and of documents against another that races it
 * (docs/decisions/0091-state-changes-lock-their-row.md): the one that lost acts on the state the
 * winner left, or is refused (409, or 404 when the winner deleted the entry), never on the state it
 * read before the winner committed.
 *
 * On PostgreSQL the race is made certain rather than hoped for: a connection of the test's own
 * holds the contested row (or the scheme's register) locked while the two requests start, one after
 * the other, and is let go only once both wait on it (or one finished without waiting). Both then
 * run in the order they started. PGlite has one connection and runs one transaction at a time, so
 * there the two requests run one after the other in that order, and the same outcome is required.
 */
const clock = new Date('2025-06-01T10:00:00Z');
let db: TestDatabase;
let t: TestApp;
let consultant: UserRow;
let brokerId: string;
let employerId: string;

beforeAll(async () => {
  db = await openTestDatabase();
  t = await buildTestApp({ counters: uncountedStore(), now: () => clock, database: db.database });
  brokerId = await createBroker(t.database, 'Liffey Pensions');
  employerId = await createEmployer(t.database, brokerId, 'Dodder Engineering Ltd');
  consultant = await createUser(t.database, { brokerId, role: 'BrokerUser' });
});
/** Where the trustees' decision to approve a policy is recorded: asked with every approval. */
const MINUTE = 'Board meeting, minute 4.2';

afterAll(async () => {
  await t.close();
  await db.dispose();
});

async function newScheme(): Promise<SchemeRef> {
  const schemeId = await createScheme(t.database, { id: employerId, brokerId }, 'Dodder Scheme');
  return { brokerId, employerId, schemeId };
}

const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, body?: object) => () =>
  t.requestAs(consultant, method, url, body);

/** The rows the test's own connection holds locked while the requests start. */
interface Hold {
  table: string;
  ids: string[];
}

async function lockWaiters(client: pg.Client): Promise<number> {
  const { rows } = await client.query(
    `select count(*)::int as waiting from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
  );
  return rows[0].waiting;
}

/** Polls until `enough()` holds; fails the test after ten seconds. */
async function until(enough: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await enough())) {
    if (Date.now() > deadline) throw new Error('the requests never came to wait on the held lock');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * `first` and then `second`, the one started after the other has read what it contests, both
 * finishing after that point. Answers both responses, in that order.
 */
async function race(
  hold: Hold,
  first: () => Promise<LightMyRequestResponse>,
  second: () => Promise<LightMyRequestResponse>,
): Promise<[LightMyRequestResponse, LightMyRequestResponse]> {
  // PGlite runs one transaction at a time, so the race's outcome there is the order in which the
  // two transactions began, which the requests' earlier awaits make a matter of chance: they run
  // in the order the test names, the loser after the winner, as the held lock orders them here.
  if (!onPostgres) {
    const winner = await first();
    return [winner, await second()];
  }
  const holder = new pg.Client({ connectionString: db.url ?? undefined });
  const watcher = new pg.Client({ connectionString: db.url ?? undefined });
  await holder.connect();
  await watcher.connect();
  try {
    await holder.query('begin');
    await holder.query(`select 1 from ${hold.table} where id = any($1) for update`, [hold.ids]);
    const settled = [false, false];
    const a = first().finally(() => {
      settled[0] = true;
    });
    await until(async () => settled[0] || (await lockWaiters(watcher)) >= 1);
    const b = second().finally(() => {
      settled[1] = true;
    });
    await until(
      async () =>
        (await lockWaiters(watcher)) >= settled.filter((done) => !done).length ||
        settled.every(Boolean),
    );
    await holder.query('rollback');
    return await Promise.all([a, b]);
  } finally {
    await holder.end().catch(() => undefined);
    await watcher.end();
  }
}

async function audited(entityId: string, action: string): Promise<number> {
  const rows = await ownerOf(t.database)
    .select({ id: auditLog.id })
    .from(auditLog)
    .where(and(eq(auditLog.entityId, entityId), eq(auditLog.action, action)));
  return rows.length;
}

describe('written policies', () => {
  it('an edit that raced the approval of its draft is refused (409): an approved title never changes', async () => {
    const scheme = await newScheme();
    const draft = await createPolicy(t.database, scheme, { title: 'Risk policy' });
    const [approved, edited] = await race(
      { table: 'written_policies', ids: [draft] },
      send('POST', `/api/policies/${draft}/approve`, {
        approvedOn: '2025-05-01',
        approvalReference: MINUTE,
      }),
      send('PATCH', `/api/policies/${draft}`, { title: 'Changed after approval' }),
    );
    expect(approved.statusCode, approved.body).toBe(200);
    expect(edited.statusCode, edited.body).toBe(409);
    const [row] = await ownerOf(t.database)
      .select()
      .from(writtenPolicies)
      .where(eq(writtenPolicies.id, draft));
    expect(row).toMatchObject({ status: 'approved', title: 'Risk policy' });
    expect(await audited(draft, 'policy.updated')).toBe(0);
  });

  it('a draft approved twice at once is approved once; the second approval is refused (409)', async () => {
    const scheme = await newScheme();
    const draft = await createPolicy(t.database, scheme);
    const answers = await race(
      { table: 'written_policies', ids: [draft] },
      send('POST', `/api/policies/${draft}/approve`, {
        approvedOn: '2025-05-01',
        approvalReference: MINUTE,
      }),
      send('POST', `/api/policies/${draft}/approve`, {
        approvedOn: '2025-05-02',
        approvalReference: MINUTE,
      }),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 409]);
    expect(await audited(draft, 'policy.approved')).toBe(1);
  });

  it('two drafts of one kind approved at once leave one version in use, the other superseded by it', async () => {
    const scheme = await newScheme();
    const one = await createPolicy(t.database, scheme, { version: '1.0' });
    const two = await createPolicy(t.database, scheme, { version: '2.0' });
    const answers = await race(
      { table: 'written_policies', ids: [one, two] },
      send('POST', `/api/policies/${one}/approve`, {
        approvedOn: '2025-05-01',
        approvalReference: MINUTE,
      }),
      send('POST', `/api/policies/${two}/approve`, {
        approvedOn: '2025-05-01',
        approvalReference: MINUTE,
      }),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    // Both rows are let go at once, so either approval may come second: it supersedes the first.
    const rows = await ownerOf(t.database)
      .select({ id: writtenPolicies.id, status: writtenPolicies.status })
      .from(writtenPolicies)
      .where(eq(writtenPolicies.schemeId, scheme.schemeId));
    expect(rows.map((row) => row.status).sort()).toEqual(['approved', 'superseded']);
    const superseded = rows.find((row) => row.status === 'superseded')?.id as string;
    expect(await audited(superseded, 'policy.superseded')).toBe(1);
  });

  it('an edit that raced the delete of its draft finds it gone (404) and changes nothing', async () => {
    const scheme = await newScheme();
    const draft = await createPolicy(t.database, scheme, { title: 'Risk policy' });
    const [deleted, edited] = await race(
      { table: 'written_policies', ids: [draft] },
      send('DELETE', `/api/policies/${draft}`),
      send('PATCH', `/api/policies/${draft}`, { title: 'Edited while deleted' }),
    );
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(edited.statusCode, edited.body).toBe(404);
    expect(await audited(draft, 'policy.updated')).toBe(0);
  });

  it('a significant change that raced the approval superseding its policy is refused (409), not recorded against history', async () => {
    const scheme = await newScheme();
    const inUse = await createPolicy(t.database, scheme, {
      status: 'approved',
      approvedOn: '2024-01-15',
    });
    const next = await createPolicy(t.database, scheme, { version: '2.0' });
    const [approved, change] = await race(
      { table: 'written_policies', ids: [inUse] },
      send('POST', `/api/policies/${next}/approve`, {
        approvedOn: '2025-05-01',
        approvalReference: MINUTE,
      }),
      send('POST', `/api/policies/${inUse}/significant-change`, {
        occurredOn: '2025-05-10',
        description: 'New investment manager',
      }),
    );
    expect(approved.statusCode, approved.body).toBe(200);
    expect(change.statusCode, change.body).toBe(409);
    expect(await audited(inUse, 'policy.superseded')).toBe(1);
  });
});

describe('own-risk assessments', () => {
  it('two edits of different fields at once both stand: neither writes back what it read before the other', async () => {
    const scheme = await newScheme();
    const ora = await createOraReport(t.database, scheme, { summary: 'As assessed' });
    const answers = await race(
      { table: 'ora_reports', ids: [ora] },
      send('PATCH', `/api/ora-reports/${ora}`, { summary: 'Revised summary' }),
      send('PATCH', `/api/ora-reports/${ora}`, { trigger: 'significant_change' }),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const [row] = await ownerOf(t.database).select().from(oraReports).where(eq(oraReports.id, ora));
    expect(row).toMatchObject({ summary: 'Revised summary', trigger: 'significant_change' });
  });

  it('an edit that raced its delete finds it gone (404)', async () => {
    const scheme = await newScheme();
    const ora = await createOraReport(t.database, scheme);
    const [deleted, edited] = await race(
      { table: 'ora_reports', ids: [ora] },
      send('DELETE', `/api/ora-reports/${ora}`),
      send('PATCH', `/api/ora-reports/${ora}`, { summary: 'Edited while deleted' }),
    );
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(edited.statusCode, edited.body).toBe(404);
    expect(await audited(ora, 'ora.updated')).toBe(0);
  });
});

describe('trustees', () => {
  it('two edits of different fields at once both stand', async () => {
    const scheme = await newScheme();
    const trustee = await createTrustee(t.database, scheme, { name: 'Aoife Trustee' });
    const answers = await race(
      { table: 'trustees', ids: [trustee] },
      send('PATCH', `/api/trustees/${trustee}`, { name: 'Aoife Byrne' }),
      send('PATCH', `/api/trustees/${trustee}`, { endedOn: '2025-05-31' }),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const [row] = await ownerOf(t.database).select().from(trustees).where(eq(trustees.id, trustee));
    expect(row).toMatchObject({ name: 'Aoife Byrne', endedOn: '2025-05-31' });
  });

  it('an edit that raced the trustee’s delete finds them gone (404)', async () => {
    const scheme = await newScheme();
    const trustee = await createTrustee(t.database, scheme);
    const [deleted, edited] = await race(
      { table: 'trustees', ids: [trustee] },
      send('DELETE', `/api/trustees/${trustee}`),
      send('PATCH', `/api/trustees/${trustee}`, { endedOn: '2025-05-31' }),
    );
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(edited.statusCode, edited.body).toBe(404);
    expect(await audited(trustee, 'trustee.updated')).toBe(0);
  });
});

describe('key function holders', () => {
  it('two edits of different fields at once both stand', async () => {
    const scheme = await newScheme();
    const holder = await createKeyFunctionHolder(t.database, scheme, {
      fitnessAndProbity: 'pending',
    });
    const answers = await race(
      { table: 'key_function_holders', ids: [holder] },
      send('PATCH', `/api/key-function-holders/${holder}`, { holderName: 'Orla Risk' }),
      send('PATCH', `/api/key-function-holders/${holder}`, { fitnessAndProbity: 'confirmed' }),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const [row] = await ownerOf(t.database)
      .select()
      .from(keyFunctionHolders)
      .where(eq(keyFunctionHolders.id, holder));
    expect(row).toMatchObject({ holderName: 'Orla Risk', fitnessAndProbity: 'confirmed' });
  });

  it('an edit that raced the holder’s delete finds them gone (404)', async () => {
    const scheme = await newScheme();
    const holder = await createKeyFunctionHolder(t.database, scheme);
    const [deleted, edited] = await race(
      { table: 'key_function_holders', ids: [holder] },
      send('DELETE', `/api/key-function-holders/${holder}`),
      send('PATCH', `/api/key-function-holders/${holder}`, { holderName: 'Orla Risk' }),
    );
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(edited.statusCode, edited.body).toBe(404);
  });

  it('the internal audit holder and another key function of the same person, appointed at once, are not both kept (Art. 24)', async () => {
    const scheme = await newScheme();
    const appointment = (fn: string) =>
      send('POST', `/api/schemes/${scheme.schemeId}/key-function-holders`, {
        function: fn,
        holderName: 'Ciarán Walsh',
        appointedOn: '2025-01-01',
      });
    // The scheme's row, which each appointment's insert checks its reference against.
    const answers = await race(
      { table: 'schemes', ids: [scheme.schemeId] },
      appointment('internal_audit'),
      appointment('risk_management'),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([201, 400]);
    expect(answers[1]?.json().issues[0]).toMatchObject({ code: 'internal_audit_independence' });
  });
});

describe('documents', () => {
  it('a document deleted twice at once is deleted, and audited, once; the second delete finds it gone (404)', async () => {
    const scheme = await newScheme();
    const form = documentForm('Deed.pdf', SAMPLES.pdf);
    const upload = await t.app.inject({
      method: 'POST',
      url: `/api/schemes/${scheme.schemeId}/documents`,
      remoteAddress: uniqueClientAddress(),
      headers: { ...form.headers, authorization: `Bearer ${await t.tokenFor(consultant)}` },
      payload: form.payload,
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const id = upload.json().id as string;
    const answers = await race(
      { table: 'documents', ids: [id] },
      send('DELETE', `/api/documents/${id}`),
      send('DELETE', `/api/documents/${id}`),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([204, 404]);
    expect(await audited(id, 'document.deleted')).toBe(1);
  });
});
