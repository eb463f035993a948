import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIctIncidentReminders } from '../../src/server/modules/dora/index.js';
import { createSealedBox, deriveKey } from '../../src/server/platform/crypto/sealed-box.js';
import { ictIncidentReminders } from '../../src/server/platform/db/schema.js';
import { createOutbox, type OutboxEntry } from '../../src/server/platform/email/outbox.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createScheme,
  createTrustee,
  createUser,
  type UserRow,
} from '../helpers/factories.js';

/**
 * The reminders of a major ICT incident's reports (docs/decisions/0139-dora-ict-incidents.md,
 * "Reminders"): the initial notification 2 hours and 30 minutes before it is due, the
 * intermediate report 24 hours before; each once, to the firm's active BrokerAdmins and the serving
 * trustees of the schemes the incident reached; none for an incident not major or a report already
 * recorded; the e-mail carries nothing of the incident's words.
 */
let clock = new Date('2026-03-10T08:30:00Z');
const at = (instant: string) => {
  clock = new Date(instant);
};
let t: TestApp;
let admin: UserRow;
let consultant: UserRow;
let otherFirmsAdmin: UserRow;
let schemeId: string;
let trusteeId: string;
let formerTrusteeId: string;
let otherSchemeTrusteeId: string;

const queued: OutboxEntry[] = [];

/** The job as the app composes it, its outbox watched. */
const runJob = () => {
  const outbox = createOutbox({
    box: createSealedBox(deriveKey(t.config.secrets.AUTH_SECRET, 'email-outbox')),
    now: () => clock,
  });
  return createIctIncidentReminders({
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

const incident = {
  title: 'Member portal unavailable',
  description: 'Members could not sign in; the service answered with errors.',
  servicesAffected: ['member_portal'],
};
const majorCriteria = {
  criticalServicesAffected: true,
  membersAffected: 900,
  membersOfService: 1200,
  relevantMembersAffected: false,
  reputationalImpact: false,
  durationHours: 5,
  downtimeHours: 4.5,
  memberStatesAffected: 1,
  dataLosses: false,
  economicImpactCents: 0,
};
const minorCriteria = { ...majorCriteria, criticalServicesAffected: false, membersAffected: 3 };

async function send(url: string, body: object, user: UserRow, status = 200) {
  const response = await t.requestAs(user, 'POST', url, body);
  expect(response.statusCode, response.body).toBe(status);
  return response.json() as { id: string };
}

const minutesBefore = (minutes: number) =>
  new Date(clock.getTime() - minutes * 60_000).toISOString();

/** An incident of the scheme, aware of 30 minutes ago, recorded and classified at the clock's instant. */
async function classified(major: boolean) {
  const { id } = await send(
    '/api/ict-incidents',
    {
      ...incident,
      detectedAt: minutesBefore(40),
      becameAwareAt: minutesBefore(30),
      schemeIds: [schemeId],
    },
    consultant,
    201,
  );
  await send(
    `/api/ict-incidents/${id}/classify`,
    { criteria: major ? majorCriteria : minorCriteria, major },
    consultant,
  );
  return id;
}

const remindersOf = async (incidentId: string) =>
  (await ownerOf(t.database).select().from(ictIncidentReminders))
    .filter((row) => row.incidentId === incidentId)
    .map((row) => [row.deadlineKind, row.stage, row.recipientKind, row.recipientId])
    .sort();

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore(), now: () => clock });
  const brokerId = await createBroker(t.database, 'Shannon Pensions');
  const employerId = await createEmployer(t.database, brokerId, 'Corrib Foods Ltd');
  schemeId = await createScheme(t.database, { id: employerId, brokerId });
  const otherSchemeId = await createScheme(
    t.database,
    { id: employerId, brokerId },
    'Corrib Executive Scheme',
  );
  const scheme = { brokerId, employerId, schemeId };
  trusteeId = await createTrustee(t.database, scheme, { email: 'chair@corrib-trustees.ie' });
  // None of these is reminded: a trustee who has stood down, one without an address, and a
  // trustee of a scheme the incident did not reach.
  formerTrusteeId = await createTrustee(t.database, scheme, {
    email: 'former@corrib-trustees.ie',
    endedOn: '2025-12-31',
  });
  await createTrustee(t.database, scheme, { email: null });
  otherSchemeTrusteeId = await createTrustee(
    t.database,
    { brokerId, employerId, schemeId: otherSchemeId },
    { email: 'exec@corrib-trustees.ie' },
  );
  admin = await createUser(t.database, { brokerId, role: 'BrokerAdmin' });
  consultant = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  await createUser(t.database, { brokerId, role: 'BrokerAdmin', status: 'deactivated' });
  otherFirmsAdmin = await createUser(t.database, {
    brokerId: await createBroker(t.database, 'Liffey Pensions'),
    role: 'BrokerAdmin',
  });
});
afterAll(() => t.close());

