import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import {
  createBroker,
  createEmployer,
  createMember,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';

/**
 * Each scheme's compliance view says whether DORA applies to it: more than 15 members, the scheme
 * taken as its own IORP (docs/decisions/0139-dora-ict-incidents.md).
 */
let t: TestApp;
let admin: UserRow;
let scope: { brokerId: string; employerId: string; schemeId: string };

const doraOf = async () =>
  (await t.requestAs(admin, 'GET', `/api/schemes/${scope.schemeId}/compliance`)).json().dora;

beforeAll(async () => {
  t = await buildTestApp();
  const brokerId = await createBroker(t.database);
  const employerId = await createEmployer(t.database, brokerId);
  scope = {
    brokerId,
    employerId,
    schemeId: await createScheme(t.database, { id: employerId, brokerId }),
  };
  admin = await createUser(t.database, { brokerId, role: 'BrokerAdmin' });
  for (let i = 0; i < 15; i += 1) await createMember(t.database, scope);
});
afterAll(() => t.close());

describe('DORA in a scheme’s compliance view', () => {
  it('does not apply with 15 members, and applies with the 16th, citing Art. 2(3)(c)', async () => {
    expect(await doraOf()).toMatchObject({
      applies: false,
      members: 15,
      reason: 'DORA does not apply: the scheme has 15 members, 15 or fewer',
      label: 'law',
      citation: expect.stringContaining('Art. 2(3)(c)'),
    });
    await createMember(t.database, scope);
    expect(await doraOf()).toMatchObject({
      applies: true,
      members: 16,
      reason: 'DORA applies: the scheme has 16 members, more than 15',
    });
  });
});
