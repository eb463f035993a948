import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, dataBreaches } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';

/**
 * The personal-data breach register through the API
 * (docs/decisions/0138-personal-data-breaches.md), on a clock that stands still on Saturday
 * 10 January 2026 at 09:00 UTC (Irish winter time is UTC).
 */
const standing = new Date('2026-01-10T09:00:00Z');
let clock = standing;
let t: TestApp;
let admin: UserRow;
let consultant: UserRow;
let otherAdmin: UserRow;
let employerAdmin: UserRow;
let schemeId: string;

const breach = {
  title: 'Statements posted to the wrong members',
  description: 'Annual statements went to other members of the scheme.',
  // A Friday, 10:15.
  becameAwareAt: '2026-01-09T10:15:00Z',
  occurredAt: '2026-01-08T16:00:00Z',
  categoriesOfData: ['identity', 'financial'],
  approximateMembers: 14,
  riskToPeople: 'risk',
};

const post = (url: string, body: object, user: UserRow = admin) =>
  t.requestAs(user, 'POST', url, body);
const count = async () => (await ownerOf(t.database).select().from(dataBreaches)).length;
const refusal = (path: string) => ({
  error: 'Validation failed',
  issues: expect.arrayContaining([expect.objectContaining({ path })]),
});

async function recorded(overrides: object = {}, user: UserRow = admin) {
  const response = await post('/api/data-breaches', { ...breach, ...overrides }, user);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; status: string };
}

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore(), now: () => clock });
  const brokerId = await createBroker(t.database, 'Shannon Pensions');
  const employerId = await createEmployer(t.database, brokerId, 'Corrib Foods Ltd');
  schemeId = await createScheme(t.database, { id: employerId, brokerId });
  admin = await createUser(t.database, { brokerId, role: 'BrokerAdmin' });
  consultant = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  employerAdmin = await createUser(t.database, { brokerId, employerId, role: 'EmployerAdmin' });
  const otherTenant = await createBroker(t.database, 'Liffey Brokers');
  otherAdmin = await createUser(t.database, { brokerId: otherTenant, role: 'BrokerAdmin' });
});
afterAll(() => t.close());

describe('recording a breach', () => {
  it('answers the deadline to the minute: aware 10:15 on a Friday, due 10:15 on the Monday', async () => {
    const response = await post(
      '/api/data-breaches',
      { ...breach, schemeIds: [schemeId] },
      consultant,
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      becameAwareAt: '2026-01-09T10:15:00.000Z',
      dpcDeadlineAt: '2026-01-12T10:15:00.000Z',
      dpcNotifiable: true,
      membersToBeTold: false,
      status: 'open',
      schemeIds: [schemeId],
      // From Saturday 09:00 to Monday 10:15: 49 hours and 15 minutes.
      clock: {
        running: true,
        hoursLeft: 49,
        overdue: false,
        hoursOverdue: 0,
        words: '49 hours left to notify the Data Protection Commission',
      },
    });
  });

  it('tells the people affected only when the risk is high, and the Commission unless unlikely', async () => {
    expect(await recorded({ riskToPeople: 'high' })).toMatchObject({
      dpcNotifiable: true,
      membersToBeTold: true,
    });
    expect(await recorded({ riskToPeople: 'unlikely' })).toMatchObject({
      dpcNotifiable: false,
      membersToBeTold: false,
      clock: { running: false, overdue: false },
    });
  });

  it('refuses bad input with a 400 on its field and writes nothing', async () => {
    const before = await count();
    const cases: Array<[object, string]> = [
      [{ becameAwareAt: '2026-01-10T09:01:00Z' }, 'becameAwareAt'],
      [{ becameAwareAt: 'Friday' }, 'becameAwareAt'],
      [{ occurredAt: '2026-01-09T10:16:00Z' }, 'occurredAt'],
      [{ categoriesOfData: [] }, 'categoriesOfData'],
      [{ categoriesOfData: ['shoe_size'] }, 'categoriesOfData.0'],
      [{ approximateMembers: 1.5 }, 'approximateMembers'],
      [{ riskToPeople: 'medium' }, 'riskToPeople'],
      [{ title: '' }, 'title'],
      [{ schemeIds: ['k1nosuchscheme000000001'] }, 'schemeIds'],
    ];
    for (const [overrides, path] of cases) {
      const response = await post('/api/data-breaches', { ...breach, ...overrides });
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json()).toEqual(refusal(path));
    }
    expect(await count()).toBe(before);
  });

  it('is not for an employer, and keeps no free text in the audit log', async () => {
    const refused = await post('/api/data-breaches', breach, employerAdmin);
    expect(refused.statusCode).toBe(403);
    const { id } = await recorded({ title: 'Laptop left on the Luas' });
    const [entry] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, id));
    expect(entry?.action).toBe('data_breach.recorded');
    const states = JSON.stringify(entry);
    expect(states).not.toContain('Luas');
    expect(states).not.toContain(breach.description);
  });
});

