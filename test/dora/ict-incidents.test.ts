import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { writableTableCounts } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';

/**
 * The register of ICT incidents through the API (docs/decisions/0139-dora-ict-incidents.md), on a
 * clock the tests move. Monday 16 March 2026 is in Irish winter time (UTC); summer time begins on
 * 29 March.
 */
let clock = new Date('2026-03-16T09:00:00Z');
let t: TestApp;
let admin: UserRow;
let consultant: UserRow;
let employerAdmin: UserRow;
let otherAdmin: UserRow;
let schemeId: string;
let otherSchemeId: string;

const incident = {
  title: 'Member portal unavailable',
  description: 'Members could not sign in; the service answered with errors.',
  detectedAt: '2026-03-16T07:50:00Z',
  becameAwareAt: '2026-03-16T08:00:00Z',
  servicesAffected: ['member_portal', 'documents'],
};

const criteria = {
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

const post = (url: string, body: object, user: UserRow = admin) =>
  t.requestAs(user, 'POST', url, body);
const counts = () => writableTableCounts(t.database);
const refusal = (path: string) => ({
  error: 'Validation failed',
  issues: expect.arrayContaining([expect.objectContaining({ path })]),
});

async function recorded(overrides: object = {}, user: UserRow = consultant) {
  const response = await post('/api/ict-incidents', { ...incident, ...overrides }, user);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; deadlines: unknown[] };
}

async function step(url: string, body: object, user: UserRow = admin) {
  const response = await post(url, body, user);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** The request refused with `status`, and no table changed by it. */
async function refused(
  send: () => Promise<{ statusCode: number; body: string; json: () => unknown }>,
  status: number,
) {
  const before = await counts();
  const response = await send();
  expect(response.statusCode, response.body).toBe(status);
  expect(await counts()).toEqual(before);
  return response.json();
}

const deadlinesOf = (view: {
  deadlines: Array<{ kind: string; dueAt: string | null; status: string }>;
}) => view.deadlines.map((d) => [d.kind, d.dueAt, d.status]);

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore(), now: () => clock });
  const brokerId = await createBroker(t.database, 'Shannon Pensions');
  const employerId = await createEmployer(t.database, brokerId, 'Corrib Foods Ltd');
  schemeId = await createScheme(t.database, { id: employerId, brokerId });
  admin = await createUser(t.database, { brokerId, role: 'BrokerAdmin' });
  consultant = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  employerAdmin = await createUser(t.database, { brokerId, employerId, role: 'EmployerAdmin' });
  const otherTenant = await createBroker(t.database, 'Liffey Brokers');
  const otherEmployer = await createEmployer(t.database, otherTenant, 'Boyne Mills Ltd');
  otherSchemeId = await createScheme(t.database, { id: otherEmployer, brokerId: otherTenant });
  otherAdmin = await createUser(t.database, { brokerId: otherTenant, role: 'BrokerAdmin' });
});
afterAll(() => t.close());

describe('recording an incident', () => {
  it('is open to the firm’s staff, with no deadlines until it is classified major', async () => {
    const view = await recorded({ schemeIds: [schemeId] });
    expect(view).toMatchObject({
      schemeIds: [schemeId],
      classification: null,
      deadlines: [],
      platformIncidentId: null,
    });
  });

  it('gives each incident the firm’s next reference of the year, counted for each firm apart', async () => {
    const references = async (user: UserRow) =>
      (await t.requestAs(user, 'GET', '/api/ict-incidents?limit=100'))
        .json()
        .items.map((item: { reference: string }) => item.reference);
    const before = await references(admin);
    const first = (await recorded()) as unknown as { reference: string };
    const second = (await recorded()) as unknown as { reference: string };
    const year = clock.toISOString().slice(0, 4);
    expect(first.reference).toBe(`ICT-${year}-${String(before.length + 1).padStart(3, '0')}`);
    expect(second.reference).toBe(`ICT-${year}-${String(before.length + 2).padStart(3, '0')}`);
    // Another firm counts its own from the first.
    const elsewhere = (await recorded({ schemeIds: [otherSchemeId] }, otherAdmin)) as unknown as {
      reference: string;
    };
    expect(elsewhere.reference).toBe(
      `ICT-${year}-${String((await references(otherAdmin)).length).padStart(3, '0')}`,
    );
    expect(new Set(await references(admin)).size).toBe(before.length + 2);
  });

  it('refuses, writing nothing: detected after awareness, awareness in the future, another firm’s scheme, firms named by staff', async () => {
    const send = (overrides: object) => () =>
      post('/api/ict-incidents', { ...incident, ...overrides });
    expect(await refused(send({ detectedAt: '2026-03-16T08:10:00Z' }), 400)).toEqual(
      refusal('detectedAt'),
    );
    expect(await refused(send({ becameAwareAt: '2026-03-16T10:00:00Z' }), 400)).toEqual(
      refusal('becameAwareAt'),
    );
    expect(await refused(send({ schemeIds: [otherSchemeId] }), 400)).toEqual(refusal('schemeIds'));
    expect(await refused(send({ brokerIds: [admin.brokerId] }), 400)).toEqual(refusal('brokerIds'));
    expect(await refused(send({ servicesAffected: [] }), 400)).toEqual(refusal('servicesAffected'));
  });

  it('is refused to an employer’s people, and another firm’s incident is not found', async () => {
    await refused(() => post('/api/ict-incidents', incident, employerAdmin), 403);
    const { id } = await recorded();
    const seen = await t.requestAs(otherAdmin, 'GET', `/api/ict-incidents/${id}`);
    expect(seen.statusCode).toBe(404);
    await refused(
      () => post(`/api/ict-incidents/${id}/classify`, { criteria, major: true }, otherAdmin),
      404,
    );
    const list = await t.requestAs(otherAdmin, 'GET', '/api/ict-incidents');
    expect(list.json().items.map((item: { id: string }) => item.id)).not.toContain(id);
  });

  it('links a recurrence to the earlier incident, which lists it', async () => {
    const first = await recorded();
    const again = await recorded({
      detectedAt: '2026-03-16T08:40:00Z',
      becameAwareAt: '2026-03-16T08:45:00Z',
      recurrenceOf: first.id,
    });
    const read = await t.requestAs(admin, 'GET', `/api/ict-incidents/${first.id}`);
    expect(read.json().recurrences).toEqual([again.id]);
    await refused(() => post('/api/ict-incidents', { ...incident, recurrenceOf: again.id }), 400);
  });
});

