import { createId } from '@paralleldrive/cuid2';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { ownerOf } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createUser,
  TEST_PASSWORD,
  type UserRow,
} from '../helpers/factories.js';
import { readOutbox } from '../helpers/mail.js';

/**
 * Issue 13, defect 7: a BrokerAdmin creating an account cannot tell whether the address already
 * has one outside their reach; its holder is told by e-mail instead.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const as = async (user: UserRow, url: string, payload: object) =>
  t.app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress: uniqueClientAddress(),
    headers: { authorization: `Bearer ${await t.tokenFor(user)}` },
  });

async function firm(name: string) {
  const brokerId = await createBroker(t.database, name);
  const employerId = await createEmployer(t.database, brokerId);
  const admin = await createUser(t.database, { brokerId, role: 'BrokerAdmin' });
  return { brokerId, employerId, admin };
}

const userRow = async (id: string) =>
  (await ownerOf(t.database).select().from(users).where(eq(users.id, id)))[0];

/** Everything of an answer a client can observe, with the values that differ per call masked. */
function shapeOf(response: Awaited<ReturnType<typeof as>>) {
  const {
    date: _date,
    'x-request-id': _requestId,
    'content-length': _length,
    ...headers
  } = response.headers;
  const body = response.json() as Record<string, unknown>;
  const csp = String(headers['content-security-policy']).replaceAll(/'nonce-[^']+'/g, 'nonce');
  return {
    status: response.statusCode,
    headers: { ...headers, 'content-security-policy': csp },
    keys: Object.keys(body).sort(),
    types: Object.fromEntries(Object.entries(body).map(([key, value]) => [key, typeof value])),
    body: { ...body, id: typeof body.id, email: typeof body.email, createdAt: 0, updatedAt: 0 },
  };
}

describe('creating an account for an address held outside the actor’s reach (issue 13, defect 7)', () => {
  for (const password of [undefined, 'a sufficiently long passphrase']) {
    const how = password ? 'with a chosen password' : 'with an e-mailed link';
    it(`answers exactly as for a new address (status, headers, body shape) ${how}`, async () => {
      const mine = await firm('Murphy & Byrne Brokers');
      const elsewhere = await firm('Liffey Pensions');
      const holder = await createUser(t.database, {
        brokerId: elsewhere.brokerId,
        employerId: elsewhere.employerId,
        role: 'EmployerUser',
      });
      const create = (email: string) =>
        as(mine.admin, `/api/employers/${mine.employerId}/users`, {
          email,
          name: 'Niamh Walsh',
          role: 'EmployerUser',
          ...(password ? { password } : {}),
        });
      const fresh = await create(`new-${createId()}@example.ie`);
      const taken = await create(holder.email.toUpperCase());
      expect(fresh.statusCode).toBe(201);
      expect(shapeOf(taken)).toEqual(shapeOf(fresh));
      // The id answered names nothing: it is not the holder's, nor any account's.
      expect(taken.json().id).not.toBe(holder.id);
      expect(await userRow(taken.json().id)).toBeUndefined();
    });
  }

  it("leaves the other firm's account exactly as it was", async () => {
    const mine = await firm('Murphy & Byrne Brokers');
    const elsewhere = await firm('Liffey Pensions');
    const holder = await createUser(t.database, { brokerId: elsewhere.brokerId });
    const before = await userRow(holder.id);
    const answer = await as(mine.admin, `/api/employers/${mine.employerId}/users`, {
      email: holder.email,
      name: 'Somebody Else',
      role: 'EmployerAdmin',
      password: 'a sufficiently long passphrase',
    });
    expect(answer.statusCode).toBe(201);
    expect(await userRow(holder.id)).toEqual(before);
    // The password the other firm chose does not open the holder's account.
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      remoteAddress: uniqueClientAddress(),
      payload: { email: holder.email, password: 'a sufficiently long passphrase' },
    });
    expect(signIn.statusCode).toBe(401);
    const own = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      remoteAddress: uniqueClientAddress(),
      payload: { email: holder.email, password: TEST_PASSWORD },
    });
    expect(own.statusCode).toBe(200);
  });

  it('tells the holder of the address by e-mail, naming the firm, and sends the actor nothing', async () => {
    const mine = await firm('Murphy & Byrne Brokers');
    const elsewhere = await firm('Liffey Pensions');
    const holder = await createUser(t.database, { brokerId: elsewhere.brokerId });
    const outboxBefore = (await readOutbox(t.database, t.config)).length;
    const answer = await as(mine.admin, `/api/employers/${mine.employerId}/users`, {
      email: holder.email,
      name: 'Somebody Else',
      role: 'EmployerUser',
    });
    expect(answer.statusCode).toBe(201);
    const queued = (await readOutbox(t.database, t.config)).slice(outboxBefore);
    expect(queued).toHaveLength(1);
    const [notice] = queued;
    expect(notice).toMatchObject({
      kind: 'account_offered',
      userId: holder.id,
      brokerId: elsewhere.brokerId,
    });
    expect(notice?.message?.to).toBe(holder.email);
    expect(notice?.message?.text).toContain('Murphy & Byrne Brokers');
    // No reset link: the notice gives no way into any account.
    expect(notice?.message?.text).not.toMatch(/reset-password/);
    expect(queued.some((row) => row.message?.to === mine.admin.email)).toBe(false);
    expect(t.logs.text()).not.toContain(holder.email);
  });

  it('still answers 409 for an address already in use within the actor’s own firm, which they can see', async () => {
    const mine = await firm('Murphy & Byrne Brokers');
    const colleague = await createUser(t.database, {
      brokerId: mine.brokerId,
      role: 'BrokerUser',
    });
    const answer = await as(mine.admin, `/api/employers/${mine.employerId}/users`, {
      email: colleague.email,
      name: 'Duplicate',
      role: 'EmployerUser',
    });
    expect(answer.statusCode).toBe(409);
  });
});
