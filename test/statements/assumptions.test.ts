import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statementAssumptions, statementRuns } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';

/**
 * Projection assumption sets and what schemes gain for statements
 * (docs/decisions/0141-pension-benefit-statements.md): the platform's and a firm's own, versioned
 * by name, never changed once a run has used them.
 */
let t: TestApp;
let superAdmin: UserRow;
let admin: UserRow;
let consultant: UserRow;
let otherAdmin: UserRow;
let employerAdmin: UserRow;
let brokerId: string;
let employerId: string;
let schemeId: string;

const set = {
  name: 'Pensions Authority guidance',
  effectiveFrom: '2026-01-01',
  source:
    'The Pensions Authority’s guidance on benefit statement projections, updated 10 March 2023',
  bestEstimateReturnPct: 4.75,
  unfavourableReturnPct: 1.5,
  inflationPct: 2.5,
  salaryGrowthPct: 2.5,
  annuityFactor: 25,
};

const count = async () => (await ownerOf(t.database).select().from(statementAssumptions)).length;

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore() });
  brokerId = await createBroker(t.database, 'Shannon Pensions');
  employerId = await createEmployer(t.database, brokerId, 'Corrib Foods Ltd');
  schemeId = await createScheme(t.database, { id: employerId, brokerId });
  superAdmin = await createUser(t.database, { role: 'SuperAdmin' });
  admin = await createUser(t.database, { brokerId, role: 'BrokerAdmin' });
  consultant = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  employerAdmin = await createUser(t.database, { brokerId, employerId, role: 'EmployerAdmin' });
  otherAdmin = await createUser(t.database, {
    brokerId: await createBroker(t.database, 'Liffey Brokers'),
    role: 'BrokerAdmin',
  });
});
afterAll(() => t.close());

