import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { writableTableCounts } from '../helpers/database.js';
import { createBroker, createEmployer, createUser, type UserRow } from '../helpers/factories.js';

/**
 * The firm's register of its other ICT providers (docs/decisions/0139-dora-ict-incidents.md):
 * added, listed and changed by the firm's staff; nothing of one firm in another's.
 */
let t: TestApp;
let consultant: UserRow;
let employerAdmin: UserRow;
let otherAdmin: UserRow;

const provider = {
  name: 'Harbour Payroll Services',
  identifier: '635400EXAMPLE0LEI012',
  identifierType: 'LEI',
  country: 'IE',
  serviceType: 'S19',
  contractReference: 'HPS-2025-014',
  startedOn: '2025-02-01',
  supportsCriticalFunction: true,
};

/** The request refused with `status`, and no table changed by it. */
async function refused(send: () => Promise<{ statusCode: number; body: string }>, status: number) {
  const before = await writableTableCounts(t.database);
  const response = await send();
  expect(response.statusCode, response.body).toBe(status);
  expect(await writableTableCounts(t.database)).toEqual(before);
  return JSON.parse(response.body);
}

beforeAll(async () => {
  t = await buildTestApp();
  const brokerId = await createBroker(t.database);
  const employerId = await createEmployer(t.database, brokerId);
  consultant = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  employerAdmin = await createUser(t.database, { brokerId, employerId, role: 'EmployerAdmin' });
  otherAdmin = await createUser(t.database, {
    brokerId: await createBroker(t.database),
    role: 'BrokerAdmin',
  });
});
afterAll(() => t.close());

describe('the register of ICT providers', () => {
  let id: string;

  it('adds a provider, listed in its own firm and not in another', async () => {
    const response = await t.requestAs(consultant, 'POST', '/api/dora/ict-providers', provider);
    expect(response.statusCode, response.body).toBe(201);
    id = response.json().id;
    expect(response.json()).toMatchObject({ ...provider, endedOn: null });
    const own = await t.requestAs(consultant, 'GET', '/api/dora/ict-providers');
    expect(own.json().items.map((item: { id: string }) => item.id)).toEqual([id]);
    const other = await t.requestAs(otherAdmin, 'GET', '/api/dora/ict-providers');
    expect(other.json().items).toEqual([]);
  });

  it('refuses, writing nothing: an identifier without its type, an LEI not of its shape, a country not of two letters, a service type beyond S19, an end before the start, an employer’s people', async () => {
    const send =
      (body: object, user = consultant) =>
      () =>
        t.requestAs(user, 'POST', '/api/dora/ict-providers', { ...provider, ...body });
    const path = (body: { issues: Array<{ path: string }> }) => body.issues[0]?.path;
    expect(path(await refused(send({ identifierType: undefined }), 400))).toBe('identifierType');
    const notAnLei = await refused(send({ identifier: '635400-HPS' }), 400);
    expect(notAnLei.issues[0]).toMatchObject({
      path: 'identifier',
      message: 'An LEI is 20 characters: 18 capital letters or digits, then two digits',
    });
    expect(path(await refused(send({ country: 'Ireland' }), 400))).toBe('country');
    expect(path(await refused(send({ serviceType: 'S20' }), 400))).toBe('serviceType');
    expect(path(await refused(send({ endedOn: '2025-01-31' }), 400))).toBe('endedOn');
    await refused(send({}, employerAdmin), 403);
  });

  it('changes a provider, its end date included; another firm’s is not found', async () => {
    const ended = await t.requestAs(consultant, 'PATCH', `/api/dora/ict-providers/${id}`, {
      endedOn: '2026-01-31',
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ended.json()).toMatchObject({ endedOn: '2026-01-31', name: provider.name });
    await refused(
      () =>
        t.requestAs(consultant, 'PATCH', `/api/dora/ict-providers/${id}`, {
          startedOn: '2026-02-01',
        }),
      400,
    );
    // The type held is LEI: a new identifier is held to its shape.
    await refused(
      () =>
        t.requestAs(consultant, 'PATCH', `/api/dora/ict-providers/${id}`, {
          identifier: 'lower635400example12',
        }),
      400,
    );
    await refused(
      () => t.requestAs(otherAdmin, 'PATCH', `/api/dora/ict-providers/${id}`, { endedOn: null }),
      404,
    );
  });

  it('takes an EUID as given, as it has no one shape across the business registers', async () => {
    const response = await t.requestAs(consultant, 'POST', '/api/dora/ict-providers', {
      ...provider,
      identifier: 'IEIRCO.123456',
      identifierType: 'EUID',
      contractReference: 'QH-2026-002',
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ identifier: 'IEIRCO.123456', identifierType: 'EUID' });
  });
});
