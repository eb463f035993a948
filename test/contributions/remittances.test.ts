import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, remittanceReceipts, schemes } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { ownerOf, writableTableCounts } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createMember,
  createUser,
  type UserRow,
} from '../helpers/factories.js';

/**
 * Contribution remittance through the API (docs/decisions/0136-contribution-remittance.md): the
 * receipts of what an employer remitted, the remittance calendar against what payroll says was
 * deducted, and the trustees' late-payment report, on a clock that stands still on 10 July 2026.
 */
const clock = new Date('2026-07-10T10:00:00Z');
let t: TestApp;
let brokerId: string;
let employerId: string;
let dcSchemeId: string;
let consultant: UserRow;

const get = (url: string, user: UserRow = consultant) => t.requestAs(user, 'GET', url);
const post = (url: string, body: object, user: UserRow = consultant) =>
  t.requestAs(user, 'POST', url, body);
const remove = (url: string, body: object | undefined, user: UserRow = consultant) =>
  t.requestAs(user, 'DELETE', url, body);

async function newScheme(type: 'DC' | 'DB', addedOn: string): Promise<string> {
  const response = await post('/api/schemes', { employerId, name: `Corrib ${type} Scheme`, type });
  expect(response.statusCode, response.body).toBe(201);
  const id = response.json().id as string;
  // The day the scheme was added to this service: months from it are chased.
  await ownerOf(t.database)
    .update(schemes)
    .set({ createdAt: new Date(`${addedOn}T09:00:00Z`) })
    .where(eq(schemes.id, id));
  return id;
}

async function contribute(
  memberId: string,
  period: string,
  kind: 'employee' | 'employer' | 'avc',
  amountCents: number,
) {
  const response = await post(`/api/members/${memberId}/contributions`, {
    period,
    kind,
    amountCents,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().id as string;
}

async function receive(month: string, receivedOn: string, amountCents: number, user = consultant) {
  const response = await post(
    `/api/employers/${employerId}/remittance-receipts`,
    { month, receivedOn, amountCents, reference: `EFT ${receivedOn}` },
    user,
  );
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string };
}

const refusal = (path: string) => ({
  error: 'Validation failed',
  issues: expect.arrayContaining([expect.objectContaining({ path })]),
});

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore(), now: () => clock });
  brokerId = await createBroker(t.database, 'Shannon Pensions');
  employerId = await createEmployer(t.database, brokerId, 'Corrib Foods Ltd');
  consultant = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  dcSchemeId = await newScheme('DC', '2026-01-15');
  const dbSchemeId = await newScheme('DB', '2026-01-15');
  const scheme = (schemeId: string) => ({ brokerId, employerId, schemeId });
  const aoife = await createMember(t.database, scheme(dcSchemeId));
  const brian = await createMember(t.database, scheme(dcSchemeId));
  const ciara = await createMember(t.database, scheme(dbSchemeId));
  // January: 600.00 deducted; the DB employer's own 500.00 funds the scheme and is not counted.
  await contribute(aoife.id, '2026-01', 'employee', 20_000);
  await contribute(aoife.id, '2026-01', 'employer', 30_000);
  await contribute(ciara.id, '2026-01', 'employee', 10_000);
  await contribute(ciara.id, '2026-01', 'employer', 50_000);
  // February: 700.00, and a correction of 10.00 more: 710.00.
  await contribute(aoife.id, '2026-02', 'employee', 20_000);
  await contribute(aoife.id, '2026-02', 'employer', 30_000);
  await contribute(aoife.id, '2026-02', 'avc', 5_000);
  const brianFebruary = await contribute(brian.id, '2026-02', 'employee', 15_000);
  const corrected = await post(`/api/contributions/${brianFebruary}/adjustments`, {
    deltaCents: 1_000,
    reason: 'Overtime left out of the first run',
  });
  expect(corrected.statusCode, corrected.body).toBe(201);
  // March: 500.00, never paid.
  await contribute(aoife.id, '2026-03', 'employee', 20_000);
  await contribute(aoife.id, '2026-03', 'employer', 30_000);
  // January paid on day 21; February in two parts, the second on day 22.
  await receive('2026-01', '2026-02-21', 60_000);
  await receive('2026-02', '2026-03-10', 40_000);
  await receive('2026-02', '2026-03-22', 31_000);
});
afterAll(() => t.close());

