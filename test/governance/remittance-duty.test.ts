import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGovernance } from '../../src/server/modules/governance/governance.data.js';
import { createComplianceReminders } from '../../src/server/modules/governance/reminders.job.js';
import { createSealedBox, deriveKey } from '../../src/server/platform/crypto/sealed-box.js';
import { complianceReminders, schemes } from '../../src/server/platform/db/schema.js';
import { withActor, withSchedulerRole } from '../../src/server/platform/db/with-actor.js';
import { createOutbox } from '../../src/server/platform/email/outbox.js';
import { tenantActor } from '../helpers/actors.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createMember,
  createUser,
  type UserRow,
} from '../helpers/factories.js';
import { readOutbox } from '../helpers/mail.js';

/**
 * Contribution remittance as a duty of the scheme year (docs/decisions/0136-contribution-remittance.md):
 * overdue while a month is missing, named by the earliest; dated by the next month still to
 * come in otherwise; counted only from the month the scheme was added; and reminded, through the
 * one assessment, to the firm's BrokerAdmins and the employer's own EmployerAdmins.
 */
let clock = new Date('2026-07-10T08:00:00Z');
let t: TestApp;
let brokerId: string;
let employerId: string;
let schemeId: string;
let consultant: UserRow;
let brokerAdmin: UserRow;
let employerAdmin: UserRow;

const post = (url: string, body: object) => t.requestAs(consultant, 'POST', url, body);

async function receive(month: string, receivedOn: string, amountCents: number) {
  const response = await post(`/api/employers/${employerId}/remittance-receipts`, {
    month,
    receivedOn,
    amountCents,
  });
  expect(response.statusCode, response.body).toBe(201);
}

async function remittanceDuty() {
  const response = await t.requestAs(consultant, 'GET', `/api/schemes/${schemeId}/compliance`);
  expect(response.statusCode, response.body).toBe(200);
  const { obligations } = response.json() as {
    obligations: Array<{ kind: string; status: string; dueOn?: string; reason: string }>;
  };
  return obligations.find((obligation) => obligation.kind === 'contribution_remittance');
}

function reminders() {
  return createComplianceReminders({
    database: t.database,
    outbox: createOutbox({
      box: createSealedBox(deriveKey(t.config.secrets.AUTH_SECRET, 'email-outbox')),
      now: () => clock,
    }),
    now: () => clock,
    publicBaseUrl: new URL('https://pensions.example.ie'),
    onEmailQueued: () => undefined,
  });
}

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore(), now: () => clock });
  brokerId = await createBroker(t.database, 'Suir Pensions');
  employerId = await createEmployer(t.database, brokerId, 'Nore Dairies Ltd');
  consultant = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  brokerAdmin = await createUser(t.database, { brokerId, role: 'BrokerAdmin' });
  employerAdmin = await createUser(t.database, { brokerId, employerId, role: 'EmployerAdmin' });
  const created = await post('/api/schemes', {
    employerId,
    name: 'Nore Dairies Scheme',
    type: 'DC',
  });
  expect(created.statusCode, created.body).toBe(201);
  schemeId = created.json().id;
  // Added to this service on 10 February 2026: January is before it and is not chased.
  await ownerOf(t.database)
    .update(schemes)
    .set({ createdAt: new Date('2026-02-10T09:00:00Z') })
    .where(eq(schemes.id, schemeId));
  const member = await createMember(t.database, { brokerId, employerId, schemeId });
  for (const period of ['2026-01', '2026-02', '2026-03', '2026-06']) {
    const response = await post(`/api/members/${member.id}/contributions`, {
      period,
      kind: 'employee',
      amountCents: 10_000,
    });
    expect(response.statusCode, response.body).toBe(201);
  }
  await receive('2026-02', '2026-03-20', 10_000);
});
afterAll(() => t.close());

