import { createId } from '@paralleldrive/cuid2';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/platform/db/database.js';
import { openPostgres } from '../../src/server/platform/db/postgres.js';
import { runtimeDatabaseUrl } from '../../src/server/platform/db/runtime-login.js';
import { members, schemes, users } from '../../src/server/platform/db/schema.js';
import { withActor } from '../../src/server/platform/db/with-actor.js';
import { platformActor } from '../helpers/actors.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { onPostgres, openTestDatabase, ownerOf, type TestDatabase } from '../helpers/database.js';
import {
  createEmployer,
  createMember,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';
import { newPpsNumber } from '../helpers/pps.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';

/**
 * An authenticated request's session check, role, tenant and first statement travel together,
 * and nothing is weakened by it (docs/decisions/0060-request-path-one-round-trip.md).
 */

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.dispose());

interface Firm {
  brokerId: string;
  employerId: string;
  schemeId: string;
  admin: UserRow;
  employerUser: UserRow;
}

async function firm(database: Database): Promise<Firm> {
  const admin = await createUser(database, { role: 'BrokerAdmin' });
  const brokerId = admin.brokerId as string;
  const employerId = await createEmployer(database, brokerId);
  const schemeId = await createScheme(database, { id: employerId, brokerId });
  await createMember(database, { brokerId, employerId, schemeId });
  const employerUser = await createUser(database, { role: 'EmployerUser', brokerId, employerId });
  return { brokerId, employerId, schemeId, admin, employerUser };
}

function memberBody() {
  return {
    firstName: 'Siobhán',
    lastName: 'Kelly',
    dateOfBirth: '1980-02-03',
    dateJoined: '2020-01-01',
    salaryCents: 4_000_000,
    ppsNumber: newPpsNumber(),
  };
}

/** A database opened as the service opens it, with its pool of `poolSize` behind `port`. */
async function openThrough(port: number, poolSize: number): Promise<Database> {
  const owner = t.url as string;
  const proxied = new URL(runtimeDatabaseUrl(owner, owner, process.env.DATABASE_RUNTIME_PASSWORD));
  proxied.hostname = '127.0.0.1';
  proxied.port = String(port);
  return openPostgres(proxied.toString(), owner, poolSize);
}

