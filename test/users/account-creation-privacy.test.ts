import { createId } from '@paralleldrive/cuid2';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { HOLD_MAIL } from '../helpers/config.js';
import { ownerOf } from '../helpers/database.js';
import { createUser, TEST_PASSWORD, type UserRow } from '../helpers/factories.js';
import { firmFixture } from '../helpers/fixtures.js';
import { readOutbox } from '../helpers/mail.js';

/**
 * A BrokerAdmin inviting an address cannot tell, then or later, whether it already has an
 * account outside their reach; its holder is told by e-mail instead
 * (docs/decisions/0044-invitations.md).
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: HOLD_MAIL });
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

const firm = (name: string) =>
  firmFixture(t.database, { brokerName: name, users: { admin: 'BrokerAdmin' } });

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
    body: {
      ...body,
      id: typeof body.id,
      email: typeof body.email,
      invitedUntil: typeof body.invitedUntil,
      createdAt: 0,
      updatedAt: 0,
    },
  };
}

const read = async (user: UserRow, url: string) =>
  t.app.inject({
    method: 'GET',
    url,
    remoteAddress: uniqueClientAddress(),
    headers: { authorization: `Bearer ${await t.tokenFor(user)}` },
  });

describe('inviting an address held outside the actor’s reach', () => {
  it('answers, lists, reads and resends exactly as for a new address', async () => {
    const mine = await firm('Murphy & Byrne Brokers');
    const elsewhere = await firm('Liffey Pensions');
    const holder = await createUser(t.database, {
      brokerId: elsewhere.brokerId,
      employerId: elsewhere.employerId,
      role: 'EmployerUser',
    });
    const invite = (email: string) =>
      as(mine.admin, `/api/employers/${mine.employerId}/users`, {
        email,
        name: 'Niamh Walsh',
        role: 'EmployerUser',
      });
    const fresh = await invite(`new-${createId()}@example.ie`);
    const taken = await invite(holder.email.toUpperCase());
    expect(fresh.statusCode).toBe(201);
    expect(shapeOf(taken)).toEqual(shapeOf(fresh));
    expect(taken.json()).toMatchObject({ status: 'invited' });
    expect(taken.json().id).not.toBe(holder.id);

    // Afterwards too: both are "Invited" entries of the firm, read, listed and resent alike.
    const [freshId, takenId] = [fresh.json().id as string, taken.json().id as string];
    expect(shapeOf(await read(mine.admin, `/api/users/${takenId}`))).toEqual(
      shapeOf(await read(mine.admin, `/api/users/${freshId}`)),
    );
    const listed = (await read(mine.admin, `/api/employers/${mine.employerId}/users`)).json()
      .items as Array<{ id: string; status: string }>;
    const statuses = Object.fromEntries(listed.map((user) => [user.id, user.status]));
    expect([statuses[freshId], statuses[takenId]]).toEqual(['invited', 'invited']);
    const resentFresh = await as(mine.admin, `/api/users/${freshId}/invitation`, {});
    const resentTaken = await as(mine.admin, `/api/users/${takenId}/invitation`, {});
    expect(shapeOf(resentTaken)).toEqual(shapeOf(resentFresh));
  });

  it("leaves the other firm's account exactly as it was, signing in as before", async () => {
    const mine = await firm('Murphy & Byrne Brokers');
    const elsewhere = await firm('Liffey Pensions');
    const holder = await createUser(t.database, { brokerId: elsewhere.brokerId });
    const before = await userRow(holder.id);
    const answer = await as(mine.admin, `/api/employers/${mine.employerId}/users`, {
      email: holder.email,
      name: 'Somebody Else',
      role: 'EmployerAdmin',
    });
    expect(answer.statusCode).toBe(201);
    expect(await userRow(holder.id)).toEqual(before);
    const own = await t.app.inject({
      method: 'POST',
      url: '/api/auth/signin',
      remoteAddress: uniqueClientAddress(),
      payload: { email: holder.email, password: TEST_PASSWORD },
    });
    expect(own.statusCode).toBe(200);
    expect(own.json().user.id).toBe(holder.id);
  });

  it('tells the holder by e-mail, naming the firm, and sends no invitation link to anyone', async () => {
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
    await as(mine.admin, `/api/users/${answer.json().id}/invitation`, {});
    const queued = (await readOutbox(t.database, t.config)).slice(outboxBefore);
    expect(queued).toHaveLength(2);
    for (const notice of queued) {
      expect(notice).toMatchObject({
        kind: 'account_offered',
        userId: holder.id,
        brokerId: elsewhere.brokerId,
      });
      expect(notice.message?.to).toBe(holder.email);
      expect(notice.message?.text).toContain('Murphy & Byrne Brokers');
      // No link: the notice gives no way into any account.
      expect(notice.message?.text).not.toMatch(/reset-password|accept-invitation/);
    }
    expect(t.logs.text()).not.toContain(holder.email);
  });

  it('still answers 409 for an address already in use within the actor’s own firm, which they can see', async () => {
    const mine = await firm('Murphy & Byrne Brokers');
    const colleague = await createUser(t.database, {
      brokerId: mine.brokerId,
      role: 'BrokerUser',
    });
    for (const url of [`/api/employers/${mine.employerId}/users`, '/api/users']) {
      const answer = await as(mine.admin, url, {
        email: colleague.email,
        name: 'Duplicate',
        role: url === '/api/users' ? 'BrokerUser' : 'EmployerUser',
      });
      expect(answer.statusCode).toBe(409);
    }
  });
});