describe('the contribution remittance duty', () => {
  it('is overdue while a month is missing, naming the earliest since the scheme was added', async () => {
    expect(await remittanceDuty()).toEqual({
      kind: 'contribution_remittance',
      dueOn: '2026-04-21',
      status: 'overdue',
      reason:
        'The deductions for Mar 2026 were due at the scheme by 21 Apr 2026 and are not received',
      label: 'law',
      citation: 'Pensions Act 1990 s.58A',
    });
    // January, before the scheme was added, is not chased on the employer's calendar either.
    const calendar = await t.requestAs(
      consultant,
      'GET',
      `/api/employers/${employerId}/remittances?from=2026-01&to=2026-07`,
    );
    expect(calendar.json().chasedFrom).toBe('2026-02');
    expect(calendar.json().items.map((item: { status: string }) => item.status)).toEqual([
      'not_chased',
      'on_time',
      'missing',
      'due',
    ]);
  });

  it('is in the firm’s calendar and on the employer’s dashboard, with who carries it out', async () => {
    const calendar = await t.requestAs(
      consultant,
      'GET',
      '/api/compliance/calendar?from=2026-04-01&to=2026-08-31',
    );
    expect(calendar.json().items).toContainEqual(
      expect.objectContaining({
        kind: 'contribution_remittance',
        schemeId,
        dueOn: '2026-04-21',
        status: 'overdue',
      }),
    );
    const dashboard = await t.requestAs(employerAdmin, 'GET', '/api/compliance/dashboard');
    expect(dashboard.json().upcoming).toContainEqual(
      expect.objectContaining({ kind: 'contribution_remittance', schemeId }),
    );
  });

  it('is reminded to the firm’s BrokerAdmins and the employer’s own EmployerAdmins', async () => {
    const run = await reminders().run();
    expect(run.remindersSent).toBeGreaterThanOrEqual(2);
    const rows = await ownerOf(t.database)
      .select()
      .from(complianceReminders)
      .where(
        and(
          eq(complianceReminders.schemeId, schemeId),
          like(complianceReminders.obligationKey, '%:contribution_remittance:%'),
        ),
      );
    // 80 days past 21 April: the eleventh week overdue.
    expect(rows.map((row) => [row.userId, row.dueOn, row.stage]).sort()).toEqual(
      [
        [brokerAdmin.id, '2026-04-21', 'overdue_11'],
        [employerAdmin.id, '2026-04-21', 'overdue_11'],
      ].sort(),
    );
    const mail = (await readOutbox(t.database, t.config)).find(
      (row) => row.userId === employerAdmin.id && row.kind === 'compliance_reminder',
    );
    expect(mail?.message?.text).toContain(
      'Nore Dairies Scheme (Nore Dairies Ltd): The deductions for Mar 2026 were due at the scheme by 21 Apr 2026',
    );
    expect(mail?.message?.text).toContain('[Law: Pensions Act 1990 s.58A]');
    expect((await reminders().run()).remindersSent).toBe(0);
  });

  it('is read alike by the reminders job’s role and the firm’s own', async () => {
    const asTenant = await withActor(t.database, tenantActor(brokerId), (tx) =>
      loadGovernance(tx, { schemeIds: [schemeId] }),
    );
    const asScheduler = await withSchedulerRole(t.database, (tx) => loadGovernance(tx, {}));
    const ours = asScheduler.find(({ scheme }) => scheme.id === schemeId);
    expect(ours?.facts.remittance).toEqual(asTenant[0]?.facts.remittance);
    expect(ours?.facts.remittance.deducted.map((row) => row.month).sort()).toEqual([
      '2026-02',
      '2026-03',
      '2026-06',
    ]);
  });

  it('is no longer overdue once the missing month arrives late, and is dated by the next month to come', async () => {
    await receive('2026-03', '2026-07-09', 10_000);
    expect(await remittanceDuty()).toMatchObject({
      dueOn: '2026-07-21',
      status: 'due_soon',
      reason:
        'The deductions for Jun 2026 are not yet received: due at the scheme by 21 Jul 2026, 21 days after the month’s end',
    });
    const report = await t.requestAs(
      consultant,
      'GET',
      `/api/schemes/${schemeId}/late-remittances?year=2026`,
    );
    expect(report.json().items).toEqual([
      expect.objectContaining({ month: '2026-03', status: 'late', daysLate: 79 }),
    ]);
  });

  it('is done when every month is in, the late one still in the report', async () => {
    clock = new Date('2026-07-20T08:00:00Z');
    await receive('2026-06', '2026-07-20', 10_000);
    const duty = await remittanceDuty();
    expect(duty).toMatchObject({ status: 'ok' });
    expect(duty?.dueOn).toBeUndefined();
    expect(duty?.reason).toContain('1 month was received late');
    const report = await t.requestAs(
      consultant,
      'GET',
      `/api/schemes/${schemeId}/late-remittances?year=2026`,
    );
    expect(report.json().items).toHaveLength(1);
  });
});

