import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { verifyTestChains } from '../helpers/audit.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { HOLD_MAIL } from '../helpers/config.js';
import { createUser, TEST_PASSWORD } from '../helpers/factories.js';
import { invitationTokenIn, readOutbox } from '../helpers/mail.js';

let t: TestApp;
beforeAll(async () => {
  // The invitation is read from the outbox, so no worker may deliver (and clear) it first.
  t = await buildTestApp({ env: HOLD_MAIL });
});
afterAll(() => t.close());

interface Call {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  url: string;
  token?: string;
  payload?: object;
  headers?: Record<string, string>;
}
const call = ({ method = 'GET', url, token, payload, headers = {} }: Call) =>
  t.app.inject({
    method,
    url,
    payload,
    remoteAddress: uniqueClientAddress(),
    headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });

/** Signs in through the API and returns the session token from the cookie it sets. */
async function signIn(email: string, password: string): Promise<string> {
  const response = await call({
    method: 'POST',
    url: '/api/auth/signin',
    payload: { email, password },
  });
  expect(response.statusCode, response.body).toBe(200);
  const cookie = response.cookies.find((entry) => entry.name === 'session');
  return cookie?.value as string;
}

describe('the provisioning order, from the SuperAdmin to a scheme’s members, through the HTTP API', () => {
  it('runs end to end and leaves a complete, intact audit trail', async () => {
    const superAdmin = await createUser(t.database, { role: 'SuperAdmin' });
    const platform = await signIn(superAdmin.email, TEST_PASSWORD);

    // 1. SuperAdmin creates the broker record.
    const broker = await call({
      method: 'POST',
      url: '/api/brokers',
      token: platform,
      payload: { name: 'Fitzgerald Pension Brokers' },
    });
    expect(broker.statusCode).toBe(201);
    const brokerId = broker.json().id as string;

    // 2. SuperAdmin creates the BrokerAdmin user with that brokerId.
    const brokerAdmin = await call({
      method: 'POST',
      url: `/api/brokers/${brokerId}/users`,
      token: platform,
      payload: {
        email: 'aoife@fitzgerald.example.ie',
        name: 'Aoife Fitzgerald',
        role: 'BrokerAdmin',
        password: 'a strong passphrase for aoife',
      },
    });
    expect(brokerAdmin.statusCode).toBe(201);
    expect(brokerAdmin.json()).toMatchObject({ brokerId, role: 'BrokerAdmin', status: 'active' });
    const brokerUser = await call({
      method: 'POST',
      url: `/api/brokers/${brokerId}/users`,
      token: platform,
      payload: {
        email: 'cian@fitzgerald.example.ie',
        name: 'Cian Byrne',
        role: 'BrokerUser',
        password: 'a strong passphrase for cian',
      },
    });
    expect(brokerUser.statusCode).toBe(201);

    // 3. The BrokerAdmin logs in and receives a session token carrying brokerId.
    const admin = await signIn('aoife@fitzgerald.example.ie', 'a strong passphrase for aoife');
    expect((await call({ url: '/api/auth/session', token: admin })).json().user).toMatchObject({
      brokerId,
      role: 'BrokerAdmin',
    });

    // 4. The BrokerAdmin creates employers; brokerId comes from the actor, whatever is sent.
    const employer = await call({
      method: 'POST',
      url: '/api/employers?brokerId=someone-else',
      token: admin,
      headers: { 'x-broker-id': 'someone-else' },
      payload: { name: 'Liffey Engineering Ltd', brokerId: 'someone-else' },
    });
    expect(employer.statusCode).toBe(201);
    expect(employer.json().brokerId).toBe(brokerId);
    const employerId = employer.json().id as string;

    // 5. BrokerAdmin or BrokerUser creates schemes under employers.
    const dbScheme = await call({
      method: 'POST',
      url: '/api/schemes',
      token: admin,
      payload: { employerId, name: 'Liffey Engineering Defined Benefit Plan', type: 'DB' },
    });
    expect(dbScheme.statusCode).toBe(201);
    const consultant = await signIn('cian@fitzgerald.example.ie', 'a strong passphrase for cian');
    const dcScheme = await call({
      method: 'POST',
      url: '/api/schemes',
      token: consultant,
      payload: { employerId, name: 'Liffey Engineering DC Scheme', type: 'DC' },
    });
    expect(dcScheme.statusCode).toBe(201);
    expect(dcScheme.json()).toMatchObject({ brokerId, employerId, type: 'DC' });

    // 6. The EmployerAdmin, invited by e-mail, chooses a password and manages the schemes.
    const invited = await call({
      method: 'POST',
      url: `/api/employers/${employerId}/users`,
      token: admin,
      payload: { email: 'hr@liffey.example.ie', name: 'Niamh Walsh', role: 'EmployerAdmin' },
    });
    expect(invited.statusCode).toBe(201);
    const invitation = (await readOutbox(t.database, t.config)).find(
      (row) => row.kind === 'account_created' && row.message?.to === 'hr@liffey.example.ie',
    );
    const token = invitationTokenIn(invitation?.message?.text ?? '');
    const chosen = await call({
      method: 'POST',
      url: '/api/auth/accept-invitation',
      payload: { token, password: 'niamh chooses her own passphrase' },
    });
    expect(chosen.statusCode).toBe(200);
    // Accepting signs the person in.
    expect(chosen.cookies.some((cookie) => cookie.name === 'session')).toBe(true);
    const hr = await signIn('hr@liffey.example.ie', 'niamh chooses her own passphrase');
    const renamed = await call({
      method: 'PATCH',
      url: `/api/schemes/${dcScheme.json().id}`,
      token: hr,
      payload: { name: 'Liffey Engineering Staff DC Scheme' },
    });
    expect(renamed.statusCode).toBe(200);
    expect((await call({ url: '/api/schemes', token: hr })).json().items).toHaveLength(2);

    // The trail, newest first, as the BrokerAdmin reads it.
    const trail = await call({ url: '/api/audit?limit=100', token: admin });
    expect(trail.statusCode).toBe(200);
    const actions = (trail.json().items as Array<{ action: string }>).map((item) => item.action);
    expect(actions.reverse()).toEqual([
      'broker.created',
      'user.created',
      'user.created',
      'employer.created',
      'scheme.created',
      'scheme.created',
      'user.created',
      'user.invitation_accepted',
      'scheme.updated',
    ]);
    const schemeCreations = await call({
      url: `/api/audit?entityType=scheme&actorId=${brokerUser.json().id}`,
      token: admin,
    });
    expect(schemeCreations.json().items).toMatchObject([
      { action: 'scheme.created', actorType: 'BrokerUser', tenantId: brokerId },
    ]);
    expect((await verifyTestChains(t.database)).broken).toEqual([]);
    // Another tenant's BrokerAdmin sees none of it.
    const { token: stranger } = await t.signedInUser();
    expect((await call({ url: '/api/audit', token: stranger })).json().items).toHaveLength(0);
  });
});