describe('reminders of a major ICT incident’s reports', () => {
  let id: string;

  it('reminds the admins and the scheme’s trustees of the initial notification at 2 hours and 30 minutes, each once', async () => {
    at('2026-03-10T09:00:00Z');
    id = await classified(true);
    // Due 4 hours after classification: 13:00 on a Tuesday. With 4 hours left, nothing yet.
    expect(await runJob()).toMatchObject({ remindersSent: 0, emails: 0 });
    at('2026-03-10T10:50:00Z');
    expect(await runJob()).toMatchObject({ remindersSent: 0, emails: 0 });

    at('2026-03-10T11:00:00Z');
    expect(await runJob()).toMatchObject({ remindersSent: 2, emails: 2 });
    expect(await runJob()).toMatchObject({ remindersSent: 0, emails: 0 });
    at('2026-03-10T12:30:00Z');
    expect(await runJob()).toMatchObject({ remindersSent: 2, emails: 2 });
    at('2026-03-10T12:40:00Z');
    expect(await runJob()).toMatchObject({ remindersSent: 0, emails: 0 });

    expect(await remindersOf(id)).toEqual(
      [
        ['initial', 'hours_2', 'trustee', trusteeId],
        ['initial', 'hours_2', 'user', admin.id],
        ['initial', 'minutes_30', 'trustee', trusteeId],
        ['initial', 'minutes_30', 'user', admin.id],
      ].sort(),
    );
    const recipients = new Set(queued.map((entry) => entry.message.to));
    expect(recipients).toEqual(new Set([admin.email, 'chair@corrib-trustees.ie']));
    for (const absent of [
      formerTrusteeId,
      otherSchemeTrusteeId,
      otherFirmsAdmin.id,
      consultant.id,
    ]) {
      expect(JSON.stringify(await remindersOf(id))).not.toContain(absent);
    }
    // A trustee has no account: the e-mail is queued without one.
    expect(
      queued.find((entry) => entry.message.to === 'chair@corrib-trustees.ie')?.userId,
    ).toBeNull();
    const [first] = queued;
    expect(first?.kind).toBe('ict_incident_reminder');
    expect(first?.message.subject).toBe('DORA: a report of a major ICT incident is coming due');
    expect(first?.message.text).toContain('Initial notification');
    for (const entry of queued) {
      expect(entry.message.text).not.toContain(incident.title);
      expect(entry.message.html).not.toContain(incident.description);
    }
  });

  it('reminds of the intermediate report a day before it is due, once the initial one is recorded', async () => {
    at('2026-03-10T12:45:00Z');
    await send(
      `/api/ict-incidents/${id}/reports`,
      { kind: 'initial', submittedAt: '2026-03-10T12:45:00Z' },
      admin,
    );
    // The intermediate report is due 72 hours after: Friday 13 March at 12:45.
    at('2026-03-12T12:40:00Z');
    expect(await runJob()).toMatchObject({ remindersSent: 0 });
    at('2026-03-12T12:50:00Z');
    expect(await runJob()).toMatchObject({ remindersSent: 2, emails: 2 });
    at('2026-03-13T12:00:00Z');
    expect(await runJob()).toMatchObject({ remindersSent: 0 });
    expect((await remindersOf(id)).filter(([kind]) => kind === 'intermediate')).toEqual(
      [
        ['intermediate', 'hours_24', 'trustee', trusteeId],
        ['intermediate', 'hours_24', 'user', admin.id],
      ].sort(),
    );
  });

  it('reminds once more, as overdue, when the intermediate report passes its deadline unrecorded', async () => {
    // Due Friday 13 March at 12:45.
    queued.length = 0;
    at('2026-03-13T12:50:00Z');
    expect(await runJob()).toMatchObject({ remindersSent: 2, emails: 2 });
    at('2026-03-13T15:00:00Z');
    expect(await runJob()).toMatchObject({ remindersSent: 0, emails: 0 });
    expect(
      (await remindersOf(id)).filter(
        ([kind, stage]) => kind === 'intermediate' && stage === 'overdue',
      ),
    ).toEqual(
      [
        ['intermediate', 'overdue', 'trustee', trusteeId],
        ['intermediate', 'overdue', 'user', admin.id],
      ].sort(),
    );
    expect(queued.map((entry) => entry.message.subject)).toEqual([
      'DORA: a report of a major ICT incident is overdue',
      'DORA: a report of a major ICT incident is overdue',
    ]);
    expect(queued[0]?.message.text).toContain('overdue: it was due by 13 Mar 2026, 12:45');
  });

  it('leaves an incident reclassified as not major out of its read once the reclassification report is recorded', async () => {
    at('2026-03-20T09:00:00Z');
    const reclassified = await classified(true);
    await send(
      `/api/ict-incidents/${reclassified}/reports`,
      { kind: 'initial', submittedAt: '2026-03-20T09:00:00Z' },
      admin,
    );
    at('2026-03-20T10:00:00Z');
    await send(
      `/api/ict-incidents/${reclassified}/classify`,
      { criteria: minorCriteria, major: false },
      consultant,
    );
    const read = (await runJob()).incidents;
    await send(
      `/api/ict-incidents/${reclassified}/reports`,
      { kind: 'reclassified', submittedAt: '2026-03-20T10:00:00Z' },
      admin,
    );
    expect((await runJob()).incidents).toBe(read - 1);
  });

  it('sends nothing for an incident that is not major, nor for a report already recorded', async () => {
    at('2026-03-18T09:00:00Z');
    const minor = await classified(false);
    const reported = await classified(true);
    await send(
      `/api/ict-incidents/${reported}/reports`,
      { kind: 'initial', submittedAt: '2026-03-18T09:00:00Z' },
      admin,
    );
    // Where the initial notification would be 2 hours and 30 minutes from due.
    for (const instant of ['2026-03-18T11:05:00Z', '2026-03-18T12:35:00Z']) {
      at(instant);
      await runJob();
    }
    expect(await remindersOf(minor)).toEqual([]);
    expect(await remindersOf(reported)).toEqual([]);
  });
});
