import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeLine, stateChanges } from '../../src/contracts/audit-changes.js';
import { auditLog, brokers, schemes } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import { createUser } from '../helpers/factories.js';
import { schemeFixture } from '../helpers/fixtures.js';

/**
 * The LEIs the register of information names its entities by
 * (docs/decisions/0139-dora-ict-incidents.md, "The register of information"): a scheme's, set
 * with its details by whoever may change the scheme, and the firm's own, set by its BrokerAdmin
 * (or the platform); each held to the LEI's shape, cleared with null, audited, and refused with
 * nothing written.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const LEI = '635400ACMESTAFF00045';
const FIRM_LEI = '635400MURPHYBYRNE012';
const SHAPE = 'An LEI is 20 characters: 18 capital letters or digits, then two digits';

const scheme = () =>
  schemeFixture(t.database, {
    users: { admin: 'BrokerAdmin', consultant: 'BrokerUser', hr: 'EmployerAdmin' },
  });

const schemeRow = async (id: string) =>
  (await ownerOf(t.database).select().from(schemes).where(eq(schemes.id, id)))[0];
const brokerRow = async (id: string) =>
  (await ownerOf(t.database).select().from(brokers).where(eq(brokers.id, id)))[0];
const auditOf = (entityId: string, action: string) =>
  ownerOf(t.database)
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityId, entityId), eq(auditLog.action, action)));

const issuesOf = (body: { issues: { path: string; message: string }[] }) =>
  Object.fromEntries(body.issues.map((issue) => [issue.path, issue.message]));

describe('a scheme’s LEI', () => {
  it('is kept as given when the scheme is made, spaces dropped and letters in capitals', async () => {
    const { admin, employerId } = await scheme();
    const made = await t.requestAs(admin, 'POST', '/api/schemes', {
      employerId,
      name: 'Acme Executive Scheme',
      type: 'DC',
      lei: '635400acme staff00045',
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().lei).toBe(LEI);
    const plain = await t.requestAs(admin, 'POST', '/api/schemes', {
      employerId,
      name: 'Acme Staff Scheme',
      type: 'DC',
    });
    expect(plain.json().lei).toBeNull();
  });

  it('is set, read back and cleared with null by whoever changes the scheme, and audited', async () => {
    const { admin, hr, schemeId } = await scheme();
    const set = await t.requestAs(admin, 'PATCH', `/api/schemes/${schemeId}`, { lei: LEI });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().lei).toBe(LEI);
    expect((await t.requestAs(hr, 'GET', `/api/schemes/${schemeId}`)).json().lei).toBe(LEI);

    const cleared = await t.requestAs(admin, 'PATCH', `/api/schemes/${schemeId}`, { lei: null });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().lei).toBeNull();
    expect((await schemeRow(schemeId))?.lei).toBeNull();

    const records = await auditOf(schemeId, 'scheme.updated');
    const lines = records.flatMap((record) =>
      stateChanges(record.previousState, record.newState)
        .map(changeLine)
        .filter((line) => line.startsWith('LEI')),
    );
    expect(lines.sort()).toEqual([`LEI: ${LEI} → none`, `LEI: none → ${LEI}`].sort());
  });

  it('refuses what is not an LEI with a 400 in words on the field, writing nothing', async () => {
    const { admin, schemeId } = await scheme();
    const before = await schemeRow(schemeId);
    for (const lei of ['635400ACMESTAFF0004', '635400ACMESTAFF0004X', '635400ACME-STAFF0045', '']) {
      const refused = await t.requestAs(admin, 'PATCH', `/api/schemes/${schemeId}`, {
        name: 'Renamed with a bad LEI',
        lei,
      });
      expect(refused.statusCode, lei).toBe(400);
      expect(issuesOf(refused.json()), lei).toEqual({ lei: SHAPE });
    }
    expect(await schemeRow(schemeId)).toEqual(before);
    expect(await auditOf(schemeId, 'scheme.updated')).toEqual([]);
  });

  it('is not another firm’s to set: 404, nothing written', async () => {
    const { schemeId } = await scheme();
    const { admin: stranger } = await scheme();
    const before = await schemeRow(schemeId);
    const answer = await t.requestAs(stranger, 'PATCH', `/api/schemes/${schemeId}`, { lei: LEI });
    expect(answer.statusCode).toBe(404);
    expect(await schemeRow(schemeId)).toEqual(before);
  });
});

describe('the firm’s LEI', () => {
  it('is set and cleared by the firm’s BrokerAdmin, read back by its staff, and audited', async () => {
    const { admin, consultant, brokerId } = await scheme();
    const url = `/api/brokers/${brokerId}/lei`;
    const set = await t.requestAs(admin, 'PUT', url, { lei: ` ${FIRM_LEI.toLowerCase()} ` });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({ id: brokerId, lei: FIRM_LEI });
    const read = await t.requestAs(consultant, 'GET', `/api/brokers/${brokerId}`);
    expect(read.json().lei).toBe(FIRM_LEI);

    const cleared = await t.requestAs(admin, 'PUT', url, { lei: null });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().lei).toBeNull();
    expect((await brokerRow(brokerId))?.lei).toBeNull();

    const records = await auditOf(brokerId, 'broker.updated');
    expect(
      records.flatMap((record) =>
        stateChanges(record.previousState, record.newState)
          .map(changeLine)
          .filter((line) => line.startsWith('LEI')),
      ),
    ).toHaveLength(2);
    expect(records.map((record) => record.actorId)).toEqual([admin.id, admin.id]);
  });

  it('is the platform’s to set too; a BrokerUser or an employer’s people are refused (403)', async () => {
    const { consultant, hr, brokerId } = await scheme();
    const superAdmin = await createUser(t.database, { role: 'SuperAdmin' });
    const url = `/api/brokers/${brokerId}/lei`;
    expect((await t.requestAs(consultant, 'PUT', url, { lei: FIRM_LEI })).statusCode).toBe(403);
    expect((await t.requestAs(hr, 'PUT', url, { lei: FIRM_LEI })).statusCode).toBe(403);
    expect((await brokerRow(brokerId))?.lei).toBeNull();
    const set = await t.requestAs(superAdmin, 'PUT', url, { lei: FIRM_LEI });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().lei).toBe(FIRM_LEI);
  });

  it('refuses what is not an LEI with a 400 in words, writing nothing', async () => {
    const { admin, brokerId } = await scheme();
    const before = await brokerRow(brokerId);
    for (const body of [{ lei: 'MURPHY' }, { lei: '' }, {}]) {
      const refused = await t.requestAs(admin, 'PUT', `/api/brokers/${brokerId}/lei`, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
    }
    const shaped = await t.requestAs(admin, 'PUT', `/api/brokers/${brokerId}/lei`, {
      lei: 'MURPHY',
    });
    expect(issuesOf(shaped.json())).toEqual({ lei: SHAPE });
    expect(await brokerRow(brokerId)).toEqual(before);
    expect(await auditOf(brokerId, 'broker.updated')).toEqual([]);
  });

  it('is not another firm’s to set, nor its name: 404 and 403, nothing written', async () => {
    const { brokerId } = await scheme();
    const { admin: stranger } = await scheme();
    const before = await brokerRow(brokerId);
    const answer = await t.requestAs(stranger, 'PUT', `/api/brokers/${brokerId}/lei`, {
      lei: FIRM_LEI,
    });
    expect(answer.statusCode).toBe(404);
    // The firm's own BrokerAdmin sets its LEI, never its name: that stays the platform's.
    const { admin, brokerId: own } = await scheme();
    const renamed = await t.requestAs(admin, 'PATCH', `/api/brokers/${own}`, { name: 'Renamed' });
    expect(renamed.statusCode).toBe(403);
    expect(await brokerRow(brokerId)).toEqual(before);
  });
});
