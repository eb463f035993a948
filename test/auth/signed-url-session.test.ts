import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { documentForm, SAMPLES } from '../helpers/documents.js';
import {
  createBroker,
  createEmployer,
  createScheme,
  createUser,
  TEST_PASSWORD,
  type UserRow,
} from '../helpers/factories.js';

/**
 * A signed download URL (docs/decisions/0062-document-vault.md) is bound to the session it was
 * issued to: when that session ends (sign-out, a password change), the URL stops working with it,
 * within its five minutes as well.
 */

let t: TestApp;
let schemeId: string;
let brokerId: string;
const PASSWORD = TEST_PASSWORD;
const NEW_PASSWORD = 'Another-Horse-Battery-Staple-43';

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore() });
  brokerId = await createBroker(t.database);
  const employerId = await createEmployer(t.database, brokerId);
  schemeId = await createScheme(t.database, { id: employerId, brokerId });
});
afterAll(() => t.close());

/** Signs in as a browser does: the session is the cookie the sign-in sets. */
async function signIn(user: UserRow, password = PASSWORD): Promise<string> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/signin',
    remoteAddress: uniqueClientAddress(),
    payload: { email: user.email, password },
  });
  expect(response.statusCode, response.body).toBe(200);
  const cookie = response.cookies[0];
  if (!cookie) throw new Error('no session cookie');
  return `${cookie.name}=${cookie.value}`;
}

function as(cookie: string, method: 'GET' | 'POST', url: string, payload?: object) {
  return t.app.inject({
    method,
    url,
    remoteAddress: uniqueClientAddress(),
    headers: { cookie, origin: t.config.publicBaseUrl.origin },
    ...(payload ? { payload } : {}),
  });
}

async function signedUrl(user: UserRow, cookie: string): Promise<string> {
  const form = documentForm('deed.pdf', SAMPLES.pdf);
  const uploaded = await t.app.inject({
    method: 'POST',
    url: `/api/schemes/${schemeId}/documents`,
    remoteAddress: uniqueClientAddress(),
    headers: { ...form.headers, authorization: `Bearer ${await t.tokenFor(user)}` },
    payload: form.payload,
  });
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const issued = await as(cookie, 'GET', `/api/documents/${uploaded.json().id}/url`);
  expect(issued.statusCode, issued.body).toBe(200);
  return new URL(issued.json().url).pathname;
}

const download = (path: string) =>
  t.app.inject({ method: 'GET', url: path, remoteAddress: uniqueClientAddress() });

describe('a signed download URL', () => {
  it('stops working when the session it was issued to signs out', async () => {
    const user = await createUser(t.database, { brokerId, role: 'BrokerUser' });
    const cookie = await signIn(user);
    const path = await signedUrl(user, cookie);
    expect((await download(path)).statusCode).toBe(200);
    expect((await as(cookie, 'POST', '/api/auth/signout')).statusCode).toBeLessThan(300);
    const after = await download(path);
    expect(after.statusCode).toBe(404);
    expect(after.json()).toEqual({ error: 'Not found' });
  });

  it('stops working when its holder changes their password', async () => {
    const user = await createUser(t.database, { brokerId, role: 'BrokerUser' });
    const cookie = await signIn(user);
    const path = await signedUrl(user, cookie);
    expect((await download(path)).statusCode).toBe(200);
    const changed = await as(cookie, 'POST', '/api/auth/change-password', {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(changed.statusCode, changed.body).toBeLessThan(300);
    expect((await download(path)).statusCode).toBe(404);
  });
});