describe('a scheme added this month with last month’s deductions recorded and nothing received', () => {
  it('is not chased for last month on the employer’s calendar, the scheme’s duty or the dashboard alike', async () => {
    // Added on 29 November 2026; October's payroll recorded that day, for two members.
    clock = new Date('2026-11-29T10:00:00Z');
    const employer = await createEmployer(t.database, brokerId, 'Barrow Mills Ltd');
    const created = await post('/api/schemes', {
      employerId: employer,
      name: 'Barrow Mills Scheme',
      type: 'DC',
    });
    expect(created.statusCode, created.body).toBe(201);
    const scheme = created.json().id as string;
    for (const amountCents of [100_000, 101_250]) {
      const member = await createMember(t.database, {
        brokerId,
        employerId: employer,
        schemeId: scheme,
      });
      const response = await post(`/api/members/${member.id}/contributions`, {
        period: '2026-10',
        kind: 'employee',
        amountCents,
      });
      expect(response.statusCode, response.body).toBe(201);
    }

    const calendar = await t.requestAs(consultant, 'GET', `/api/employers/${employer}/remittances`);
    expect(calendar.statusCode, calendar.body).toBe(200);
    expect(calendar.json()).toMatchObject({
      chasedFrom: '2026-11',
      items: [
        {
          month: '2026-10',
          dueOn: '2026-11-21',
          expectedCents: 201_250,
          receivedCents: 0,
          receivedOn: null,
          status: 'not_chased',
        },
      ],
    });

    const compliance = await t.requestAs(consultant, 'GET', `/api/schemes/${scheme}/compliance`);
    const duty = (
      compliance.json() as { obligations: Array<{ kind: string; status: string; reason: string }> }
    ).obligations.find((obligation) => obligation.kind === 'contribution_remittance');
    expect(duty).toMatchObject({
      status: 'ok',
      reason:
        'No deductions are recorded for Nov 2026, the month the scheme was added to this service, or later: months before it are not chased',
    });

    // The dashboard, where the schemes that need attention are drawn from, names no remittance
    // of it either.
    const dashboard = await t.requestAs(brokerAdmin, 'GET', '/api/compliance/dashboard');
    expect(dashboard.statusCode, dashboard.body).toBe(200);
    const { schemes: listed, upcoming } = dashboard.json() as {
      schemes: Array<{ schemeId: string; attention: Array<{ kind: string }> }>;
      upcoming: Array<{ schemeId: string; kind: string }>;
    };
    const ours = listed.find((row) => row.schemeId === scheme);
    expect(ours?.attention.map((obligation) => obligation.kind) ?? []).not.toContain(
      'contribution_remittance',
    );
    expect(upcoming).not.toContainEqual(
      expect.objectContaining({ schemeId: scheme, kind: 'contribution_remittance' }),
    );
  });
});