describe('a pool of one connection serving interleaved tenants and roles', () => {
  let app: TestApp;
  let database: Database;
  let firms: Firm[];
  let tokens: Map<string, string>;

  beforeAll(async () => {
    if (onPostgres) {
      const target = new URL(t.url as string);
      const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
      database = await openThrough(proxy.port, 1);
    } else {
      database = t.database; // PGlite is one connection already
    }
    firms = [await firm(database), await firm(database)];
    app = await buildTestApp({ database });
    tokens = new Map();
    for (const f of firms) {
      for (const user of [f.admin, f.employerUser]) tokens.set(user.id, await app.tokenFor(user));
    }
  });
  afterAll(async () => {
    await app.close();
    if (onPostgres) await database.close();
  });

  const get = (user: UserRow, url: string) =>
    app.app.inject({
      method: 'GET',
      url,
      remoteAddress: uniqueClientAddress(),
      headers: { authorization: `Bearer ${tokens.get(user.id)}` },
    });

  it('answers each request with its own tenant’s rows only, also right after a failed statement', async () => {
    const [a, b] = firms as [Firm, Firm];
    const requests: Array<() => Promise<void>> = [];
    for (let round = 0; round < 6; round += 1) {
      for (const [own, other] of [
        [a, b],
        [b, a],
      ] as const) {
        for (const user of [own.admin, own.employerUser]) {
          requests.push(async () => {
            const list = await get(user, '/api/schemes');
            expect(list.statusCode).toBe(200);
            const ids = (list.json() as { items: { id: string; brokerId: string }[] }).items;
            expect(ids.map((row) => row.brokerId)).toEqual(ids.map(() => own.brokerId));
            expect(ids.map((row) => row.id)).toContain(own.schemeId);
            expect((await get(user, `/api/schemes/${own.schemeId}`)).statusCode).toBe(200);
            expect((await get(user, `/api/schemes/${other.schemeId}`)).statusCode).toBe(404);
            const members = await get(user, `/api/schemes/${own.schemeId}/members`);
            expect(members.statusCode).toBe(200);
            for (const row of (members.json() as { items: { brokerId: string }[] }).items) {
              expect(row.brokerId).toBe(own.brokerId);
            }
          });
        }
      }
      // A statement that fails inside a write (a second member with the same PPS number in
      // one scheme breaks a unique key) between the reads, on the same single connection.
      requests.push(async () => {
        const body = memberBody();
        const url = `/api/schemes/${a.schemeId}/members`;
        const headers = { authorization: `Bearer ${tokens.get(a.admin.id)}` };
        const first = await app.app.inject({ method: 'POST', url, payload: body, headers });
        expect(first.statusCode).toBe(201);
        const again = await app.app.inject({ method: 'POST', url, payload: body, headers });
        expect(again.statusCode).toBe(409);
      });
    }
    // Interleaved: all in flight at once, queued on the one connection in turn.
    await Promise.all(requests.map((request) => request()));
    // And the connection carries no role or tenant of theirs afterwards.
    if (onPostgres) {
      const [row] = await withActor(database, platformActor(), (tx) =>
        tx.select({ id: schemes.id }).from(schemes).where(eq(schemes.id, a.schemeId)),
      );
      expect(row?.id).toBe(a.schemeId);
    }
  });

  it('refuses a deactivated user on the very next request, whichever connection serves it', async () => {
    const f = await firm(database);
    const token = await app.tokenFor(f.employerUser);
    const headers = { authorization: `Bearer ${token}` };
    const url = `/api/schemes/${f.schemeId}`;
    expect((await app.app.inject({ method: 'GET', url, headers })).statusCode).toBe(200);
    expect((await app.app.inject({ method: 'GET', url, headers })).statusCode).toBe(200);
    await withActor(database, platformActor(), (tx) =>
      tx.update(users).set({ status: 'deactivated' }).where(eq(users.id, f.employerUser.id)),
    );
    const after = await app.app.inject({ method: 'GET', url, headers });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ error: 'Unauthorized' });
    // So is a request the policy table would refuse before any transaction (403 otherwise).
    const write = await app.app.inject({
      method: 'POST',
      url: `/api/schemes/${f.schemeId}/members`,
      payload: memberBody(),
      headers,
    });
    expect(write.statusCode).toBe(401);
  });
});

describe('a prepared read on a connection new to it', () => {
  // The by-id finders are prepared statements on a server (src/server/platform/db/prepared.ts): the first
  // request on a connection that needs one sends its preparation in the same batch as the session
  // check. A refused check aborts that batch, preparation included; the next request on the same
  // connection must prepare it again, not take it for prepared.
  it('is prepared again after its first preparation went down with a refused session', async () => {
    const f = await firm(t.database);
    let database = t.database;
    let proxy: Awaited<ReturnType<typeof startTcpProxy>> | undefined;
    if (onPostgres) {
      const target = new URL(t.url as string);
      proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
      database = await openThrough(proxy.port, 1);
    }
    const app = await buildTestApp({ database });
    try {
      const as = async (user: UserRow) => ({
        authorization: `Bearer ${await app.tokenFor(user)}`,
      });
      const employerUser = await as(f.employerUser);
      const admin = await as(f.admin);
      // Both sessions confirmed by this instance through a read that is not prepared.
      for (const headers of [employerUser, admin]) {
        const list = await app.app.inject({ method: 'GET', url: '/api/schemes', headers });
        expect(list.statusCode).toBe(200);
      }
      await withActor(t.database, platformActor(), (tx) =>
        tx.update(users).set({ status: 'deactivated' }).where(eq(users.id, f.employerUser.id)),
      );
      const url = `/api/schemes/${f.schemeId}`;
      const refused = await app.app.inject({ method: 'GET', url, headers: employerUser });
      expect(refused.statusCode).toBe(401);
      const read = await app.app.inject({ method: 'GET', url, headers: admin });
      expect(read.statusCode).toBe(200);
      expect(read.json()).toMatchObject({ id: f.schemeId, brokerId: f.brokerId });
      const again = await app.app.inject({ method: 'GET', url, headers: admin });
      expect(again.json()).toMatchObject({ id: f.schemeId, brokerId: f.brokerId });
    } finally {
      await app.close();
      if (onPostgres) {
        await database.close();
        await proxy?.stop();
      }
    }
  });
});

