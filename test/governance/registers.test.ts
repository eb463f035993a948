import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { governanceDashboardView } from '../../src/contracts/governance.js';
import {
  GOVERNANCE_RULES,
  requiredPolicyKinds,
  SIGNIFICANT_CHANGE_GRACE_DAYS,
} from '../../src/contracts/governance-rules.js';
import { auditLog, schemes } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { ownerOf, writableTableCounts } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createOraReport,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';

/**
 * The governance registers through the API (docs/decisions/0059-governance-rules.md; rules: governance-rules.ts), on a
 * clock that stands still unless a test moves it.
 */
const clock = new Date('2025-06-01T10:00:00Z');
let t: TestApp;
let brokerId: string;
let employerId: string;
let consultant: UserRow;
let employerUser: UserRow;
let otherEmployerUser: UserRow;

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore(), now: () => clock });
  brokerId = await createBroker(t.database, 'Liffey Pensions');
  employerId = await createEmployer(t.database, brokerId, 'Dodder Engineering Ltd');
  const otherEmployerId = await createEmployer(t.database, brokerId, 'Tolka Foods Ltd');
  consultant = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  employerUser = await createUser(t.database, { brokerId, employerId, role: 'EmployerUser' });
  otherEmployerUser = await createUser(t.database, {
    brokerId,
    employerId: otherEmployerId,
    role: 'EmployerUser',
  });
});
afterAll(() => t.close());

const newScheme = () =>
  createScheme(t.database, { id: employerId, brokerId }, 'Dodder Staff Scheme');
const as = (user: UserRow) => ({
  get: (url: string) => t.requestAs(user, 'GET', url),
  post: (url: string, body: object) => t.requestAs(user, 'POST', url, body),
  patch: (url: string, body: object) => t.requestAs(user, 'PATCH', url, body),
  delete: (url: string) => t.requestAs(user, 'DELETE', url),
});
const broker = () => as(consultant);
/** Where the trustees' decision to approve a policy is recorded: asked with every approval. */
const MINUTE = 'Board meeting, minute 4.2';

async function compliance(schemeId: string) {
  const response = await broker().get(`/api/schemes/${schemeId}/compliance`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    status: string;
    obligations: Array<{
      kind: string;
      status: string;
      reason: string;
      dueOn?: string;
      citation: string;
      subjectId?: string;
    }>;
  };
}

async function approvedPolicy(schemeId: string, kind: string, approvedOn: string, version = '1.0') {
  const drafted = await broker().post(`/api/schemes/${schemeId}/policies`, {
    kind,
    title: `${kind} policy`,
    version,
  });
  expect(drafted.statusCode, drafted.body).toBe(201);
  const approved = await broker().post(`/api/policies/${drafted.json().id}/approve`, {
    approvedOn,
    approvalReference: MINUTE,
  });
  expect(approved.statusCode, approved.body).toBe(200);
  return approved.json() as { id: string; nextReviewDue: string; status: string };
}

