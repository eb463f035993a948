import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { ownerOf, writableTableCounts } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createTrustee,
  createUser,
  type UserRow,
} from '../helpers/factories.js';
import { newPpsNumber } from '../helpers/pps.js';

/**
 * The scheme year through the API (docs/decisions/0122-the-scheme-year.md; rules: scheme-year-rules.ts):
 * a scheme's year end and an RAC's kind, trustees' training and the filings, and what the
 * compliance view makes of them, on a clock that stands still.
 */
const clock = new Date('2026-11-28T10:00:00Z');
let t: TestApp;
let brokerId: string;
let employerId: string;
let consultant: UserRow;

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore(), now: () => clock });
  brokerId = await createBroker(t.database, 'Shannon Pensions');
  employerId = await createEmployer(t.database, brokerId, 'Corrib Foods Ltd');
  consultant = await createUser(t.database, { brokerId, role: 'BrokerUser' });
});
afterAll(() => t.close());

const get = (url: string) => t.requestAs(consultant, 'GET', url);
const post = (url: string, body: object) => t.requestAs(consultant, 'POST', url, body);
const patch = (url: string, body: object) => t.requestAs(consultant, 'PATCH', url, body);

async function newScheme(body: object = {}) {
  const response = await post('/api/schemes', {
    employerId,
    name: 'Corrib Staff Scheme',
    type: 'DC',
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; yearEnd: string; racKind: string | null };
}

async function obligations(schemeId: string) {
  const response = await get(`/api/schemes/${schemeId}/compliance`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    status: string;
    obligations: Array<{ kind: string; status: string; dueOn?: string; subjectId?: string }>;
  };
}

const refusal = (path: string) => ({
  error: 'Validation failed',
  issues: [expect.objectContaining({ path })],
});

describe('a scheme’s year end and an RAC’s kind', () => {
  it('is 31 December unless given, and a year ending 31 March has its report due by 31 December', async () => {
    expect(await newScheme()).toMatchObject({ yearEnd: '12-31', racKind: null });
    const march = await newScheme({ yearEnd: '03-31' });
    expect(march.yearEnd).toBe('03-31');
    const { obligations: due } = await obligations(march.id);
    expect(due).toContainEqual(
      expect.objectContaining({ kind: 'annual_report', dueOn: '2026-12-31', status: 'due_soon' }),
    );
  });

  it('refuses a year end no year always has, and changes nothing', async () => {
    const before = await writableTableCounts(t.database);
    for (const yearEnd of ['02-29', '13-01', '12-32', '31-12', '1231']) {
      const response = await post('/api/schemes', {
        employerId,
        name: 'Scheme',
        type: 'DC',
        yearEnd,
      });
      expect(response.statusCode, yearEnd).toBe(400);
      expect(response.json(), yearEnd).toMatchObject(refusal('yearEnd'));
    }
    expect(await writableTableCounts(t.database)).toEqual(before);
  });

  it('asks an RAC whether it is a trust or a contract, and only an RAC', async () => {
    const before = await writableTableCounts(t.database);
    const unnamed = await post('/api/schemes', { employerId, name: 'RAC', type: 'RAC' });
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json()).toMatchObject(refusal('racKind'));
    const named = await post('/api/schemes', {
      employerId,
      name: 'DC',
      type: 'DC',
      racKind: 'trust',
    });
    expect(named.statusCode).toBe(400);
    expect(await writableTableCounts(t.database)).toEqual(before);
  });

  it('keeps no registers for a contract RAC, and keeps them for a trust RAC', async () => {
    const contract = await newScheme({ type: 'RAC', racKind: 'contract' });
    expect(await obligations(contract.id)).toEqual({
      schemeId: contract.id,
      status: 'ok',
      obligations: [
        expect.objectContaining({
          kind: 'scope',
          reason: expect.stringContaining('individual contract with an insurer'),
        }),
      ],
      // Nor is a contract an IORP under DORA (docs/decisions/0139-dora-ict-incidents.md).
      dora: expect.objectContaining({
        applies: false,
        reason: expect.stringContaining('not an IORP'),
      }),
    });
    const trustee = await post(`/api/schemes/${contract.id}/trustees`, {
      name: 'Aoife Murphy',
      kind: 'individual',
      appointedOn: '2024-01-01',
    });
    expect(trustee.statusCode).toBe(409);
    const trust = await newScheme({ type: 'RAC', racKind: 'trust' });
    expect((await obligations(trust.id)).obligations.map((entry) => entry.kind)).toContain(
      'trustees',
    );
  });

  it('drops the kind when a scheme stops being an RAC, and asks for it when one becomes one', async () => {
    const rac = await newScheme({ type: 'RAC', racKind: 'trust' });
    const dc = await patch(`/api/schemes/${rac.id}`, { type: 'DC' });
    expect(dc.statusCode, dc.body).toBe(200);
    expect(dc.json()).toMatchObject({ type: 'DC', racKind: null });
    const unnamed = await patch(`/api/schemes/${rac.id}`, { type: 'RAC' });
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json()).toMatchObject(refusal('racKind'));
    const named = await patch(`/api/schemes/${rac.id}`, { type: 'RAC', racKind: 'contract' });
    expect(named.json()).toMatchObject({ type: 'RAC', racKind: 'contract' });
  });

  it('lets only those who may set the type say whether an RAC is a trust', async () => {
    const rac = await newScheme({ type: 'RAC', racKind: 'trust' });
    const employerAdmin = await createUser(t.database, {
      brokerId,
      employerId,
      role: 'EmployerAdmin',
    });
    const before = await writableTableCounts(t.database);
    const refused = await t.requestAs(employerAdmin, 'PATCH', `/api/schemes/${rac.id}`, {
      racKind: 'contract',
    });
    expect(refused.statusCode).toBe(403);
    expect(await writableTableCounts(t.database)).toEqual(before);
    const renamed = await t.requestAs(employerAdmin, 'PATCH', `/api/schemes/${rac.id}`, {
      name: 'Corrib Executive RAC',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ racKind: 'trust' });
  });
});

