import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, dataRequests } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { ownerOf, writableTableCounts } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createMember,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';

/**
 * The data-subject requests register through the API
 * (docs/decisions/0137-data-subject-requests.md), on a clock the tests move by hand.
 */
let clock = new Date('2026-03-10T10:00:00Z');
const setToday = (day: string) => {
  clock = new Date(`${day}T10:00:00Z`);
};
let t: TestApp;
let memberId: string;
let otherMemberId: string;
let consultant: UserRow;
let admin: UserRow;
let superAdmin: UserRow;
let otherFirmsAdmin: UserRow;
let ownMember: UserRow;
let ownMemberId: string;
let colleagueId: string;
let employerAdmin: UserRow;

const post = (url: string, body: object, user: UserRow = consultant) =>
  t.requestAs(user, 'POST', url, body);
const get = (url: string, user: UserRow = consultant) => t.requestAs(user, 'GET', url);

async function recorded(kind: string, receivedOn: string, member = memberId) {
  const response = await post('/api/data-requests', { memberId: member, kind, receivedOn });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; dueOn: string };
}

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore(), now: () => clock });
  const brokerId = await createBroker(t.database, 'Shannon Pensions');
  const employerId = await createEmployer(t.database, brokerId, 'Corrib Foods Ltd');
  const schemeId = await createScheme(t.database, { id: employerId, brokerId });
  // Joined 1 September 2015 (test/helpers/factories.ts).
  memberId = (await createMember(t.database, { brokerId, employerId, schemeId })).id;
  consultant = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  admin = await createUser(t.database, { brokerId, role: 'BrokerAdmin' });
  superAdmin = await createUser(t.database, { role: 'SuperAdmin' });
  const otherBroker = await createBroker(t.database, 'Liffey Pensions');
  const otherEmployer = await createEmployer(t.database, otherBroker, 'Dodder Ltd');
  const otherScheme = await createScheme(t.database, { id: otherEmployer, brokerId: otherBroker });
  otherMemberId = (
    await createMember(t.database, {
      brokerId: otherBroker,
      employerId: otherEmployer,
      schemeId: otherScheme,
    })
  ).id;
  otherFirmsAdmin = await createUser(t.database, { brokerId: otherBroker, role: 'BrokerAdmin' });
  // A member with their own account in the portal, and a colleague in the same scheme.
  ownMemberId = (await createMember(t.database, { brokerId, employerId, schemeId })).id;
  ownMember = await createUser(t.database, {
    brokerId,
    employerId,
    role: 'Member',
    memberId: ownMemberId,
  });
  colleagueId = (await createMember(t.database, { brokerId, employerId, schemeId })).id;
  employerAdmin = await createUser(t.database, { brokerId, employerId, role: 'EmployerAdmin' });
});
afterAll(() => t.close());