describe('a scheme’s governance registers', () => {
  it('turn the scheme from incomplete to ok as the broker fills them in', async () => {
    const schemeId = await newScheme();
    const before = await compliance(schemeId);
    // On 1 June 2025 the compliance statement for 2024 is overdue (due 31 January), and every
    // register is empty.
    expect(before.status).toBe('overdue');
    expect(before.obligations).toContainEqual(
      expect.objectContaining({ kind: 'annual_compliance_statement', status: 'overdue' }),
    );
    expect(before.obligations).toContainEqual(
      expect.objectContaining({ kind: 'trustees', status: 'incomplete' }),
    );
    expect(before.obligations.map((entry) => entry.citation)).not.toContain('');

    for (const name of ['Aoife Brennan', 'Cathal Moran']) {
      const trustee = await broker().post(`/api/schemes/${schemeId}/trustees`, {
        name,
        kind: 'individual',
        appointedOn: '2021-09-01',
        fitnessAndProbity: 'confirmed',
      });
      expect(trustee.statusCode, trustee.body).toBe(201);
      expect(trustee.json()).toMatchObject({ schemeId, name, kind: 'individual', endedOn: null });
      const training = await broker().post(`/api/trustees/${trustee.json().id}/training`, {
        completedOn: '2025-05-20',
        topic: 'Trustee Handbook',
      });
      expect(training.statusCode, training.body).toBe(201);
    }
    const statement = await broker().post(`/api/schemes/${schemeId}/filings`, {
      kind: 'annual_compliance_statement',
      periodEnd: '2024-12-31',
      completedOn: '2025-01-28',
    });
    expect(statement.statusCode, statement.body).toBe(201);
    expect(statement.json()).toMatchObject({ dueOn: '2025-01-31', completedOn: '2025-01-28' });
    for (const [fn, holderName] of [
      ['risk_management', 'Deirdre Nolan'],
      ['internal_audit', 'Fergal Ahern'],
    ] as const) {
      const holder = await broker().post(`/api/schemes/${schemeId}/key-function-holders`, {
        function: fn,
        holderName,
        holderEmail: `${holderName.split(' ')[0]?.toLowerCase()}@example.ie`,
        appointedOn: '2022-01-10',
        fitnessAndProbity: 'confirmed',
        notifiedOn: '2022-01-24',
      });
      expect(holder.statusCode, holder.body).toBe(201);
    }
    for (const kind of requiredPolicyKinds('DC'))
      await approvedPolicy(schemeId, kind, '2024-02-01');
    const ora = await broker().post(`/api/schemes/${schemeId}/ora-reports`, {
      performedOn: '2024-05-01',
      trigger: 'scheduled',
      summary: 'Funding, outsourcing and ICT risks reviewed with the board.',
    });
    expect(ora.statusCode, ora.body).toBe(201);
    expect(ora.json()).toMatchObject({ nextDue: '2027-05-01' });

    const after = await compliance(schemeId);
    expect(after.status).toBe('ok');
    expect(after.obligations.every((entry) => entry.status === 'ok')).toBe(true);

    // Employer staff read their own employer's schemes; another employer's staff do not.
    expect((await as(employerUser).get(`/api/schemes/${schemeId}/compliance`)).statusCode).toBe(
      200,
    );
    expect(
      (await as(otherEmployerUser).get(`/api/schemes/${schemeId}/compliance`)).statusCode,
    ).toBe(404);
  });

  it('refuses internal audit to a holder of another key function with a 400 naming the rule, and writes nothing', async () => {
    const schemeId = await newScheme();
    const risk = await broker().post(`/api/schemes/${schemeId}/key-function-holders`, {
      function: 'risk_management',
      holderName: 'Gráinne Kehoe',
      appointedOn: '2023-01-01',
    });
    expect(risk.statusCode).toBe(201);
    expect(risk.json().fitnessAndProbity).toBe('pending');
    const counts = await writableTableCounts(t.database);
    const refused = await broker().post(`/api/schemes/${schemeId}/key-function-holders`, {
      function: 'internal_audit',
      holderName: 'gráinne  kehoe',
      appointedOn: '2023-06-01',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      error: 'Validation failed',
      issues: [
        {
          path: 'function',
          code: 'internal_audit_independence',
          message: `The holder of the internal audit function may hold no other key function in the same scheme (${GOVERNANCE_RULES.keyFunctions.citation})`,
        },
      ],
    });
    expect(await writableTableCounts(t.database)).toEqual(counts);

    // Nor can an internal audit holder be changed into a clash.
    const audit = await broker().post(`/api/schemes/${schemeId}/key-function-holders`, {
      function: 'internal_audit',
      holderName: 'Liam Byrne',
      appointedOn: '2023-06-01',
    });
    expect(audit.statusCode).toBe(201);
    const clash = await broker().patch(`/api/key-function-holders/${audit.json().id}`, {
      holderName: 'Gráinne Kehoe',
    });
    expect(clash.statusCode).toBe(400);
    expect(clash.json().issues[0].code).toBe('internal_audit_independence');

    // Once the risk appointment has ended, the same person may take internal audit.
    const ended = await broker().patch(`/api/key-function-holders/${risk.json().id}`, {
      endedOn: '2023-05-31',
    });
    expect(ended.statusCode).toBe(200);
    const later = await broker().post(`/api/schemes/${schemeId}/key-function-holders`, {
      function: 'internal_audit',
      holderName: 'Gráinne Kehoe',
      appointedOn: '2023-06-01',
    });
    expect(later.statusCode, later.body).toBe(201);
  });

  it('counts a policy’s next review from when the last was due, and brings it forward after a significant change', async () => {
    expect(SIGNIFICANT_CHANGE_GRACE_DAYS).toBe(30);
    const schemeId = await newScheme();
    const first = await approvedPolicy(schemeId, 'outsourcing', '2021-03-15');
    expect(first.nextReviewDue).toBe('2024-03-15');
    // Reviewed late, on 02/10/2024: the next review is due 15/03/2027, not 02/10/2027.
    const second = await approvedPolicy(schemeId, 'outsourcing', '2024-10-02', '2.0');
    expect(second.nextReviewDue).toBe('2027-03-15');
    expect((await broker().get(`/api/policies/${first.id}`)).json().status).toBe('superseded');
    const inUse = await broker().get(`/api/schemes/${schemeId}/policies`);
    expect(inUse.json().items.map((item: { id: string }) => item.id)).toEqual([second.id]);
    const all = await broker().get(`/api/schemes/${schemeId}/policies?includeHistory=true`);
    expect(all.json().items).toHaveLength(2);

    // A change on 20/04/2025: the review is asked for 30 days after it, by 20/05/2025, and on
    // 01/06/2025 that day has passed.
    const change = await broker().post(`/api/policies/${second.id}/significant-change`, {
      occurredOn: '2025-04-20',
      description: 'Administration moved to a new provider',
    });
    expect(change.statusCode, change.body).toBe(201);
    expect((await broker().get(`/api/policies/${second.id}`)).json()).toMatchObject({
      nextReviewDue: '2025-05-20',
      significantChangeOn: '2025-04-20',
    });
    const entry = (await compliance(schemeId)).obligations.find(
      (obligation) => obligation.subjectId === second.id,
    );
    expect(entry).toMatchObject({
      status: 'overdue',
      dueOn: '2025-05-20',
      reason: expect.stringContaining('to be adapted'),
      ...GOVERNANCE_RULES.writtenPolicies,
    });

    // An approved version is not edited, approved again, or approved for a day to come.
    expect((await broker().patch(`/api/policies/${second.id}`, { title: 'New' })).statusCode).toBe(
      409,
    );
    expect(
      (
        await broker().post(`/api/policies/${second.id}/approve`, {
          approvedOn: '2025-05-30',
          approvalReference: MINUTE,
        })
      ).statusCode,
    ).toBe(409);
    const draft = await broker().post(`/api/schemes/${schemeId}/policies`, {
      kind: 'outsourcing',
      title: 'Outsourcing policy',
      version: '3.0',
    });
    const future = await broker().post(`/api/policies/${draft.json().id}/approve`, {
      approvedOn: '2025-06-02',
      approvalReference: MINUTE,
    });
    expect(future.statusCode).toBe(400);
    expect(future.json().issues[0].message).toBe('The approval date cannot be in the future');
    // Approving it today, after the change, answers the change: next due three years from it.
    const third = await broker().post(`/api/policies/${draft.json().id}/approve`, {
      approvedOn: '2025-06-01',
      approvalReference: MINUTE,
    });
    expect(third.json().nextReviewDue).toBe('2028-05-20');
  });

  it('records with each approval the meeting or minute of the trustees’ decision, required and never in the audit log', async () => {
    const schemeId = await newScheme();
    const drafted = await broker().post(`/api/schemes/${schemeId}/policies`, {
      kind: 'remuneration',
      title: 'Remuneration policy',
      version: '1.0',
    });
    const id = drafted.json().id as string;
    expect(drafted.json().approvalReference).toBeNull();
    const before = await writableTableCounts(t.database);
    const sentence =
      'Enter the meeting or minute reference of the trustees’ decision, like “Board meeting 12 March 2026, minute 4.2”';
    for (const [body, message] of [
      [{ approvedOn: '2025-05-12' }, 'This is required'],
      [{ approvedOn: '2025-05-12', approvalReference: '   ' }, sentence],
      [
        { approvedOn: '2025-05-12', approvalReference: 'x'.repeat(201) },
        'Use at most 200 characters',
      ],
      [{ approvedOn: '2025-05-12', approvalReference: 42 }, 'Enter text'],
    ] as const) {
      const refused = await broker().post(`/api/policies/${id}/approve`, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json().issues, JSON.stringify(body)).toEqual([
        expect.objectContaining({ path: 'approvalReference', message }),
      ]);
    }
    expect(await writableTableCounts(t.database)).toEqual(before);
    expect((await broker().get(`/api/policies/${id}`)).json()).toMatchObject({
      status: 'draft',
      approvedOn: null,
      approvalReference: null,
    });

    const reference = 'Board meeting 12 May 2025, minute 4.2 (Ms Ó Gráda’s proposal)';
    const approved = await broker().post(`/api/policies/${id}/approve`, {
      approvedOn: '2025-05-12',
      approvalReference: `  ${reference} `,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({
      status: 'approved',
      approvedOn: '2025-05-12',
      approvalReference: reference,
    });
    // Shown with the approval wherever the policy is read, by the employer's staff too.
    const listed = await as(employerUser).get(`/api/schemes/${schemeId}/policies`);
    expect(listed.json().items).toEqual([approved.json()]);
    // Recorded with the approval, as its day is: an approved version is not edited.
    const edited = await broker().patch(`/api/policies/${id}`, { approvalReference: 'Minute 5' });
    expect(edited.statusCode).toBe(400);
    expect((await broker().get(`/api/policies/${id}`)).json().approvalReference).toBe(reference);

    const records = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, id))
      .orderBy(auditLog.chainIndex);
    expect(records.at(-1)).toMatchObject({
      action: 'policy.approved',
      newState: expect.objectContaining({
        changedFields: ['status', 'approvedOn', 'approvalReference', 'nextReviewDue'],
      }),
    });
    expect(JSON.stringify(records)).not.toMatch(/minute|Gráda/);
  });

  it('asks for an ORA without delay after a change in the risk profile, due 30 days after it', async () => {
    const schemeId = await newScheme();
    await createOraReport(
      t.database,
      { brokerId, employerId, schemeId },
      { performedOn: '2024-02-01' },
    );
    expect(
      (await compliance(schemeId)).obligations.find(
        (entry) => entry.kind === 'own_risk_assessment',
      ),
    ).toMatchObject({
      status: 'ok',
      dueOn: '2027-02-01',
    });
    const change = await broker().post(`/api/schemes/${schemeId}/risk-profile-changes`, {
      occurredOn: '2025-05-02',
      description: 'The scheme closed to new entrants',
    });
    expect(change.statusCode).toBe(201);
    // Due on 01/06/2025, 30 days after the change: today, so due soon and not yet overdue.
    expect(
      (await compliance(schemeId)).obligations.find(
        (entry) => entry.kind === 'own_risk_assessment',
      ),
    ).toMatchObject({
      status: 'due_soon',
      dueOn: '2025-06-01',
      reason: expect.stringContaining('without delay'),
      ...GOVERNANCE_RULES.ownRiskAssessment,
    });
    const listed = await broker().get(`/api/schemes/${schemeId}/significant-changes`);
    expect(listed.json().items).toEqual([
      expect.objectContaining({ policyId: null, occurredOn: '2025-05-02' }),
    ]);
  });

  it('keeps no registers for a PRSA', async () => {
    const schemeId = await newScheme();
    await ownerOf(t.database).update(schemes).set({ type: 'PRSA' }).where(eq(schemes.id, schemeId));
    const refused = await broker().post(`/api/schemes/${schemeId}/trustees`, {
      name: 'Nobody',
      kind: 'individual',
      appointedOn: '2024-01-01',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toContain('do not apply');
    expect(await compliance(schemeId)).toMatchObject({
      status: 'ok',
      obligations: [{ kind: 'scope', ...GOVERNANCE_RULES.scope }],
    });
  });

  it('hides a deleted entry, keeps its history, and writes no name, e-mail or free text to the audit log', async () => {
    const schemeId = await newScheme();
    const holder = await broker().post(`/api/schemes/${schemeId}/key-function-holders`, {
      function: 'risk_management',
      holderName: 'Órla Quigley',
      holderEmail: 'orla.quigley@example.ie',
      appointedOn: '2024-01-01',
      alsoServesEmployer: true,
      conflictsProtocol: 'Órla reports to the trustee chair on anything touching the employer.',
    });
    const id = holder.json().id;
    expect(
      (await broker().patch(`/api/key-function-holders/${id}`, { fitnessAndProbity: 'confirmed' }))
        .statusCode,
    ).toBe(200);
    const history = await broker().get(`/api/key-function-holders/${id}/history`);
    expect(history.json().items.map((entry: { action: string }) => entry.action)).toEqual([
      'kfh.appointed',
      'kfh.updated',
    ]);
    expect(history.json().items[1].changedFields).toEqual(['fitnessAndProbity']);
    expect((await broker().delete(`/api/key-function-holders/${id}`)).statusCode).toBe(204);
    expect((await broker().get(`/api/key-function-holders/${id}`)).statusCode).toBe(404);
    const listed = await broker().get(
      `/api/schemes/${schemeId}/key-function-holders?includeHistory=true`,
    );
    expect(listed.json().items).toEqual([]);
    const records = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, id));
    expect(records.map((record) => record.action)).toEqual([
      'kfh.appointed',
      'kfh.updated',
      'kfh.deleted',
    ]);
    expect(JSON.stringify(records)).not.toMatch(/Órla|Quigley|orla\.quigley|trustee chair/);
  });

  it('ends an appointment without deleting it: the list shows it only as history', async () => {
    const schemeId = await newScheme();
    const trustee = await broker().post(`/api/schemes/${schemeId}/trustees`, {
      name: 'Pádraig Walsh',
      kind: 'individual',
      appointedOn: '2019-01-01',
    });
    const ended = await broker().patch(`/api/trustees/${trustee.json().id}`, {
      endedOn: '2025-03-31',
    });
    expect(ended.json().endedOn).toBe('2025-03-31');
    expect((await broker().get(`/api/schemes/${schemeId}/trustees`)).json().items).toEqual([]);
    expect(
      (await broker().get(`/api/schemes/${schemeId}/trustees?includeHistory=true`)).json().items,
    ).toHaveLength(1);
    const backwards = await broker().patch(`/api/trustees/${trustee.json().id}`, {
      appointedOn: '2025-04-01',
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().issues[0].path).toBe('endedOn');
  });
});

describe('the compliance calendar and dashboard', () => {
  it('lists the dated obligations in the window, soonest first, for the actor’s reach and the employer asked for', async () => {
    const schemeId = await newScheme();
    await approvedPolicy(schemeId, 'risk_management', '2023-07-01');
    await createOraReport(
      t.database,
      { brokerId, employerId, schemeId },
      { performedOn: '2023-08-15' },
    );
    const window = '/api/compliance/calendar?from=2026-07-01&to=2026-08-31';
    const mine = await broker().get(`${window}&employerId=${employerId}`);
    expect(mine.statusCode, mine.body).toBe(200);
    const ofScheme = mine
      .json()
      .items.filter((entry: { schemeId: string }) => entry.schemeId === schemeId);
    // The statement for 2024, due on 31 January 2025, is still outstanding: it comes first.
    expect(
      ofScheme.map((entry: { kind: string; dueOn: string }) => [entry.kind, entry.dueOn]),
    ).toEqual([
      ['annual_compliance_statement', '2025-01-31'],
      ['written_policy', '2026-07-01'],
      ['own_risk_assessment', '2026-08-15'],
    ]);
    expect(ofScheme[1]).toMatchObject({
      schemeName: 'Dodder Staff Scheme',
      employerName: 'Dodder Engineering Ltd',
      status: 'ok',
    });
    const dates = mine.json().items.map((entry: { dueOn: string }) => entry.dueOn);
    expect(dates).toEqual([...dates].sort());
    // Another employer's staff see none of it, whatever they ask for.
    const theirs = await as(otherEmployerUser).get(`${window}&employerId=${employerId}`);
    expect(theirs.json().items).toEqual([]);
    // A window is bounded and ordered.
    const backwards = await broker().get('/api/compliance/calendar?from=2026-08-01&to=2026-07-01');
    expect(backwards.statusCode).toBe(400);
    const tooLong = await broker().get('/api/compliance/calendar?from=2020-01-01&to=2029-01-01');
    expect(tooLong.statusCode).toBe(400);
  });

  /** The calendar's entries for one scheme, in the order it lists them. */
  async function calendarOf(schemeId: string, from: string, to: string) {
    const response = await broker().get(
      `/api/compliance/calendar?from=${from}&to=${to}&employerId=${employerId}&limit=100`,
    );
    expect(response.statusCode, response.body).toBe(200);
    return (
      response.json().items as Array<{
        schemeId: string;
        kind: string;
        dueOn: string;
        status: string;
        reason: string;
        subjectId?: string;
      }>
    ).filter((entry) => entry.schemeId === schemeId);
  }

  it('lists first, marked overdue, a duty outstanding from before the window, whatever the window', async () => {
    // On 1 June 2025, the default window: the assessment due on 1 April 2024 and the statement
    // for 2024, due on 31 January 2025, are still outstanding.
    const schemeId = await newScheme();
    await createOraReport(
      t.database,
      { brokerId, employerId, schemeId },
      { performedOn: '2021-04-01' },
    );
    const entries = await calendarOf(schemeId, '2025-06-01', '2026-06-01');
    const before = entries.filter((entry) => entry.dueOn < '2025-06-01');
    expect(before.map(({ kind, dueOn, status }) => ({ kind, dueOn, status }))).toEqual([
      { kind: 'own_risk_assessment', dueOn: '2024-04-01', status: 'overdue' },
      { kind: 'annual_compliance_statement', dueOn: '2025-01-31', status: 'overdue' },
    ]);
    expect(entries.slice(0, before.length)).toEqual(before);
    expect(entries.length).toBeGreaterThan(before.length);
    // The dashboard holds the same two as overdue: one rule for both.
    const dashboard = (await broker().get('/api/compliance/dashboard')).json();
    const overdue = dashboard.upcoming
      .filter(
        (entry: { schemeId: string; status: string }) =>
          entry.schemeId === schemeId && entry.status === 'overdue',
      )
      .map((entry: { kind: string }) => entry.kind);
    expect(overdue).toEqual(['own_risk_assessment', 'annual_compliance_statement']);
    // A window that starts a year on still opens with them.
    const later = await calendarOf(schemeId, '2026-06-01', '2026-12-31');
    expect(later.slice(0, 2).map(({ kind, status }) => [kind, status])).toEqual([
      ['own_risk_assessment', 'overdue'],
      ['annual_compliance_statement', 'overdue'],
    ]);
  });

  it('lists every date a recurring duty falls due in the window, besides the overdue one', async () => {
    const schemeId = await newScheme();
    await createOraReport(
      t.database,
      { brokerId, employerId, schemeId },
      { performedOn: '2021-04-01' },
    );
    const entries = await calendarOf(schemeId, '2025-06-01', '2027-06-20');
    const datesOf = (kind: string) =>
      entries
        .filter((entry) => entry.kind === kind)
        .map(({ dueOn, status }) => ({ dueOn, status }));
    expect(datesOf('annual_compliance_statement')).toEqual([
      { dueOn: '2025-01-31', status: 'overdue' },
      { dueOn: '2026-01-31', status: 'ok' },
      { dueOn: '2027-01-31', status: 'ok' },
    ]);
    expect(datesOf('annual_report')).toEqual([
      { dueOn: '2025-09-30', status: 'ok' },
      { dueOn: '2026-09-30', status: 'ok' },
    ]);
    // The assessment overdue since 1 April 2024 is next due three years on from that day.
    const assessments = entries.filter((entry) => entry.kind === 'own_risk_assessment');
    expect(assessments.map(({ dueOn, status }) => ({ dueOn, status }))).toEqual([
      { dueOn: '2024-04-01', status: 'overdue' },
      { dueOn: '2027-04-01', status: 'ok' },
    ]);
    expect(assessments[1]?.subjectId).toBe(assessments[0]?.subjectId);
    expect(entries.find((entry) => entry.dueOn === '2027-01-31')?.reason).toBe(
      'Annual Compliance Statement for 2026: due by 31 Jan 2027',
    );
    const dates = entries.map((entry) => entry.dueOn);
    expect(dates).toEqual([...dates].sort());
  });

  it('does not list a duty done as overdue: its next date stands, once', async () => {
    const schemeId = await newScheme();
    const filed = await broker().post(`/api/schemes/${schemeId}/filings`, {
      kind: 'annual_compliance_statement',
      periodEnd: '2024-12-31',
      completedOn: '2025-01-20',
    });
    expect(filed.statusCode, filed.body).toBe(201);
    const entries = await calendarOf(schemeId, '2025-06-01', '2026-06-01');
    expect(entries.filter((entry) => entry.status === 'overdue')).toEqual([]);
    expect(
      entries
        .filter((entry) => entry.kind === 'annual_compliance_statement')
        .map(({ dueOn, status }) => ({ dueOn, status })),
    ).toEqual([{ dueOn: '2026-01-31', status: 'ok' }]);
  });

  it('pages the calendar without skipping or repeating an entry', async () => {
    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `/api/compliance/calendar?from=2020-01-01&to=2021-12-31&limit=2${cursor ? `&cursor=${cursor}` : ''}`;
      const response = await broker().get(query);
      expect(response.statusCode, response.body).toBe(200);
      for (const entry of response.json().items)
        pages.push(`${entry.dueOn}|${entry.schemeId}|${entry.subjectId}`);
      cursor = response.json().nextCursor;
    } while (cursor);
    const whole = await broker().get(
      '/api/compliance/calendar?from=2020-01-01&to=2021-12-31&limit=100',
    );
    expect(pages).toEqual(
      whole
        .json()
        .items.map(
          (entry: { dueOn: string; schemeId: string; subjectId: string }) =>
            `${entry.dueOn}|${entry.schemeId}|${entry.subjectId}`,
        ),
    );
    expect(
      (await broker().get('/api/compliance/calendar?from=2020-01-01&to=2021-12-31&cursor=bad'))
        .statusCode,
    ).toBe(400);
  });

  it('shows an overdue ORA on the dashboard with its due date, and counts every scheme once', async () => {
    const schemeId = await newScheme();
    await createOraReport(
      t.database,
      { brokerId, employerId, schemeId },
      { performedOn: '2021-04-01' },
    );
    const response = await broker().get('/api/compliance/dashboard');
    expect(response.statusCode, response.body).toBe(200);
    // Written in pieces, it is still JSON with its length, in the bytes JSON.stringify writes.
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    expect(response.body).toBe(JSON.stringify(governanceDashboardView.parse(response.json())));
    const dashboard = response.json();
    const row = dashboard.schemes.find(
      (entry: { schemeId: string }) => entry.schemeId === schemeId,
    );
    expect(row).toMatchObject({ status: 'overdue', employerName: 'Dodder Engineering Ltd' });
    expect(row.attention[0]).toMatchObject({
      kind: 'own_risk_assessment',
      status: 'overdue',
      dueOn: '2024-04-01',
    });
    expect(dashboard.upcoming).toContainEqual(
      expect.objectContaining({ schemeId, kind: 'own_risk_assessment', dueOn: '2024-04-01' }),
    );
    const total = Object.values(dashboard.counts as Record<string, number>).reduce(
      (a, b) => a + b,
      0,
    );
    expect(total).toBe(dashboard.schemes.length);
    // A PRSA keeps no registers: it is neither counted nor listed.
    const prsa = await newScheme();
    await ownerOf(t.database).update(schemes).set({ type: 'PRSA' }).where(eq(schemes.id, prsa));
    const withPrsa = (await broker().get('/api/compliance/dashboard')).json();
    expect(withPrsa.schemes.map((entry: { schemeId: string }) => entry.schemeId)).not.toContain(
      prsa,
    );
    expect(withPrsa.counts).toEqual(dashboard.counts);
    // Employer staff see only their employer's schemes.
    const theirs = await as(otherEmployerUser).get('/api/compliance/dashboard');
    expect(theirs.json().schemes).toEqual([]);
  });

  it('lists only the due dates it reminds of: a duty done is not listed until its next date is near', async () => {
    // On 1 June 2025: one scheme's assessment is next due in 75 days, another's in 30 (due soon).
    const later = await newScheme();
    await createOraReport(
      t.database,
      { brokerId, employerId, schemeId: later },
      {
        performedOn: '2022-08-15',
      },
    );
    const soon = await newScheme();
    await createOraReport(
      t.database,
      { brokerId, employerId, schemeId: soon },
      {
        performedOn: '2022-07-01',
      },
    );
    const dashboard = (await broker().get('/api/compliance/dashboard')).json();
    const assessmentsOf = (schemeId: string) =>
      dashboard.upcoming.filter(
        (entry: { schemeId: string; kind: string }) =>
          entry.schemeId === schemeId && entry.kind === 'own_risk_assessment',
      );
    expect(assessmentsOf(later)).toEqual([]);
    expect(assessmentsOf(soon)).toEqual([
      expect.objectContaining({ dueOn: '2025-07-01', status: 'due_soon' }),
    ]);
    // Every entry is one a person is reminded of, as the reminder e-mails are (isReminder).
    for (const entry of dashboard.upcoming) expect(entry.status).not.toBe('ok');
    // The calendar still holds the date further off.
    const calendar = (
      await broker().get('/api/compliance/calendar?from=2025-06-01&to=2025-12-31&limit=100')
    ).json();
    expect(calendar.items).toContainEqual(
      expect.objectContaining({ schemeId: later, kind: 'own_risk_assessment', status: 'ok' }),
    );
  });
});
