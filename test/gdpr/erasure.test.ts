import { existsSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createId } from '@paralleldrive/cuid2';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  eraseWhatRetentionReleased,
  reapplyErasureLedger,
} from '../../src/server/modules/gdpr/erasure.job.js';
import { rowsOf } from '../../src/server/platform/db/database.js';
import { auditLog, erasures, members, users } from '../../src/server/platform/db/schema.js';
import { createFileErasureLedger } from '../../src/server/platform/ops/erasure-ledger.js';
import { createLocalStorage } from '../../src/server/platform/storage/storage.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { testAuditService, verifyTestChains } from '../helpers/audit.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { ownerOf, writableTableCounts } from '../helpers/database.js';
import { documentForm, SAMPLES } from '../helpers/documents.js';
import {
  createBroker,
  createEmployer,
  createMember,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';

/**
 * Retention, restriction and erasure through the API and the retention job
 * (docs/decisions/0149-retention-and-erasure.md), on a clock the tests move by hand.
 */
let clock = new Date('2026-03-10T10:00:00Z');
const setToday = (day: string) => {
  clock = new Date(`${day}T10:00:00Z`);
};
let t: TestApp;
let ledgerFile: string;
let place: { brokerId: string; employerId: string; schemeId: string };
let admin: UserRow;
let consultant: UserRow;
let hr: UserRow;
let otherFirmsAdmin: UserRow;
let otherMemberId: string;

const post = (url: string, body?: object, user: UserRow = admin) =>
  t.requestAs(user, 'POST', url, body);
const get = (url: string, user: UserRow = admin) => t.requestAs(user, 'GET', url);

const jobDeps = () => ({
  database: t.database,
  audit: testAuditService(() => clock),
  now: () => clock,
  storage: createLocalStorage(t.config.documents.storageRoot),
  ledger: createFileErasureLedger(ledgerFile),
});

const ledgerLines = () =>
  existsSync(ledgerFile)
    ? readFileSync(ledgerFile, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
    : [];

/** A member with an e-mail, an address and a dependant; paid out on `paidOn` when given. */
async function memberOf(options: { paidOn?: string; status?: string } = {}) {
  const member = await createMember(t.database, place);
  await ownerOf(t.database).transaction(async (tx) => {
    await tx.execute(
      sql`update members set email = ${`m${member.id}@example.ie`}, address = '4 Quay Street, Galway' where id = ${member.id}`,
    );
    await tx.execute(
      sql`insert into member_dependants (broker_id, id, employer_id, scheme_id, member_id, name, relationship, phone, email, address, created_by, created_at)
          values (${place.brokerId}, ${createId()}, ${place.employerId}, ${place.schemeId}, ${member.id}, 'Cian Murphy', 'child', '+353 91 555 0100', 'cian@example.ie', '4 Quay Street, Galway', 'system', now())`,
    );
    if (options.paidOn) {
      const changeId = createId();
      await tx.execute(
        sql`update members set status = ${options.status ?? 'refunded'}, status_on = ${options.paidOn} where id = ${member.id}`,
      );
      await tx.execute(
        sql`insert into member_status_changes (broker_id, id, employer_id, scheme_id, member_id, kind, from_status, to_status, effective_on, created_by, created_at)
            values (${place.brokerId}, ${changeId}, ${place.employerId}, ${place.schemeId}, ${member.id}, 'refunded', 'deferred', ${options.status ?? 'refunded'}, ${options.paidOn}, 'system', now())`,
      );
      await tx.execute(
        sql`insert into member_payouts (broker_id, id, employer_id, scheme_id, member_id, change_id, kind, from_on, status, paid_cents, paid_on, created_by, created_at, updated_at)
            values (${place.brokerId}, ${createId()}, ${place.employerId}, ${place.schemeId}, ${member.id}, ${changeId}, 'refund', ${options.paidOn}, 'paid', 8000, ${options.paidOn}, 'system', now(), now())`,
      );
    }
  });
  return member.id;
}

async function erasureRequest(memberId: string, receivedOn = '2026-03-02') {
  const response = await post('/api/data-requests', { memberId, kind: 'erasure', receivedOn });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

async function memberAccountsOf(memberId: string) {
  return ownerOf(t.database)
    .select({ id: users.id })
    .from(users)
    .where(eq(users.memberId, memberId));
}

beforeAll(async () => {
  ledgerFile = path.join(await mkdtemp(path.join(tmpdir(), 'erasure-ledger-')), 'ledger.jsonl');
  t = await buildTestApp({
    counters: uncountedStore(),
    now: () => clock,
    env: { ERASURE_LEDGER_FILE: ledgerFile },
  });
  const brokerId = await createBroker(t.database, 'Shannon Pensions');
  const employerId = await createEmployer(t.database, brokerId, 'Corrib Foods Ltd');
  place = {
    brokerId,
    employerId,
    schemeId: await createScheme(t.database, { id: employerId, brokerId }),
  };
  admin = await createUser(t.database, { brokerId, role: 'BrokerAdmin' });
  consultant = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  hr = await createUser(t.database, { brokerId, role: 'EmployerAdmin', employerId });
  const otherBroker = await createBroker(t.database, 'Liffey Pensions');
  const otherEmployer = await createEmployer(t.database, otherBroker, 'Dodder Ltd');
  otherMemberId = (
    await createMember(t.database, {
      brokerId: otherBroker,
      employerId: otherEmployer,
      schemeId: await createScheme(t.database, { id: otherEmployer, brokerId: otherBroker }),
    })
  ).id;
  otherFirmsAdmin = await createUser(t.database, { brokerId: otherBroker, role: 'BrokerAdmin' });
});
afterAll(async () => {
  await t.close();
  rmSync(path.dirname(ledgerFile), { recursive: true, force: true });
});

describe('the retention view', () => {
  it("shows each class of an active member's record kept while they are in the scheme, with its source", async () => {
    const memberId = await memberOf();
    const response = await get(`/api/members/${memberId}/retention`, consultant);
    expect(response.statusCode, response.body).toBe(200);
    const view = response.json();
    expect(view).toMatchObject({
      memberId,
      paidOutOn: null,
      erasableInFullOn: null,
      restriction: null,
      erasures: [],
    });
    expect(view.classes.map((entry: { recordClass: string }) => entry.recordClass)).toEqual([
      'contact_details',
      'identity_and_benefits',
      'financial_records',
      'documents',
    ]);
    expect(view.classes[0]).toMatchObject({
      name: 'Contact details',
      keep: 'while_payable',
      erasableNow: false,
      source: { label: 'law', citation: 'S.I. No. 128 of 2021 reg. 31' },
    });
  });

  it("is not the employer's to read, and another firm's member is not found", async () => {
    const memberId = await memberOf();
    expect((await get(`/api/members/${memberId}/retention`, hr)).statusCode).toBe(403);
    expect((await get(`/api/members/${otherMemberId}/retention`)).statusCode).toBe(404);
  });
});

describe('restriction', () => {
  it('is recorded with what is disputed, refused twice, lifted once, and audited without the reason', async () => {
    const memberId = await memberOf();
    setToday('2026-03-10');
    const restricted = await post(
      `/api/members/${memberId}/restriction`,
      {
        reason: 'The member says the salary recorded for 2024 is wrong',
      },
      consultant,
    );
    expect(restricted.statusCode, restricted.body).toBe(200);
    expect(restricted.json().restriction).toEqual({
      reason: 'The member says the salary recorded for 2024 is wrong',
      restrictedOn: '2026-03-10',
    });
    const again = await post(
      `/api/members/${memberId}/restriction`,
      { reason: 'Again' },
      consultant,
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toContain('already restricted');

    const lifted = await post(`/api/members/${memberId}/restriction/lift`, undefined, consultant);
    expect(lifted.statusCode, lifted.body).toBe(200);
    expect(lifted.json().restriction).toBeNull();
    expect(
      (await post(`/api/members/${memberId}/restriction/lift`, undefined, consultant)).statusCode,
    ).toBe(409);

    const records = await ownerOf(t.database)
      .select({ action: auditLog.action, newState: auditLog.newState })
      .from(auditLog)
      .where(eq(auditLog.entityId, memberId));
    const restrictedRecord = records.find((record) => record.action === 'member.restricted');
    expect(JSON.stringify(restrictedRecord?.newState)).not.toContain('salary');
    expect(records.map((record) => record.action)).toContain('member.restriction_lifted');
  });

  it('refuses an empty reason, an employer, and another firm, changing nothing', async () => {
    const memberId = await memberOf();
    const before = await writableTableCounts(t.database);
    expect((await post(`/api/members/${memberId}/restriction`, { reason: '' })).statusCode).toBe(
      400,
    );
    expect(
      (await post(`/api/members/${memberId}/restriction`, { reason: 'x' }, hr)).statusCode,
    ).toBe(403);
    expect(
      (await post(`/api/members/${otherMemberId}/restriction`, { reason: 'x' })).statusCode,
    ).toBe(404);
    expect(await writableTableCounts(t.database)).toEqual(before);
  });
});

describe('an erasure request', () => {
  it('for an active member is refused under the retention rule, saying why, and nothing is erased', async () => {
    setToday('2026-03-10');
    const memberId = await memberOf();
    const requestId = await erasureRequest(memberId);
    const response = await post(`/api/data-requests/${requestId}/erase`);
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json();
    expect(answer.erased).toBe('none');
    expect(answer.request).toMatchObject({
      status: 'refused',
      refusalCitation: 'GDPR Art. 17(3)(b)',
      closedOn: '2026-03-10',
    });
    expect(answer.request.refusalReason).toContain(
      'Contact details: Kept while the member is in the scheme',
    );
    const member = await get(`/api/members/${memberId}`);
    expect(member.statusCode).toBe(200);
    expect(member.json().email).toBe(`m${memberId}@example.ie`);
    expect(ledgerLines().some((line) => line.includes(memberId))).toBe(false);
  });

  it('for a member paid out three years ago erases the contact details and sign-in account, keeps the rest until its day', async () => {
    setToday('2026-03-10');
    const memberId = await memberOf({ paidOn: '2023-03-10' });
    await createUser(t.database, { ...place, role: 'Member', memberId });
    const requestId = await erasureRequest(memberId);
    const response = await post(`/api/data-requests/${requestId}/erase`);
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json();
    expect(answer.erased).toBe('contact_details');
    expect(answer.request.status).toBe('completed');
    expect(answer.request.completionNote).toContain(
      'Identity and benefits: Kept until 10 Mar 2029',
    );

    const member = await get(`/api/members/${memberId}`);
    expect(member.json()).toMatchObject({ email: null, address: null, firstName: 'Aoife' });
    expect(await memberAccountsOf(memberId)).toEqual([]);
    const dependants = rowsOf<{ phone: string | null; email: string | null; name: string }>(
      await ownerOf(t.database).execute(
        sql`select name, phone, email from member_dependants where member_id = ${memberId}`,
      ),
    );
    expect(dependants).toEqual([{ name: 'Cian Murphy', phone: null, email: null }]);

    const entry = JSON.parse(ledgerLines().find((line) => line.includes(memberId)) ?? '{}');
    expect(entry).toMatchObject({
      scope: 'contact_details',
      trigger: 'request',
      requestId,
      memberId,
    });
    expect(JSON.stringify(entry)).not.toMatch(/Aoife|Murphy|example\.ie|Quay/);
    const view = (await get(`/api/members/${memberId}/retention`)).json();
    expect(view.erasures).toEqual([
      { scope: 'contact_details', trigger: 'request', erasedAt: clock.toISOString() },
    ]);
  });

  it("for a member paid out seven years ago erases every row about them and their documents' files", async () => {
    setToday('2019-01-20');
    const memberId = await memberOf();
    const contribution = await post(`/api/members/${memberId}/contributions`, {
      period: '2018-12',
      kind: 'employee',
      amountCents: 12_345,
    });
    expect(contribution.statusCode, contribution.body).toBe(201);
    const form = documentForm('Statement Aoife Murphy.pdf', SAMPLES.pdf, {
      documentType: 'benefit_statement',
      memberId,
    });
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/schemes/${place.schemeId}/documents`,
      remoteAddress: uniqueClientAddress(),
      headers: { ...form.headers, authorization: `Bearer ${await t.tokenFor(admin)}` },
      payload: form.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const [document] = rowsOf<{ storage_key: string }>(
      await ownerOf(t.database).execute(
        sql`select storage_key from documents where id = ${uploaded.json().id}`,
      ),
    );
    const file = path.join(t.config.documents.storageRoot, document?.storage_key ?? 'missing');
    expect(existsSync(file)).toBe(true);
    await ownerOf(t.database).execute(
      sql`update members set status = 'refunded', status_on = '2019-03-01' where id = ${memberId}`,
    );
    await ownerOf(t.database).execute(
      sql`insert into member_payouts (broker_id, id, employer_id, scheme_id, member_id, change_id, kind, from_on, status, paid_cents, paid_on, created_by, created_at, updated_at)
          values (${place.brokerId}, ${createId()}, ${place.employerId}, ${place.schemeId}, ${memberId}, ${createId()}, 'refund', '2019-03-01', 'paid', 8000, '2019-03-10', 'system', now(), now())`,
    );
    await createUser(t.database, { ...place, role: 'Member', memberId });

    setToday('2026-03-10');
    const requestId = await erasureRequest(memberId);
    const response = await post(`/api/data-requests/${requestId}/erase`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().erased).toBe('member');
    expect(response.json().request.status).toBe('completed');

    expect((await get(`/api/members/${memberId}`)).statusCode).toBe(404);
    expect((await get(`/api/data-requests/${requestId}`)).statusCode).toBe(404);
    // Every table with a member's rows, as the catalogue lists them.
    const tables = rowsOf<{ table_name: string }>(
      await ownerOf(t.database).execute(
        sql`select table_name from information_schema.columns where table_schema = 'public' and column_name = 'member_id' and table_name <> 'erasures'`,
      ),
    );
    expect(tables.length).toBeGreaterThan(8);
    for (const { table_name } of tables) {
      const [left] = rowsOf<{ count: number }>(
        await ownerOf(t.database).execute(
          sql`select count(*)::int as count from ${sql.identifier(table_name)} where member_id = ${memberId}`,
        ),
      );
      expect({ table_name, count: left?.count }).toEqual({ table_name, count: 0 });
    }
    const [row] = rowsOf<{ count: number }>(
      await ownerOf(t.database).execute(
        sql`select count(*)::int as count from members where id = ${memberId}`,
      ),
    );
    expect(row?.count).toBe(0);
    expect(existsSync(file)).toBe(false);

    const [erasure] = await ownerOf(t.database)
      .select()
      .from(erasures)
      .where(eq(erasures.memberId, memberId));
    expect(erasure).toMatchObject({
      scope: 'member',
      trigger: 'request',
      requestId,
      documentCount: 1,
    });
    const verification = await verifyTestChains(t.database, { tenantId: place.brokerId });
    expect(verification.broken).toEqual([]);
  });

  it("is refused when the request is not an erasure, is closed, is another firm's, or the caller is not a BrokerAdmin", async () => {
    setToday('2026-03-10');
    const memberId = await memberOf({ paidOn: '2015-01-01' });
    const access = (
      await post('/api/data-requests', { memberId, kind: 'access', receivedOn: '2026-03-02' })
    ).json().id as string;
    const erasure = await erasureRequest(memberId);
    const before = await writableTableCounts(t.database);
    const notErasure = await post(`/api/data-requests/${access}/erase`);
    expect(notErasure.statusCode).toBe(409);
    expect(notErasure.json().error).toContain('Only an erasure request');
    expect(
      (await post(`/api/data-requests/${erasure}/erase`, undefined, consultant)).statusCode,
    ).toBe(403);
    expect(
      (await post(`/api/data-requests/${erasure}/erase`, undefined, otherFirmsAdmin)).statusCode,
    ).toBe(404);
    expect(await writableTableCounts(t.database)).toEqual(before);
    expect((await get(`/api/members/${memberId}`)).statusCode).toBe(200);

    const completed = await post(`/api/data-requests/${erasure}/complete`, {});
    expect(completed.statusCode).toBe(200);
    expect((await post(`/api/data-requests/${erasure}/erase`)).statusCode).toBe(409);
    expect((await get(`/api/members/${memberId}`)).statusCode).toBe(200);
  });
});

describe('the database function that erases a member', () => {
  it("names every table with a column member_id, so a new table with a member's rows is not left behind", async () => {
    const [definition] = rowsOf<{ body: string }>(
      await ownerOf(t.database).execute(
        sql`select pg_get_functiondef('erase_member(text)'::regprocedure) || pg_get_functiondef('erase_member_accounts(text, text)'::regprocedure) as body`,
      ),
    );
    const tables = rowsOf<{ table_name: string }>(
      await ownerOf(t.database).execute(
        sql`select table_name from information_schema.columns where table_schema = 'public' and column_name = 'member_id' and table_name <> 'erasures'`,
      ),
    );
    for (const { table_name } of tables) {
      expect(definition?.body, table_name).toContain(`FROM ${table_name} `);
    }
  });

  it('also names every table whose foreign key points at a table it deletes from, so no delete is refused', async () => {
    const [definition] = rowsOf<{ body: string }>(
      await ownerOf(t.database).execute(
        sql`select pg_get_functiondef('erase_member(text)'::regprocedure) || pg_get_functiondef('erase_member_accounts(text, text)'::regprocedure) as body`,
      ),
    );
    const deleted = new Set(
      [...(definition?.body ?? '').matchAll(/DELETE FROM (\w+)/g)].map((match) => match[1]),
    );
    // Rows that point at a deleted table but never at a member's row: the scheme's own documents
    // (a policy's, an ORA's, a holder's letter, an issued draft) and reminders to the firm's staff.
    const neverAMembers = new Set([
      'ai_drafts',
      'key_function_holders',
      'ora_reports',
      'written_policies',
      'data_protection_reminders:users',
    ]);
    const keys = rowsOf<{ referencing: string; referenced: string }>(
      await ownerOf(t.database).execute(
        sql`select c.conrelid::regclass::text as referencing, c.confrelid::regclass::text as referenced
              from pg_constraint c where c.contype = 'f'`,
      ),
    );
    for (const { referencing, referenced } of keys) {
      if (!deleted.has(referenced) || deleted.has(referencing)) continue;
      if (neverAMembers.has(referencing) || neverAMembers.has(`${referencing}:${referenced}`))
        continue;
      expect.fail(`${referencing} points at ${referenced}, which erase_member deletes from`);
    }
  });

  it('erases nothing of another firm when called in the wrong tenant', async () => {
    const [result] = rowsOf<{ count: number }>(
      await t.database.transaction(
        [
          `select set_config('role', 'pension_app', true), set_config('app.tenant_id', '${place.brokerId}', true)`,
        ],
        async (tx) => {
          await tx.execute(sql`select erase_member(${otherMemberId})`);
          return tx.execute(sql`select 1 as count`);
        },
      ),
    );
    expect(result?.count).toBe(1);
    const [other] = await ownerOf(t.database)
      .select({ id: members.id })
      .from(members)
      .where(eq(members.id, otherMemberId));
    expect(other?.id).toBe(otherMemberId);
  });
});

describe('the retention job', () => {
  it('erases a member once their last period ends, once, and leaves a restricted member alone until lifted', async () => {
    setToday('2026-03-10');
    const due = await memberOf({ paidOn: '2019-03-01' });
    const restricted = await memberOf({ paidOn: '2019-03-01' });
    const notYet = await memberOf({ paidOn: '2020-06-01' });
    expect(
      (
        await post(`/api/members/${restricted}/restriction`, {
          reason: 'A complaint to the Ombudsman is open',
        })
      ).statusCode,
    ).toBe(200);

    const first = await eraseWhatRetentionReleased(jobDeps());
    expect(first.erased).toBeGreaterThanOrEqual(1);
    expect(first.restricted).toBeGreaterThanOrEqual(1);
    const present = async (id: string) =>
      (await ownerOf(t.database).select({ id: members.id }).from(members).where(eq(members.id, id)))
        .length === 1;
    expect(await present(due)).toBe(false);
    expect(await present(restricted)).toBe(true);
    expect(await present(notYet)).toBe(true);

    const second = await eraseWhatRetentionReleased(jobDeps());
    expect(second.erased).toBe(0);
    expect(ledgerLines().filter((line) => line.includes(due))).toHaveLength(1);
    const [entry] = await ownerOf(t.database)
      .select()
      .from(erasures)
      .where(eq(erasures.memberId, due));
    expect(entry).toMatchObject({ trigger: 'retention_ended', requestId: null });

    await post(`/api/members/${restricted}/restriction/lift`);
    const third = await eraseWhatRetentionReleased(jobDeps());
    expect(third.erased).toBe(1);
    expect(await present(restricted)).toBe(false);
  });
});

describe('the erasure ledger applied again', () => {
  it('erases a member the database still holds, once, audited as applied again, the chain intact', async () => {
    setToday('2026-03-10');
    const memberId = await memberOf();
    // As a restore of a backup taken before the erasure leaves it: in the ledger, not in the database.
    await createFileErasureLedger(ledgerFile).append({
      v: 1,
      id: createId(),
      brokerId: place.brokerId,
      memberId,
      scope: 'member',
      trigger: 'retention_ended',
      requestId: null,
      erasedAt: '2026-03-09T03:00:00.000Z',
    });
    const first = await reapplyErasureLedger(jobDeps());
    expect(first.reapplied).toBe(1);
    expect((await get(`/api/members/${memberId}`)).statusCode).toBe(404);
    const [entry] = await ownerOf(t.database)
      .select()
      .from(erasures)
      .where(eq(erasures.memberId, memberId));
    expect(entry?.reappliedAt?.toISOString()).toBe(clock.toISOString());
    const [record] = await ownerOf(t.database)
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entityId, memberId), eq(auditLog.action, 'member.erasure_reapplied')));
    expect(record).toBeDefined();
    expect((await reapplyErasureLedger(jobDeps())).reapplied).toBe(0);
    expect((await verifyTestChains(t.database, { tenantId: place.brokerId })).broken).toEqual([]);
  });

  it('reads past an entry cut short by a crash, and refuses a line that is not an entry', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'erasure-ledger-torn-'));
    const file = path.join(dir, 'ledger.jsonl');
    const ledger = createFileErasureLedger(file);
    const { appendFileSync, writeFileSync } = await import('node:fs');
    writeFileSync(file, '{"v":1,"id":"abc","brokerId":"b');
    await ledger.append({
      v: 1,
      id: 'entry1',
      brokerId: 'broker1',
      memberId: 'member1',
      scope: 'contact_details',
      trigger: 'request',
      requestId: 'request1',
      erasedAt: '2026-03-09T03:00:00.000Z',
    });
    expect((await ledger.entries()).map((entry) => entry.id)).toEqual(['entry1']);
    appendFileSync(file, '{"v":1,"id":"x y"}\n');
    await expect(ledger.entries()).rejects.toThrow("erasure ledger's line 3");
    rmSync(dir, { recursive: true, force: true });
  });
});
