import { createHash } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DRAFT_SYSTEM_PROMPT } from '../../src/server/modules/ai/draft-templates.rules.js';
import { auditLog, documents } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { ownerOf } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createKeyFunctionHolder,
  createMember,
  createPolicy,
  createScheme,
  createTrustee,
  createUser,
  type SchemeRef,
  type UserRow,
} from '../helpers/factories.js';
import { type FakeProvider, messageText, startFakeProvider } from '../helpers/fake-ai-provider.js';
import { flowing, readPdf } from '../helpers/pdf-text.js';

/**
 * Drafts of governance writing (docs/decisions/0067-ai-drafts.md): written from scheme facts only,
 * and taken through draft → reviewed → approved → issued, each step audited, only approved text
 * issued.
 */
const GENERATED = [
  '1. Purpose',
  'The trustees manage risk.',
  '2. Scope',
  'All providers.',
  '3. Review',
  'Every three years.',
].join('\n');

let fake: FakeProvider;
let t: TestApp;
let brokerId: string;
let scheme: SchemeRef;
let consultant: UserRow;
/** Four eyes (on outside development): a reviewer and an approver besides the author. */
let reviewer: UserRow;
let approver: UserRow;
let employerUser: UserRow;
let outsider: UserRow;

beforeAll(async () => {
  fake = await startFakeProvider();
  t = await buildTestApp({
    counters: uncountedStore(),
    env: {
      AI_PROVIDER: 'openai',
      AI_API_KEY: 'platform-provider-key-0002',
      AI_MODEL: 'fake-model',
      AI_BASE_URL: fake.baseUrl,
      AI_RETRY_BASE_MS: '1',
    },
  });
  brokerId = await createBroker(t.database, 'Barrow Trustees Ltd');
  const employerId = await createEmployer(t.database, brokerId, 'Nore Mills Ltd');
  const schemeId = await createScheme(
    t.database,
    { id: employerId, brokerId },
    'Nore Mills Scheme',
  );
  scheme = { brokerId, employerId, schemeId };
  consultant = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  reviewer = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  approver = await createUser(t.database, { brokerId, role: 'BrokerAdmin' });
  employerUser = await createUser(t.database, { brokerId, employerId, role: 'EmployerUser' });
  const otherBroker = await createBroker(t.database, 'Suir Pensions');
  outsider = await createUser(t.database, { brokerId: otherBroker, role: 'BrokerAdmin' });

  await createTrustee(t.database, scheme, { name: 'Ciaran Trusteename' });
  await createTrustee(t.database, scheme, {
    name: 'Nore Trustee Services DAC',
    kind: 'corporate',
    directorCount: 3,
  });
  await createKeyFunctionHolder(t.database, scheme, {
    function: 'risk_management',
    holderName: 'Grainne Holdername',
    holderEmail: 'grainne.holder@example.ie',
  });
  await createPolicy(t.database, scheme, { kind: 'risk_management', status: 'approved' });
  for (const lastName of ['Kavanagh', 'Brennan', 'Doyle']) {
    await createMember(t.database, scheme, { firstName: 'Padraig', lastName });
  }
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.reply = () => ({ text: GENERATED });
});

const post = (user: UserRow, url: string, body?: object) => t.requestAs(user, 'POST', url, body);

