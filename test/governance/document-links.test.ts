import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, documents, writtenPolicies } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { ownerOf, writableTableCounts } from '../helpers/database.js';
import { documentForm, SAMPLES } from '../helpers/documents.js';
import {
  createBroker,
  createEmployer,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';

/**
 * Links from the governance registers to their documents (docs/decisions/0064-document-links-and-documents-tab.md):
 * a written policy, an ORA report and a key function appointment point at a
 * document of their own scheme and type; a deleted document reads as removed.
 */
const clock = new Date('2026-03-02T10:00:00Z');
let t: TestApp;
let brokerId: string;
let employerId: string;
let consultant: UserRow;
let employerUser: UserRow;
let otherTenantStaff: UserRow;
let otherTenantScheme: string;

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore(), now: () => clock });
  brokerId = await createBroker(t.database, 'Liffey Pensions');
  employerId = await createEmployer(t.database, brokerId, 'Dodder Engineering Ltd');
  consultant = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  employerUser = await createUser(t.database, { brokerId, employerId, role: 'EmployerUser' });
  const otherBroker = await createBroker(t.database, 'Other Brokers');
  const otherEmployer = await createEmployer(t.database, otherBroker);
  otherTenantScheme = await createScheme(t.database, { id: otherEmployer, brokerId: otherBroker });
  otherTenantStaff = await createUser(t.database, { brokerId: otherBroker, role: 'BrokerAdmin' });
});
afterAll(() => t.close());

const newScheme = () => createScheme(t.database, { id: employerId, brokerId }, 'Dodder Scheme');
const as = (user: UserRow) => ({
  get: (url: string) => t.requestAs(user, 'GET', url),
  post: (url: string, body: object) => t.requestAs(user, 'POST', url, body),
  patch: (url: string, body: object) => t.requestAs(user, 'PATCH', url, body),
  delete: (url: string) => t.requestAs(user, 'DELETE', url),
});
const broker = () => as(consultant);
/** Where the trustees' decision to approve a policy is recorded: asked with every approval. */
const MINUTE = 'Board meeting, minute 4.2';

