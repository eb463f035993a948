import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, schemes } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { ownerOf, writableTableCounts } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createScheme,
  createTrustee,
  createUser,
  type UserRow,
} from '../helpers/factories.js';

/**
 * A scheme's register of conflicts of interest through the API (guidance: the Pensions
 * Authority’s Code of Practice for trustees), on a clock that moves only when a test moves it:
 * recorded, listed, read, its management recorded and closed, never deleted.
 */
let clock = new Date('2025-06-01T10:00:00Z');
let t: TestApp;
let brokerId: string;
let employerId: string;
let otherEmployerId: string;
let consultant: UserRow;
let employerUser: UserRow;
let otherEmployerUser: UserRow;
let otherTenantAdmin: UserRow;
let otherTenantTrusteeId: string;

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore(), now: () => clock });
  brokerId = await createBroker(t.database, 'Slaney Pensions');
  employerId = await createEmployer(t.database, brokerId, 'Barrow Mills Ltd');
  otherEmployerId = await createEmployer(t.database, brokerId, 'Suir Dairies Ltd');
  consultant = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  employerUser = await createUser(t.database, { brokerId, employerId, role: 'EmployerUser' });
  otherEmployerUser = await createUser(t.database, {
    brokerId,
    employerId: otherEmployerId,
    role: 'EmployerUser',
  });
  const otherTenant = await createBroker(t.database, 'Boyne Brokers');
  const otherTenantEmployer = await createEmployer(t.database, otherTenant, 'Nore Foods Ltd');
  otherTenantAdmin = await createUser(t.database, { brokerId: otherTenant, role: 'BrokerAdmin' });
  const otherTenantScheme = await createScheme(t.database, {
    id: otherTenantEmployer,
    brokerId: otherTenant,
  });
  otherTenantTrusteeId = await createTrustee(t.database, {
    brokerId: otherTenant,
    employerId: otherTenantEmployer,
    schemeId: otherTenantScheme,
  });
});
afterAll(() => t.close());

const as = (user: UserRow) => ({
  get: (url: string) => t.requestAs(user, 'GET', url),
  post: (url: string, body: object) => t.requestAs(user, 'POST', url, body),
  patch: (url: string, body: object) => t.requestAs(user, 'PATCH', url, body),
});
const broker = () => as(consultant);

const newScheme = (employer = employerId) =>
  createScheme(t.database, { id: employer, brokerId }, 'Barrow Staff Scheme');
const trusteeOf = (schemeId: string, employer = employerId) =>
  createTrustee(t.database, { brokerId, employerId: employer, schemeId });

const declared = {
  personName: 'Pádraig Ó Súilleabháin',
  interest: 'Director of the firm that distributes the scheme’s default fund',
  declaredOn: '2025-02-10',
};

const refusal = (path: string, code?: string) => ({
  error: 'Validation failed',
  issues: [expect.objectContaining({ path, ...(code ? { code } : {}) })],
});

async function recorded(schemeId: string, body: object = declared) {
  const response = await broker().post(`/api/schemes/${schemeId}/conflicts`, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; closedOn: string | null };
}

async function auditRecordsOf(id: string) {
  return ownerOf(t.database)
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityType, 'conflict'), eq(auditLog.entityId, id)))
    .orderBy(auditLog.chainIndex);
}

