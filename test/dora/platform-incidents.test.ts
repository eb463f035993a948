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
 * An incident of the platform itself (docs/decisions/0139-dora-ict-incidents.md): its operator
 * records it once, and it appears, pre-filled, in the register of every firm it reached, and in
 * no other.
 */
let t: TestApp;
let operator: UserRow;
const firms: Record<'a' | 'b' | 'c', { brokerId: string; schemeId: string; admin: UserRow }> =
  {} as never;

const outage = {
  title: 'Platform outage',
  description: 'The platform answered with errors for two hours after a failed database upgrade.',
  detectedAt: '2026-01-09T08:10:00Z',
  becameAwareAt: '2026-01-09T08:15:00Z',
  servicesAffected: ['member_records', 'member_portal'],
};

type View = {
  id: string;
  brokerId: string | null;
  platformIncidentId: string | null;
  affectedBrokerIds: string[];
  schemeIds: string[];
  title: string;
};

const listOf = async (user: UserRow) =>
  (await t.requestAs(user, 'GET', '/api/ict-incidents')).json().items as View[];

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore() });
  operator = await createUser(t.database, { role: 'SuperAdmin' });
  for (const key of ['a', 'b', 'c'] as const) {
    const brokerId = await createBroker(t.database, `Firm ${key.toUpperCase()}`);
    const employerId = await createEmployer(t.database, brokerId, `Employer ${key}`);
    const schemeId = await createScheme(t.database, { id: employerId, brokerId });
    const admin = await createUser(t.database, { brokerId, role: 'BrokerAdmin' });
    firms[key] = { brokerId, schemeId, admin };
  }
});
afterAll(() => t.close());

describe('a platform incident', () => {
  let platformId: string;

  it('reaches the firm named and the firm of the scheme named, and not a third', async () => {
    const response = await t.requestAs(operator, 'POST', '/api/ict-incidents', {
      ...outage,
      brokerIds: [firms.a.brokerId],
      schemeIds: [firms.b.schemeId],
    });
    expect(response.statusCode, response.body).toBe(201);
    const view = response.json() as View;
    platformId = view.id;
    expect(view).toMatchObject({
      brokerId: null,
      platformIncidentId: view.id,
      affectedBrokerIds: [firms.a.brokerId, firms.b.brokerId],
    });

    const [inA] = await listOf(firms.a.admin);
    const [inB] = await listOf(firms.b.admin);
    expect(inA).toMatchObject({
      brokerId: firms.a.brokerId,
      platformIncidentId: platformId,
      title: 'Platform outage',
      schemeIds: [],
      affectedBrokerIds: [firms.a.brokerId],
    });
    expect(inB).toMatchObject({
      brokerId: firms.b.brokerId,
      platformIncidentId: platformId,
      schemeIds: [firms.b.schemeId],
    });
    expect(await listOf(firms.c.admin)).toEqual([]);
  });

  it('leaves nothing of one firm in another’s: each copy is its own firm’s only', async () => {
    const [inA] = await listOf(firms.a.admin);
    const [inB] = await listOf(firms.b.admin);
    for (const [reader, other] of [
      [firms.a.admin, inB],
      [firms.b.admin, inA],
      [firms.c.admin, inA],
    ] as const) {
      const read = await t.requestAs(reader, 'GET', `/api/ict-incidents/${other?.id}`);
      expect(read.statusCode).toBe(404);
    }
    expect(JSON.stringify(inA)).not.toContain(firms.b.brokerId);
    expect(JSON.stringify(inA)).not.toContain(firms.b.schemeId);
    expect(JSON.stringify(inB)).not.toContain(firms.a.brokerId);
  });

  it('is classified by each firm for itself: one firm’s classification leaves the other’s copy as it was', async () => {
    const [inA] = await listOf(firms.a.admin);
    const classified = await t.requestAs(
      firms.a.admin,
      'POST',
      `/api/ict-incidents/${inA?.id}/classify`,
      {
        criteria: {
          criticalServicesAffected: true,
          membersAffected: 50,
          membersOfService: 100,
          relevantMembersAffected: false,
          reputationalImpact: false,
          durationHours: 2,
          downtimeHours: 2.5,
          memberStatesAffected: 1,
          dataLosses: false,
          economicImpactCents: 0,
        },
        major: true,
      },
    );
    expect(classified.statusCode, classified.body).toBe(200);
    const [inB] = await listOf(firms.b.admin);
    expect((inB as unknown as { classification: unknown }).classification).toBeNull();
  });

  it('is listed and read by the platform’s staff as its own record', async () => {
    const listed = await listOf(operator);
    expect(listed.map((item) => item.id)).toContain(platformId);
    const read = await t.requestAs(operator, 'GET', `/api/ict-incidents/${platformId}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().affectedBrokerIds).toEqual([firms.a.brokerId, firms.b.brokerId]);
  });

  it('refuses a firm that does not exist, writing nothing', async () => {
    const before = await writableTableCounts(t.database);
    const response = await t.requestAs(operator, 'POST', '/api/ict-incidents', {
      ...outage,
      brokerIds: [firms.a.brokerId, 'k1nosuchfirm000000000000'],
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().issues[0].path).toBe('brokerIds');
    expect(await writableTableCounts(t.database)).toEqual(before);
  });
});