async function uploaded(
  schemeId: string,
  documentType: string,
  filename = 'Risk policy – signed.pdf',
  user = consultant,
) {
  const form = documentForm(filename, SAMPLES.pdf, { documentType });
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/schemes/${schemeId}/documents`,
    remoteAddress: uniqueClientAddress(),
    headers: { ...form.headers, authorization: `Bearer ${await t.tokenFor(user)}` },
    payload: form.payload,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; filename: string; version: number };
}

async function draftPolicy(schemeId: string, body: object = {}) {
  const response = await broker().post(`/api/schemes/${schemeId}/policies`, {
    kind: 'risk_management',
    title: 'Risk management policy',
    version: '1.0',
    ...body,
  });
  return response;
}

describe('linking a written policy to its document', () => {
  it('links on create, shows the document, unlinks with null, and audits only ids', async () => {
    const schemeId = await newScheme();
    const document = await uploaded(schemeId, 'written_policy');
    const drafted = await draftPolicy(schemeId, { documentId: document.id });
    expect(drafted.statusCode, drafted.body).toBe(201);
    expect(drafted.json()).toMatchObject({
      documentId: document.id,
      documentRemoved: false,
      document: {
        id: document.id,
        documentType: 'written_policy',
        filename: document.filename,
        version: 1,
        scanStatus: 'unscanned',
      },
    });
    const policyId = drafted.json().id as string;
    const listed = await as(employerUser).get(`/api/schemes/${schemeId}/policies`);
    expect(listed.json().items[0].document.id).toBe(document.id);

    const unlinked = await broker().patch(`/api/policies/${policyId}`, { documentId: null });
    expect(unlinked.statusCode, unlinked.body).toBe(200);
    expect(unlinked.json()).toMatchObject({
      documentId: null,
      document: null,
      documentRemoved: false,
    });

    const records = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, policyId));
    const updated = records.find((record) => record.action === 'policy.updated');
    expect(updated?.previousState).toMatchObject({ documentId: document.id });
    expect(updated?.newState).toMatchObject({ documentId: null, changedFields: ['documentId'] });
    expect(JSON.stringify(records)).not.toMatch(/Risk policy|signed\.pdf/);
  });

  it('changes the link of the version in use, but nothing else of it and nothing of a superseded one', async () => {
    const schemeId = await newScheme();
    const first = (await draftPolicy(schemeId)).json().id as string;
    expect(
      (
        await broker().post(`/api/policies/${first}/approve`, {
          approvedOn: '2026-01-10',
          approvalReference: MINUTE,
        })
      ).statusCode,
    ).toBe(200);
    const signed = await uploaded(schemeId, 'written_policy', 'Signed risk policy.pdf');
    const linked = await broker().patch(`/api/policies/${first}`, { documentId: signed.id });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json()).toMatchObject({ status: 'approved', documentId: signed.id });
    const retitled = await broker().patch(`/api/policies/${first}`, {
      title: 'Renamed',
      documentId: null,
    });
    expect(retitled.statusCode).toBe(409);

    const second = (await draftPolicy(schemeId, { version: '2.0' })).json().id as string;
    await broker().post(`/api/policies/${second}/approve`, {
      approvedOn: '2026-02-10',
      approvalReference: MINUTE,
    });
    const superseded = await broker().patch(`/api/policies/${first}`, { documentId: null });
    expect(superseded.statusCode).toBe(409);
    expect(superseded.json().error).toMatch(/superseded/i);
  });

  it('refuses a document of another scheme of the firm with a 400 that says so', async () => {
    const schemeId = await newScheme();
    const elsewhere = await uploaded(await newScheme(), 'written_policy');
    const response = await draftPolicy(schemeId, { documentId: elsewhere.id });
    expect(response.statusCode).toBe(400);
    expect(response.json().issues).toEqual([
      expect.objectContaining({ path: 'documentId', code: 'document_of_another_scheme' }),
    ]);
    expect(response.json().issues[0].message).toMatch(/another scheme/);
  });

  it('answers for another firm’s document exactly as for a document that does not exist', async () => {
    const schemeId = await newScheme();
    const foreign = await uploaded(otherTenantScheme, 'written_policy', 'x.pdf', otherTenantStaff);
    const policyId = (await draftPolicy(schemeId)).json().id as string;
    const toForeign = await broker().patch(`/api/policies/${policyId}`, {
      documentId: foreign.id,
    });
    const toNothing = await broker().patch(`/api/policies/${policyId}`, {
      documentId: 'nosuchdocument0000000000',
    });
    expect(toForeign.statusCode).toBe(400);
    expect(toForeign.json().issues).toEqual(toNothing.json().issues);
    expect(toForeign.json().issues[0].code).toBe('unknown_document');
    expect(JSON.stringify(toForeign.json())).not.toContain(foreign.id);
  });

  it('refuses a document of another type, naming the type to use', async () => {
    const schemeId = await newScheme();
    const deed = await uploaded(schemeId, 'trust_deed');
    const response = await draftPolicy(schemeId, { documentId: deed.id });
    expect(response.statusCode).toBe(400);
    expect(response.json().issues[0]).toMatchObject({
      code: 'document_type_mismatch',
      message: 'Link a document uploaded as “Written policy”',
    });
  });

  it('refuses a quarantined document: it is never served, so never offered through a link', async () => {
    const schemeId = await newScheme();
    const infected = await uploaded(schemeId, 'written_policy');
    await ownerOf(t.database)
      .update(documents)
      .set({ scanStatus: 'quarantined' })
      .where(eq(documents.id, infected.id));
    const response = await draftPolicy(schemeId, { documentId: infected.id });
    expect(response.statusCode).toBe(400);
    expect(response.json().issues[0].code).toBe('document_quarantined');
  });

  it('reads a link to a document deleted since as removed, not as never linked', async () => {
    const schemeId = await newScheme();
    const document = await uploaded(schemeId, 'written_policy');
    const policyId = (await draftPolicy(schemeId, { documentId: document.id })).json().id as string;
    expect((await broker().delete(`/api/documents/${document.id}`)).statusCode).toBe(204);
    const read = await broker().get(`/api/policies/${policyId}`);
    expect(read.json()).toMatchObject({ documentId: null, document: null, documentRemoved: true });
    // The stored link is kept, so the register's history still says which document it was.
    const [row] = await ownerOf(t.database)
      .select({ documentId: writtenPolicies.documentId })
      .from(writtenPolicies)
      .where(eq(writtenPolicies.id, policyId));
    expect(row?.documentId).toBe(document.id);
  });
});

describe('linking ORA reports and key function appointments', () => {
  it('links an ORA report to its report on create and on change', async () => {
    const schemeId = await newScheme();
    const report = await uploaded(schemeId, 'ora_report', 'ORA 2026.pdf');
    const created = await broker().post(`/api/schemes/${schemeId}/ora-reports`, {
      performedOn: '2026-02-01',
      trigger: 'scheduled',
      documentId: report.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().document.id).toBe(report.id);
    const id = created.json().id as string;
    const unlinked = await broker().patch(`/api/ora-reports/${id}`, { documentId: null });
    expect(unlinked.json().documentId).toBeNull();
    const relinked = await broker().patch(`/api/ora-reports/${id}`, { documentId: report.id });
    expect(relinked.json().documentId).toBe(report.id);
    expect(
      (await broker().get(`/api/schemes/${schemeId}/ora-reports`)).json().items[0],
    ).toMatchObject({ documentId: report.id });
    const wrongType = await broker().patch(`/api/ora-reports/${id}`, {
      documentId: (await uploaded(schemeId, 'written_policy')).id,
    });
    expect(wrongType.statusCode).toBe(400);
  });

  it('links a key function appointment to its letter; an audit of the change holds only ids', async () => {
    const schemeId = await newScheme();
    const letter = await uploaded(schemeId, 'kfh_appointment', 'Appointment – Órla Quigley.pdf');
    const created = await broker().post(`/api/schemes/${schemeId}/key-function-holders`, {
      function: 'risk_management',
      holderName: 'Órla Quigley',
      appointedOn: '2025-01-01',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ documentId: null, documentRemoved: false });
    const id = created.json().id as string;
    const linked = await broker().patch(`/api/key-function-holders/${id}`, {
      documentId: letter.id,
    });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json().document).toMatchObject({
      id: letter.id,
      documentType: 'kfh_appointment',
    });
    const listed = await broker().get(`/api/schemes/${schemeId}/key-function-holders`);
    expect(listed.json().items[0].documentId).toBe(letter.id);
    const records = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(inArray(auditLog.entityId, [id, letter.id]));
    expect(records.find((record) => record.action === 'kfh.updated')?.newState).toMatchObject({
      documentId: letter.id,
      changedFields: ['documentId'],
    });
    expect(JSON.stringify(records)).not.toMatch(/Órla|Quigley|Appointment/);
  });

  it('links a key function holder to the letter when appointing, and refuses any other document with nothing written', async () => {
    const schemeId = await newScheme();
    const letter = await uploaded(schemeId, 'kfh_appointment', 'Appointment – Tomás Carey.pdf');
    const appointment = {
      function: 'internal_audit',
      holderName: 'Tomás Carey',
      appointedOn: '2026-02-01',
    };
    const before = await writableTableCounts(t.database);
    const refusals: Array<[string, string]> = [
      [(await uploaded(schemeId, 'written_policy')).id, 'document_type_mismatch'],
      [
        (await uploaded(await newScheme(), 'kfh_appointment', 'Elsewhere.pdf')).id,
        'document_of_another_scheme',
      ],
      [
        (await uploaded(otherTenantScheme, 'kfh_appointment', 'x.pdf', otherTenantStaff)).id,
        'unknown_document',
      ],
    ];
    const afterUploads = await writableTableCounts(t.database);
    expect(afterUploads.key_function_holders).toBe(before.key_function_holders);
    for (const [documentId, code] of refusals) {
      const refused = await broker().post(`/api/schemes/${schemeId}/key-function-holders`, {
        ...appointment,
        documentId,
      });
      expect(refused.statusCode, code).toBe(400);
      expect(refused.json().issues).toEqual([
        expect.objectContaining({ path: 'documentId', code }),
      ]);
    }
    expect(await writableTableCounts(t.database)).toEqual(afterUploads);

    const appointed = await broker().post(`/api/schemes/${schemeId}/key-function-holders`, {
      ...appointment,
      documentId: letter.id,
    });
    expect(appointed.statusCode, appointed.body).toBe(201);
    expect(appointed.json()).toMatchObject({
      documentId: letter.id,
      document: { id: letter.id, documentType: 'kfh_appointment', filename: letter.filename },
      documentRemoved: false,
    });
    // Shown on the holder's row, to the employer's staff too.
    const listed = await as(employerUser).get(`/api/schemes/${schemeId}/key-function-holders`);
    expect(listed.json().items).toEqual([appointed.json()]);
  });

  it('keeps a link to another scheme out at the database too', async () => {
    const schemeId = await newScheme();
    const elsewhere = await uploaded(await newScheme(), 'written_policy');
    const policyId = (await draftPolicy(schemeId)).json().id as string;
    await expect(
      ownerOf(t.database)
        .update(writtenPolicies)
        .set({ documentId: elsewhere.id })
        .where(eq(writtenPolicies.id, policyId)),
    ).rejects.toThrow();
  });
});