describe('data-subject requests', () => {
  it('a request extended and completed on time', async () => {
    setToday('2026-03-10');
    const request = await recorded('access', '2026-01-31');
    expect(request).toMatchObject({
      kind: 'access',
      receivedOn: '2026-01-31',
      originalDueOn: '2026-02-28',
      dueOn: '2026-02-28',
      status: 'open',
      memberName: 'Aoife Murphy',
    });
    expect(request).not.toHaveProperty('extendedTo');

    // Extended on its first due day: two months from it.
    setToday('2026-02-28');
    const extended = await post(`/api/data-requests/${request.id}/extend`, {
      reason: 'Twenty years of records are held in two archives',
    });
    expect(extended.statusCode, extended.body).toBe(200);
    expect(extended.json()).toMatchObject({
      status: 'extended',
      originalDueOn: '2026-02-28',
      dueOn: '2026-04-28',
      extendedTo: '2026-04-28',
      extensionReason: 'Twenty years of records are held in two archives',
      clock: { state: 'due', daysLeft: 59, words: '59 days left: due on 28 Apr 2026' },
    });

    // Once only.
    const again = await post(`/api/data-requests/${request.id}/extend`, { reason: 'More' });
    expect(again.statusCode).toBe(409);

    setToday('2026-04-20');
    const completed = await post(
      `/api/data-requests/${request.id}/complete`,
      { note: 'Copy sent by registered post' },
      admin,
    );
    expect(completed.statusCode, completed.body).toBe(200);
    expect(completed.json()).toMatchObject({
      status: 'completed',
      closedOn: '2026-04-20',
      completionNote: 'Copy sent by registered post',
      clock: { state: 'answered', daysLeft: null, words: 'Answered in time' },
    });

    // Closed: every further step is a conflict, and nothing changes.
    for (const [step, body] of [
      ['extend', { reason: 'More' }],
      ['complete', {}],
      ['refuse', { reason: 'No', citation: 'GDPR Art. 12(5)' }],
    ] as const) {
      const response = await post(`/api/data-requests/${request.id}/${step}`, body);
      expect(response.statusCode, step).toBe(409);
    }
    const read = await get(`/api/data-requests/${request.id}`);
    expect(read.json()).toMatchObject({ status: 'completed', closedOn: '2026-04-20' });

    // The audit keeps no free text.
    const states = await ownerOf(t.database)
      .select({ action: auditLog.action, newState: auditLog.newState })
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'data_request'), eq(auditLog.entityId, request.id)));
    expect(states.map((row) => row.action)).toEqual([
      'data_request.recorded',
      'data_request.extended',
      'data_request.completed',
    ]);
    const written = JSON.stringify(states);
    expect(written).not.toContain('archives');
    expect(written).not.toContain('registered post');
  });

  it('one refused under a retention rule', async () => {
    setToday('2026-03-10');
    const request = await recorded('erasure', '2026-03-02');
    expect(request.dueOn).toBe('2026-04-02');
    const refused = await post(`/api/data-requests/${request.id}/refuse`, {
      reason: 'Contribution records are kept while benefits may be payable',
      citation: 'GDPR Art. 17(3)(b)',
    });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json()).toMatchObject({
      status: 'refused',
      closedOn: '2026-03-10',
      refusalCitation: 'GDPR Art. 17(3)(b)',
      refusalReason: 'Contribution records are kept while benefits may be payable',
      clock: { state: 'answered' },
    });
    const again = await post(`/api/data-requests/${request.id}/complete`, {});
    expect(again.statusCode).toBe(409);
  });

  it('extends only within the first month, and marks a request overdue after its due day', async () => {
    setToday('2026-03-10');
    const request = await recorded('rectification', '2026-02-05');
    expect(request.dueOn).toBe('2026-03-05');
    const late = await post(`/api/data-requests/${request.id}/extend`, { reason: 'Complex' });
    expect(late.statusCode).toBe(409);
    expect(late.json().error).toMatch(/first month is over/);
    const read = await get(`/api/data-requests/${request.id}`);
    expect(read.json()).toMatchObject({
      status: 'open',
      clock: {
        state: 'overdue',
        daysLeft: -5,
        words: 'Overdue by 5 days: it was due on 5 Mar 2026',
      },
    });
  });

  it('lists the firm’s requests, the earliest due first, by status', async () => {
    setToday('2026-03-10');
    const list = await get('/api/data-requests?limit=100');
    expect(list.statusCode, list.body).toBe(200);
    const items = list.json().items as Array<{ id: string; dueOn: string; status: string }>;
    expect(items.length).toBeGreaterThanOrEqual(3);
    expect(items.map((item) => item.dueOn)).toEqual(items.map((item) => item.dueOn).toSorted());
    const open = await get('/api/data-requests?status=open&limit=100');
    expect(open.json().items.every((item: { status: string }) => item.status === 'open')).toBe(
      true,
    );
    // Paged: a page of one and the next.
    const first = await get('/api/data-requests?limit=1');
    const next = await get(
      `/api/data-requests?limit=1&cursor=${encodeURIComponent(first.json().nextCursor)}`,
    );
    expect(next.json().items[0].id).toBe(items[1]?.id);
  });

  it('refuses bad input with clear messages, and writes nothing', async () => {
    setToday('2026-03-10');
    const before = await writableTableCounts(t.database);
    const cases: Array<[object, string, RegExp]> = [
      [{ memberId, kind: 'access', receivedOn: '2026-03-11' }, 'receivedOn', /after today/],
      [
        { memberId, kind: 'access', receivedOn: '2015-08-31' },
        'receivedOn',
        /before the member joined/,
      ],
      [{ memberId, kind: 'access', receivedOn: '2026-02-30' }, 'receivedOn', /./],
      [{ memberId, kind: 'complaint', receivedOn: '2026-03-01' }, 'kind', /Choose what/],
      [{ kind: 'access', receivedOn: '2026-03-01' }, 'memberId', /./],
    ];
    for (const [body, path, message] of cases) {
      const response = await post('/api/data-requests', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      const issue = (response.json().issues as Array<{ path: string; message: string }>).find(
        (entry) => entry.path === path,
      );
      expect(issue?.message, JSON.stringify(body)).toMatch(message);
    }
    const request = await recorded('objection', '2026-03-09');
    const counted = await writableTableCounts(t.database);
    for (const [step, body, path] of [
      ['extend', { reason: '  ' }, 'reason'],
      ['refuse', { reason: 'No', citation: 'GDPR Art. 6' }, 'citation'],
      ['refuse', { citation: 'GDPR Art. 12(5)' }, 'reason'],
    ] as const) {
      const response = await post(`/api/data-requests/${request.id}/${step}`, body);
      expect(response.statusCode, step).toBe(400);
      expect(response.json().issues.map((entry: { path: string }) => entry.path)).toContain(path);
    }
    expect(await writableTableCounts(t.database)).toEqual(counted);
    expect(before.data_requests).toBe((counted.data_requests ?? 0) - 1);
  });

  it('answers 404 for another firm’s member and request, and keeps employers and members out', async () => {
    setToday('2026-03-10');
    const theirs = await post(
      '/api/data-requests',
      { memberId: otherMemberId, kind: 'access', receivedOn: '2026-03-01' },
      consultant,
    );
    expect(theirs.statusCode).toBe(404);
    const ours = await recorded('restriction', '2026-03-01');
    for (const url of [
      ['GET', `/api/data-requests/${ours.id}`],
      ['POST', `/api/data-requests/${ours.id}/complete`],
      ['POST', `/api/data-requests/${ours.id}/extend`],
    ] as const) {
      const response = await t.requestAs(
        otherFirmsAdmin,
        url[0],
        url[1],
        url[0] === 'POST' ? { reason: 'x' } : undefined,
      );
      expect(response.statusCode, url[1]).toBe(404);
    }
    const theirList = await get('/api/data-requests?limit=100', otherFirmsAdmin);
    expect(theirList.json().items).toEqual([]);
    const stored = await ownerOf(t.database)
      .select({ status: dataRequests.status })
      .from(dataRequests)
      .where(eq(dataRequests.id, ours.id));
    expect(stored).toEqual([{ status: 'open' }]);
  });

  it('takes two steps at once one after the other: the second meets a closed request', async () => {
    setToday('2026-03-10');
    const request = await recorded('erasure', '2026-03-04');
    const answers = await Promise.all([
      post(`/api/data-requests/${request.id}/complete`, {}),
      post(`/api/data-requests/${request.id}/refuse`, {
        reason: 'Kept while benefits may be payable',
        citation: 'GDPR Art. 17(3)(b)',
      }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const steps = await ownerOf(t.database)
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'data_request'), eq(auditLog.entityId, request.id)));
    expect(steps).toHaveLength(2);
  });

  it('lets a SuperAdmin read, audited, and act on nothing', async () => {
    setToday('2026-03-10');
    const request = await recorded('access', '2026-03-03');
    const read = await get(`/api/data-requests/${request.id}`, superAdmin);
    expect(read.statusCode).toBe(200);
    const viewed = await ownerOf(t.database)
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'data_request.viewed'), eq(auditLog.entityId, request.id)));
    expect(viewed).toHaveLength(1);
    const acted = await post(`/api/data-requests/${request.id}/complete`, {}, superAdmin);
    expect(acted.statusCode).toBe(403);
  });
});