describe('trustees’ training', () => {
  it('is recorded and listed, and brings the trustee’s training duty to ok', async () => {
    const scheme = await newScheme();
    const trusteeId = await createTrustee(
      t.database,
      { brokerId, employerId, schemeId: scheme.id },
      { appointedOn: '2026-01-10' },
    );
    const due = (await obligations(scheme.id)).obligations.find(
      (entry) => entry.kind === 'trustee_training',
    );
    expect(due).toMatchObject({ subjectId: trusteeId, dueOn: '2026-07-10', status: 'overdue' });
    for (const completedOn of ['2026-03-02', '2026-06-15']) {
      const recorded = await post(`/api/trustees/${trusteeId}/training`, {
        completedOn,
        topic: 'Investment governance',
      });
      expect(recorded.statusCode, recorded.body).toBe(201);
      expect(recorded.json()).toMatchObject({ trusteeId, completedOn, directorName: null });
    }
    const list = await get(`/api/trustees/${trusteeId}/training`);
    expect(
      list
        .json()
        .items.map((item: { completedOn: string }) => item.completedOn)
        .sort(),
    ).toEqual(['2026-03-02', '2026-06-15']);
    const done = (await obligations(scheme.id)).obligations.find(
      (entry) => entry.kind === 'trustee_training',
    );
    expect(done).toMatchObject({ dueOn: '2028-06-15', status: 'ok' });
  });

  it('names the director for a corporate trustee and nobody for a person; never a day to come', async () => {
    const scheme = await newScheme();
    const ref = { brokerId, employerId, schemeId: scheme.id };
    const corporate = await createTrustee(t.database, ref, {
      kind: 'corporate',
      directorCount: 3,
      name: 'Corrib Trustees DAC',
    });
    const person = await createTrustee(t.database, ref);
    const before = await writableTableCounts(t.database);
    const unnamed = await post(`/api/trustees/${corporate}/training`, {
      completedOn: '2026-05-01',
    });
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json()).toMatchObject(refusal('directorName'));
    const named = await post(`/api/trustees/${person}/training`, {
      completedOn: '2026-05-01',
      directorName: 'Seán Kelly',
    });
    expect(named.json()).toMatchObject(refusal('directorName'));
    const later = await post(`/api/trustees/${person}/training`, { completedOn: '2026-11-29' });
    expect(later.statusCode).toBe(400);
    expect(later.json()).toMatchObject(refusal('completedOn'));
    expect(await writableTableCounts(t.database)).toEqual(before);
    const director = await post(`/api/trustees/${corporate}/training`, {
      completedOn: '2026-05-01',
      directorName: 'Seán Kelly',
    });
    expect(director.statusCode, director.body).toBe(201);
    // The audit record names no one: the director's name stays in the register.
    const [record] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.entityType, 'trustee_training'), eq(auditLog.entityId, director.json().id)),
      );
    expect(record?.action).toBe('trustee_training.recorded');
    expect(JSON.stringify(record?.newState)).not.toContain('Kelly');
  });
});