describe('assumption sets', () => {
  it('are the platform’s when SuperAdmin adds one, read by every firm, versioned by name', async () => {
    const first = await t.requestAs(superAdmin, 'POST', '/api/statement-assumptions', set);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ ...set, owner: 'platform', version: 1, used: false });
    const second = await t.requestAs(superAdmin, 'POST', '/api/statement-assumptions', {
      ...set,
      inflationPct: 2.25,
    });
    expect(second.json()).toMatchObject({ version: 2, inflationPct: 2.25 });
    for (const reader of [admin, consultant, otherAdmin]) {
      const read = await t.requestAs(
        reader,
        'GET',
        `/api/statement-assumptions/${first.json().id}`,
      );
      expect(read.statusCode, read.body).toBe(200);
    }
  });

  it('are a firm’s own when its staff add one, unseen by another firm', async () => {
    const own = await t.requestAs(admin, 'POST', '/api/statement-assumptions', {
      ...set,
      name: 'Shannon house view',
    });
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json()).toMatchObject({ owner: 'firm', version: 1 });
    const id = own.json().id as string;
    expect(
      (await t.requestAs(otherAdmin, 'GET', `/api/statement-assumptions/${id}`)).statusCode,
    ).toBe(404);
    const listed = await t.requestAs(otherAdmin, 'GET', '/api/statement-assumptions');
    expect(listed.json().items.map((item: { id: string }) => item.id)).not.toContain(id);
    const mine = await t.requestAs(consultant, 'GET', '/api/statement-assumptions');
    expect(mine.json().items.map((item: { id: string }) => item.id)).toContain(id);
    expect(
      (
        await t.requestAs(otherAdmin, 'PATCH', `/api/statement-assumptions/${id}`, {
          inflationPct: 3,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('are not added by an employer (403), and nothing is written', async () => {
    const before = await count();
    for (const user of [employerAdmin]) {
      expect((await t.requestAs(user, 'POST', '/api/statement-assumptions', set)).statusCode).toBe(
        403,
      );
    }
    expect(await count()).toBe(before);
  });

  it('refuse figures that are not percentages to two decimals, and write nothing', async () => {
    const before = await count();
    for (const [field, value] of [
      ['bestEstimateReturnPct', 4.755],
      ['inflationPct', -1],
      ['annuityFactor', 0],
      ['salaryGrowthPct', '2.5'],
      ['effectiveFrom', '2026-02-30'],
      ['source', ''],
    ] as const) {
      const response = await t.requestAs(admin, 'POST', '/api/statement-assumptions', {
        ...set,
        [field]: value,
      });
      expect(response.statusCode, field).toBe(400);
      expect(response.json().issues).toEqual(
        expect.arrayContaining([expect.objectContaining({ path: field })]),
      );
    }
    expect(await count()).toBe(before);
  });

  it('are corrected until a run uses them, then never (409), and the set is unchanged', async () => {
    const created = await t.requestAs(admin, 'POST', '/api/statement-assumptions', {
      ...set,
      name: 'To be corrected',
    });
    const id = created.json().id as string;
    const corrected = await t.requestAs(admin, 'PATCH', `/api/statement-assumptions/${id}`, {
      inflationPct: 2.75,
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(corrected.json()).toMatchObject({ inflationPct: 2.75, used: false });
    const at = new Date();
    await ownerOf(t.database)
      .insert(statementRuns)
      .values({
        brokerId,
        id: `run${id}`.slice(0, 24),
        employerId,
        schemeId,
        informationDate: '2026-12-31',
        membersBy: '2027-06-30',
        assumptionsId: id,
        status: 'queued',
        total: 0,
        done: 0,
        failed: 0,
        issues: [],
        createdBy: admin.id,
        createdAt: at,
        updatedAt: at,
      });
    const refused = await t.requestAs(admin, 'PATCH', `/api/statement-assumptions/${id}`, {
      inflationPct: 3,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatch(/never changed/);
    const [row] = await ownerOf(t.database)
      .select()
      .from(statementAssumptions)
      .where(eq(statementAssumptions.id, id));
    expect(row?.inflationBasisPoints).toBe(275);
    expect((await t.requestAs(admin, 'GET', `/api/statement-assumptions/${id}`)).json().used).toBe(
      true,
    );
  });
});

describe('a scheme’s terms for statements', () => {
  it('keeps a normal retirement age, and a DB scheme its accrual rate and funding level', async () => {
    const created = await t.requestAs(admin, 'POST', '/api/schemes', {
      employerId,
      name: 'Corrib Foods Defined Benefit Plan',
      type: 'DB',
      normalRetirementAge: 65,
      accrualRate: '1/60',
      fundingLevelPct: 92.5,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      normalRetirementAge: 65,
      accrualRate: '1/60',
      fundingLevelPct: 92.5,
    });
    const changed = await t.requestAs(admin, 'PATCH', `/api/schemes/${created.json().id}`, {
      accrualRate: '1/80',
      fundingLevelPct: null,
    });
    expect(changed.json()).toMatchObject({ accrualRate: '1/80', fundingLevelPct: null });
  });

  it('refuses an accrual rate or funding level for a scheme that is not DB, and bad values', async () => {
    for (const [body, path] of [
      [{ accrualRate: '1/60' }, 'accrualRate'],
      [{ fundingLevelPct: 100 }, 'fundingLevelPct'],
      [{ normalRetirementAge: 49 }, 'normalRetirementAge'],
      [{ normalRetirementAge: 65.5 }, 'normalRetirementAge'],
    ] as const) {
      const response = await t.requestAs(admin, 'PATCH', `/api/schemes/${schemeId}`, body);
      expect(response.statusCode, path).toBe(400);
      expect(response.json().issues).toEqual(
        expect.arrayContaining([expect.objectContaining({ path })]),
      );
    }
    const bad = await t.requestAs(admin, 'POST', '/api/schemes', {
      employerId,
      name: 'Bad DB',
      type: 'DB',
      accrualRate: '60',
    });
    expect(bad.statusCode).toBe(400);
    const kept = await t.requestAs(admin, 'PATCH', `/api/schemes/${schemeId}`, {
      normalRetirementAge: 66,
    });
    expect(kept.json()).toMatchObject({ normalRetirementAge: 66, accrualRate: null });
  });
});