describe('reading the register', () => {
  it('lists the firm’s breaches newest first, and another firm’s breach is not found', async () => {
    // The newest of the register, a second apart; then the clock set back.
    clock = new Date(standing.getTime() + 1_000);
    const first = await recorded();
    clock = new Date(standing.getTime() + 2_000);
    const second = await recorded();
    clock = standing;
    const list = await t.requestAs(consultant, 'GET', '/api/data-breaches?limit=2');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().items.map((item: { id: string }) => item.id)).toEqual([second.id, first.id]);
    expect(list.json().nextCursor).not.toBeNull();
    const one = await t.requestAs(consultant, 'GET', `/api/data-breaches/${first.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().id).toBe(first.id);
    for (const [method, url, body] of [
      ['GET', `/api/data-breaches/${first.id}`, undefined],
      ['PATCH', `/api/data-breaches/${first.id}`, { approximateMembers: 1 }],
      ['POST', `/api/data-breaches/${first.id}/notify-dpc`, { notifiedAt: '2026-01-10T08:00:00Z' }],
      ['POST', `/api/data-breaches/${first.id}/close`, { outcome: 'Done' }],
    ] as const) {
      const response = await t.requestAs(otherAdmin, method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    const others = await t.requestAs(otherAdmin, 'GET', '/api/data-breaches');
    expect(others.json().items).toEqual([]);
  });
});

describe('the assessment', () => {
  it('changes while open, a 400 writing nothing on a bad field, and not once closed', async () => {
    const { id } = await recorded({ riskToPeople: 'unlikely' });
    const changed = await t.requestAs(admin, 'PATCH', `/api/data-breaches/${id}`, {
      approximateMembers: 20,
      riskToPeople: 'high',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ approximateMembers: 20, membersToBeTold: true });
    const bad = await t.requestAs(admin, 'PATCH', `/api/data-breaches/${id}`, {
      occurredAt: '2026-01-09T11:00:00Z',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual(refusal('occurredAt'));
    const byConsultant = await t.requestAs(consultant, 'PATCH', `/api/data-breaches/${id}`, {
      approximateMembers: 2,
    });
    expect(byConsultant.statusCode).toBe(403);
    const [row] = await ownerOf(t.database)
      .select()
      .from(dataBreaches)
      .where(eq(dataBreaches.id, id));
    expect(row?.approximateMembers).toBe(20);
  });
});

describe('notifying the Commission, telling the people and closing', () => {
  it('refuses a notification after the deadline without the reasons for the delay, and takes it with them', async () => {
    // Aware on Tuesday 6 January at 08:00: due Friday 9 January at 08:00.
    const { id } = await recorded({ becameAwareAt: '2026-01-06T08:00:00Z', occurredAt: null });
    const late = { notifiedAt: '2026-01-09T08:01:00Z', reference: 'BN-1' };
    const refused = await post(`/api/data-breaches/${id}/notify-dpc`, late);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(refusal('delayReason'));
    const [row] = await ownerOf(t.database)
      .select()
      .from(dataBreaches)
      .where(eq(dataBreaches.id, id));
    expect(row?.dpcNotifiedAt).toBeNull();
    const accepted = await post(`/api/data-breaches/${id}/notify-dpc`, {
      ...late,
      delayReason: 'The extent was only established on Friday morning',
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({
      status: 'notified',
      dpcReference: 'BN-1',
      clock: { running: false, overdue: true, hoursOverdue: 0 },
    });
    const again = await post(`/api/data-breaches/${id}/notify-dpc`, late);
    expect(again.statusCode).toBe(409);
  });

  it('takes a notification at the deadline itself without a reason; refuses one in the future or before awareness', async () => {
    const { id } = await recorded({ becameAwareAt: '2026-01-06T08:00:00Z', occurredAt: null });
    for (const [notifiedAt, path] of [
      ['2026-01-10T09:00:01Z', 'notifiedAt'],
      ['2026-01-06T07:59:00Z', 'notifiedAt'],
    ] as const) {
      const response = await post(`/api/data-breaches/${id}/notify-dpc`, { notifiedAt });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(refusal(path));
    }
    const onTime = await post(`/api/data-breaches/${id}/notify-dpc`, {
      notifiedAt: '2026-01-09T08:00:00Z',
    });
    expect(onTime.statusCode, onTime.body).toBe(200);
    expect(onTime.json().clock).toMatchObject({ overdue: false, hoursLeft: 0 });
  });

  it('refuses to close a notifiable breach not yet notified, saying why; closes it once notified', async () => {
    const { id } = await recorded({ riskToPeople: 'high' });
    const refused = await post(`/api/data-breaches/${id}/close`, { outcome: 'Contained' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(/notification to the Data Protection Commission/);
    const told = await post(`/api/data-breaches/${id}/members-told`, {
      toldAt: '2026-01-10T08:30:00Z',
      how: 'A letter to each',
    });
    expect(told.statusCode, told.body).toBe(200);
    expect(told.json().membersToldAt).toBe('2026-01-10T08:30:00.000Z');
    const badTold = await post(`/api/data-breaches/${id}/members-told`, {
      toldAt: 'soon',
      how: '',
    });
    expect(badTold.statusCode).toBe(400);
    await post(`/api/data-breaches/${id}/notify-dpc`, { notifiedAt: '2026-01-10T08:00:00Z' });
    const closed = await post(`/api/data-breaches/${id}/close`, { outcome: 'Contained' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({ status: 'closed', outcome: 'Contained' });
    const patched = await t.requestAs(admin, 'PATCH', `/api/data-breaches/${id}`, { title: 'x' });
    expect(patched.statusCode).toBe(409);
  });

  it('closes a breach unlikely to risk people with its reasons, and refuses a blank outcome', async () => {
    const { id } = await recorded({ riskToPeople: 'unlikely' });
    const blank = await post(`/api/data-breaches/${id}/close`, { outcome: ' ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual(refusal('outcome'));
    const closed = await post(`/api/data-breaches/${id}/close`, {
      outcome: 'The file was encrypted and the key was not lost: unlikely to risk anyone',
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json().status).toBe('closed');
  });
});