describe('the scheme year’s filings', () => {
  it('are recorded with the day each falls due, completed later, and bring the scheme’s filings to ok', async () => {
    const scheme = await newScheme();
    const kinds = (await obligations(scheme.id)).obligations.filter((entry) =>
      ['annual_report', 'annual_scheme_information', 'annual_compliance_statement'].includes(
        entry.kind,
      ),
    );
    // On 28 November 2026: the report and return for 2025 were due on 30 September, and the
    // statement for 2025 on 31 January.
    expect(kinds.map(({ kind, dueOn, status }) => ({ kind, dueOn, status }))).toEqual([
      { kind: 'annual_report', dueOn: '2026-09-30', status: 'overdue' },
      { kind: 'annual_scheme_information', dueOn: '2026-09-30', status: 'overdue' },
      { kind: 'annual_compliance_statement', dueOn: '2026-01-31', status: 'overdue' },
    ]);
    const report = await post(`/api/schemes/${scheme.id}/filings`, {
      kind: 'annual_report',
      periodEnd: '2025-12-31',
    });
    expect(report.statusCode, report.body).toBe(201);
    expect(report.json()).toMatchObject({ dueOn: '2026-09-30', completedOn: null, audited: null });
    const completed = await patch(`/api/filings/${report.json().id}`, {
      completedOn: '2026-10-14',
      audited: false,
    });
    expect(completed.statusCode, completed.body).toBe(200);
    expect(completed.json()).toMatchObject({ completedOn: '2026-10-14', audited: false });
    expect((await get(`/api/filings/${report.json().id}`)).json()).toEqual(completed.json());
    for (const [kind, periodEnd, completedOn] of [
      ['annual_scheme_information', '2025-12-31', '2026-09-20'],
      ['annual_compliance_statement', '2025-12-31', '2026-01-25'],
    ]) {
      const filed = await post(`/api/schemes/${scheme.id}/filings`, {
        kind,
        periodEnd,
        completedOn,
      });
      expect(filed.statusCode, filed.body).toBe(201);
    }
    const after = (await obligations(scheme.id)).obligations.filter((entry) =>
      ['annual_report', 'annual_scheme_information', 'annual_compliance_statement'].includes(
        entry.kind,
      ),
    );
    expect(after.map(({ dueOn, status }) => ({ dueOn, status }))).toEqual([
      { dueOn: '2027-09-30', status: 'ok' },
      { dueOn: '2027-09-30', status: 'ok' },
      { dueOn: '2027-01-31', status: 'ok' },
    ]);
    const list = await get(`/api/schemes/${scheme.id}/filings`);
    expect(list.json().items).toHaveLength(3);
  });

  it('refuses a second filing of a kind for one period with a 409, and bad periods with a 400, writing nothing', async () => {
    const scheme = await newScheme({ yearEnd: '03-31' });
    const first = await post(`/api/schemes/${scheme.id}/filings`, {
      kind: 'annual_report',
      periodEnd: '2026-03-31',
    });
    expect(first.statusCode, first.body).toBe(201);
    const before = await writableTableCounts(t.database);
    const again = await post(`/api/schemes/${scheme.id}/filings`, {
      kind: 'annual_report',
      periodEnd: '2026-03-31',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toContain('already has its annual report');
    const cases: Array<[object, string]> = [
      [{ kind: 'annual_report', periodEnd: '2025-12-31' }, 'periodEnd'],
      [{ kind: 'annual_report', periodEnd: '2027-03-31' }, 'periodEnd'],
      [{ kind: 'annual_compliance_statement', periodEnd: '2026-03-31' }, 'periodEnd'],
      [
        { kind: 'annual_report', periodEnd: '2025-03-31', completedOn: '2025-03-01' },
        'completedOn',
      ],
      [
        { kind: 'annual_report', periodEnd: '2025-03-31', completedOn: '2026-12-01' },
        'completedOn',
      ],
      [{ kind: 'annual_compliance_statement', periodEnd: '2025-12-31', audited: true }, 'audited'],
    ];
    for (const [body, path] of cases) {
      const refused = await post(`/api/schemes/${scheme.id}/filings`, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json(), JSON.stringify(body)).toMatchObject(refusal(path));
    }
    expect(await writableTableCounts(t.database)).toEqual(before);
  });

  it('are chased for every year since the scheme began, the overdue years first in the calendar, none twice', async () => {
    // Began on 15 March 2024, nothing filed: on 28 November 2026 the years ended 31 December 2024
    // and 2025 are both overdue, and the compliance statements for 2024 and 2025.
    const scheme = await newScheme({ startDate: '2024-03-15' });
    const filings = (await obligations(scheme.id)).obligations.filter(
      (entry) => entry.kind === 'annual_report',
    );
    expect(filings.map(({ dueOn, status }) => ({ dueOn, status }))).toEqual([
      { dueOn: '2025-09-30', status: 'overdue' },
      { dueOn: '2026-09-30', status: 'overdue' },
    ]);
    const calendar = await get(
      `/api/compliance/calendar?from=2026-11-28&to=2027-11-27&employerId=${employerId}&limit=100`,
    );
    expect(calendar.statusCode, calendar.body).toBe(200);
    const entries = (
      calendar.json().items as Array<{
        schemeId: string;
        kind: string;
        dueOn: string;
        status: string;
        reason: string;
      }>
    ).filter(
      (entry) =>
        entry.schemeId === scheme.id &&
        ['annual_report', 'annual_scheme_information', 'annual_compliance_statement'].includes(
          entry.kind,
        ),
    );
    const ofKind = (kind: string) =>
      entries.filter((entry) => entry.kind === kind).map(({ dueOn, status }) => [dueOn, status]);
    // Both overdue years first, then the next year's date once.
    expect(ofKind('annual_report')).toEqual([
      ['2025-09-30', 'overdue'],
      ['2026-09-30', 'overdue'],
      ['2027-09-30', 'ok'],
    ]);
    expect(ofKind('annual_compliance_statement')).toEqual([
      ['2025-01-31', 'overdue'],
      ['2026-01-31', 'overdue'],
      ['2027-01-31', 'ok'],
    ]);
    expect(entries.find((entry) => entry.dueOn === '2025-09-30')?.reason).toContain(
      'the year ended 31 Dec 2024',
    );
    // The 2024 report recorded as completed: that year is no longer chased.
    const report = await post(`/api/schemes/${scheme.id}/filings`, {
      kind: 'annual_report',
      periodEnd: '2024-12-31',
      completedOn: '2025-09-10',
    });
    expect(report.statusCode, report.body).toBe(201);
    const after = (await obligations(scheme.id)).obligations.filter(
      (entry) => entry.kind === 'annual_report',
    );
    expect(after.map(({ dueOn }) => dueOn)).toEqual(['2026-09-30']);
  });
});

describe('information for new members', () => {
  it('is asked for a member who joined since the scheme was added, until the day it was given is recorded', async () => {
    const scheme = await newScheme();
    const joined = await post(`/api/schemes/${scheme.id}/members`, {
      firstName: 'Róisín',
      lastName: 'Kearney',
      dateOfBirth: '1992-02-14',
      dateJoined: '2026-11-28',
      salaryCents: 4_200_000,
      ppsNumber: newPpsNumber(),
    });
    expect(joined.statusCode, joined.body).toBe(201);
    expect(joined.json().informationSentOn).toBeNull();
    const waiting = (await obligations(scheme.id)).obligations.find(
      (entry) => entry.kind === 'new_member_information',
    );
    expect(waiting).toMatchObject({ dueOn: '2027-01-28', status: 'ok' });
    const before = await writableTableCounts(t.database);
    const early = await patch(`/api/members/${joined.json().id}`, {
      informationSentOn: '2026-11-01',
    });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toMatchObject(refusal('informationSentOn'));
    expect(await writableTableCounts(t.database)).toEqual(before);
    const given = await patch(`/api/members/${joined.json().id}`, {
      informationSentOn: '2026-11-28',
    });
    expect(given.statusCode, given.body).toBe(200);
    expect(given.json().informationSentOn).toBe('2026-11-28');
    const done = (await obligations(scheme.id)).obligations.find(
      (entry) => entry.kind === 'new_member_information',
    );
    expect(done).toMatchObject({ status: 'ok', reason: expect.stringContaining('has been given') });
    expect(done?.dueOn).toBeUndefined();
  });

  it('is asked again of a member who rejoins, though it was given for their first membership', async () => {
    const scheme = await newScheme();
    const information = async () =>
      (await obligations(scheme.id)).obligations.find(
        (entry) => entry.kind === 'new_member_information',
      );
    // A member from long before the scheme came to this service, who had its information then.
    const member = await post(`/api/schemes/${scheme.id}/members`, {
      firstName: 'Tadhg',
      lastName: 'Ó Sé',
      dateOfBirth: '1980-06-02',
      dateJoined: '2019-03-01',
      salaryCents: 5_100_000,
      ppsNumber: newPpsNumber(),
    });
    expect(member.statusCode, member.body).toBe(201);
    const id = member.json().id;
    const given = await patch(`/api/members/${id}`, { informationSentOn: '2019-03-20' });
    expect(given.statusCode, given.body).toBe(200);
    expect(await information()).toMatchObject({ status: 'ok' });

    const left = await post(`/api/members/${id}/leave`, { leftOn: '2026-11-20' });
    expect(left.statusCode, left.body).toBe(200);
    const rejoined = await post(`/api/members/${id}/rejoin`, { rejoinedOn: '2026-11-28' });
    expect(rejoined.statusCode, rejoined.body).toBe(200);
    // Owed within two months of rejoining, by this service's policy, cited as such.
    const owed = await information();
    expect(owed).toMatchObject({ dueOn: '2027-01-28', status: 'ok' });
    expect((owed as { reason?: string }).reason).toContain('1 member who joined is waiting');

    const again = await patch(`/api/members/${id}`, { informationSentOn: '2026-11-28' });
    expect(again.statusCode, again.body).toBe(200);
    expect(await information()).toMatchObject({
      status: 'ok',
      reason: expect.stringContaining('has been given'),
    });
  });
});
