import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELD_MESSAGES } from '../../src/contracts/plain-english.js';
import { auditLog, trustees } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { ownerOf, writableTableCounts } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';

/**
 * A trustee's contact details and the chair of the board through the API
 * (docs/decisions/0133-governance-registers-completed.md): the e-mail address and phone number are
 * kept in the register and shown with the trustee, never in the audit log or a log line; one
 * trustee chairs a scheme's board at a time, and naming another moves the chair.
 */
const clock = new Date('2025-06-01T10:00:00Z');
let t: TestApp;
let brokerId: string;
let employerId: string;
let consultant: UserRow;
let employerUser: UserRow;
let otherEmployerUser: UserRow;
let otherTenantAdmin: UserRow;

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore(), now: () => clock });
  brokerId = await createBroker(t.database, 'Slaney Pensions');
  employerId = await createEmployer(t.database, brokerId, 'Barrow Mills Ltd');
  const otherEmployerId = await createEmployer(t.database, brokerId, 'Suir Dairies Ltd');
  consultant = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  employerUser = await createUser(t.database, { brokerId, employerId, role: 'EmployerUser' });
  otherEmployerUser = await createUser(t.database, {
    brokerId,
    employerId: otherEmployerId,
    role: 'EmployerUser',
  });
  const otherTenant = await createBroker(t.database, 'Boyne Brokers');
  otherTenantAdmin = await createUser(t.database, { brokerId: otherTenant, role: 'BrokerAdmin' });
});
afterAll(() => t.close());

const as = (user: UserRow) => ({
  get: (url: string) => t.requestAs(user, 'GET', url),
  post: (url: string, body: object) => t.requestAs(user, 'POST', url, body),
  patch: (url: string, body: object) => t.requestAs(user, 'PATCH', url, body),
});
const broker = () => as(consultant);
const newScheme = () => createScheme(t.database, { id: employerId, brokerId }, 'Barrow Scheme');

interface Trustee {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  chair: boolean;
}

async function appointed(schemeId: string, body: object): Promise<Trustee> {
  const response = await broker().post(`/api/schemes/${schemeId}/trustees`, {
    kind: 'individual',
    appointedOn: '2023-04-01',
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function chairsOf(schemeId: string, history = false): Promise<string[]> {
  const response = await broker().get(
    `/api/schemes/${schemeId}/trustees${history ? '?includeHistory=true' : ''}`,
  );
  expect(response.statusCode, response.body).toBe(200);
  return (response.json().items as Trustee[])
    .filter((trustee) => trustee.chair)
    .map((trustee) => trustee.name);
}

const auditRecordsOf = (id: string) =>
  ownerOf(t.database)
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityType, 'trustee'), eq(auditLog.entityId, id)))
    .orderBy(auditLog.chainIndex);