describe('the remittance calendar', () => {
  it('sets each month’s deductions against what arrived: on time on day 21, late on day 22, missing when never paid', async () => {
    const response = await get(`/api/employers/${employerId}/remittances?from=2026-01&to=2026-06`);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      employerId,
      from: '2026-01',
      to: '2026-06',
      chasedFrom: '2026-01',
      items: [
        {
          month: '2026-01',
          dueOn: '2026-02-21',
          expectedCents: 60_000,
          receivedCents: 60_000,
          receivedOn: '2026-02-21',
          status: 'on_time',
        },
        {
          month: '2026-02',
          dueOn: '2026-03-21',
          expectedCents: 71_000,
          receivedCents: 71_000,
          receivedOn: '2026-03-22',
          status: 'late',
        },
        {
          month: '2026-03',
          dueOn: '2026-04-21',
          expectedCents: 50_000,
          receivedCents: 0,
          receivedOn: null,
          status: 'missing',
        },
      ],
    });
  });

  it('covers the 12 months to this one unless told, and refuses a window backwards or over 24 months', async () => {
    const standard = await get(`/api/employers/${employerId}/remittances`);
    expect(standard.statusCode).toBe(200);
    expect(standard.json()).toMatchObject({ from: '2025-08', to: '2026-07' });
    expect(standard.json().items).toHaveLength(3);
    const before = await writableTableCounts(t.database);
    const backwards = await get(`/api/employers/${employerId}/remittances?from=2026-05&to=2026-04`);
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json()).toMatchObject(refusal('from'));
    const long = await get(`/api/employers/${employerId}/remittances?from=2024-01&to=2026-01`);
    expect(long.statusCode).toBe(400);
    expect(long.json()).toMatchObject(refusal('to'));
    const twoYears = await get(`/api/employers/${employerId}/remittances?from=2024-02&to=2026-01`);
    expect(twoYears.statusCode).toBe(200);
    for (const bad of ['from=2026-13', 'to=26-01', 'from=2026-1']) {
      const refused = await get(`/api/employers/${employerId}/remittances?${bad}`);
      expect(refused.statusCode, bad).toBe(400);
    }
    expect(await writableTableCounts(t.database)).toEqual(before);
  });

  it('reads a part payment as received only in part, with no day received', async () => {
    const other = await createEmployer(t.database, brokerId, 'Atlantic Bakeries Ltd');
    const scheme = await post('/api/schemes', { employerId: other, name: 'Bakers', type: 'DC' });
    // Added in June, so June is chased.
    await ownerOf(t.database)
      .update(schemes)
      .set({ createdAt: new Date('2026-06-02T09:00:00Z') })
      .where(eq(schemes.id, scheme.json().id));
    const member = await createMember(t.database, {
      brokerId,
      employerId: other,
      schemeId: scheme.json().id,
    });
    await contribute(member.id, '2026-06', 'employee', 10_000);
    const part = await post(`/api/employers/${other}/remittance-receipts`, {
      month: '2026-06',
      receivedOn: '2026-07-01',
      amountCents: 9_999,
    });
    expect(part.statusCode, part.body).toBe(201);
    const calendar = await get(`/api/employers/${other}/remittances`);
    expect(calendar.json().items).toEqual([
      expect.objectContaining({
        month: '2026-06',
        dueOn: '2026-07-21',
        expectedCents: 10_000,
        receivedCents: 9_999,
        receivedOn: null,
        status: 'due',
      }),
    ]);
  });
});