describe.runIf(onPostgres)('round trips per request, counted on the wire (PostgreSQL)', () => {
  let app: TestApp;
  let database: Database;
  let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
  let f: Firm;
  let token: string;
  let memberId: string;

  beforeAll(async () => {
    const target = new URL(t.url as string);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    database = await openThrough(proxy.port, 2);
    f = await firm(database);
    app = await buildTestApp({ database });
    token = await app.tokenFor(f.admin);
    const created = await send('POST', `/api/schemes/${f.schemeId}/members`, memberBody());
    memberId = (created.json() as { id: string }).id;
  });
  afterAll(async () => {
    await app.close();
    await database.close();
    await proxy.stop();
  });

  async function send(method: 'GET' | 'POST', url: string, payload?: object) {
    const response = await app.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      remoteAddress: uniqueClientAddress(),
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.statusCode).toBeLessThan(300);
    return response;
  }

  /** Round trips of one request, its session already confirmed once by this instance. */
  async function roundTripsOf(method: 'GET' | 'POST', url: string, payload?: () => object) {
    await send(method, url, payload?.());
    proxy.resetRoundTrips();
    await send(method, url, payload?.());
    return proxy.roundTrips;
  }

  it('GET /api/schemes/:id: one', async () => {
    expect(await roundTripsOf('GET', `/api/schemes/${f.schemeId}`)).toBe(1);
  });

  it('GET /api/schemes/:id/members: one per statement its work needs, nothing more', async () => {
    expect(await roundTripsOf('GET', `/api/schemes/${f.schemeId}/members`)).toBe(2);
  });

  it('GET /api/members/:id: one', async () => {
    expect(await roundTripsOf('GET', `/api/members/${memberId}`)).toBe(1);
  });

  // The work's own statements depend on each other (find the scheme, look for the same PPS
  // number, insert); then the audit chain's lock and head together, and its record with COMMIT.
  it('POST /api/schemes/:id/members (with its audit record): five, one per dependent step', async () => {
    expect(await roundTripsOf('POST', `/api/schemes/${f.schemeId}/members`, memberBody)).toBe(5);
  });

  it('POST /api/members/:id/contributions (with its audit record): four, one per dependent step', async () => {
    let month = 0;
    const contribution = () => {
      month += 1;
      return { period: `2025-${String(month).padStart(2, '0')}`, kind: 'employee', amountCents: 1 };
    };
    expect(await roundTripsOf('POST', `/api/members/${memberId}/contributions`, contribution)).toBe(
      4,
    );
  });

  it('a token this instance has not confirmed yet costs one read more, once', async () => {
    token = await app.tokenFor(f.employerUser);
    proxy.resetRoundTrips();
    await send('GET', `/api/schemes/${f.schemeId}`);
    expect(proxy.roundTrips).toBe(2);
    proxy.resetRoundTrips();
    await send('GET', `/api/schemes/${f.schemeId}`);
    expect(proxy.roundTrips).toBe(1);
    token = await app.tokenFor(f.admin);
  });
});