async function newDraft(kind = 'written_policy', policyKind: string | null = 'risk_management') {
  const response = await post(consultant, '/api/ai/drafts', {
    schemeId: scheme.schemeId,
    kind,
    ...(policyKind ? { policyKind } : {}),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; content: string; status: string; generatedBy: string };
}

describe('a draft', () => {
  it('is written by the provider from scheme-level facts, with no name, e-mail, PPS number or salary sent', async () => {
    const draft = await newDraft();
    expect(draft).toMatchObject({
      status: 'draft',
      generatedBy: 'ai',
      kind: 'written_policy',
      policyKind: 'risk_management',
    });
    expect(draft.content.split('\n')[0]).toMatch(/^DRAFT WRITTEN BY AI/);
    expect(draft.content).toContain(GENERATED);

    expect(fake.requests).toHaveLength(1);
    const [sent] = fake.requests;
    expect(messageText(sent as never, 'system')).toBe(DRAFT_SYSTEM_PROMPT);
    const facts = messageText(sent as never, 'user');
    expect(facts).toContain('Trustees: 1 individual, 1 corporate (3 directors in all)');
    expect(facts).toContain('Size: fewer than 10 members');
    expect(facts).toContain('Key function held: Risk management (fitness and probity confirmed)');
    expect(facts).toContain(
      'Policy on record: Risk management policy, approved, approved 2024-01-15',
    );
    for (const personal of [
      'Ciaran',
      'Trusteename',
      'Grainne',
      'Holdername',
      'grainne.holder@example.ie',
      'Padraig',
      'Kavanagh',
      'Nore Mills',
      '55000',
      '1985',
    ]) {
      expect(sent?.body).not.toContain(personal);
    }
  });

  it('has the placeholders the scheme’s record can fill filled in after it is written, the names never sent', async () => {
    fake.reply = () => ({
      text: 'Policy of [scheme name], for [Employer Name], a [scheme type] scheme; approved on [date].',
    });
    const draft = await newDraft();
    expect(draft.content).toContain(
      'Policy of Nore Mills Scheme, for Nore Mills Ltd, a Defined contribution scheme; approved on [date].',
    );
    expect(fake.requests[0]?.body).not.toContain('Nore Mills');
  });

  it('goes draft → reviewed → approved → issued, only approved text is issued, and every step is audited', async () => {
    const draft = await newDraft();
    const url = `/api/ai/drafts/${draft.id}`;

    // Not yet approved: nothing is issued, and approval needs a review first.
    expect((await post(consultant, `${url}/issue`)).statusCode).toBe(409);
    expect((await post(approver, `${url}/approve`)).statusCode).toBe(409);

    const edited = `${draft.content.replace('All providers.', 'All service providers, including IT.')}Signed: Chair of the trustees\n`;
    const patched = await t.requestAs(consultant, 'PATCH', url, { content: edited });
    expect(patched.statusCode, patched.body).toBe(200);
    // The generated text stays beside the edited one, so the edits can be compared before approval.
    expect(patched.json()).toMatchObject({
      status: 'draft',
      content: edited,
      generatedContent: draft.content,
    });
    expect((await t.requestAs(consultant, 'GET', url)).json().generatedContent).toBe(draft.content);

    const reviewed = await post(reviewer, `${url}/review`);
    expect(reviewed.json()).toMatchObject({ status: 'reviewed' });
    expect(reviewed.json().reviewedAt).not.toBeNull();
    expect((await post(consultant, `${url}/issue`)).statusCode).toBe(409);

    const approved = await post(approver, `${url}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    // The banner and its blank line leave the text at approval, with the one line changed.
    const approvedText = edited.split('\n').slice(2).join('\n');
    expect(approved.json()).toMatchObject({
      status: 'approved',
      content: approvedText,
      approvedDiff: { added: 2, removed: 3 },
    });
    expect(approved.json().approvedDiff.lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^- DRAFT WRITTEN BY AI/),
        '- All providers.',
        '+ All service providers, including IT.',
        '+ Signed: Chair of the trustees',
      ]),
    );
    // Approved text is fixed.
    expect(
      (await t.requestAs(consultant, 'PATCH', url, { content: 'Other text' })).statusCode,
    ).toBe(409);

    const issued = await post(consultant, `${url}/issue`);
    expect(issued.statusCode, issued.body).toBe(200);
    expect(issued.json()).toMatchObject({
      status: 'issued',
      content: approvedText,
      generatedContent: draft.content,
    });
    const policyId = issued.json().issuedPolicyId as string;
    const documentId = issued.json().issuedDocumentId as string;
    const policy = await t.requestAs(consultant, 'GET', `/api/policies/${policyId}`);
    expect(policy.json()).toMatchObject({
      kind: 'risk_management',
      status: 'draft',
      version: '2.0',
      documentId,
    });
    expect((await post(consultant, `${url}/issue`)).statusCode).toBe(409);
    expect((await t.requestAs(consultant, 'GET', url)).json().issuedDocumentId).toBe(documentId);

    const trail = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, brokerId), eq(auditLog.entityId, draft.id)))
      .orderBy(asc(auditLog.chainIndex));
    expect(trail.map((entry) => entry.action)).toEqual([
      'ai.draft_created',
      'ai.draft_edited',
      'ai.draft_reviewed',
      'ai.draft_approved',
      'ai.draft_issued',
    ]);
    expect(JSON.stringify(trail)).not.toContain('All service providers');
    const [policyAudit] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, policyId), eq(auditLog.action, 'policy.drafted')));
    expect(policyAudit?.newState).toMatchObject({ fromDraftId: draft.id, documentId });
    const [documentAudit] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, documentId), eq(auditLog.action, 'document.uploaded')));
    expect(documentAudit?.newState).toMatchObject({
      id: documentId,
      documentType: 'written_policy',
    });
    expect(JSON.stringify(documentAudit)).not.toMatch(/risk-management|All service providers/);
  });

  it('records reordered lines at approval as removed and added, in the draft and in its audit record', async () => {
    const draft = await newDraft('ora_outline', null);
    const url = `/api/ai/drafts/${draft.id}`;
    // Sections 2 and 3 exchanged: every line is still there, two of them in another place.
    const reordered = draft.content.replace(
      '2. Scope\nAll providers.\n3. Review\nEvery three years.',
      '3. Review\nEvery three years.\n2. Scope\nAll providers.',
    );
    expect(reordered).not.toBe(draft.content);
    expect((await t.requestAs(consultant, 'PATCH', url, { content: reordered })).statusCode).toBe(
      200,
    );
    expect((await post(reviewer, `${url}/review`)).statusCode).toBe(200);
    const approved = await post(approver, `${url}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);

    // The banner and its blank line leave at approval; the moved section is taken out where it
    // stood and put in where it now stands, as the reviewer's comparison showed it.
    const recorded = approved.json().approvedDiff;
    expect(recorded).toMatchObject({ removed: 4, added: 2, unchanged: 4 });
    expect(recorded.lines.slice(2)).toEqual([
      '  1. Purpose',
      '  The trustees manage risk.',
      '- 2. Scope',
      '- All providers.',
      '  3. Review',
      '  Every three years.',
      '+ 2. Scope',
      '+ All providers.',
    ]);

    const [audited] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, draft.id), eq(auditLog.action, 'ai.draft_approved')));
    expect(audited?.newState).toMatchObject({
      status: 'approved',
      approvedLines: { removed: 4, added: 2, unchanged: 4 },
    });
    expect(audited?.previousState).not.toHaveProperty('approvedLines');
    // Counts only: the words stay on the draft, out of the audit chain.
    expect(JSON.stringify(audited)).not.toMatch(/All providers|Every three years/);
  });

  it('needs a new review after an edit of a reviewed draft', async () => {
    const draft = await newDraft('ora_outline', null);
    const url = `/api/ai/drafts/${draft.id}`;
    await post(reviewer, `${url}/review`);
    const edited = await t.requestAs(consultant, 'PATCH', url, { content: 'Changed after review' });
    expect(edited.json()).toMatchObject({ status: 'draft', reviewedAt: null });
    expect((await post(approver, `${url}/approve`)).statusCode).toBe(409);
  });

  it('is read by the employer’s people, written by staff, and is not found by another firm', async () => {
    const draft = await newDraft('kfh_appointment_letter', null);
    expect((await t.requestAs(employerUser, 'GET', `/api/ai/drafts/${draft.id}`)).statusCode).toBe(
      200,
    );
    const list = await t.requestAs(
      employerUser,
      'GET',
      `/api/schemes/${scheme.schemeId}/ai/drafts`,
    );
    expect(list.json().items.map((item: { id: string }) => item.id)).toContain(draft.id);
    expect(
      (
        await post(employerUser, '/api/ai/drafts', {
          schemeId: scheme.schemeId,
          kind: 'ora_outline',
        })
      ).statusCode,
    ).toBe(403);
    expect((await t.requestAs(outsider, 'GET', `/api/ai/drafts/${draft.id}`)).statusCode).toBe(404);
    expect((await post(outsider, `/api/ai/drafts/${draft.id}/review`)).statusCode).toBe(404);
    expect(
      (await post(outsider, '/api/ai/drafts', { schemeId: scheme.schemeId, kind: 'ora_outline' }))
        .statusCode,
    ).toBe(403);
  });

  it('names its policy kind exactly when it is a written policy', async () => {
    for (const body of [
      { schemeId: scheme.schemeId, kind: 'written_policy' },
      { schemeId: scheme.schemeId, kind: 'ora_outline', policyKind: 'risk_management' },
    ]) {
      expect((await post(consultant, '/api/ai/drafts', body)).statusCode).toBe(400);
    }
    expect(fake.requests).toHaveLength(0);
  });
});