describe('a trustee’s contact details', () => {
  it('are kept and shown with the trustee, changed and cleared, and read by the employer’s staff', async () => {
    const schemeId = await newScheme();
    const trustee = await appointed(schemeId, {
      name: 'Máire Ní Cheallaigh',
      email: 'maire.nicheallaigh@example.ie',
      phone: '+353 (0)87 123-4567',
    });
    expect(trustee).toMatchObject({
      email: 'maire.nicheallaigh@example.ie',
      phone: '+353 (0)87 123-4567',
      chair: false,
    });
    const changed = await broker().patch(`/api/trustees/${trustee.id}`, {
      phone: '01 234 5678',
      email: null,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ phone: '01 234 5678', email: null });
    const read = await as(employerUser).get(`/api/trustees/${trustee.id}`);
    expect(read.json()).toEqual(changed.json());
    const listed = await as(employerUser).get(`/api/schemes/${schemeId}/trustees`);
    expect(listed.json().items).toEqual([changed.json()]);
  });

  it('refuses a malformed address or number with a 400 naming the field, and changes nothing', async () => {
    const schemeId = await newScheme();
    const trustee = await appointed(schemeId, { name: 'Ciarán Breen', phone: '021 456 7890' });
    const before = await writableTableCounts(t.database);
    const phone = FIELD_MESSAGES.phone;
    const cases: Array<[object, string, string?]> = [
      [{ phone: 'call the office' }, 'phone', phone],
      [{ phone: '12 34' }, 'phone', phone],
      [{ phone: '+353 87 123 4567 8901' }, 'phone', phone],
      [{ phone: '0'.repeat(31) }, 'phone', phone],
      [{ phone: '087+1234567' }, 'phone', phone],
      [{ phone: '' }, 'phone', phone],
      [{ email: 'ciaran.breen' }, 'email', 'Enter an e-mail address, like name@example.ie'],
      [{ chair: 'yes' }, 'chair', 'Choose whether the trustee chairs the board'],
    ];
    for (const [field, path, message] of cases) {
      const created = await broker().post(`/api/schemes/${schemeId}/trustees`, {
        name: 'Nuala Hynes',
        kind: 'individual',
        appointedOn: '2024-01-01',
        ...field,
      });
      expect(created.statusCode, JSON.stringify(field)).toBe(400);
      expect(created.json().issues, JSON.stringify(field)).toEqual([
        expect.objectContaining({ path, message }),
      ]);
      const changed = await broker().patch(`/api/trustees/${trustee.id}`, field);
      expect(changed.statusCode, JSON.stringify(field)).toBe(400);
      expect(changed.json().issues[0], JSON.stringify(field)).toMatchObject({ path, message });
    }
    expect(await writableTableCounts(t.database)).toEqual(before);
    expect((await broker().get(`/api/trustees/${trustee.id}`)).json()).toMatchObject({
      phone: '021 456 7890',
      email: null,
    });
  });

  it('never reach the audit log or a log line', async () => {
    const schemeId = await newScheme();
    const email = 'orla.devaney@example.ie';
    const phone = '+353 86 765 4321';
    const trustee = await appointed(schemeId, { name: 'Órla Devaney', email, phone, chair: true });
    await broker().patch(`/api/trustees/${trustee.id}`, {
      email: 'o.devaney@example.ie',
      phone: '086 111 2222',
    });
    // A refusal that repeats nothing it was sent, logged or not.
    await broker().patch(`/api/trustees/${trustee.id}`, { phone: '086 111 2222 333 444 555' });
    const records = await auditRecordsOf(trustee.id);
    expect(records.map((record) => record.action)).toEqual([
      'trustee.appointed',
      'trustee.updated',
    ]);
    expect(records[1]?.newState).toMatchObject({ changedFields: ['email', 'phone'], chair: true });
    const everything = JSON.stringify(await ownerOf(t.database).select().from(auditLog));
    const logs = t.logs.text();
    for (const value of [email, phone, 'o.devaney@example.ie', '086 111 2222', 'devaney']) {
      expect(everything).not.toContain(value);
      expect(logs).not.toContain(value);
    }
  });
});