describe('a major incident from classification to its final report', () => {
  let id: string;

  it('refuses a classification the criteria contradict, changing nothing', async () => {
    id = (await recorded()).id;
    const body = await refused(
      () =>
        post(`/api/ict-incidents/${id}/classify`, {
          criteria: { ...criteria, downtimeHours: 1 },
          major: true,
        }),
      400,
    );
    expect(body).toEqual(refusal('major'));
    const read = await t.requestAs(admin, 'GET', `/api/ict-incidents/${id}`);
    expect(read.json().classification).toBeNull();
  });

  it('classified major at 09:00: the initial notification is due at 13:00, the rest wait', async () => {
    const view = await step(
      `/api/ict-incidents/${id}/classify`,
      { criteria, major: true },
      consultant,
    );
    expect(view.classification).toMatchObject({
      major: true,
      thresholdsMet: ['clients', 'duration'],
    });
    expect(deadlinesOf(view)).toEqual([
      ['initial', '2026-03-16T13:00:00.000Z', 'due'],
      ['intermediate', null, 'waiting'],
      ['final', null, 'waiting'],
    ]);
    expect(view.deadlines[0].words).toBe('Initial notification: 4 hours left');
  });

  it('refuses a report out of order, and a report by a BrokerUser, writing nothing', async () => {
    clock = new Date('2026-03-16T12:30:00Z');
    expect(
      await refused(
        () =>
          post(`/api/ict-incidents/${id}/reports`, {
            kind: 'intermediate',
            submittedAt: '2026-03-16T12:00:00Z',
          }),
        409,
      ),
    ).toEqual({ error: 'Record the initial notification first' });
    await refused(
      () =>
        post(
          `/api/ict-incidents/${id}/reports`,
          { kind: 'initial', submittedAt: '2026-03-16T12:00:00Z' },
          consultant,
        ),
      403,
    );
    await refused(
      () =>
        post(`/api/ict-incidents/${id}/reports`, {
          kind: 'initial',
          submittedAt: '2026-03-16T12:45:00Z',
        }),
      400,
    );
  });

  it('the initial made: the intermediate is due 72 hours later', async () => {
    const view = await step(`/api/ict-incidents/${id}/reports`, {
      kind: 'initial',
      submittedAt: '2026-03-16T12:00:00Z',
    });
    expect(deadlinesOf(view)).toEqual([
      ['initial', '2026-03-16T13:00:00.000Z', 'met'],
      ['intermediate', '2026-03-19T12:00:00.000Z', 'due'],
      ['final', null, 'waiting'],
    ]);
  });

  it('services recovered on Friday: the updated intermediate is due on Monday at noon, and each update moves the final report', async () => {
    clock = new Date('2026-03-20T09:00:00Z');
    await step(`/api/ict-incidents/${id}/reports`, {
      kind: 'intermediate',
      submittedAt: '2026-03-19T10:00:00Z',
    });
    const recovered = await t.requestAs(admin, 'PATCH', `/api/ict-incidents/${id}`, {
      servicesRecoveredAt: '2026-03-20T08:00:00Z',
    });
    expect(recovered.statusCode, recovered.body).toBe(200);
    expect(deadlinesOf(recovered.json())).toEqual([
      ['initial', '2026-03-16T13:00:00.000Z', 'met'],
      ['intermediate', '2026-03-19T12:00:00.000Z', 'met'],
      ['intermediate_update', '2026-03-23T12:00:00.000Z', 'due'],
      ['final', '2026-04-20T11:00:00.000Z', 'due'],
    ]);
    clock = new Date('2026-03-20T16:00:00Z');
    const updated = await step(`/api/ict-incidents/${id}/reports`, {
      kind: 'intermediate',
      submittedAt: '2026-03-20T15:00:00Z',
    });
    expect(deadlinesOf(updated).slice(2)).toEqual([
      ['intermediate_update', '2026-03-23T12:00:00.000Z', 'met'],
      ['final', '2026-04-20T14:00:00.000Z', 'due'],
    ]);
  });

  it('pre-fills the final report in the template’s fields', async () => {
    const response = await t.requestAs(
      admin,
      'GET',
      `/api/ict-incidents/${id}/reports/final/template`,
    );
    expect(response.statusCode, response.body).toBe(200);
    const template = response.json();
    expect(template.sections.map((s: { title: string }) => s.title)).toEqual([
      'General information about the financial entity',
      'Content of the initial notification',
      'Content of the intermediate report',
      'Content of the final report',
    ]);
    const fields = Object.fromEntries(
      template.sections.flatMap((s: { fields: Array<{ name: string; value: string | null }> }) =>
        s.fields.map((f) => [f.name, f.value]),
      ),
    );
    expect(fields).toMatchObject({
      'Type of submission': 'Final report',
      'Name of the entity submitting the report': 'Shannon Pensions',
      'Incident reference code assigned by the financial entity':
        expect.stringMatching(/^ICT-\d{4}-\d{3}$/),
      'Number of clients affected': '900',
      'Percentage of clients affected': '75.0%',
      'Classification criteria that triggered the report':
        'Members and counterparts affected; Duration and service downtime',
      'Identification code (LEI) of the entity submitting the report': null,
    });
  });

  it('the final report made: every deadline met, and no report after it', async () => {
    clock = new Date('2026-04-10T10:00:00Z');
    const view = await step(`/api/ict-incidents/${id}/reports`, {
      kind: 'final',
      submittedAt: '2026-04-10T09:00:00Z',
    });
    expect(deadlinesOf(view).map(([kind, , status]) => [kind, status])).toEqual([
      ['initial', 'met'],
      ['intermediate', 'met'],
      ['intermediate_update', 'met'],
      ['final', 'met'],
    ]);
    expect(view.reports.map((r: { kind: string }) => r.kind)).toEqual([
      'initial',
      'intermediate',
      'intermediate',
      'final',
    ]);
    await refused(
      () =>
        post(`/api/ict-incidents/${id}/reports`, {
          kind: 'intermediate',
          submittedAt: '2026-04-10T09:30:00Z',
        }),
      409,
    );
  });
});

