import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemeTypeFixedBecause } from '../../src/contracts/organisation.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createMember } from '../helpers/factories.js';
import { schemeFixture } from '../helpers/fixtures.js';

/**
 * "A scheme's type cannot change once it has members" is one rule, in src/contracts
 * (`schemeTypeFixedBecause`): the service refuses a change of type by it, and the scheme's page
 * reads `hasMembers` from the scheme's own answer and shows the type read-only by it, instead of
 * offering the other types until Save (docs/decisions/0131-what-people-read.md).
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('a scheme’s type, fixed by its members', () => {
  it('is fixed by having members, and by nothing else', () => {
    expect(schemeTypeFixedBecause({ hasMembers: false })).toBeNull();
    expect(schemeTypeFixedBecause({ hasMembers: true })).toBe(
      "A scheme's type cannot change once it has members",
    );
  });

  it('answers whether members belong to the scheme, deleted ones included, on its page’s reads', async () => {
    const { brokerId, employerId, schemeId, broker, admin } = await schemeFixture(t.database, {
      users: { broker: 'BrokerUser', admin: 'BrokerAdmin' },
    });
    const read = async () => (await t.requestAs(broker, 'GET', `/api/schemes/${schemeId}`)).json();
    expect(await read()).toMatchObject({ id: schemeId, hasMembers: false });
    const renamed = await t.requestAs(broker, 'PATCH', `/api/schemes/${schemeId}`, {
      name: 'Renamed before any member',
    });
    expect(renamed.json()).toMatchObject({ hasMembers: false });

    const member = await createMember(t.database, { brokerId, employerId, schemeId });
    expect(await read()).toMatchObject({ hasMembers: true });
    // A deleted member's records are kept under the scheme as it was: the type stays fixed.
    const deleted = await t.requestAs(admin, 'DELETE', `/api/members/${member.id}`);
    expect(deleted.statusCode).toBe(204);
    expect(await read()).toMatchObject({ hasMembers: true });

    // The refusal is the rule's own sentence, under the type.
    const refused = await t.requestAs(broker, 'PATCH', `/api/schemes/${schemeId}`, {
      type: 'PRSA',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues).toEqual([
      expect.objectContaining({
        path: 'type',
        code: 'scheme_has_members',
        message: schemeTypeFixedBecause({ hasMembers: true }),
      }),
    ]);
    const saved = await t.requestAs(broker, 'PATCH', `/api/schemes/${schemeId}`, {
      name: 'Renamed with members',
    });
    expect(saved.json()).toMatchObject({ name: 'Renamed with members', hasMembers: true });
  });
});
