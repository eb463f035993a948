import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createComplianceReminders } from '../../src/server/modules/governance/reminders.job.js';
import { createSealedBox, deriveKey } from '../../src/server/platform/crypto/sealed-box.js';
import type { Database } from '../../src/server/platform/db/database.js';
import { ROWS_PER_INSERT } from '../../src/server/platform/db/insert-once.js';
import { openPostgres } from '../../src/server/platform/db/postgres.js';
import { runtimeDatabaseUrl } from '../../src/server/platform/db/runtime-login.js';
import { complianceReminders, emailOutbox } from '../../src/server/platform/db/schema.js';
import { createOutbox } from '../../src/server/platform/email/outbox.js';
import { callJob } from '../cron/helpers.js';
import { buildTestApp } from '../helpers/app.js';
import { testConfig } from '../helpers/config.js';
import { openTestDatabase, ownerOf, type TestDatabase } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createFiling,
  createOraReport,
  createPolicy,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';
import { readOutbox } from '../helpers/mail.js';

/**
 * The reminders job (docs/decisions/0059-governance-rules.md): each reminder goes out once, to the scheme's BrokerAdmins
 * and EmployerAdmins, however often and on however many instances the job runs.
 */
const config = testConfig();
let clock = new Date('2025-06-01T08:00:00Z');
let db: TestDatabase;
let brokerAdmin: UserRow;
let employerAdmin: UserRow;
let schemeId: string;
let brokerId: string;
let employerId: string;

function remindersOn(database: Database) {
  return createComplianceReminders({
    database,
    outbox: createOutbox({
      box: createSealedBox(deriveKey(config.secrets.AUTH_SECRET, 'email-outbox')),
      now: () => clock,
    }),
    now: () => clock,
    publicBaseUrl: new URL('https://pensions.example.ie'),
    onEmailQueued: () => undefined,
  });
}

const sentRows = () =>
  ownerOf(db.database)
    .select()
    .from(complianceReminders)
    .where(eq(complianceReminders.schemeId, schemeId));
const outboxOf = async (user: UserRow) =>
  (await readOutbox(db.database, config)).filter(
    (row) => row.userId === user.id && row.kind === 'compliance_reminder',
  );

beforeAll(async () => {
  db = await openTestDatabase();
  brokerId = await createBroker(db.database, 'Suir Pensions');
  employerId = await createEmployer(db.database, brokerId, 'Nore Dairies Ltd');
  brokerAdmin = await createUser(db.database, { brokerId, role: 'BrokerAdmin' });
  employerAdmin = await createUser(db.database, { brokerId, employerId, role: 'EmployerAdmin' });
  // Neither of these is reminded: a consultant, and an admin no longer active.
  await createUser(db.database, { brokerId, role: 'BrokerUser' });
  await createUser(db.database, { brokerId, role: 'BrokerAdmin', status: 'deactivated' });
  // Nor another firm's admin.
  const otherBroker = await createBroker(db.database, 'Barrow Brokers');
  await createUser(db.database, { brokerId: otherBroker, role: 'BrokerAdmin' });
  schemeId = await createScheme(db.database, { id: employerId, brokerId }, 'Nore Dairies Scheme');
  // The ORA falls due on 1 July 2025: 30 days after the clock's day.
  await createOraReport(
    db.database,
    { brokerId, employerId, schemeId },
    { performedOn: '2022-07-01', nextDue: '2025-07-01' },
  );
  // The compliance statement for 2024 is prepared, so the ORA is the only date in the window.
  await createFiling(db.database, { brokerId, employerId, schemeId });
  // A policy review due long after the reminder window: no reminder yet.
  await createPolicy(
    db.database,
    { brokerId, employerId, schemeId },
    { status: 'approved', approvedOn: '2024-09-01' },
  );
});
afterAll(() => db.dispose());