describe.runIf(onPostgres)('revocation on two instances (PostgreSQL)', () => {
  it('deactivated through one instance, the next request on the other is 401', async () => {
    const one = await buildTestApp({ database: t.database });
    const otherDatabase = await openThrough(Number(new URL(t.url as string).port || 5432), 4);
    const other = await buildTestApp({ database: otherDatabase });
    try {
      const f = await firm(t.database);
      const adminToken = await one.tokenFor(f.admin);
      const userToken = await other.tokenFor(f.employerUser);
      const read = (token: string) =>
        other.app.inject({
          method: 'GET',
          url: `/api/schemes/${f.schemeId}`,
          remoteAddress: uniqueClientAddress(),
          headers: { authorization: `Bearer ${token}` },
        });
      // The other instance has confirmed this session before: it no longer reads the row first.
      expect((await read(userToken)).statusCode).toBe(200);
      expect((await read(userToken)).statusCode).toBe(200);
      const deactivated = await one.app.inject({
        method: 'PATCH',
        url: `/api/users/${f.employerUser.id}`,
        payload: { status: 'deactivated' },
        remoteAddress: uniqueClientAddress(),
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(deactivated.statusCode).toBe(200);
      const next = await read(userToken);
      expect(next.statusCode).toBe(401);
      expect(next.json()).toEqual({ error: 'Unauthorized' });
      // A request that answers before any transaction (403 by the policy table) is refused too.
      const forbidden = await other.app.inject({
        method: 'GET',
        url: '/api/audit',
        remoteAddress: uniqueClientAddress(),
        headers: { authorization: `Bearer ${userToken}` },
      });
      expect(forbidden.statusCode).toBe(401);
      // The admin's own session on the other instance is untouched.
      expect((await read(await other.tokenFor(f.admin))).statusCode).toBe(200);
    } finally {
      await one.close();
      await other.close();
      await otherDatabase.close();
    }
  });

  it('a session signed out on one instance is refused by the other at once', async () => {
    const one = await buildTestApp({ database: t.database });
    const otherDatabase = await openThrough(Number(new URL(t.url as string).port || 5432), 4);
    const other = await buildTestApp({ database: otherDatabase });
    try {
      const f = await firm(t.database);
      const token = await one.tokenFor(f.admin);
      const headers = { authorization: `Bearer ${token}` };
      const url = `/api/schemes/${f.schemeId}`;
      expect((await other.app.inject({ method: 'GET', url, headers })).statusCode).toBe(200);
      expect((await other.app.inject({ method: 'GET', url, headers })).statusCode).toBe(200);
      const out = await one.app.inject({ method: 'POST', url: '/api/auth/signout', headers });
      expect(out.statusCode).toBe(204);
      expect((await other.app.inject({ method: 'GET', url, headers })).statusCode).toBe(401);
      // A write is refused as well, and nothing of it is stored.
      const lastName = `Refused-${createId()}`;
      const write = await other.app.inject({
        method: 'POST',
        url: `/api/schemes/${f.schemeId}/members`,
        payload: { ...memberBody(), lastName },
        headers,
      });
      expect(write.statusCode).toBe(401);
      const stored = await ownerOf(t.database)
        .select({ id: members.id })
        .from(members)
        .where(eq(members.lastName, lastName));
      expect(stored).toEqual([]);
    } finally {
      await one.close();
      await other.close();
      await otherDatabase.close();
    }
  });
});

describe('an answer whose session cannot be checked', () => {
  it('does not leave: 503, when the database is gone before its check', async () => {
    let database: Database;
    let gone: () => Promise<void>;
    let cleanUp: () => Promise<void>;
    if (onPostgres) {
      const target = new URL(t.url as string);
      const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
      const proxied = await openThrough(proxy.port, 2);
      database = proxied;
      gone = () => proxy.stop();
      cleanUp = () => proxied.close();
    } else {
      const own = await openTestDatabase();
      database = own.database;
      gone = () => own.dispose();
      cleanUp = async () => undefined;
    }
    const app = await buildTestApp({ database });
    try {
      const f = await firm(database);
      const headers = { authorization: `Bearer ${await app.tokenFor(f.employerUser)}` };
      const url = `/api/schemes/${f.schemeId}`;
      expect((await app.app.inject({ method: 'GET', url, headers })).statusCode).toBe(200);
      await gone();
      // The policy table refuses this before any transaction: only the check reads the row.
      const answer = await app.app.inject({ method: 'GET', url: '/api/audit', headers });
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toEqual({ error: 'Service unavailable' });
    } finally {
      await app.app.close();
      await cleanUp();
    }
  });
});