describe('an issued draft', () => {
  async function approvedDraft(kind: string, policyKind: string | null, content: string) {
    const draft = await newDraft(kind, policyKind);
    const url = `/api/ai/drafts/${draft.id}`;
    expect((await t.requestAs(consultant, 'PATCH', url, { content })).statusCode).toBe(200);
    expect((await post(reviewer, `${url}/review`)).statusCode).toBe(200);
    expect((await post(approver, `${url}/approve`)).statusCode).toBe(200);
    return url;
  }

  async function pdfOf(documentId: string): Promise<Buffer> {
    const signed = await t.requestAs(consultant, 'GET', `/api/documents/${documentId}/url`);
    expect(signed.statusCode, signed.body).toBe(200);
    const file = await t.app.inject({
      method: 'GET',
      url: new URL(signed.json().url).pathname,
      remoteAddress: uniqueClientAddress(),
    });
    expect(file.statusCode).toBe(200);
    return file.rawPayload;
  }

  it.each([
    ['written_policy', 'written_policy', 'outsourcing', 'Outsourcing policy'],
    ['ora_outline', 'ora_report', null, 'Own-risk assessment: outline'],
    [
      'kfh_appointment_letter',
      'kfh_appointment',
      null,
      'Key function holder: letter of appointment',
    ],
  ])(
    'of kind %s is stored as a tagged PDF of type %s carrying the approved text, hashed and versioned',
    async (kind, documentType, policyKind, title) => {
      const content = `Approved wording for ${kind}, with a fada: Síocháin.\n\nSecond paragraph.\n`;
      const url = await approvedDraft(kind, policyKind, content);
      const issued = await post(consultant, `${url}/issue`);
      expect(issued.statusCode, issued.body).toBe(200);
      const documentId = issued.json().issuedDocumentId as string;
      const document = await t.requestAs(consultant, 'GET', `/api/documents/${documentId}`);
      expect(document.json()).toMatchObject({
        schemeId: scheme.schemeId,
        documentType,
        title,
        contentType: 'application/pdf',
        scanStatus: 'clean',
        memberFacing: false,
      });
      expect(document.json().filename).toMatch(/^[a-z-]+-\d{4}-\d{2}-\d{2}\.pdf$/);

      const bytes = await pdfOf(documentId);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(document.json().sha256);
      const raw = bytes.toString('latin1');
      expect(raw).toContain('/StructTreeRoot');
      expect(raw).toMatch(/\/Lang \(en-IE\)/);
      expect(raw).toContain('/FontFile2');
      for (const tag of ['/S /H1', '/S /P']) expect(raw, tag).toContain(tag);
      const text = flowing(readPdf(bytes).text);
      expect(text).toContain(title);
      expect(text).toContain(`Approved wording for ${kind}, with a fada: Síocháin.`);
      expect(text).toContain('Second paragraph.');

      // The same kind issued again the same day: the same name, the next version.
      const again = await post(
        consultant,
        `${await approvedDraft(kind, policyKind, content)}/issue`,
      );
      const next = await t.requestAs(
        consultant,
        'GET',
        `/api/documents/${again.json().issuedDocumentId}`,
      );
      expect(next.json()).toMatchObject({
        filename: document.json().filename,
        version: document.json().version + 1,
      });
    },
  );

  it('is issued once; an unapproved draft stores no document', async () => {
    const before = await ownerOf(t.database).select({ id: documents.id }).from(documents);
    const draft = await newDraft('ora_outline', null);
    const url = `/api/ai/drafts/${draft.id}`;
    expect((await post(consultant, `${url}/issue`)).statusCode).toBe(409);
    await post(reviewer, `${url}/review`);
    expect((await post(consultant, `${url}/issue`)).statusCode).toBe(409);
    const after = await ownerOf(t.database).select({ id: documents.id }).from(documents);
    expect(after).toHaveLength(before.length);
    expect((await t.requestAs(consultant, 'GET', url)).json().issuedDocumentId).toBeNull();

    await post(approver, `${url}/approve`);
    const issued = await post(consultant, `${url}/issue`);
    expect(issued.statusCode).toBe(200);
    const refused = await post(consultant, `${url}/issue`);
    expect(refused.statusCode).toBe(409);
    const stored = await ownerOf(t.database).select({ id: documents.id }).from(documents);
    expect(stored).toHaveLength(before.length + 1);
  });
});

