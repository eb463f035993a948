import { createId } from '@paralleldrive/cuid2';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { writableTableCounts } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createKeyFunctionHolder,
  createMember,
  createOraReport,
  createPolicy,
  createScheme,
  createTrustee,
  createUser,
  type UserRow,
} from '../helpers/factories.js';
import { expectPlainEnglish } from '../helpers/plain-english.js';
import { newPpsNumber } from '../helpers/pps.js';

/**
 * Property: whatever body arrives at a POST, PUT or PATCH of the organisation API, the
 * answer is a 2xx or a 400 of the documented shape (409 where an e-mail address is taken), never
 * a 500, and a 400 leaves every table as it was.
 */
let t: TestApp;
let actors: Record<'platform' | 'admin' | 'consultant' | 'member', UserRow>;
let ids: {
  brokerId: string;
  employerId: string;
  schemeId: string;
  userId: string;
  memberId: string;
  contributionId: string;
  fundId: string;
  /** The fund the PATCH route edits, closing it now and then: never the one members choose. */
  editedFundId: string;
  trusteeId: string;
  holderId: string;
  draftId: string;
  approvedPolicyId: string;
  oraId: string;
  aiDraftId: string;
};

beforeAll(async () => {
  // Hundreds of requests as one user, about something else than rate limits.
  t = await buildTestApp({ counters: uncountedStore() });
  const brokerId = await createBroker(t.database);
  const employerId = await createEmployer(t.database, brokerId);
  const staff = {
    platform: await createUser(t.database, { role: 'SuperAdmin' }),
    admin: await createUser(t.database, { brokerId, role: 'BrokerAdmin' }),
    consultant: await createUser(t.database, { brokerId, role: 'BrokerUser' }),
  };
  const target = await createUser(t.database, { brokerId, employerId, role: 'EmployerUser' });
  const schemeId = await createScheme(t.database, { id: employerId, brokerId });
  const member = await createMember(t.database, { brokerId, employerId, schemeId });
  actors = {
    ...staff,
    member: await createUser(t.database, {
      brokerId,
      employerId,
      role: 'Member',
      memberId: member.id,
    }),
  };
  const fund = await t.requestAs(actors.consultant, 'POST', `/api/schemes/${schemeId}/funds`, {
    name: 'Default fund',
  });
  const editedFund = await t.requestAs(
    actors.consultant,
    'POST',
    `/api/schemes/${schemeId}/funds`,
    {
      name: 'Fund under edit',
    },
  );
  const contribution = await t.requestAs(
    actors.consultant,
    'POST',
    `/api/members/${member.id}/contributions`,
    { period: '2026-01', kind: 'employee', amountCents: 1_000_000 },
  );
  ids = {
    brokerId,
    employerId,
    schemeId,
    userId: target.id,
    memberId: member.id,
    contributionId: contribution.json().id,
    fundId: fund.json().id,
    editedFundId: editedFund.json().id,
    trusteeId: await createTrustee(t.database, { brokerId, employerId, schemeId }),
    holderId: await createKeyFunctionHolder(t.database, { brokerId, employerId, schemeId }),
    draftId: await createPolicy(t.database, { brokerId, employerId, schemeId }),
    approvedPolicyId: await createPolicy(
      t.database,
      { brokerId, employerId, schemeId },
      { kind: 'remuneration', status: 'approved', approvedOn: '2023-01-01' },
    ),
    oraId: await createOraReport(t.database, { brokerId, employerId, schemeId }),
    aiDraftId: (
      await t.requestAs(staff.consultant, 'POST', '/api/ai/drafts', {
        schemeId,
        kind: 'ora_outline',
      })
    ).json().id,
  };
});
afterAll(() => t.close());

const anyJson = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
);

/**
 * Bodies of three kinds: valid ones (each field from its valid arbitrary), bodies near the valid
 * shape (any field missing or replaced by any JSON value), and bodies of any shape at all.
 */