describe('recording a receipt', () => {
  it('answers the receipt, audits it without its reference, and lists it', async () => {
    const recorded = await post(`/api/employers/${employerId}/remittance-receipts`, {
      month: '2026-04',
      receivedOn: '2026-05-04',
      amountCents: 100,
      reference: 'Stray payment, Corrib Foods',
    });
    expect(recorded.statusCode, recorded.body).toBe(201);
    expect(recorded.json()).toMatchObject({
      employerId,
      month: '2026-04',
      receivedOn: '2026-05-04',
      amountCents: 100,
      reference: 'Stray payment, Corrib Foods',
      createdBy: consultant.id,
    });
    const [record] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.action, 'remittance_receipt.recorded'),
          eq(auditLog.entityId, recorded.json().id),
        ),
      );
    expect(record?.newState).toEqual({
      id: recorded.json().id,
      employerId,
      month: '2026-04',
      receivedOn: '2026-05-04',
      amountCents: 100,
      referenceGiven: true,
    });
    expect(JSON.stringify(record)).not.toContain('Stray payment');
    const april = await get(`/api/employers/${employerId}/remittance-receipts?month=2026-04`);
    expect(april.json()).toEqual({
      items: [expect.objectContaining({ id: recorded.json().id })],
      nextCursor: null,
    });
    // Nothing was expected for April: a payment counts as in full, on time.
    const calendar = await get(`/api/employers/${employerId}/remittances?from=2026-04&to=2026-04`);
    expect(calendar.json().items).toEqual([
      expect.objectContaining({ expectedCents: 0, receivedCents: 100, status: 'on_time' }),
    ]);
    await remove(`/api/remittance-receipts/${recorded.json().id}`, { reason: 'Not ours' });
  });

  it('lists the latest received first, a page at a time', async () => {
    const first = await get(`/api/employers/${employerId}/remittance-receipts?limit=2`);
    expect(first.statusCode).toBe(200);
    expect(first.json().items.map((item: { receivedOn: string }) => item.receivedOn)).toEqual([
      '2026-03-22',
      '2026-03-10',
    ]);
    const second = await get(
      `/api/employers/${employerId}/remittance-receipts?limit=2&cursor=${first.json().nextCursor}`,
    );
    expect(second.json()).toEqual({
      items: [expect.objectContaining({ receivedOn: '2026-02-21' })],
      nextCursor: null,
    });
  });

  it('refuses what is not a payment, with the field it is about, and writes nothing', async () => {
    const before = await writableTableCounts(t.database);
    const valid = { month: '2026-03', receivedOn: '2026-04-02', amountCents: 50_000 };
    const cases: Array<[object, string]> = [
      [{ ...valid, amountCents: 0 }, 'amountCents'],
      [{ ...valid, amountCents: -100 }, 'amountCents'],
      [{ ...valid, amountCents: 10.5 }, 'amountCents'],
      [{ ...valid, amountCents: '500.00' }, 'amountCents'],
      [{ ...valid, month: '2026-13' }, 'month'],
      [{ ...valid, month: 'March' }, 'month'],
      [{ ...valid, receivedOn: '2026-04-31' }, 'receivedOn'],
      [{ ...valid, receivedOn: '02/04/2026' }, 'receivedOn'],
      // After today, and before the month it pays for began.
      [{ ...valid, receivedOn: '2026-07-11' }, 'receivedOn'],
      [{ ...valid, receivedOn: '2026-02-28' }, 'receivedOn'],
      [{ ...valid, reference: 'x'.repeat(201) }, 'reference'],
      [{ ...valid, reference: 'EFT\u0000' }, 'reference'],
      [{ month: '2026-03', amountCents: 50_000 }, 'receivedOn'],
    ];
    for (const [body, path] of cases) {
      const refused = await post(`/api/employers/${employerId}/remittance-receipts`, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json(), JSON.stringify(body)).toMatchObject(refusal(path));
    }
    const listed = await get(`/api/employers/${employerId}/remittance-receipts?month=March`);
    expect(listed.statusCode).toBe(400);
    expect(await writableTableCounts(t.database)).toEqual(before);
  });
});