describe('reclassified as not major', () => {
  it('withdraws what is outstanding, asks for the reclassification report in its place, and is not made major again', async () => {
    clock = new Date('2026-03-16T09:00:00Z');
    const { id } = await recorded();
    await step(`/api/ict-incidents/${id}/classify`, { criteria, major: true });
    clock = new Date('2026-03-16T12:30:00Z');
    await step(`/api/ict-incidents/${id}/reports`, {
      kind: 'initial',
      submittedAt: '2026-03-16T12:00:00Z',
    });
    clock = new Date('2026-03-17T10:00:00Z');
    const view = await step(`/api/ict-incidents/${id}/classify`, {
      criteria: { ...criteria, downtimeHours: 1, durationHours: 2 },
      major: false,
    });
    expect(view.reclassifiedAt).toBe('2026-03-17T10:00:00.000Z');
    expect(deadlinesOf(view)).toEqual([
      ['initial', '2026-03-16T13:00:00.000Z', 'met'],
      ['intermediate', '2026-03-19T12:00:00.000Z', 'withdrawn'],
      ['final', null, 'withdrawn'],
      ['reclassified', '2026-03-19T12:00:00.000Z', 'due'],
    ]);
    await refused(() => post(`/api/ict-incidents/${id}/classify`, { criteria, major: true }), 409);
    clock = new Date('2026-03-17T12:00:00Z');
    const reported = await step(`/api/ict-incidents/${id}/reports`, {
      kind: 'reclassified',
      submittedAt: '2026-03-17T11:00:00Z',
    });
    expect(reported.deadlines.at(-1)).toMatchObject({ kind: 'reclassified', status: 'met' });
  });
});