describe('the register of conflicts of interest', () => {
  it('records an entry, lists and reads it, records its management and closes it, keeping it', async () => {
    const schemeId = await newScheme();
    const trusteeId = await trusteeOf(schemeId);
    const first = await broker().post(`/api/schemes/${schemeId}/conflicts`, {
      ...declared,
      trusteeId,
    });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({
      schemeId,
      trusteeId,
      ...declared,
      management: null,
      closedOn: null,
    });
    const id = first.json().id as string;
    // A minute later, so "latest first" does not fall back to the order of random ids.
    clock = new Date(clock.getTime() + 60_000);
    const adviser = await recorded(schemeId, {
      personName: 'Gearóid Nestor',
      interest: 'Paid commission by the insurer whose contract the trustees are reviewing',
      declaredOn: '2025-04-02',
      management: 'Leaves the meeting for the review',
    });

    // The latest recorded first, a page at a time.
    const list = await broker().get(`/api/schemes/${schemeId}/conflicts`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().items.map((item: { id: string }) => item.id)).toEqual([adviser.id, id]);
    const page = await broker().get(`/api/schemes/${schemeId}/conflicts?limit=1`);
    expect(page.json().items).toHaveLength(1);
    expect(page.json().nextCursor).toEqual(expect.any(String));
    const next = await broker().get(
      `/api/schemes/${schemeId}/conflicts?limit=1&cursor=${page.json().nextCursor}`,
    );
    expect(next.json()).toMatchObject({ items: [{ id }], nextCursor: null });

    const managed = await broker().patch(`/api/conflicts/${id}`, {
      management: 'Abstains from votes on the fund range',
    });
    expect(managed.statusCode, managed.body).toBe(200);
    expect(managed.json()).toMatchObject({
      management: 'Abstains from votes on the fund range',
      closedOn: null,
    });
    const closed = await broker().patch(`/api/conflicts/${id}`, { closedOn: '2025-05-30' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({
      management: 'Abstains from votes on the fund range',
      closedOn: '2025-05-30',
      interest: declared.interest,
    });
    expect((await broker().get(`/api/conflicts/${id}`)).json()).toEqual(closed.json());
    // A closed entry stays in the register.
    const after = await broker().get(`/api/schemes/${schemeId}/conflicts`);
    expect(after.json().items).toHaveLength(2);
    expect(after.json().items[1]).toEqual(closed.json());

    // Employer staff read their own employer's register, and do not write it.
    expect((await as(employerUser).get(`/api/conflicts/${id}`)).json()).toEqual(closed.json());
    expect(
      (await as(employerUser).get(`/api/schemes/${schemeId}/conflicts`)).json().items,
    ).toHaveLength(2);
    const before = await writableTableCounts(t.database);
    const written = await as(employerUser).patch(`/api/conflicts/${id}`, { closedOn: null });
    expect(written.statusCode).toBe(403);
    expect(
      (await as(employerUser).post(`/api/schemes/${schemeId}/conflicts`, declared)).statusCode,
    ).toBe(403);
    expect(await writableTableCounts(t.database)).toEqual(before);
  });

  it('refuses bad input with a 400 naming the field, and writes nothing', async () => {
    const schemeId = await newScheme();
    const otherSchemeId = await newScheme();
    const trusteeOfOtherScheme = await trusteeOf(otherSchemeId);
    const { id } = await recorded(schemeId);
    const before = await writableTableCounts(t.database);
    const { personName, interest, declaredOn } = declared;
    const cases: Array<[object, string, string?]> = [
      [{ interest, declaredOn }, 'personName'],
      [{ personName, declaredOn }, 'interest'],
      [{ personName, interest }, 'declaredOn'],
      [{ ...declared, personName: '  ' }, 'personName'],
      [{ ...declared, personName: 'x'.repeat(201) }, 'personName'],
      [{ ...declared, interest: 'x'.repeat(2001) }, 'interest'],
      [{ ...declared, management: 'x'.repeat(2001) }, 'management'],
      [{ ...declared, declaredOn: '2025-06-02' }, 'declaredOn', 'date_in_future'],
      [{ ...declared, declaredOn: '2025-02-30' }, 'declaredOn'],
      [{ ...declared, closedOn: '2025-06-02' }, 'closedOn', 'date_in_future'],
      [{ ...declared, closedOn: '2025-02-09' }, 'closedOn'],
      [{ ...declared, trusteeId: 'nosuchtrustee00000000000' }, 'trusteeId', 'unknown_trustee'],
      [{ ...declared, trusteeId: trusteeOfOtherScheme }, 'trusteeId', 'trustee_of_another_scheme'],
      // Another tenant's trustee reads exactly as one that does not exist.
      [{ ...declared, trusteeId: otherTenantTrusteeId }, 'trusteeId', 'unknown_trustee'],
    ];
    for (const [body, path, code] of cases) {
      const refused = await broker().post(`/api/schemes/${schemeId}/conflicts`, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json(), JSON.stringify(body)).toMatchObject(refusal(path, code));
    }
    const changes: Array<[object, string]> = [
      [{}, ''],
      [{ closedOn: '2025-02-09' }, 'closedOn'],
      [{ closedOn: '2025-06-02' }, 'closedOn'],
      [{ management: '' }, 'management'],
    ];
    for (const [body, path] of changes) {
      const refused = await broker().patch(`/api/conflicts/${id}`, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json().issues[0].path, JSON.stringify(body)).toBe(path);
    }
    expect(await writableTableCounts(t.database)).toEqual(before);
    const unchanged = await broker().get(`/api/conflicts/${id}`);
    expect(unchanged.json()).toMatchObject({ management: null, closedOn: null });
  });

  it('is not found by another tenant, nor by employer staff of another employer', async () => {
    const schemeId = await newScheme();
    const { id } = await recorded(schemeId);
    const before = await writableTableCounts(t.database);
    for (const user of [otherTenantAdmin, otherEmployerUser]) {
      const reads = [
        await as(user).get(`/api/conflicts/${id}`),
        await as(user).get(`/api/schemes/${schemeId}/conflicts`),
      ];
      for (const response of reads) {
        expect(response.statusCode, user.role).toBe(404);
        expect(response.json()).toEqual({ error: 'Not found' });
      }
    }
    const changed = await as(otherTenantAdmin).patch(`/api/conflicts/${id}`, {
      closedOn: '2025-05-01',
    });
    expect(changed.statusCode).toBe(404);
    const added = await as(otherTenantAdmin).post(`/api/schemes/${schemeId}/conflicts`, declared);
    expect(added.statusCode).toBe(403);
    expect(await writableTableCounts(t.database)).toEqual(before);
    // And another employer's register is none of this employer's staff's business either way.
    const theirs = await recorded(await newScheme(otherEmployerId));
    expect((await as(employerUser).get(`/api/conflicts/${theirs.id}`)).statusCode).toBe(404);
    expect((await as(otherEmployerUser).get(`/api/conflicts/${theirs.id}`)).statusCode).toBe(200);
  });

  it('keeps ids, dates and flags in the audit log: never the name, the interest or its management', async () => {
    const schemeId = await newScheme();
    const trusteeId = await trusteeOf(schemeId);
    const { id } = await recorded(schemeId, { ...declared, trusteeId });
    await broker().patch(`/api/conflicts/${id}`, {
      management: 'Abstains from votes on the fund range',
    });
    await broker().patch(`/api/conflicts/${id}`, { closedOn: '2025-05-30' });
    const records = await auditRecordsOf(id);
    expect(records.map((record) => record.action)).toEqual([
      'conflict.recorded',
      'conflict.updated',
      'conflict.closed',
    ]);
    expect(records[0]?.newState).toEqual({
      id,
      schemeId,
      trusteeId,
      declaredOn: '2025-02-10',
      closedOn: null,
      managementRecorded: false,
    });
    expect(records[2]?.newState).toMatchObject({
      closedOn: '2025-05-30',
      managementRecorded: true,
      changedFields: ['closedOn'],
    });
    const stored = JSON.stringify(records.map((record) => [record.previousState, record.newState]));
    for (const words of ['Pádraig', 'Súilleabháin', 'default fund', 'Abstains']) {
      expect(stored).not.toContain(words);
    }
  });

  it('is not kept for a PRSA or a contract RAC, as no governance register is', async () => {
    for (const kind of [
      { type: 'PRSA', racKind: null },
      { type: 'RAC', racKind: 'contract' },
    ]) {
      const schemeId = await newScheme();
      await ownerOf(t.database).update(schemes).set(kind).where(eq(schemes.id, schemeId));
      const before = await writableTableCounts(t.database);
      const refused = await broker().post(`/api/schemes/${schemeId}/conflicts`, declared);
      expect(refused.statusCode, kind.type).toBe(409);
      expect(refused.json().error).toContain('do not apply');
      expect(await writableTableCounts(t.database)).toEqual(before);
      const list = await broker().get(`/api/schemes/${schemeId}/conflicts`);
      expect(list.json()).toEqual({ items: [], nextCursor: null });
    }
  });
});
