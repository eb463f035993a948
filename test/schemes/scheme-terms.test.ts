import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { funds, schemes } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import { createMember } from '../helpers/factories.js';
import { schemeFixture } from '../helpers/fixtures.js';

/**
 * What kind of scheme it is and which funds it offers are the broker's decisions
 * (docs/decisions/0043-scheme-type-and-funds-are-the-brokers.md). A scheme's type never changes
 * once it has members; an employer's roles rename their schemes and read their funds.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const scheme = () =>
  schemeFixture(t.database, {
    users: { broker: 'BrokerUser', employerAdmin: 'EmployerAdmin', employerUser: 'EmployerUser' },
  });

const typeOf = async (schemeId: string) =>
  (await ownerOf(t.database).select().from(schemes).where(eq(schemes.id, schemeId)))[0]?.type;

describe('a scheme’s type', () => {
  it('is set by the broker while the scheme has no members', async () => {
    const { schemeId, broker } = await scheme();
    const changed = await t.requestAs(broker, 'PATCH', `/api/schemes/${schemeId}`, {
      type: 'PRSA',
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().type).toBe('PRSA');
  });

  it('never changes once the scheme has members, and says why under the field', async () => {
    const { brokerId, employerId, schemeId, broker } = await scheme();
    await createMember(t.database, { brokerId, employerId, schemeId });
    const refused = await t.requestAs(broker, 'PATCH', `/api/schemes/${schemeId}`, {
      type: 'DB',
      name: 'Renamed in the same request',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues).toEqual([
      expect.objectContaining({
        path: 'type',
        message: "A scheme's type cannot change once it has members",
      }),
    ]);
    expect(await typeOf(schemeId)).toBe('DC');
    // Renaming alone, and "changing" to the type it already has, still work.
    const renamed = await t.requestAs(broker, 'PATCH', `/api/schemes/${schemeId}`, {
      name: 'Renamed',
      type: 'DC',
    });
    expect(renamed.statusCode).toBe(200);
  });

  it('is not the employer’s to change, though their administrator renames the scheme', async () => {
    const { schemeId, employerAdmin } = await scheme();
    const refused = await t.requestAs(employerAdmin, 'PATCH', `/api/schemes/${schemeId}`, {
      type: 'RAC',
    });
    expect(refused.statusCode).toBe(403);
    expect(await typeOf(schemeId)).toBe('DC');
    const renamed = await t.requestAs(employerAdmin, 'PATCH', `/api/schemes/${schemeId}`, {
      name: 'Our staff scheme',
    });
    expect(renamed.statusCode).toBe(200);
  });
});

describe('a scheme’s funds', () => {
  it('are managed by broker staff and only read by the employer’s roles', async () => {
    const { schemeId, broker, employerAdmin, employerUser } = await scheme();
    const added = await t.requestAs(broker, 'POST', `/api/schemes/${schemeId}/funds`, {
      name: 'Irish Equity Fund',
    });
    expect(added.statusCode).toBe(201);
    const fundId = added.json().id as string;

    for (const employerRole of [employerAdmin, employerUser]) {
      expect(
        (
          await t.requestAs(employerRole, 'POST', `/api/schemes/${schemeId}/funds`, {
            name: `Fund of ${employerRole.role}`,
          })
        ).statusCode,
      ).toBe(403);
      expect(
        (await t.requestAs(employerRole, 'PATCH', `/api/funds/${fundId}`, { closed: true }))
          .statusCode,
      ).toBe(403);
      const read = await t.requestAs(employerRole, 'GET', `/api/schemes/${schemeId}/funds`);
      expect(read.statusCode).toBe(200);
      expect(read.json().items.map((fund: { name: string }) => fund.name)).toEqual([
        'Irish Equity Fund',
      ]);
    }
    const rows = await ownerOf(t.database).select().from(funds).where(eq(funds.schemeId, schemeId));
    expect(rows.map((row) => [row.name, row.closedAt])).toEqual([['Irish Equity Fund', null]]);
  });
});