describe('the reminders job', () => {
  it('sends each due reminder once to the BrokerAdmins and EmployerAdmins, however often it runs', async () => {
    const job = remindersOn(db.database);
    const first = await job.run();
    expect(first).toMatchObject({ remindersSent: 2, emails: 2 });
    expect(first.schemes).toBeGreaterThanOrEqual(1);
    const rows = await sentRows();
    expect(rows.map((row) => [row.stage, row.dueOn]).sort()).toEqual([
      ['before_30', '2025-07-01'],
      ['before_30', '2025-07-01'],
    ]);
    expect(new Set(rows.map((row) => row.userId))).toEqual(
      new Set([brokerAdmin.id, employerAdmin.id]),
    );
    const [mail] = await outboxOf(brokerAdmin);
    expect(mail?.message).toMatchObject({
      subject: 'Governance: 1 date coming due',
      text: expect.stringContaining(
        'Nore Dairies Scheme (Nore Dairies Ltd): Own-risk assessment, due 1 Jul 2025',
      ),
    });
    expect(mail?.message?.text).toContain('[Law: Pensions Act 1990 s.64AL(3)]');

    const again = await job.run();
    expect(again).toMatchObject({ remindersSent: 0, emails: 0 });
    expect(await sentRows()).toHaveLength(2);
    expect(await outboxOf(employerAdmin)).toHaveLength(1);
  });

  it('sends each reminder once when two instances run at the same moment', async () => {
    clock = new Date('2025-06-17T08:00:00Z'); // 14 days before: a new stage.
    const second: Database = db.url
      ? await openPostgres(
          runtimeDatabaseUrl(db.url, db.url, process.env.DATABASE_RUNTIME_PASSWORD),
          db.url,
          4,
        )
      : db.database;
    try {
      const runs = await Promise.all([remindersOn(db.database).run(), remindersOn(second).run()]);
      expect(runs.reduce((sum, run) => sum + run.remindersSent, 0)).toBe(2);
      expect(runs.reduce((sum, run) => sum + run.emails, 0)).toBe(2);
    } finally {
      if (second !== db.database) await second.close();
    }
    const stages = (await sentRows()).filter((row) => row.stage === 'before_14');
    expect(stages).toHaveLength(2);
    expect(await outboxOf(brokerAdmin)).toHaveLength(2);
  });

  it('after an outage sends only the latest stage, once, and then weekly while overdue', async () => {
    // Nothing ran on 24/06 (7 days before) nor on 01/07 (the day): on 03/07 only the day's reminder goes.
    clock = new Date('2025-07-03T08:00:00Z');
    const job = remindersOn(db.database);
    expect(await job.run()).toMatchObject({ remindersSent: 2 });
    expect((await sentRows()).map((row) => row.stage).sort()).toEqual([
      'before_14',
      'before_14',
      'before_30',
      'before_30',
      'due_today',
      'due_today',
    ]);
    const [, latest] = await outboxOf(employerAdmin).then((rows) => rows.slice(-2));
    expect(latest?.message?.subject).toBe('Governance: 1 overdue and 0 coming due');
    expect(latest?.message?.text).toContain('overdue since 1 Jul 2025');
    expect(await job.run()).toMatchObject({ remindersSent: 0 });
    clock = new Date('2025-07-08T08:00:00Z');
    expect(await job.run()).toMatchObject({ remindersSent: 2 });
    expect(
      await ownerOf(db.database)
        .select()
        .from(complianceReminders)
        .where(
          and(
            eq(complianceReminders.schemeId, schemeId),
            eq(complianceReminders.stage, 'overdue_1'),
          ),
        ),
    ).toHaveLength(2);
  });

  it('keeps the e-mail sealed in the outbox and the reminder rows free of personal data', async () => {
    const raw = await ownerOf(db.database).select().from(emailOutbox);
    expect(JSON.stringify(raw)).not.toContain(brokerAdmin.email);
    const rows = await sentRows();
    expect(JSON.stringify(rows)).not.toMatch(/@|Nore Dairies/);
  });
});

describe('the reminders job over a large firm', () => {
  // 130 accounts, 70 schemes and 9,100 reminders: past 30 s on a busy 2-core CI machine.
  it('records more reminders than one statement holds, each once', async () => {
    // A firm of 130 admins and 70 schemes whose compliance statements were due on 31 January:
    // 9,100 reminders in one batch, more than PostgreSQL's 65,535 parameters would take in one
    // statement, and more than ROWS_PER_INSERT.
    const big = await openTestDatabase();
    try {
      const firm = await createBroker(big.database, 'Barrow Brokers');
      const employer = await createEmployer(big.database, firm, 'Barrow Mills Ltd');
      for (let index = 0; index < 130; index += 1) {
        await createUser(big.database, { brokerId: firm, role: 'BrokerAdmin' });
      }
      for (let index = 0; index < 70; index += 1) {
        const scheme = await createScheme(big.database, { id: employer, brokerId: firm });
        // Everything else is well in hand: the ORA's date is years away.
        await createOraReport(
          big.database,
          { brokerId: firm, employerId: employer, schemeId: scheme },
          { performedOn: '2025-05-01', nextDue: '2028-05-01' },
        );
      }
      const run = await remindersOn(big.database).run();
      expect(run.remindersSent).toBe(9_100);
      expect(run.remindersSent).toBeGreaterThan(ROWS_PER_INSERT);
      expect(run.remindersSent).toBe(run.remindersDue);
      const recorded = await ownerOf(big.database).select().from(complianceReminders);
      expect(recorded).toHaveLength(run.remindersSent);
      expect(new Set(recorded.map((row) => `${row.obligationKey}|${row.userId}`)).size).toBe(
        recorded.length,
      );
      expect(await remindersOn(big.database).run()).toMatchObject({ remindersSent: 0 });
    } finally {
      await big.dispose();
    }
  }, 90_000);
});

describe('POST /api/cron/reminders', () => {
  it('runs the job behind the cron bearer, and a retry of the same day runs nothing', async () => {
    clock = new Date('2025-06-01T08:00:00Z');
    const t = await buildTestApp({ now: () => clock });
    try {
      const firm = await createBroker(t.database, 'Slaney Pensions');
      const employer = await createEmployer(t.database, firm, 'Slaney Mills Ltd');
      await createUser(t.database, { brokerId: firm, role: 'BrokerAdmin' });
      const scheme = await createScheme(
        t.database,
        { id: employer, brokerId: firm },
        'Slaney Scheme',
      );
      await createOraReport(
        t.database,
        { brokerId: firm, employerId: employer, schemeId: scheme },
        { performedOn: '2022-07-01', nextDue: '2025-07-01' },
      );
      await createFiling(t.database, { brokerId: firm, employerId: employer, schemeId: scheme });
      expect((await callJob(t, 'reminders', { authorization: 'Bearer wrong' })).statusCode).toBe(
        401,
      );
      const first = await callJob(t, 'reminders');
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toEqual({
        job: 'reminders',
        runId: expect.any(String),
        outcome: 'succeeded',
        schemes: 1,
        remindersDue: 1,
        remindersSent: 1,
        emails: 1,
      });
      expect((await callJob(t, 'reminders')).json().outcome).toBe('already_ran');
    } finally {
      await t.close();
    }
  });
});