describe('a member’s own request, made in the portal', () => {
  it('is received today, due a month later, audited as the member’s, and in the firm’s register', async () => {
    setToday('2026-03-10');
    const made = await post(
      '/api/data-requests',
      { memberId: ownMemberId, kind: 'access' },
      ownMember,
    );
    expect(made.statusCode, made.body).toBe(201);
    const request = made.json();
    expect(request).toMatchObject({
      memberId: ownMemberId,
      kind: 'access',
      receivedOn: '2026-03-10',
      originalDueOn: '2026-04-10',
      dueOn: '2026-04-10',
      status: 'open',
      createdBy: ownMember.id,
      clock: { state: 'due', daysLeft: 31 },
    });
    const audited = await ownerOf(t.database)
      .select({ action: auditLog.action, actorId: auditLog.actorId, newState: auditLog.newState })
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'data_request'), eq(auditLog.entityId, request.id)));
    expect(audited).toEqual([
      {
        action: 'data_request.recorded',
        actorId: ownMember.id,
        newState: expect.objectContaining({ memberId: ownMemberId, receivedOn: '2026-03-10' }),
      },
    ]);

    // The member lists their own requests, and no one else's.
    const theirs = await get('/api/data-requests?limit=100', ownMember);
    expect(theirs.statusCode, theirs.body).toBe(200);
    const listed = theirs.json().items as Array<{ id: string; memberId: string }>;
    expect(listed.map((item) => item.id)).toContain(request.id);
    expect(listed.every((item) => item.memberId === ownMemberId)).toBe(true);

    // The firm's staff see it in the register as any other.
    const register = await get('/api/data-requests?limit=100', admin);
    expect(register.json().items.map((item: { id: string }) => item.id)).toContain(request.id);
  });

  it('takes today as the day received, and refuses any other day', async () => {
    setToday('2026-03-11');
    const before = await writableTableCounts(t.database);
    for (const receivedOn of ['2026-03-01', '2026-03-12']) {
      const response = await post(
        '/api/data-requests',
        { memberId: ownMemberId, kind: 'erasure', receivedOn },
        ownMember,
      );
      expect(response.statusCode, receivedOn).toBe(400);
      expect(response.json().issues).toEqual([
        expect.objectContaining({
          path: 'receivedOn',
          message: expect.stringMatching(/received today, the day you make it/),
        }),
      ]);
    }
    expect(await writableTableCounts(t.database)).toEqual(before);
    const today = await post(
      '/api/data-requests',
      { memberId: ownMemberId, kind: 'erasure', receivedOn: '2026-03-11' },
      ownMember,
    );
    expect(today.statusCode, today.body).toBe(201);
    expect(today.json()).toMatchObject({ receivedOn: '2026-03-11', dueOn: '2026-04-11' });
  });

  it('refuses a second of a kind while the first is with the firm, naming its due day', async () => {
    setToday('2026-03-12');
    const first = await post(
      '/api/data-requests',
      { memberId: ownMemberId, kind: 'objection' },
      ownMember,
    );
    expect(first.statusCode, first.body).toBe(201);
    setToday('2026-03-20');
    const before = await writableTableCounts(t.database);
    const again = await post(
      '/api/data-requests',
      { memberId: ownMemberId, kind: 'objection' },
      ownMember,
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(
      'Your request for Objection (Art. 21) of 12 Mar 2026 is already with the firm: it is due to be answered by 12 Apr 2026',
    );
    expect(await writableTableCounts(t.database)).toEqual(before);

    // Once the firm has answered it, another may be made.
    const completed = await post(
      `/api/data-requests/${first.json().id}/complete`,
      { note: 'Objection upheld; marketing flag cleared by Niamh' },
      admin,
    );
    expect(completed.statusCode, completed.body).toBe(200);
    // The member reads it answered, without the staff's note of what was done.
    const theirs = await get('/api/data-requests?status=completed&limit=100', ownMember);
    expect(theirs.json().items).toEqual([
      expect.objectContaining({ id: first.json().id, status: 'completed', completionNote: null }),
    ]);
    const after = await post(
      '/api/data-requests',
      { memberId: ownMemberId, kind: 'objection' },
      ownMember,
    );
    expect(after.statusCode, after.body).toBe(201);
  });

  it('answers 404 for another member, and keeps employers out', async () => {
    setToday('2026-03-10');
    for (const other of [colleagueId, memberId, otherMemberId]) {
      const response = await post(
        '/api/data-requests',
        { memberId: other, kind: 'access' },
        ownMember,
      );
      expect(response.statusCode, other).toBe(404);
    }
    const employer = await post(
      '/api/data-requests',
      { memberId: ownMemberId, kind: 'access', receivedOn: '2026-03-10' },
      employerAdmin,
    );
    expect(employer.statusCode).toBe(403);
    expect((await get('/api/data-requests', employerAdmin)).statusCode).toBe(403);
  });

  it('asks the firm’s staff for the day received', async () => {
    setToday('2026-03-10');
    const response = await post('/api/data-requests', { memberId, kind: 'access' }, admin);
    expect(response.statusCode).toBe(400);
    expect(response.json().issues).toEqual([
      expect.objectContaining({
        path: 'receivedOn',
        message: 'Enter the day the firm got the request',
      }),
    ]);
  });
});
