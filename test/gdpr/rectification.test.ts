import { createId } from '@paralleldrive/cuid2';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  dataRequestRecipients,
  dataRequests,
  documents,
} from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { ownerOf, writableTableCounts } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createMember,
  createOpenDataRequest,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';

/**
 * A rectification request completed with the details corrected and the recipients of the old data
 * told (GDPR Art. 16 and 19; docs/decisions/0148-rectification-and-recipients.md), on a clock the
 * tests set: 10 March 2026.
 */
const clock = new Date('2026-03-10T10:00:00Z');
let t: TestApp;
let brokerId: string;
let memberId: string;
let otherMemberId: string;
let otherBrokerId: string;
let consultant: UserRow;
let employerAdmin: UserRow;
let otherFirmsAdmin: UserRow;

const post = (url: string, body: object, user: UserRow = consultant) =>
  t.requestAs(user, 'POST', url, body);
const get = (url: string, user: UserRow = consultant) => t.requestAs(user, 'GET', url);

async function recorded(kind: string, receivedOn = '2026-03-02') {
  const response = await post('/api/data-requests', { memberId, kind, receivedOn });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: string }).id;
}

const rowOf = async (id: string) =>
  (await ownerOf(t.database).select().from(dataRequests).where(eq(dataRequests.id, id)))[0];

const correction = {
  correctedFields: ['address', 'salary'],
  recipients: [
    { name: 'Corrib Foods Ltd payroll', toldOn: '2026-03-09' },
    { name: 'Irish Life, the insurer', toldOn: '2026-03-10' },
  ],
  note: 'Address and salary corrected on the member record',
};

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore(), now: () => clock });
  brokerId = await createBroker(t.database, 'Shannon Pensions');
  const employerId = await createEmployer(t.database, brokerId, 'Corrib Foods Ltd');
  const schemeId = await createScheme(t.database, { id: employerId, brokerId });
  memberId = (await createMember(t.database, { brokerId, employerId, schemeId })).id;
  consultant = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  employerAdmin = await createUser(t.database, { brokerId, employerId, role: 'EmployerAdmin' });
  await createUser(t.database, { brokerId, employerId, role: 'EmployerUser' });
  // Not counted: an employer account no longer active.
  await createUser(t.database, {
    brokerId,
    employerId,
    role: 'EmployerUser',
    status: 'deactivated',
  });
  // A benefit statement issued about the member on 2 February 2026.
  const issuedAt = new Date('2026-02-02T12:00:00Z');
  await ownerOf(t.database)
    .insert(documents)
    .values({
      id: createId(),
      brokerId,
      employerId,
      schemeId,
      memberId,
      documentType: 'benefit_statement',
      filename: 'Statement 2025.pdf',
      originalFilename: 'Statement 2025.pdf',
      title: null,
      memberFacing: true,
      contentType: 'application/pdf',
      size: 1,
      sha256: '0'.repeat(64),
      version: 1,
      scanStatus: 'unscanned',
      storageKey: `${brokerId}/${schemeId}/benefit_statement/Statement 2025.pdf/v1`,
      createdBy: consultant.id,
      createdAt: issuedAt,
      updatedAt: issuedAt,
    });
  otherBrokerId = await createBroker(t.database, 'Liffey Pensions');
  const otherEmployer = await createEmployer(t.database, otherBrokerId, 'Dodder Ltd');
  const otherScheme = await createScheme(t.database, {
    id: otherEmployer,
    brokerId: otherBrokerId,
  });
  otherMemberId = (
    await createMember(t.database, {
      brokerId: otherBrokerId,
      employerId: otherEmployer,
      schemeId: otherScheme,
    })
  ).id;
  otherFirmsAdmin = await createUser(t.database, { brokerId: otherBrokerId, role: 'BrokerAdmin' });
});
afterAll(() => t.close());