describe('four eyes on a draft', () => {
  it('has it reviewed by someone who neither generated nor edited it, and approved by a third person', async () => {
    const draft = await newDraft('ora_outline', null);
    const url = `/api/ai/drafts/${draft.id}`;
    // The one who generated it reviews nothing of it.
    const ownReview = await post(consultant, `${url}/review`);
    expect(ownReview.statusCode).toBe(409);
    expect(ownReview.json().error).toMatch(
      /^Four eyes: a draft is reviewed by someone who did not/,
    );
    // Whoever edits it is one of its authors too.
    const text = `${draft.content}Reviewed wording.\n`;
    expect((await t.requestAs(reviewer, 'PATCH', url, { content: text })).statusCode).toBe(200);
    expect((await post(reviewer, `${url}/review`)).statusCode).toBe(409);
    const third = await createUser(t.database, { brokerId, role: 'BrokerUser' });
    const reviewed = await post(third, `${url}/review`);
    expect(reviewed.statusCode).toBe(200);
    // The view says who wrote and reviewed it, by account id, and that four eyes apply: what the
    // page explains a refusal from before anyone clicks.
    expect(reviewed.json()).toMatchObject({
      authors: [consultant.id, reviewer.id],
      reviewedBy: third.id,
      fourEyes: true,
    });
    // Neither an author nor the reviewer approves it.
    for (const user of [consultant, reviewer, third]) {
      const refused = await post(user, `${url}/approve`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toMatch(
        /^Four eyes: a draft is approved by someone who did not/,
      );
    }
    expect((await post(approver, `${url}/approve`)).statusCode).toBe(200);
    // Issuing publishes what two others passed: anyone who may issue does.
    expect((await post(consultant, `${url}/issue`)).statusCode).toBe(200);
  });

  it('lets one person take a draft through every step where the firm has switched four eyes off, and the switch is audited', async () => {
    const firmAdmin = await createUser(t.database, { brokerId, role: 'BrokerAdmin' });
    const off = await t.requestAs(firmAdmin, 'PUT', '/api/tenant/ai-settings', { fourEyes: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().fourEyes).toBe(false);
    try {
      const draft = await newDraft('ora_outline', null);
      const url = `/api/ai/drafts/${draft.id}`;
      for (const step of ['review', 'approve', 'issue']) {
        expect((await post(consultant, `${url}/${step}`)).statusCode, step).toBe(200);
      }
    } finally {
      const back = await t.requestAs(firmAdmin, 'PUT', '/api/tenant/ai-settings', {
        fourEyes: null,
      });
      expect(back.json().fourEyes).toBe(true);
    }
    const [audited] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, brokerId), eq(auditLog.action, 'ai.settings_updated')))
      .orderBy(asc(auditLog.chainIndex));
    expect(audited?.newState).toMatchObject({ fourEyes: false, changedFields: ['fourEyes'] });
  });

  it('is off by default under APP_ENV development only', async () => {
    const development = await buildTestApp({ env: { APP_ENV: 'development' } });
    try {
      const firm = await createBroker(development.database, 'Slaney Pensions');
      const admin = await createUser(development.database, { brokerId: firm, role: 'BrokerAdmin' });
      const view = await development.requestAs(admin, 'GET', '/api/tenant/ai-settings');
      expect(view.json().fourEyes).toBe(false);
    } finally {
      await development.close();
    }
    const firmAdmin = await createUser(t.database, { brokerId, role: 'BrokerAdmin' });
    expect((await t.requestAs(firmAdmin, 'GET', '/api/tenant/ai-settings')).json().fourEyes).toBe(
      true,
    );
  });
});