function bodies(valid: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<unknown> {
  const nearlyValid = fc.record(
    Object.fromEntries(
      Object.entries(valid).map(([key, arbitrary]) => [
        key,
        fc.oneof({ weight: 3, arbitrary }, anyJson),
      ]),
    ),
    { requiredKeys: [] },
  );
  return fc.oneof(
    { weight: 2, arbitrary: fc.record(valid) },
    { weight: 4, arbitrary: nearlyValid },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
    { weight: 1, arbitrary: fc.dictionary(fc.string(), anyJson, { maxKeys: 4 }) },
  );
}

const name = fc.string({ minLength: 1, maxLength: 200 }).filter((value) => value.trim() !== '');
const email = fc.emailAddress().map((address) => `${createId()}${address}`);
/** Long enough to be accepted: each such body costs a bcrypt hash, so user routes run fewer cases. */
const password = fc.string({ minLength: 12, maxLength: 40 });
const isoDate = fc
  .date({ min: new Date('1901-01-01'), max: new Date('2025-12-31'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));
/** A governance date: after 1950, never in the future. */
const governanceDate = fc
  .date({ min: new Date('1951-01-01'), max: new Date('2025-12-31'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));
/** A governance entry's document: unlinked, or an id no document has (a 400 naming the field). */
const documentLink = fc.constantFrom(null, 'nosuchdocument0000000000');
const personName = fc
  .string({ minLength: 1, maxLength: 100 })
  .filter((value) => value.trim() !== '');
/** A valid PPS number each time, so valid bodies are not refused as duplicates. */
const ppsNumber = fc.constant(null).map(() => newPpsNumber());
const period = fc
  .tuple(fc.integer({ min: 1950, max: 2100 }), fc.integer({ min: 1, max: 12 }))
  .map(([year, month]) => `${year}-${String(month).padStart(2, '0')}`);
const memberFields = {
  firstName: personName,
  lastName: personName,
  dateOfBirth: isoDate,
  dateJoined: fc.constant('2025-12-31'),
  salaryCents: fc.nat({ max: 1_000_000_000 }),
  ppsNumber,
};

interface BodyRoute {
  method: 'POST' | 'PUT' | 'PATCH';
  url: () => string;
  actor: () => UserRow;
  body: fc.Arbitrary<unknown>;
  runs: number;
  /** The route may answer 409 for a valid body naming something already taken. */
  conflicts?: boolean;
  /**
   * The body field naming the record the action is on (its parent, contracts/policy.ts): a value
   * that is not the fixture's names a record out of reach, which the policy answers 403.
   */
  parentInBody?: string;
  /** A route called with a shared secret instead of a session (the corpus ingest). */
  secret?: () => string;
}

/** A corpus document: valid names and formats most of the time, content that always has text. */
const corpusDocument = fc.record({
  source: fc.constantFrom('fuzz-act', 'fuzz-directive', 'fuzz.notes_1'),
  title: name,
  format: fc.constantFrom('text', 'markdown', 'html'),
  content: fc
    .tuple(fc.constantFrom('## Article 5\n', 'Section 64AL\n', '<h2>Art. 2</h2>', ''), name)
    .map(([heading, text]) => `${heading}${text}`),
});

const ROUTES: Record<string, BodyRoute> = {
  'POST /api/brokers': {
    method: 'POST',
    url: () => '/api/brokers',
    actor: () => actors.platform,
    body: bodies({ name }),
    runs: 80,
  },
  'PATCH /api/brokers/{brokerId}': {
    method: 'PATCH',
    url: () => `/api/brokers/${ids.brokerId}`,
    actor: () => actors.platform,
    body: bodies({ name }),
    runs: 80,
  },
  'POST /api/brokers/{brokerId}/users': {
    method: 'POST',
    url: () => `/api/brokers/${ids.brokerId}/users`,
    actor: () => actors.platform,
    body: bodies({
      email,
      name,
      role: fc.constantFrom('BrokerAdmin', 'BrokerUser', 'SuperAdmin', 'Member'),
      password,
    }),
    runs: 40,
    conflicts: true,
  },
  'POST /api/employers': {
    method: 'POST',
    url: () => '/api/employers',
    actor: () => actors.admin,
    body: bodies({ name }),
    runs: 80,
  },
  'PATCH /api/employers/{id}': {
    method: 'PATCH',
    url: () => `/api/employers/${ids.employerId}`,
    actor: () => actors.admin,
    body: bodies({ name }),
    runs: 80,
  },
  'POST /api/employers/{id}/users': {
    method: 'POST',
    url: () => `/api/employers/${ids.employerId}/users`,
    actor: () => actors.admin,
    body: bodies({
      email,
      name,
      role: fc.constantFrom('EmployerAdmin', 'EmployerUser', 'BrokerAdmin'),
    }),
    runs: 40,
    conflicts: true,
  },
  'POST /api/users': {
    method: 'POST',
    url: () => '/api/users',
    actor: () => actors.admin,
    body: bodies({ email, name, role: fc.constantFrom('BrokerUser', 'EmployerUser') }),
    runs: 40,
    conflicts: true,
  },
  'PATCH /api/users/{id}': {
    method: 'PATCH',
    url: () => `/api/users/${ids.userId}`,
    actor: () => actors.admin,
    body: bodies({ name, status: fc.constantFrom('active', 'deactivated') }),
    runs: 80,
  },
  'POST /api/schemes': {
    method: 'POST',
    url: () => '/api/schemes',
    actor: () => actors.consultant,
    body: bodies({
      employerId: fc.constant('EMPLOYER'),
      name,
      type: fc.constantFrom('DB', 'DC', 'PRSA', 'RAC'),
    }),
    runs: 80,
  },
  'POST /api/schemes/{id}/members': {
    method: 'POST',
    url: () => `/api/schemes/${ids.schemeId}/members`,
    actor: () => actors.consultant,
    body: bodies(memberFields),
    runs: 80,
  },
  'PATCH /api/members/{id}': {
    method: 'PATCH',
    url: () => `/api/members/${ids.memberId}`,
    actor: () => actors.consultant,
    body: bodies({
      lastName: personName,
      salaryCents: fc.nat({ max: 1_000_000_000 }),
      status: fc.constantFrom('active', 'deferred', 'retired', 'left'),
    }),
    runs: 80,
  },
  'PATCH /api/members/{id}/contact': {
    method: 'PATCH',
    url: () => `/api/members/${ids.memberId}/contact`,
    actor: () => actors.member,
    body: bodies({ email, address: fc.string({ maxLength: 200 }) }),
    runs: 60,
  },
  'POST /api/members/{id}/contributions': {
    method: 'POST',
    url: () => `/api/members/${ids.memberId}/contributions`,
    actor: () => actors.consultant,
    body: bodies({
      period,
      kind: fc.constantFrom('employee', 'employer', 'avc'),
      amountCents: fc.nat({ max: 10_000_000 }),
    }),
    runs: 80,
    conflicts: true,
  },
  'POST /api/contributions/{id}/adjustments': {
    method: 'POST',
    url: () => `/api/contributions/${ids.contributionId}/adjustments`,
    actor: () => actors.consultant,
    body: bodies({
      deltaCents: fc.integer({ min: 1, max: 1_000 }),
      reason: fc.string({ minLength: 1, maxLength: 500 }).filter((value) => value.trim() !== ''),
    }),
    runs: 80,
  },
  'POST /api/schemes/{id}/funds': {
    method: 'POST',
    url: () => `/api/schemes/${ids.schemeId}/funds`,
    actor: () => actors.consultant,
    body: bodies({ name: fc.uuid() }),
    runs: 80,
  },
  'PATCH /api/funds/{id}': {
    method: 'PATCH',
    // Its generated bodies may close the fund (`closed: true`); members choose another one.
    url: () => `/api/funds/${ids.editedFundId}`,
    actor: () => actors.consultant,
    body: bodies({ isin: fc.constantFrom('IE00B4L5Y983', null), closed: fc.constant(false) }),
    runs: 80,
  },
  'PUT /api/members/{id}/fund-choices': {
    method: 'PUT',
    url: () => `/api/members/${ids.memberId}/fund-choices`,
    actor: () => actors.consultant,
    body: bodies({
      allocations: fc.constant([{ fundId: 'FUND', percent: 100 }]),
    }),
    runs: 80,
  },
  'PUT /api/schemes/{id}/payroll/{period}': {
    method: 'PUT',
    // A fresh period each run, so a valid body records rather than needing a reason to correct.
    url: () => `/api/schemes/${ids.schemeId}/payroll/${nextPeriod()}`,
    actor: () => actors.consultant,
    body: bodies({
      rows: fc.array(
        fc.record(
          {
            memberId: fc.constant('MEMBER'),
            employeeCents: fc.nat({ max: 1_000_000 }),
            employerCents: fc.option(fc.nat({ max: 1_000_000 })),
          },
          { requiredKeys: ['memberId'] },
        ),
        { maxLength: 1 },
      ),
      reason: fc.constant('Payroll re-run'),
    }),
    runs: 60,
  },
  'POST /api/schemes/{id}/trustees': {
    method: 'POST',
    url: () => `/api/schemes/${ids.schemeId}/trustees`,
    actor: () => actors.consultant,
    body: bodies({
      name,
      kind: fc.constant('corporate'),
      directorCount: fc.nat({ max: 20 }),
      appointedOn: governanceDate,
    }),
    runs: 60,
  },
  'PATCH /api/trustees/{id}': {
    method: 'PATCH',
    url: () => `/api/trustees/${ids.trusteeId}`,
    actor: () => actors.consultant,
    body: bodies({ name, appointedOn: fc.constant('2019-06-01'), endedOn: fc.constant(null) }),
    runs: 60,
  },
  'POST /api/schemes/{id}/key-function-holders': {
    method: 'POST',
    url: () => `/api/schemes/${ids.schemeId}/key-function-holders`,
    actor: () => actors.consultant,
    body: bodies({
      function: fc.constant('risk_management'),
      holderName: fc.uuid(),
      holderEmail: fc.constantFrom(null, 'holder@example.ie'),
      appointedOn: governanceDate,
      fitnessAndProbity: fc.constantFrom('pending', 'confirmed', 'failed'),
      alsoServesEmployer: fc.boolean(),
    }),
    runs: 60,
  },
  'PATCH /api/key-function-holders/{id}': {
    method: 'PATCH',
    url: () => `/api/key-function-holders/${ids.holderId}`,
    actor: () => actors.consultant,
    body: bodies({
      fitnessAndProbity: fc.constantFrom('pending', 'confirmed', 'failed'),
      conflictsProtocol: fc.string({ maxLength: 200 }),
      documentId: documentLink,
    }),
    runs: 60,
  },
  'POST /api/schemes/{id}/policies': {
    method: 'POST',
    url: () => `/api/schemes/${ids.schemeId}/policies`,
    actor: () => actors.consultant,
    body: bodies({
      kind: fc.constantFrom('risk_management', 'internal_audit', 'outsourcing'),
      title: name,
      version: fc.constantFrom('1.0', '2.1'),
    }),
    runs: 60,
  },
  'PATCH /api/policies/{id}': {
    method: 'PATCH',
    url: () => `/api/policies/${ids.draftId}`,
    actor: () => actors.consultant,
    body: bodies({ title: name, version: fc.constantFrom('1.0', '1.1'), documentId: documentLink }),
    runs: 60,
  },
  'POST /api/policies/{id}/approve': {
    method: 'POST',
    url: () => `/api/policies/${ids.draftId}/approve`,
    actor: () => actors.consultant,
    body: bodies({ approvedOn: governanceDate }),
    runs: 40,
    // Approved once, the draft is no longer one: a second approval is a conflict.
    conflicts: true,
  },
  'POST /api/policies/{id}/significant-change': {
    method: 'POST',
    url: () => `/api/policies/${ids.approvedPolicyId}/significant-change`,
    actor: () => actors.consultant,
    body: bodies({ occurredOn: governanceDate, description: name }),
    runs: 60,
  },
  'POST /api/schemes/{id}/risk-profile-changes': {
    method: 'POST',
    url: () => `/api/schemes/${ids.schemeId}/risk-profile-changes`,
    actor: () => actors.consultant,
    body: bodies({ occurredOn: governanceDate, description: name }),
    runs: 60,
  },
  'POST /api/schemes/{id}/ora-reports': {
    method: 'POST',
    url: () => `/api/schemes/${ids.schemeId}/ora-reports`,
    actor: () => actors.consultant,
    body: bodies({
      performedOn: governanceDate,
      trigger: fc.constantFrom('scheduled', 'significant_change'),
      summary: fc.string({ maxLength: 300 }),
    }),
    runs: 60,
  },
  'PATCH /api/ora-reports/{id}': {
    method: 'PATCH',
    url: () => `/api/ora-reports/${ids.oraId}`,
    actor: () => actors.consultant,
    body: bodies({
      summary: fc.string({ maxLength: 300 }),
      trigger: fc.constant('scheduled'),
      documentId: documentLink,
    }),
    runs: 60,
  },
  'PATCH /api/schemes/{id}': {
    method: 'PATCH',
    url: () => `/api/schemes/${ids.schemeId}`,
    actor: () => actors.consultant,
    body: bodies({ name, type: fc.constantFrom('DB', 'DC', 'PRSA', 'RAC') }),
    runs: 80,
  },
  // AI. No provider in tests: chat retrieves nothing here, drafts come from templates.
  'POST /api/ai/chat': {
    method: 'POST',
    url: () => '/api/ai/chat',
    actor: () => actors.consultant,
    body: bodies({ question: fc.string({ minLength: 1, maxLength: 300 }) }),
    runs: 60,
  },
  'PUT /api/tenant/ai-settings': {
    method: 'PUT',
    url: () => '/api/tenant/ai-settings',
    actor: () => actors.admin,
    body: bodies({
      apiKey: fc.option(
        fc.string({ minLength: 8, maxLength: 100 }).filter((key) => key.trim().length >= 8),
      ),
      monthlyRequestLimit: fc.option(fc.integer({ min: 0, max: 10_000 })),
      monthlyTokenLimit: fc.option(fc.integer({ min: 0, max: 10_000_000 })),
    }),
    runs: 60,
  },
  'POST /api/ai/drafts': {
    method: 'POST',
    url: () => '/api/ai/drafts',
    actor: () => actors.consultant,
    body: bodies({
      schemeId: fc.constant('SCHEME'),
      kind: fc.constantFrom('written_policy', 'ora_outline', 'kfh_appointment_letter'),
      policyKind: fc.constantFrom('risk_management', 'outsourcing'),
    }),
    runs: 60,
    parentInBody: 'schemeId',
  },
  'PATCH /api/ai/drafts/{id}': {
    method: 'PATCH',
    url: () => `/api/ai/drafts/${ids.aiDraftId}`,
    actor: () => actors.consultant,
    body: bodies({ content: fc.string({ minLength: 1, maxLength: 500 }) }),
    runs: 60,
  },
  'POST /api/rag/ingest': {
    method: 'POST',
    url: () => '/api/rag/ingest',
    actor: () => actors.platform,
    secret: () => t.config.secrets.RAG_INGEST_SECRET,
    body: bodies({ documents: fc.array(corpusDocument, { minLength: 1, maxLength: 2 }) }),
    runs: 60,
  },
};

const tableCounts = () => writableTableCounts(t.database);

/** Placeholders stand for the fixture's real employer, fund and member, so valid bodies reach the service. */
const withFixtureIds = (body: unknown) =>
  JSON.parse(
    JSON.stringify(body ?? null)
      .replaceAll('"EMPLOYER"', JSON.stringify(ids.employerId))
      .replaceAll('"FUND"', JSON.stringify(ids.fundId))
      .replaceAll('"MEMBER"', JSON.stringify(ids.memberId))
      .replaceAll('"SCHEME"', JSON.stringify(ids.schemeId)),
  );

let periods = 0;
/** A pay period not used before in this file: 1990-01, 1990-02, … */
function nextPeriod(): string {
  periods += 1;
  const year = 1990 + Math.floor((periods - 1) / 12);
  return `${year}-${String(((periods - 1) % 12) + 1).padStart(2, '0')}`;
}

describe('request bodies under property-based bad input', () => {
  it('covers every POST, PUT and PATCH route that takes a JSON body', () => {
    const spec = t.app.swagger() as {
      paths: Record<string, Record<string, { requestBody?: { content?: object } }>>;
    };
    const bodyRoutes = Object.entries(spec.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(
          ([method, operation]) =>
            ['post', 'put', 'patch'].includes(method) &&
            !path.startsWith('/api/auth/') &&
            'application/json' in (operation.requestBody?.content ?? {}),
        )
        .map(([method]) => method)
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(bodyRoutes.sort()).toEqual(Object.keys(ROUTES).sort());
  });

  for (const [key, route] of Object.entries(ROUTES)) {
    it(`${key}: a 2xx or a documented 400, never a 500, and nothing written on a 400`, async () => {
      const token = route.secret ? route.secret() : await t.tokenFor(route.actor());
      const seen = new Set<number>();
      await fc.assert(
        fc.asyncProperty(route.body, async (generated) => {
          const body = withFixtureIds(generated);
          const before = await tableCounts();
          const response = await t.app.inject({
            method: route.method,
            url: route.url(),
            payload: JSON.stringify(body),
            remoteAddress: uniqueClientAddress(),
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          });
          const status = response.statusCode;
          seen.add(status);
          // 409 where a unique thing is taken: an e-mail address, a fund name, a pay period.
          const outOfReach =
            route.parentInBody !== undefined &&
            typeof body === 'object' &&
            body !== null &&
            typeof (body as Record<string, unknown>)[route.parentInBody] === 'string' &&
            (body as Record<string, unknown>)[route.parentInBody] !== ids.schemeId;
          const tolerated =
            status < 300 ||
            status === 400 ||
            (status === 409 && route.conflicts) ||
            (status === 403 && outOfReach);
          expect(tolerated, `${status} for ${JSON.stringify(body)}: ${response.body}`).toBe(true);
          if (status >= 400) {
            const answer = response.json();
            expect(typeof answer.error).toBe('string');
            if (answer.error === 'Validation failed') {
              expect(Array.isArray(answer.issues)).toBe(true);
              // Shown under form fields as they are: plain English (docs/decisions/0052-form-errors-in-plain-english.md).
              for (const issue of answer.issues) expectPlainEnglish(issue.message);
            }
            expect(await tableCounts()).toEqual(before);
          }
        }),
        { numRuns: route.runs },
      );
      // Not vacuous: the generated bodies reached both the refusal and the success path.
      expect(
        [...seen].some((status) => status < 300),
        [...seen].join(),
      ).toBe(true);
      expect(seen.has(400)).toBe(true);
    });
  }
});