describe('removing a receipt recorded by mistake', () => {
  it('keeps it, voided with who and why, counts it no more, and finds it gone the second time', async () => {
    const twice = await receive('2026-03', '2026-04-15', 50_000);
    const counted = await get(`/api/employers/${employerId}/remittances?from=2026-03&to=2026-03`);
    expect(counted.json().items[0]).toMatchObject({ status: 'on_time', receivedCents: 50_000 });

    const before = await writableTableCounts(t.database);
    const unexplained = await remove(`/api/remittance-receipts/${twice.id}`, {});
    expect(unexplained.statusCode).toBe(400);
    expect(unexplained.json()).toMatchObject(refusal('reason'));
    const blank = await remove(`/api/remittance-receipts/${twice.id}`, { reason: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(await writableTableCounts(t.database)).toEqual(before);

    const removed = await remove(`/api/remittance-receipts/${twice.id}`, {
      reason: 'The bank returned the payment',
    });
    expect(removed.statusCode, removed.body).toBe(204);
    const [row] = await ownerOf(t.database)
      .select()
      .from(remittanceReceipts)
      .where(eq(remittanceReceipts.id, twice.id));
    expect(row).toMatchObject({
      voidedBy: consultant.id,
      voidReason: 'The bank returned the payment',
      amountCents: 50_000,
    });
    expect(row?.voidedAt).toEqual(clock);
    const again = await remove(`/api/remittance-receipts/${twice.id}`, { reason: 'Twice' });
    expect(again.statusCode).toBe(404);
    const missing = await get(`/api/employers/${employerId}/remittances?from=2026-03&to=2026-03`);
    expect(missing.json().items[0]).toMatchObject({ status: 'missing', receivedCents: 0 });
    const listed = await get(`/api/employers/${employerId}/remittance-receipts?month=2026-03`);
    expect(listed.json().items).toEqual([]);
    const [record] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'remittance_receipt.voided'), eq(auditLog.entityId, twice.id)),
      );
    expect(record?.previousState).toMatchObject({ month: '2026-03', amountCents: 50_000 });
    expect(JSON.stringify(record)).not.toContain('returned');
  });
});

describe('who may', () => {
  it('lets the employer’s own administrator record and read, and no one of another employer or firm', async () => {
    const ownAdmin = await createUser(t.database, {
      brokerId,
      employerId,
      role: 'EmployerAdmin',
    });
    const own = await receive('2026-05', '2026-06-02', 1_000, ownAdmin);
    expect((await get(`/api/employers/${employerId}/remittances`, ownAdmin)).statusCode).toBe(200);
    const removed = await remove(
      `/api/remittance-receipts/${own.id}`,
      { reason: 'Test' },
      ownAdmin,
    );
    expect(removed.statusCode).toBe(204);

    const elsewhere = await createEmployer(t.database, brokerId, 'Other Ltd');
    const otherAdmin = await createUser(t.database, {
      brokerId,
      employerId: elsewhere,
      role: 'EmployerAdmin',
    });
    const otherFirm = await createUser(t.database, { role: 'BrokerAdmin' });
    const receipt = await receive('2026-05', '2026-06-03', 1_000);
    const employerUser = await createUser(t.database, {
      brokerId,
      employerId,
      role: 'EmployerUser',
    });
    const member = await createUser(t.database, { brokerId, employerId, role: 'Member' });
    const before = await writableTableCounts(t.database);
    for (const stranger of [otherAdmin, otherFirm]) {
      const body = { month: '2026-05', receivedOn: '2026-06-03', amountCents: 1 };
      for (const response of [
        await post(`/api/employers/${employerId}/remittance-receipts`, body, stranger),
        await get(`/api/employers/${employerId}/remittance-receipts`, stranger),
        await get(`/api/employers/${employerId}/remittances`, stranger),
        await get(`/api/schemes/${dcSchemeId}/late-remittances`, stranger),
        await remove(`/api/remittance-receipts/${receipt.id}`, { reason: 'Not mine' }, stranger),
      ]) {
        expect(response.statusCode, response.body).toBe(404);
        expect(response.json()).toEqual({ error: 'Not found' });
      }
    }
    for (const outsider of [employerUser, member]) {
      expect((await get(`/api/employers/${employerId}/remittances`, outsider)).statusCode).toBe(
        403,
      );
      expect((await get(`/api/schemes/${dcSchemeId}/late-remittances`, outsider)).statusCode).toBe(
        403,
      );
    }
    expect(await writableTableCounts(t.database)).toEqual(before);
    await remove(`/api/remittance-receipts/${receipt.id}`, { reason: 'Test' });
  });

  it('records a platform read of the calendar in the firm’s chain', async () => {
    const platform = await createUser(t.database, { role: 'SuperAdmin' });
    const read = await get(`/api/employers/${employerId}/remittances`, platform);
    expect(read.statusCode).toBe(200);
    const [record] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'remittance.viewed'), eq(auditLog.entityId, employerId)));
    expect(record?.tenantId).toBe(brokerId);
    const written = await post(
      `/api/employers/${employerId}/remittance-receipts`,
      { month: '2026-05', receivedOn: '2026-06-03', amountCents: 1 },
      platform,
    );
    expect(written.statusCode).toBe(403);
  });
});

