import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { createUser } from '../helpers/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** Each attempt from a different address, as a distributed guessing attack would come. */
function attempt(email: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/signin',
    remoteAddress: uniqueClientAddress(),
    payload: { email, password: 'a wrong guess at the password' },
  });
}

async function pausesFor(email: string, attempts: number): Promise<number[]> {
  t.pauses.length = 0;
  for (let i = 0; i < attempts; i += 1) expect((await attempt(email)).statusCode).toBe(401);
  return [...t.pauses];
}

describe('repeated sign-in failures against one account from many addresses', () => {
  it('are slowed a second more each after five, up to ten seconds', async () => {
    const user = await createUser(t.database);
    expect(await pausesFor(user.email, 8)).toEqual([1_000, 2_000, 3_000]);
    expect(await pausesFor(user.email.toUpperCase(), 10)).toEqual([
      4_000, 5_000, 6_000, 7_000, 8_000, 9_000, 10_000, 10_000, 10_000, 10_000,
    ]);
    // Eighteen bcrypt comparisons: on a busy machine, more than the default 30 seconds. A test
    // timed out would go on signing in beside the next and add to its pauses.
  }, 120_000);

  it('are slowed exactly alike for an address with no account, revealing nothing', async () => {
    expect(await pausesFor('nobody-by-this-name@example.ie', 8)).toEqual([1_000, 2_000, 3_000]);
  });

  it('do not slow sign-in to another account', async () => {
    const other = await createUser(t.database);
    expect(await pausesFor(other.email, 5)).toEqual([]);
  });

  it('leave no e-mail address in the logs', async () => {
    expect(t.logs.text()).not.toContain('nobody-by-this-name@example.ie');
  });
});