describe('approval of a draft', () => {
  it('is refused while placeholders remain, naming them', async () => {
    const draft = await newDraft('kfh_appointment_letter', null);
    const url = `/api/ai/drafts/${draft.id}`;
    const content = 'To: [name of the key function holder]\n\nFrom [date], signed: [name, date].\n';
    expect((await t.requestAs(consultant, 'PATCH', url, { content })).statusCode).toBe(200);
    expect((await post(reviewer, `${url}/review`)).statusCode).toBe(200);
    const refused = await post(approver, `${url}/approve`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(
      'Fill in the placeholders before approving: [name of the key function holder], [date], [name, date]. Edit the text, then have it reviewed again.',
    );
    expect((await t.requestAs(consultant, 'GET', url)).json().status).toBe('reviewed');
  });

  it('takes the “not approved” banner off, so the issued PDF does not carry it', async () => {
    const draft = await newDraft('ora_outline', null);
    expect(draft.content).toMatch(/^DRAFT WRITTEN BY AI.*Not approved/);
    const url = `/api/ai/drafts/${draft.id}`;
    expect((await post(reviewer, `${url}/review`)).statusCode).toBe(200);
    const approved = await post(approver, `${url}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().content).toBe(`${GENERATED}\n`);
    const issued = await post(consultant, `${url}/issue`);
    const signed = await t.requestAs(
      consultant,
      'GET',
      `/api/documents/${issued.json().issuedDocumentId}/url`,
    );
    const file = await t.app.inject({
      method: 'GET',
      url: new URL(signed.json().url).pathname,
      remoteAddress: uniqueClientAddress(),
    });
    const text = flowing(readPdf(file.rawPayload).text);
    expect(text).toContain('The trustees manage risk.');
    expect(text).not.toMatch(/DRAFT WRITTEN BY AI|Not approved/);
  });
});
