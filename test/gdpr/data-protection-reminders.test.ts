import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDataProtectionReminders } from '../../src/server/modules/gdpr/index.js';
import { createSealedBox, deriveKey } from '../../src/server/platform/crypto/sealed-box.js';
import { dataProtectionReminders } from '../../src/server/platform/db/schema.js';
import { createOutbox, type OutboxEntry } from '../../src/server/platform/email/outbox.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createMember,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';

/**
 * The data-protection reminders job (docs/decisions/0147-data-protection-reminders.md): a
 * data-subject request still open is reminded of 7 and 2 days before its due day and once
 * overdue, a breach at 48 and 12 hours before the Commission's deadline and once past it; each
 * once, to the firm's active BrokerAdmins, never after the request or breach is closed, and the
 * e-mail carries nothing of the member.
 */
let clock = new Date('2026-03-01T10:00:00Z');
const at = (instant: string) => {
  clock = new Date(instant);
};
let t: TestApp;
let admin: UserRow;
let consultant: UserRow;
let otherFirmsAdmin: UserRow;
let member: { id: string; ppsNumber: string };
let brokerId: string;

/**
 * Each e-mail the job queued, as it queued it: the outbox row itself is delivered, and its
 * message erased, by whichever mail worker reaches it first.
 */
const queued: OutboxEntry[] = [];

/** The job as the app composes it, its outbox watched. */
const runJob = () => {
  const outbox = createOutbox({
    box: createSealedBox(deriveKey(t.config.secrets.AUTH_SECRET, 'email-outbox')),
    now: () => clock,
  });
  return createDataProtectionReminders({
    database: t.database,
    outbox: {
      async enqueue(tx, entry) {
        const id = await outbox.enqueue(tx, entry);
        queued.push(entry);
        return id;
      },
    },
    now: () => clock,
    publicBaseUrl: new URL('https://pensions.example.ie'),
    onEmailQueued: () => undefined,
  }).run();
};

const remindersOf = async (column: 'dataRequestId' | 'dataBreachId', id: string) =>
  (await ownerOf(t.database).select().from(dataProtectionReminders)).filter(
    (row) => row[column] === id,
  );

const mailTo = (user: UserRow) =>
  queued.filter((entry) => entry.userId === user.id && entry.kind === 'data_protection_reminder');

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore(), now: () => clock });
  brokerId = await createBroker(t.database, 'Shannon Pensions');
  const employerId = await createEmployer(t.database, brokerId, 'Corrib Foods Ltd');
  const schemeId = await createScheme(t.database, { id: employerId, brokerId });
  member = await createMember(t.database, { brokerId, employerId, schemeId });
  admin = await createUser(t.database, { brokerId, role: 'BrokerAdmin' });
  consultant = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  // Neither is reminded: an admin no longer active, and another firm's.
  await createUser(t.database, { brokerId, role: 'BrokerAdmin', status: 'deactivated' });
  const otherBroker = await createBroker(t.database, 'Liffey Pensions');
  otherFirmsAdmin = await createUser(t.database, { brokerId: otherBroker, role: 'BrokerAdmin' });
});
afterAll(() => t.close());