describe('the late-payment report of a scheme', () => {
  it('lists the months of a year received late or missing, with the days late, from the month the scheme was added', async () => {
    const report = await get(`/api/schemes/${dcSchemeId}/late-remittances?year=2026`);
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json()).toEqual({
      schemeId: dcSchemeId,
      employerId,
      year: '2026',
      countedFrom: '2026-01',
      items: [
        expect.objectContaining({ month: '2026-02', status: 'late', daysLate: 1 }),
        // Due 21 April 2026; 80 days have passed by 10 July.
        expect.objectContaining({ month: '2026-03', status: 'missing', daysLate: 80 }),
      ],
    });
    expect((await get(`/api/schemes/${dcSchemeId}/late-remittances`)).json().year).toBe('2026');
    expect(
      (await get(`/api/schemes/${dcSchemeId}/late-remittances?year=2025`)).json().items,
    ).toEqual([]);
  });

  it('reports a month missing only from the month the scheme was added, and a late one whatever its month', async () => {
    await ownerOf(t.database)
      .update(schemes)
      .set({ createdAt: new Date('2026-03-05T09:00:00Z') })
      .where(eq(schemes.id, dcSchemeId));
    const report = await get(`/api/schemes/${dcSchemeId}/late-remittances?year=2026`);
    expect(report.json()).toMatchObject({
      countedFrom: '2026-03',
      items: [
        expect.objectContaining({ month: '2026-02', status: 'late' }),
        expect.objectContaining({ month: '2026-03', status: 'missing' }),
      ],
    });
    await ownerOf(t.database)
      .update(schemes)
      .set({ createdAt: new Date('2026-04-01T09:00:00Z') })
      .where(eq(schemes.id, dcSchemeId));
    const later = await get(`/api/schemes/${dcSchemeId}/late-remittances?year=2026`);
    expect(later.json()).toMatchObject({
      countedFrom: '2026-04',
      items: [expect.objectContaining({ month: '2026-02', status: 'late' })],
    });
    await ownerOf(t.database)
      .update(schemes)
      .set({ createdAt: sql`'2026-01-15T09:00:00Z'::timestamptz` })
      .where(eq(schemes.id, dcSchemeId));
  });

  it('refuses a year that is not one', async () => {
    for (const year of ['26', '2026-01', 'next', '1949']) {
      const refused = await get(`/api/schemes/${dcSchemeId}/late-remittances?year=${year}`);
      expect(refused.statusCode, year).toBe(400);
      expect(refused.json()).toMatchObject(refusal('year'));
    }
  });
});