describe('a rectification request', () => {
  it('proposes the recipients the service knows of while it is open', async () => {
    const id = await recorded('rectification');
    const read = await get(`/api/data-requests/${id}/rectification`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({
      request: { id, kind: 'rectification', status: 'open', correctedFields: null },
      correctedFields: [],
      recipients: [],
      proposedRecipients: [
        {
          name: 'Corrib Foods Ltd, the employer (payroll and HR)',
          basis: '2 accounts of the employer can read the member’s record',
        },
        {
          name: 'Recipients of the documents issued about the member',
          basis: '1 document about the member on file, the latest issued on 2 Feb 2026',
        },
      ],
    });
  });

  it('is completed with the details corrected and the recipients told; the audit keeps names of details and a count', async () => {
    const id = await recorded('rectification');
    const done = await post(`/api/data-requests/${id}/rectification`, correction);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      request: {
        id,
        status: 'completed',
        closedOn: '2026-03-10',
        completionNote: correction.note,
        correctedFields: ['address', 'salary'],
        clock: { state: 'answered' },
      },
      correctedFields: ['address', 'salary'],
      recipients: correction.recipients,
    });
    // Read again, and in the register's list, as the page reads it.
    expect((await get(`/api/data-requests/${id}/rectification`)).json()).toMatchObject({
      correctedFields: ['address', 'salary'],
      recipients: correction.recipients,
    });
    const listed = (await get('/api/data-requests?status=completed&limit=100')).json() as {
      items: Array<{ id: string; correctedFields: string[] | null }>;
    };
    expect(listed.items.find((item) => item.id === id)?.correctedFields).toEqual([
      'address',
      'salary',
    ]);

    const [entry] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, id), eq(auditLog.action, 'data_request.completed')));
    expect(entry?.newState).toMatchObject({
      status: 'completed',
      correctedFields: ['address', 'salary'],
      recipientsTold: 2,
      completionNoteGiven: true,
    });
    const kept = JSON.stringify([entry?.previousState, entry?.newState]);
    expect(kept).not.toContain('Irish Life');
    expect(kept).not.toContain('payroll');
    expect(kept).not.toContain('Address and salary');

    // Closed: a second completion is refused and changes nothing.
    const again = await post(`/api/data-requests/${id}/rectification`, correction);
    expect(again.statusCode).toBe(409);
    expect(
      await ownerOf(t.database)
        .select()
        .from(dataRequestRecipients)
        .where(eq(dataRequestRecipients.dataRequestId, id)),
    ).toHaveLength(2);
  });

  it('may be completed with no recipient, where the data went to none', async () => {
    const id = await recorded('rectification');
    const done = await post(`/api/data-requests/${id}/rectification`, {
      correctedFields: ['date_of_birth'],
      recipients: [],
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ correctedFields: ['date_of_birth'], recipients: [] });
  });

  it('refuses bad input, other kinds, plain completion, others and other firms, changing nothing', async () => {
    const id = await recorded('rectification');
    const access = await recorded('access');
    const other = await createOpenDataRequest(t.database, {
      brokerId: otherBrokerId,
      memberId: otherMemberId,
    });
    const before = await writableTableCounts(t.database);
    const rowBefore = await rowOf(id);

    const refused: Array<[string, object, UserRow, number, string?]> = [
      [id, { ...correction, correctedFields: [] }, consultant, 400, 'correctedFields'],
      [id, { ...correction, correctedFields: ['shoe_size'] }, consultant, 400, 'correctedFields.0'],
      [
        id,
        { ...correction, correctedFields: ['name', 'name'] },
        consultant,
        400,
        'correctedFields',
      ],
      [
        id,
        { ...correction, recipients: [{ name: 'Payroll', toldOn: '2026-03-11' }] },
        consultant,
        400,
        'recipients.0.toldOn',
      ],
      [
        id,
        {
          ...correction,
          recipients: [
            { name: 'Payroll', toldOn: '2026-03-05' },
            { name: 'Insurer', toldOn: '2026-03-01' },
          ],
        },
        consultant,
        400,
        'recipients.1.toldOn',
      ],
      [
        id,
        { ...correction, recipients: [{ name: '', toldOn: '2026-03-05' }] },
        consultant,
        400,
        'recipients.0.name',
      ],
      [access, correction, consultant, 409],
      [id, correction, employerAdmin, 403],
      [other, correction, consultant, 404],
      [id, correction, otherFirmsAdmin, 404],
    ];
    for (const [target, body, user, status, path] of refused) {
      const response = await post(`/api/data-requests/${target}/rectification`, body, user);
      expect(response.statusCode, `${status} ${path ?? ''} ${response.body}`).toBe(status);
      if (path) {
        expect(response.json().issues.map((issue: { path: string }) => issue.path)).toContain(path);
      }
    }
    const messages = await post(`/api/data-requests/${id}/rectification`, {
      ...correction,
      recipients: [{ name: 'Payroll', toldOn: '2026-03-01' }],
    });
    expect(messages.json().issues[0].message).toBe(
      'The recipient cannot have been told of the correction before the request was received',
    );

    // A rectification is not completed without saying what was corrected.
    const plain = await post(`/api/data-requests/${id}/complete`, {});
    expect(plain.statusCode).toBe(409);
    expect(plain.json().error).toMatch(/which details were corrected and who was told/);
    // The proposal is for rectification requests only, and for the firm's own.
    expect((await get(`/api/data-requests/${access}/rectification`)).statusCode).toBe(409);
    expect((await get(`/api/data-requests/${other}/rectification`)).statusCode).toBe(404);
    expect((await get(`/api/data-requests/${id}/rectification`, employerAdmin)).statusCode).toBe(
      403,
    );

    expect(await writableTableCounts(t.database)).toEqual(before);
    expect(await rowOf(id)).toEqual(rowBefore);
  });
});