describe('reminders of a data-subject request', () => {
  it('reminds the admins once at 7 days, 2 days and overdue, however often the job runs', async () => {
    at('2026-03-01T10:00:00Z');
    const recorded = await t.requestAs(consultant, 'POST', '/api/data-requests', {
      memberId: member.id,
      kind: 'rectification',
      receivedOn: '2026-02-20',
    });
    expect(recorded.statusCode, recorded.body).toBe(201);
    const request = recorded.json() as { id: string; dueOn: string };
    expect(request.dueOn).toBe('2026-03-20');

    // Nineteen days left: nothing yet.
    expect(await runJob()).toMatchObject({ remindersSent: 0, emails: 0 });

    const stages = async () =>
      (await remindersOf('dataRequestId', request.id)).map((row) => [row.stage, row.dueOn]);
    for (const [instant, stage] of [
      ['2026-03-13T00:10:00Z', 'before_7'],
      ['2026-03-18T07:05:00Z', 'before_2'],
      ['2026-03-21T09:05:00Z', 'overdue'],
    ] as const) {
      at(instant);
      expect(await runJob(), stage).toMatchObject({ remindersSent: 1, emails: 1 });
      expect(await runJob(), `${stage} again`).toMatchObject({ remindersSent: 0, emails: 0 });
    }
    // The day after each point, nothing more is sent.
    at('2026-03-22T09:05:00Z');
    expect(await runJob()).toMatchObject({ remindersSent: 0 });
    expect(await stages()).toEqual([
      ['before_7', '2026-03-20'],
      ['before_2', '2026-03-20'],
      ['overdue', '2026-03-20'],
    ]);
    const rows = await remindersOf('dataRequestId', request.id);
    expect(new Set(rows.map((row) => row.userId))).toEqual(new Set([admin.id]));

    const mails = mailTo(admin);
    expect(mails.map((mail) => mail.message?.subject)).toEqual([
      'Data protection: 1 deadline coming due',
      'Data protection: 1 deadline coming due',
      'Data protection: 1 overdue and 0 coming due',
    ]);
    const [first] = mails;
    expect(first?.message?.text).toContain(
      'Data-subject request, Correction (Art. 16): due on 20 Mar 2026',
    );
    expect(first?.message?.text).toContain('See https://pensions.example.ie/data-requests');
    for (const mail of mails) {
      const words = `${mail.message?.subject} ${mail.message?.text} ${mail.message?.html}`;
      expect(words).not.toContain('Aoife');
      expect(words).not.toContain('Murphy');
      expect(words).not.toContain(member.ppsNumber);
      expect(words).not.toContain('@example.ie');
    }
    expect(mailTo(consultant)).toEqual([]);
    expect(mailTo(otherFirmsAdmin)).toEqual([]);
  });

  it('sends nothing once the request is completed, and reminds afresh of an extended due day', async () => {
    at('2026-04-01T10:00:00Z');
    const make = async () => {
      const response = await t.requestAs(consultant, 'POST', '/api/data-requests', {
        memberId: member.id,
        kind: 'access',
        receivedOn: '2026-03-05',
      });
      expect(response.statusCode, response.body).toBe(201);
      return response.json() as { id: string; dueOn: string };
    };
    const completed = await make();
    const extended = await make();
    expect(completed.dueOn).toBe('2026-04-05');
    // Four days left: the 7-day reminder of each.
    expect(await runJob()).toMatchObject({ remindersSent: 2, emails: 1 });

    const done = await t.requestAs(
      consultant,
      'POST',
      `/api/data-requests/${completed.id}/complete`,
      {},
    );
    expect(done.statusCode, done.body).toBe(200);
    const longer = await t.requestAs(
      consultant,
      'POST',
      `/api/data-requests/${extended.id}/extend`,
      {
        reason: 'Records are being gathered from three schemes',
      },
    );
    expect(longer.statusCode, longer.body).toBe(200);
    expect(longer.json()).toMatchObject({ dueOn: '2026-06-05' });

    // The 2-day point of the first due day: the completed request is past reminding, and the
    // extended one is now due on 5 June.
    at('2026-04-04T10:00:00Z');
    expect(await runJob()).toMatchObject({ remindersSent: 0, emails: 0 });
    at('2026-04-07T10:00:00Z');
    expect(await runJob()).toMatchObject({ remindersSent: 0, emails: 0 });
    expect((await remindersOf('dataRequestId', completed.id)).map((row) => row.stage)).toEqual([
      'before_7',
    ]);

    at('2026-05-30T10:00:00Z');
    expect(await runJob()).toMatchObject({ remindersSent: 1 });
    expect(
      (await remindersOf('dataRequestId', extended.id)).map((row) => [row.stage, row.dueOn]),
    ).toEqual([
      ['before_7', '2026-04-05'],
      ['before_7', '2026-06-05'],
    ]);
    const answered = await t.requestAs(
      consultant,
      'POST',
      `/api/data-requests/${extended.id}/complete`,
      {},
    );
    expect(answered.statusCode, answered.body).toBe(200);
    at('2026-06-06T10:00:00Z');
    expect(await runJob()).toMatchObject({ remindersSent: 0 });
  });
});

