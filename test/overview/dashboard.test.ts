import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayInIreland } from '../../src/contracts/irish-dates.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import type { UserRow } from '../helpers/factories.js';
import { schemeFixture } from '../helpers/fixtures.js';

/**
 * The firm's dashboard in one request (docs/decisions/0118-pages-composed-on-the-server.md): each
 * part is what its own route answers the same person, and a part they may not read is null.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function readJson(user: UserRow, url: string) {
  const answer = await t.requestAs(user, 'GET', url);
  expect(answer.statusCode, `${url}: ${answer.body}`).toBe(200);
  return answer.json();
}

/** Every item of a list route, as the browser used to count them. */
async function everyItem(user: UserRow, url: string) {
  const items: unknown[] = [];
  let cursor: string | null = null;
  do {
    const page = await readJson(
      user,
      `${url}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return items;
}

describe('GET /api/overview/dashboard', () => {
  it('answers, part by part, what each part’s own route answers a BrokerAdmin', async () => {
    const { admin, members } = await schemeFixture(t.database, {
      members: 2,
      users: { admin: 'BrokerAdmin', colleague: 'BrokerUser' },
    });
    // Two data-subject requests still to be answered, one extended, and one answered.
    const requests: string[] = [];
    for (const member of [...members, members[0]]) {
      const recorded = await t.requestAs(admin, 'POST', '/api/data-requests', {
        memberId: member?.id,
        kind: 'access',
        receivedOn: todayInIreland(new Date()),
      });
      expect(recorded.statusCode, recorded.body).toBe(201);
      requests.push(recorded.json().id);
    }
    await t.requestAs(admin, 'POST', `/api/data-requests/${requests[0]}/extend`, {
      reason: 'Records held in two archives',
    });
    await t.requestAs(admin, 'POST', `/api/data-requests/${requests[2]}/complete`, {});
    // A second employer and scheme, so that the counts are counts.
    const employer = await t.requestAs(admin, 'POST', '/api/employers', { name: 'Shannon Foods' });
    expect(employer.statusCode).toBe(201);
    const scheme = await t.requestAs(admin, 'POST', '/api/schemes', {
      employerId: employer.json().id,
      name: 'Shannon Foods DC',
      type: 'DC',
    });
    expect(scheme.statusCode).toBe(201);

    const dashboard = await readJson(admin, '/api/overview/dashboard');
    // The parts that change as the dashboard itself is read (the audit log) are read first.
    const recent = await readJson(admin, '/api/audit?limit=8');
    expect(dashboard.recentActivity.items.length).toBeGreaterThan(0);
    expect(dashboard.recentActivity.items.map((record: { id: string }) => record.id)).toEqual(
      recent.items
        .map((record: { id: string }) => record.id)
        .filter((id: string) =>
          dashboard.recentActivity.items.some((shown: { id: string }) => shown.id === id),
        ),
    );
    expect(dashboard.overview).toEqual(await readJson(admin, '/api/overview'));
    expect(dashboard.governance).toEqual(await readJson(admin, '/api/compliance/dashboard'));
    expect(dashboard.autoEnrolment).toEqual(await readJson(admin, '/api/auto-enrolment/overview'));
    expect(dashboard.counts).toEqual({
      employers: { count: (await everyItem(admin, '/api/employers')).length, complete: true },
      schemes: { count: (await everyItem(admin, '/api/schemes')).length, complete: true },
      accounts: { count: (await everyItem(admin, '/api/users')).length, complete: true },
    });
    expect(dashboard.counts.employers.count).toBe(2);
    expect(dashboard.counts.schemes.count).toBe(2);
    expect(dashboard.counts.accounts.count).toBe(2);
    // The requests still to be answered, as their lists answer them, the earliest due first.
    const open = await readJson(admin, '/api/data-requests?status=open');
    const extended = await readJson(admin, '/api/data-requests?status=extended');
    expect(dashboard.dataRequests).toEqual({
      items: [...open.items, ...extended.items],
      more: false,
    });
    expect(dashboard.dataRequests.items.map((item: { id: string }) => item.id)).toEqual([
      requests[1],
      requests[0],
    ]);
  });

  it('leaves out what the person may not read, and counts only what they reach', async () => {
    const { payroll } = await schemeFixture(t.database, {
      members: 1,
      users: { payroll: 'EmployerUser' },
    });
    const dashboard = await readJson(payroll, '/api/overview/dashboard');
    expect(dashboard.counts.accounts).toBeNull();
    expect(dashboard.counts.employers).toEqual({ count: 1, complete: true });
    expect(dashboard.counts.schemes).toEqual({ count: 1, complete: true });
    for (const [part, route] of [
      ['governance', '/api/compliance/dashboard'],
      ['autoEnrolment', '/api/auto-enrolment/overview'],
      ['recentActivity', '/api/audit?limit=8'],
      ['dataRequests', '/api/data-requests'],
    ] as const) {
      const own = await t.requestAs(payroll, 'GET', route);
      if (own.statusCode === 403) expect(dashboard[part], part).toBeNull();
      else expect(dashboard[part], part).not.toBeNull();
    }
  });
});