describe('the chair of the board', () => {
  it('moves when another trustee is named chair: one chair a scheme at a time, each change audited', async () => {
    const schemeId = await newScheme();
    const first = await appointed(schemeId, { name: 'Aodhán Kiely', chair: true });
    expect(first.chair).toBe(true);
    // A trustee appointed as chair takes the chair from the one who held it.
    const second = await appointed(schemeId, { name: 'Bríd Counihan', chair: true });
    expect(second.chair).toBe(true);
    expect(await chairsOf(schemeId)).toEqual(['Bríd Counihan']);
    // And a trustee named chair later takes it back.
    const back = await broker().patch(`/api/trustees/${first.id}`, { chair: true });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json().chair).toBe(true);
    expect(await chairsOf(schemeId)).toEqual(['Aodhán Kiely']);
    // Naming the chair again changes nothing else.
    await broker().patch(`/api/trustees/${first.id}`, { chair: true });
    expect(await chairsOf(schemeId)).toEqual(['Aodhán Kiely']);
    // The board may be left with no chair.
    await broker().patch(`/api/trustees/${first.id}`, { chair: false });
    expect(await chairsOf(schemeId)).toEqual([]);

    const ofSecond = await auditRecordsOf(second.id);
    expect(ofSecond.map((record) => [record.action, record.newState])).toEqual([
      ['trustee.appointed', expect.objectContaining({ chair: true })],
      ['trustee.updated', expect.objectContaining({ chair: false, changedFields: ['chair'] })],
    ]);
    const ofFirst = await auditRecordsOf(first.id);
    expect(ofFirst.map((record) => (record.newState as { chair: boolean }).chair)).toEqual([
      true,
      false,
      true,
      true,
      false,
    ]);
  });

  it('is held by a serving trustee only: an ended appointment ends the chair, and ended or future trustees are refused it', async () => {
    const schemeId = await newScheme();
    const chair = await appointed(schemeId, { name: 'Caoimhe Fahy', chair: true });
    const future = await appointed(schemeId, { name: 'Dónal Rafferty', appointedOn: '2025-07-01' });
    const ended = await appointed(schemeId, { name: 'Éanna Walsh', endedOn: '2025-05-31' });
    const before = await writableTableCounts(t.database);
    for (const [trustee, message] of [
      [future, 'A trustee chairs the board once appointed: this one is appointed from 1 Jul 2025'],
      [ended, 'A trustee whose appointment has ended cannot chair the board'],
    ] as const) {
      const refused = await broker().patch(`/api/trustees/${trustee.id}`, { chair: true });
      expect(refused.statusCode, trustee.name).toBe(400);
      expect(refused.json().issues).toEqual([
        expect.objectContaining({ path: 'chair', code: 'chair_not_serving', message }),
      ]);
    }
    const appointedAsChair = await broker().post(`/api/schemes/${schemeId}/trustees`, {
      name: 'Fiachra Lynch',
      kind: 'individual',
      appointedOn: '2025-09-01',
      chair: true,
    });
    expect(appointedAsChair.statusCode).toBe(400);
    expect(appointedAsChair.json().issues[0]).toMatchObject({ path: 'chair' });
    expect(await writableTableCounts(t.database)).toEqual(before);
    expect(await chairsOf(schemeId)).toEqual(['Caoimhe Fahy']);

    // Ending the chair's appointment today ends the chair with it: shown as chair no longer.
    const ending = await broker().patch(`/api/trustees/${chair.id}`, { endedOn: '2025-06-01' });
    expect(ending.statusCode, ending.body).toBe(200);
    expect(ending.json().chair).toBe(false);
    expect(await chairsOf(schemeId, true)).toEqual([]);
    // An end still to come leaves the chair where it is until then.
    const next = await broker().patch(`/api/trustees/${future.id}`, { appointedOn: '2025-01-01' });
    expect(next.statusCode, next.body).toBe(200);
    await broker().patch(`/api/trustees/${future.id}`, { chair: true, endedOn: '2025-12-31' });
    expect(await chairsOf(schemeId)).toEqual(['Dónal Rafferty']);
  });

  it('is named by one of two at once: both served in turn, one chair at the end', async () => {
    const schemeId = await newScheme();
    await appointed(schemeId, { name: 'Gobnait Ward', chair: true });
    const a = await appointed(schemeId, { name: 'Hugh Corrigan' });
    const b = await appointed(schemeId, { name: 'Íde Maher' });
    const answers = await Promise.all([
      broker().patch(`/api/trustees/${a.id}`, { chair: true }),
      broker().patch(`/api/trustees/${b.id}`, { chair: true }),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect(await chairsOf(schemeId)).toHaveLength(1);
  });

  it('is kept to one at the database too', async () => {
    const schemeId = await newScheme();
    await appointed(schemeId, { name: 'Labhrás Deasy', chair: true });
    const other = await appointed(schemeId, { name: 'Muireann Begley' });
    await expect(
      ownerOf(t.database).update(trustees).set({ chair: true }).where(eq(trustees.id, other.id)),
    ).rejects.toThrow();
  });

  it('is not named on another firm’s trustee, nor by staff of another employer', async () => {
    const schemeId = await newScheme();
    const chair = await appointed(schemeId, { name: 'Nóirín Tobin', chair: true });
    const other = await appointed(schemeId, { name: 'Oisín Hurley' });
    const before = await writableTableCounts(t.database);
    for (const user of [otherTenantAdmin, otherEmployerUser]) {
      const refused = await as(user).patch(`/api/trustees/${other.id}`, { chair: true });
      expect(refused.statusCode, user.role).toBe(user === otherTenantAdmin ? 404 : 403);
      expect((await as(user).get(`/api/trustees/${chair.id}`)).statusCode, user.role).toBe(404);
    }
    expect(await writableTableCounts(t.database)).toEqual(before);
    expect(await chairsOf(schemeId)).toEqual(['Nóirín Tobin']);
  });
});