describe('reminders of a personal-data breach', () => {
  const breach = {
    title: 'Statements posted to Aoife Murphy’s neighbour',
    description: 'An annual statement went to the wrong address.',
    becameAwareAt: '2026-07-06T09:30:00Z',
    categoriesOfData: ['identity', 'financial'],
    approximateMembers: 1,
    riskToPeople: 'risk',
  };
  const record = async (overrides: object = {}) => {
    const response = await t.requestAs(admin, 'POST', '/api/data-breaches', {
      ...breach,
      ...overrides,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: string };
  };

  it('reminds at 48 and 12 hours before the deadline, once each, and not after the notification', async () => {
    at('2026-07-06T10:05:00Z');
    const notified = await record();
    const late = await record();
    // Judged unlikely to risk people: the Commission is not to be told, so no reminder.
    const unlikely = await record({ riskToPeople: 'unlikely' });
    expect(await runJob()).toMatchObject({ remindersSent: 0 });

    // Deadline 09:30 UTC on 9 July; 48 hours left from 09:30 on the 7th.
    at('2026-07-07T10:05:00Z');
    expect(await runJob()).toMatchObject({ remindersSent: 2, emails: 1 });
    expect(await runJob()).toMatchObject({ remindersSent: 0, emails: 0 });

    at('2026-07-08T22:05:00Z');
    expect(await runJob()).toMatchObject({ remindersSent: 2, emails: 1 });
    const [, mail] = mailTo(admin).filter((row) =>
      row.message?.text.includes('Personal-data breach'),
    );
    expect(mail?.message?.text).toContain(
      'the Data Protection Commission is to be told by 9 Jul 2026, 10:30, 11 hours from now',
    );
    expect(mail?.message?.text).toContain('See https://pensions.example.ie/data-breaches');
    expect(mail?.message?.text).not.toContain('Aoife');

    at('2026-07-09T08:30:00Z');
    const told = await t.requestAs(admin, 'POST', `/api/data-breaches/${notified.id}/notify-dpc`, {
      notifiedAt: '2026-07-09T08:00:00Z',
    });
    expect(told.statusCode, told.body).toBe(200);

    at('2026-07-09T10:05:00Z');
    expect(await runJob()).toMatchObject({ remindersSent: 1, emails: 1 });
    at('2026-07-10T10:05:00Z');
    expect(await runJob()).toMatchObject({ remindersSent: 0 });

    expect((await remindersOf('dataBreachId', notified.id)).map((row) => row.stage)).toEqual([
      'hours_48',
      'hours_12',
    ]);
    expect((await remindersOf('dataBreachId', late.id)).map((row) => row.stage)).toEqual([
      'hours_48',
      'hours_12',
      'overdue',
    ]);
    expect(await remindersOf('dataBreachId', unlikely.id)).toEqual([]);
  });

  it('sends nothing more once a breach is judged unlikely to risk people and closed', async () => {
    at('2026-08-01T13:05:00Z');
    const closed = await record({ becameAwareAt: '2026-07-31T12:00:00Z' });
    expect(await runJob()).toMatchObject({ remindersSent: 1 });
    const judged = await t.requestAs(admin, 'PATCH', `/api/data-breaches/${closed.id}`, {
      riskToPeople: 'unlikely',
    });
    expect(judged.statusCode, judged.body).toBe(200);
    const shut = await t.requestAs(admin, 'POST', `/api/data-breaches/${closed.id}/close`, {
      outcome: 'The letter was returned unopened.',
    });
    expect(shut.statusCode, shut.body).toBe(200);
    for (const instant of ['2026-08-03T01:05:00Z', '2026-08-03T13:05:00Z']) {
      at(instant);
      expect(await runJob(), instant).toMatchObject({ remindersSent: 0 });
    }
    expect((await remindersOf('dataBreachId', closed.id)).map((row) => row.stage)).toEqual([
      'hours_48',
    ]);
  });
});

describe('the job', () => {
  it('is the app’s job of that name, run every hour at five past', () => {
    const job = t.app.scheduledJobs.get('data-protection-reminders');
    expect(job?.cadence.crontab).toBe('5 * * * *');
    expect(job?.cadence.slotOf(new Date('2026-07-07T10:59:59Z'))).toEqual(
      new Date('2026-07-07T10:00:00Z'),
    );
  });

  it('keeps the reminders of each firm to the firm: a tenant reads only its own', async () => {
    expect(
      (await ownerOf(t.database).select().from(dataProtectionReminders)).every(
        (row) => row.brokerId === brokerId,
      ),
    ).toBe(true);
    expect(
      await ownerOf(t.database)
        .select()
        .from(dataProtectionReminders)
        .where(eq(dataProtectionReminders.userId, otherFirmsAdmin.id)),
    ).toEqual([]);
  });
});
