import { createId } from '@paralleldrive/cuid2';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Action, POLICY, type Scope as Reach } from '../../src/contracts/policy.js';
import { aiDrafts, userTotpSecrets } from '../../src/server/platform/db/schema.js';
import { ACTION_EXTENSION } from '../../src/server/platform/http/route-actions.js';
import { ROLES, type Role } from '../../src/server/platform/tenancy/roles.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { ownerOf } from '../helpers/database.js';
import { documentForm, SAMPLES } from '../helpers/documents.js';
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
import { newPpsNumber } from '../helpers/pps.js';
import { PUBLIC_API_ROUTES } from '../helpers/public-routes.js';

/**
 * The tenant-isolation matrix: every documented route × every role × a target in the
 * actor's own employer, in another employer of the same tenant, and in another tenant. The routes
 * come from the OpenAPI description, so a new route fails "classifies every route" until it has
 * a request here. What each answer must be is not written here: it follows from the action the
 * route names (its `x-action`) and that action's row of the policy table (contracts/policy.ts).
 */
type Scope = 'own' | 'otherEmployer' | 'otherTenant';
const SCOPES: Scope[] = ['own', 'otherEmployer', 'otherTenant'];
type Outcome = 'ok' | 403 | 404;

interface Target {
  brokerId: string;
  employerId: string;
  schemeId: string;
  userId: string;
  /** An account invited and not yet set up. */
  invitedUserId: string;
  /** A member of the scheme; in the actor's own scope, the Member actor's own record. */
  memberId: string;
  memberPpsNumber: string;
  importId: string;
  contributionId: string;
  fundId: string;
  trusteeId: string;
  holderId: string;
  /** The risk management policy in use. */
  policyId: string;
  oraId: string;
  /** A member-facing document of the scheme, downloadable (unscanned: no scanner in tests). */
  documentId: string;
  /** An AI draft of the scheme, in its first state. */
  aiDraftId: string;
  /** A payroll upload of the employer (auto-enrolment). */
  payrollUploadId: string;
}
interface Fixture {
  actors: Record<Role, UserRow>;
  targets: Record<Scope, Target>;
}

interface RouteCase {
  request(target: Target, fixture: Fixture): Promise<InjectOptions> | InjectOptions;
}

/**
 * Which targets each reach of the policy table takes in. Every actor below works in the own
 * target's tenant and employer, and the Member's own record is the own target's member (whose
 * scheme is the own target's scheme).
 */
const REACHED: Record<Reach, Record<Scope, boolean>> = {
  platform: { own: true, otherEmployer: true, otherTenant: true },
  tenant: { own: true, otherEmployer: true, otherTenant: false },
  employer: { own: true, otherEmployer: false, otherTenant: false },
  member: { own: true, otherEmployer: false, otherTenant: false },
};

/**
 * The answer the policy table gives `role` for `action` on a target in `scope`: 403 for a role
 * the action does not list; otherwise success within its reach, and outside it 404 for a record
 * the request names (as if it did not exist) or 403 for a parent a new record would go under
 * (decisions.md §3). An action that names no record succeeds wherever the target is.
 */
function expectedFor(action: Action, role: Role, scope: Scope): Outcome {
  const rule = POLICY[action];
  const reach = (rule.roles as Partial<Record<Role, Reach>>)[role];
  if (reach === undefined) return 403;
  if (rule.target === 'none' || REACHED[reach][scope]) return 'ok';
  return rule.target === 'parent' ? 403 : 404;
}

// Built while the tests are collected: each test's name states the answer the policy table
// expects, and the table is reached through the action each documented route names. Hundreds of
// requests as one user, about something else than rate limits.
const t: TestApp = await buildTestApp({ counters: uncountedStore() });
let fixture: Fixture;

interface Operation {
  [ACTION_EXTENSION]?: Action;
}
const documented = Object.entries(
  (t.app.swagger() as { paths: Record<string, Record<string, Operation>> }).paths,
).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({
    key: `${method.toUpperCase()} ${path}`,
    action: operation[ACTION_EXTENSION],
  })),
);
const actionOf = new Map(documented.map(({ key, action }) => [key, action]));

const fresh = {
  email: () => `new-${createId()}@example.ie`,
  employer: (target: Target) => createEmployer(t.database, target.brokerId, 'Fresh Employer Ltd'),
  scheme: (target: Target) =>
    createScheme(t.database, { id: target.employerId, brokerId: target.brokerId }, 'Fresh scheme'),
  member: async (target: Target) => (await createMember(t.database, target)).id,
  /** Pay periods no earlier request used, so each contribution is new. */
  period: (() => {
    let month = 0;
    return () => {
      month += 1;
      return `${2000 + Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}`;
    };
  })(),
  name: () => `Fund ${createId()}`,
  /** Governance entries for the requests that use one up (approve, delete). */
  trustee: (target: Target) => createTrustee(t.database, target),
  holder: (target: Target) => createKeyFunctionHolder(t.database, target),
  draft: (target: Target) => createPolicy(t.database, target, { kind: 'outsourcing' }),
  ora: (target: Target) => createOraReport(t.database, target),
  /** A document for the requests that use one up (delete). */
  document: (target: Target) => uploadDocument(target),
  /** An AI draft in the state a lifecycle step takes it from (review, approve, issue). */
  aiDraft: (target: Target, status: 'draft' | 'reviewed' | 'approved') =>
    insertAiDraft(target, status),
  /** A payroll upload for the requests that use one up (delete). */
  payrollUpload: (target: Target) => uploadPayroll(target),
  /** An EmployerUser with an authenticator app, for the request that takes it away (reset). */
  userWithFactor: async (target: Target) => {
    const user = await createUser(t.database, {
      brokerId: target.brokerId,
      employerId: target.employerId,
      role: 'EmployerUser',
    });
    await ownerOf(t.database).insert(userTotpSecrets).values({
      userId: user.id,
      id: createId(),
      brokerId: target.brokerId,
      secretSealed: 'sealed',
      keyId: 'k',
      confirmedAt: new Date(),
      createdAt: new Date(),
    });
    return user.id;
  },
};

/** An AI draft written straight into the table, in the state a request needs. */
async function insertAiDraft(
  target: { brokerId: string; employerId: string; schemeId: string },
  status: 'draft' | 'reviewed' | 'approved',
): Promise<string> {
  const id = createId();
  const at = new Date();
  await ownerOf(t.database)
    .insert(aiDrafts)
    .values({
      brokerId: target.brokerId,
      id,
      employerId: target.employerId,
      schemeId: target.schemeId,
      kind: 'ora_outline',
      status,
      generatedBy: 'template',
      generatedContent: 'DRAFT FROM TEMPLATE\nOutline',
      content: 'DRAFT FROM TEMPLATE\nOutline',
      createdBy: 'system',
      approvedAt: status === 'approved' ? at : null,
      createdAt: at,
      updatedAt: at,
    });
  return id;
}

/** One week's pay of a new person, as an employer's payroll file (docs/imports.md, "Payroll"). */
const payrollCsv = () =>
  `PPS Number,Date of Birth,Period Start,Period End,Gross Pay\n${newPpsNumber()},1985-04-12,2026-01-05,2026-01-11,800.00\n`;

/** A payroll uploaded for the target's employer by a BrokerAdmin of its tenant. */
async function uploadPayroll(target: { brokerId: string; employerId: string }): Promise<string> {
  const admin = await createUser(t.database, { brokerId: target.brokerId, role: 'BrokerAdmin' });
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/employers/${target.employerId}/payroll/import`,
    remoteAddress: uniqueClientAddress(),
    headers: { authorization: `Bearer ${await t.tokenFor(admin)}`, 'content-type': 'text/csv' },
    payload: payrollCsv(),
  });
  if (response.statusCode !== 201) throw new Error(`payroll upload failed: ${response.body}`);
  return response.json().id;
}

/** A member-facing document uploaded to the target's scheme by a BrokerAdmin of its tenant. */
async function uploadDocument(target: { brokerId: string; schemeId: string }): Promise<string> {
  const admin = await createUser(t.database, { brokerId: target.brokerId, role: 'BrokerAdmin' });
  const form = documentForm('Member booklet.pdf', SAMPLES.pdf, {
    documentType: 'member_booklet',
    memberFacing: 'true',
  });
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/schemes/${target.schemeId}/documents`,
    remoteAddress: uniqueClientAddress(),
    headers: { ...form.headers, authorization: `Bearer ${await t.tokenFor(admin)}` },
    payload: form.payload,
  });
  if (response.statusCode !== 201) throw new Error(`document upload failed: ${response.body}`);
  return response.json().id;
}

const change = { occurredOn: '2025-02-03', description: 'A new investment manager' };

const ROUTES: Record<string, RouteCase> = {
  'POST /api/brokers': {
    request: () => ({ method: 'POST', url: '/api/brokers', payload: { name: 'New Brokers' } }),
  },
  'GET /api/brokers': {
    request: () => ({ method: 'GET', url: '/api/brokers' }),
  },
  'GET /api/brokers/{brokerId}': {
    request: (target) => ({ method: 'GET', url: `/api/brokers/${target.brokerId}` }),
  },
  'PATCH /api/brokers/{brokerId}': {
    request: (target) => ({
      method: 'PATCH',
      url: `/api/brokers/${target.brokerId}`,
      payload: { name: 'Renamed Brokers' },
    }),
  },
  'POST /api/brokers/{brokerId}/users': {
    request: (target) => ({
      method: 'POST',
      url: `/api/brokers/${target.brokerId}/users`,
      payload: { email: fresh.email(), name: 'New Broker User', role: 'BrokerUser' },
    }),
  },
  'GET /api/brokers/{brokerId}/users': {
    request: (target) => ({ method: 'GET', url: `/api/brokers/${target.brokerId}/users` }),
  },
  'POST /api/employers': {
    request: () => ({ method: 'POST', url: '/api/employers', payload: { name: 'New Employer' } }),
  },
  'GET /api/employers': {
    request: () => ({ method: 'GET', url: '/api/employers' }),
  },
  'GET /api/employers/{id}': {
    request: (target) => ({ method: 'GET', url: `/api/employers/${target.employerId}` }),
  },
  'PATCH /api/employers/{id}': {
    request: (target) => ({
      method: 'PATCH',
      url: `/api/employers/${target.employerId}`,
      payload: { name: 'Renamed Employer Ltd' },
    }),
  },
  'DELETE /api/employers/{id}': {
    request: async (target) => ({
      method: 'DELETE',
      url: `/api/employers/${await fresh.employer(target)}`,
    }),
  },
  'POST /api/employers/{id}/users': {
    request: (target) => ({
      method: 'POST',
      url: `/api/employers/${target.employerId}/users`,
      payload: { email: fresh.email(), name: 'New HR user', role: 'EmployerUser' },
    }),
  },
  'GET /api/employers/{id}/users': {
    request: (target) => ({ method: 'GET', url: `/api/employers/${target.employerId}/users` }),
  },
  'GET /api/users': {
    request: () => ({ method: 'GET', url: '/api/users' }),
  },
  'GET /api/users/{id}': {
    request: (target) => ({ method: 'GET', url: `/api/users/${target.userId}` }),
  },
  'PATCH /api/users/{id}': {
    request: (target) => ({
      method: 'PATCH',
      url: `/api/users/${target.userId}`,
      payload: { name: 'Renamed User' },
    }),
  },
  'POST /api/users': {
    request: () => ({
      method: 'POST',
      url: '/api/users',
      payload: { email: fresh.email(), name: 'New colleague', role: 'BrokerUser' },
    }),
  },
  'POST /api/users/{id}/invitation': {
    request: (target) => ({ method: 'POST', url: `/api/users/${target.invitedUserId}/invitation` }),
  },
  'GET /api/overview': {
    request: () => ({ method: 'GET', url: '/api/overview' }),
  },
  'GET /api/overview/dashboard': {
    request: () => ({ method: 'GET', url: '/api/overview/dashboard' }),
  },
  'GET /api/me': {
    request: () => ({ method: 'GET', url: '/api/me' }),
  },
  'GET /api/me/second-factor': {
    request: () => ({ method: 'GET', url: '/api/me/second-factor' }),
  },
  'DELETE /api/users/{id}/second-factor': {
    // The target is an EmployerUser with a factor to remove, an account a BrokerAdmin and a
    // SuperAdmin look after (contracts/second-factor.ts, SECOND_FACTOR_RESETTABLE); who else may
    // not is in test/auth/second-factor.test.ts.
    request: async (target) => ({
      method: 'DELETE',
      url: `/api/users/${await fresh.userWithFactor(target)}/second-factor`,
    }),
  },
  'POST /api/schemes': {
    request: (target) => ({
      method: 'POST',
      url: '/api/schemes',
      payload: { employerId: target.employerId, name: 'New DC scheme', type: 'DC' },
    }),
  },
  'GET /api/schemes': {
    request: () => ({ method: 'GET', url: '/api/schemes' }),
  },
  'GET /api/schemes/{id}': {
    request: (target) => ({ method: 'GET', url: `/api/schemes/${target.schemeId}` }),
  },
  'PATCH /api/schemes/{id}': {
    request: (target) => ({
      method: 'PATCH',
      url: `/api/schemes/${target.schemeId}`,
      payload: { name: 'Renamed scheme' },
    }),
  },
  'DELETE /api/schemes/{id}': {
    request: async (target) => ({
      method: 'DELETE',
      url: `/api/schemes/${await fresh.scheme(target)}`,
    }),
  },
  'POST /api/schemes/{id}/members': {
    request: (target) => ({
      method: 'POST',
      url: `/api/schemes/${target.schemeId}/members`,
      payload: {
        firstName: 'Ciara',
        lastName: 'Doyle',
        dateOfBirth: '1990-01-15',
        dateJoined: '2020-03-01',
        salaryCents: 4_800_000,
        ppsNumber: newPpsNumber(),
      },
    }),
  },
  'GET /api/schemes/{id}/members': {
    request: (target) => ({ method: 'GET', url: `/api/schemes/${target.schemeId}/members` }),
  },
  'GET /api/members/{id}': {
    request: (target) => ({ method: 'GET', url: `/api/members/${target.memberId}` }),
  },
  'PATCH /api/members/{id}': {
    request: (target) => ({
      method: 'PATCH',
      url: `/api/members/${target.memberId}`,
      payload: { address: '3 New Road, Cork' },
    }),
  },
  'DELETE /api/members/{id}': {
    request: async (target) => ({
      method: 'DELETE',
      url: `/api/members/${await fresh.member(target)}`,
    }),
  },
  'POST /api/members/{id}/pps/reveal': {
    request: (target) => ({ method: 'POST', url: `/api/members/${target.memberId}/pps/reveal` }),
  },
  'GET /api/members/{id}/export': {
    request: (target) => ({ method: 'GET', url: `/api/members/${target.memberId}/export` }),
  },
  'GET /api/members/{id}/summary': {
    request: (target) => ({ method: 'GET', url: `/api/members/${target.memberId}/summary` }),
  },
  'GET /api/members/{id}/page': {
    request: (target) => ({
      method: 'GET',
      url: `/api/members/${target.memberId}/page?chartFrom=2024-01`,
    }),
  },
  'PATCH /api/members/{id}/contact': {
    request: (target) => ({
      method: 'PATCH',
      url: `/api/members/${target.memberId}/contact`,
      payload: { address: '4 Quay Street, Galway' },
    }),
  },
  'GET /api/members/{id}/export.csv': {
    request: (target) => ({ method: 'GET', url: `/api/members/${target.memberId}/export.csv` }),
  },
  'GET /api/members/{id}/contributions': {
    request: (target) => ({ method: 'GET', url: `/api/members/${target.memberId}/contributions` }),
  },
  'POST /api/members/{id}/contributions': {
    request: (target) => ({
      method: 'POST',
      url: `/api/members/${target.memberId}/contributions`,
      payload: { period: fresh.period(), kind: 'employee', amountCents: 12_345 },
    }),
  },
  'POST /api/contributions/{id}/adjustments': {
    request: (target) => ({
      method: 'POST',
      url: `/api/contributions/${target.contributionId}/adjustments`,
      payload: { deltaCents: 1, reason: 'Rounding' },
    }),
  },
  'GET /api/schemes/{id}/payroll/{period}': {
    request: (target) => ({
      method: 'GET',
      url: `/api/schemes/${target.schemeId}/payroll/2026-01`,
    }),
  },
  'PUT /api/schemes/{id}/payroll/{period}': {
    request: (target) => ({
      method: 'PUT',
      url: `/api/schemes/${target.schemeId}/payroll/2026-01`,
      payload: { rows: [] },
    }),
  },
  'GET /api/schemes/{id}/contribution-periods': {
    request: (target) => ({
      method: 'GET',
      url: `/api/schemes/${target.schemeId}/contribution-periods`,
    }),
  },
  'GET /api/schemes/{id}/funds': {
    request: (target) => ({ method: 'GET', url: `/api/schemes/${target.schemeId}/funds` }),
  },
  'POST /api/schemes/{id}/funds': {
    request: (target) => ({
      method: 'POST',
      url: `/api/schemes/${target.schemeId}/funds`,
      payload: { name: fresh.name() },
    }),
  },
  'PATCH /api/funds/{id}': {
    request: (target) => ({
      method: 'PATCH',
      url: `/api/funds/${target.fundId}`,
      payload: { isin: 'IE00B4L5Y983' },
    }),
  },
  'GET /api/members/{id}/fund-choices': {
    request: (target) => ({ method: 'GET', url: `/api/members/${target.memberId}/fund-choices` }),
  },
  'PUT /api/members/{id}/fund-choices': {
    request: (target) => ({
      method: 'PUT',
      url: `/api/members/${target.memberId}/fund-choices`,
      payload: { allocations: [{ fundId: target.fundId, percent: 100 }] },
    }),
  },
  'GET /api/schemes/{id}/trustees': {
    request: (target) => ({ method: 'GET', url: `/api/schemes/${target.schemeId}/trustees` }),
  },
  'POST /api/schemes/{id}/trustees': {
    request: (target) => ({
      method: 'POST',
      url: `/api/schemes/${target.schemeId}/trustees`,
      payload: { name: 'Ciarán Walsh', kind: 'individual', appointedOn: '2024-05-01' },
    }),
  },
  'GET /api/trustees/{id}': {
    request: (target) => ({ method: 'GET', url: `/api/trustees/${target.trusteeId}` }),
  },
  'PATCH /api/trustees/{id}': {
    request: (target) => ({
      method: 'PATCH',
      url: `/api/trustees/${target.trusteeId}`,
      payload: { appointedOn: '2020-02-01' },
    }),
  },
  'DELETE /api/trustees/{id}': {
    request: async (target) => ({
      method: 'DELETE',
      url: `/api/trustees/${await fresh.trustee(target)}`,
    }),
  },
  'GET /api/trustees/{id}/history': {
    request: (target) => ({ method: 'GET', url: `/api/trustees/${target.trusteeId}/history` }),
  },
  'GET /api/schemes/{id}/key-function-holders': {
    request: (target) => ({
      method: 'GET',
      url: `/api/schemes/${target.schemeId}/key-function-holders`,
    }),
  },
  'POST /api/schemes/{id}/key-function-holders': {
    request: (target) => ({
      method: 'POST',
      url: `/api/schemes/${target.schemeId}/key-function-holders`,
      payload: {
        function: 'risk_management',
        holderName: `Holder ${createId()}`,
        appointedOn: '2024-05-01',
      },
    }),
  },
  'GET /api/key-function-holders/{id}': {
    request: (target) => ({ method: 'GET', url: `/api/key-function-holders/${target.holderId}` }),
  },
  'PATCH /api/key-function-holders/{id}': {
    request: (target) => ({
      method: 'PATCH',
      url: `/api/key-function-holders/${target.holderId}`,
      payload: { fitnessAndProbity: 'confirmed' },
    }),
  },
  'DELETE /api/key-function-holders/{id}': {
    request: async (target) => ({
      method: 'DELETE',
      url: `/api/key-function-holders/${await fresh.holder(target)}`,
    }),
  },
  'GET /api/key-function-holders/{id}/history': {
    request: (target) => ({
      method: 'GET',
      url: `/api/key-function-holders/${target.holderId}/history`,
    }),
  },
  'GET /api/schemes/{id}/policies': {
    request: (target) => ({ method: 'GET', url: `/api/schemes/${target.schemeId}/policies` }),
  },
  'POST /api/schemes/{id}/policies': {
    request: (target) => ({
      method: 'POST',
      url: `/api/schemes/${target.schemeId}/policies`,
      payload: { kind: 'remuneration', title: 'Remuneration policy', version: '1.0' },
    }),
  },
  'GET /api/policies/{id}': {
    request: (target) => ({ method: 'GET', url: `/api/policies/${target.policyId}` }),
  },
  'PATCH /api/policies/{id}': {
    request: async (target) => ({
      method: 'PATCH',
      url: `/api/policies/${await fresh.draft(target)}`,
      payload: { version: '1.1' },
    }),
  },
  'DELETE /api/policies/{id}': {
    request: async (target) => ({
      method: 'DELETE',
      url: `/api/policies/${await fresh.draft(target)}`,
    }),
  },
  'POST /api/policies/{id}/approve': {
    request: async (target) => ({
      method: 'POST',
      url: `/api/policies/${await fresh.draft(target)}/approve`,
      payload: { approvedOn: '2025-01-10' },
    }),
  },
  'POST /api/policies/{id}/significant-change': {
    request: (target) => ({
      method: 'POST',
      url: `/api/policies/${target.policyId}/significant-change`,
      payload: change,
    }),
  },
  'GET /api/policies/{id}/history': {
    request: (target) => ({ method: 'GET', url: `/api/policies/${target.policyId}/history` }),
  },
  'GET /api/schemes/{id}/significant-changes': {
    request: (target) => ({
      method: 'GET',
      url: `/api/schemes/${target.schemeId}/significant-changes`,
    }),
  },
  'POST /api/schemes/{id}/risk-profile-changes': {
    request: (target) => ({
      method: 'POST',
      url: `/api/schemes/${target.schemeId}/risk-profile-changes`,
      payload: change,
    }),
  },
  'GET /api/schemes/{id}/ora-reports': {
    request: (target) => ({ method: 'GET', url: `/api/schemes/${target.schemeId}/ora-reports` }),
  },
  'POST /api/schemes/{id}/ora-reports': {
    request: (target) => ({
      method: 'POST',
      url: `/api/schemes/${target.schemeId}/ora-reports`,
      payload: { performedOn: '2025-03-01', trigger: 'scheduled' },
    }),
  },
  'GET /api/ora-reports/{id}': {
    request: (target) => ({ method: 'GET', url: `/api/ora-reports/${target.oraId}` }),
  },
  'PATCH /api/ora-reports/{id}': {
    request: (target) => ({
      method: 'PATCH',
      url: `/api/ora-reports/${target.oraId}`,
      payload: { summary: 'Reviewed by the board on 3 March' },
    }),
  },
  'DELETE /api/ora-reports/{id}': {
    request: async (target) => ({
      method: 'DELETE',
      url: `/api/ora-reports/${await fresh.ora(target)}`,
    }),
  },
  'GET /api/ora-reports/{id}/history': {
    request: (target) => ({ method: 'GET', url: `/api/ora-reports/${target.oraId}/history` }),
  },
  'GET /api/schemes/{id}/compliance': {
    request: (target) => ({ method: 'GET', url: `/api/schemes/${target.schemeId}/compliance` }),
  },
  'GET /api/compliance/calendar': {
    request: () => ({
      method: 'GET',
      url: '/api/compliance/calendar?from=2020-01-01&to=2021-12-31',
    }),
  },
  'GET /api/compliance/dashboard': {
    request: () => ({ method: 'GET', url: '/api/compliance/dashboard' }),
  },
  'POST /api/schemes/{id}/members/import': {
    request: (target) => ({
      method: 'POST',
      url: `/api/schemes/${target.schemeId}/members/import`,
      headers: { 'content-type': 'text/csv' },
      payload: `First Name,Last Name,Date of Birth,Date Joined,Salary,PPSN\nNiamh,Byrne,1988-03-04,2021-01-01,41000.00,${newPpsNumber()}\n`,
    }),
  },
  'POST /api/schemes/{id}/contributions/import': {
    request: (target) => ({
      method: 'POST',
      url: `/api/schemes/${target.schemeId}/contributions/import`,
      headers: { 'content-type': 'text/csv' },
      payload: `PPSN,Period,Employee,Employer\n${target.memberPpsNumber},${fresh.period()},120.00,240.00\n`,
    }),
  },
  'GET /api/schemes/{id}/imports': {
    request: (target) => ({ method: 'GET', url: `/api/schemes/${target.schemeId}/imports` }),
  },
  'GET /api/imports/{id}': {
    request: (target) => ({ method: 'GET', url: `/api/imports/${target.importId}` }),
  },
  'POST /api/schemes/{id}/documents': {
    request: (target) => {
      const form = documentForm('Trust deed.pdf', SAMPLES.pdf);
      return {
        method: 'POST',
        url: `/api/schemes/${target.schemeId}/documents`,
        headers: form.headers,
        payload: form.payload,
      };
    },
  },
  'GET /api/schemes/{id}/documents': {
    request: (target) => ({ method: 'GET', url: `/api/schemes/${target.schemeId}/documents` }),
  },
  'GET /api/documents/{id}': {
    request: (target) => ({ method: 'GET', url: `/api/documents/${target.documentId}` }),
  },
  'DELETE /api/documents/{id}': {
    request: async (target) => ({
      method: 'DELETE',
      url: `/api/documents/${await fresh.document(target)}`,
    }),
  },
  'GET /api/documents/{id}/url': {
    request: (target) => ({ method: 'GET', url: `/api/documents/${target.documentId}/url` }),
  },
  'GET /api/schemes/{id}/evidence-pack': {
    request: (target) => ({ method: 'GET', url: `/api/schemes/${target.schemeId}/evidence-pack` }),
  },
  'POST /api/employers/{id}/payroll/import': {
    request: (target) => ({
      method: 'POST',
      url: `/api/employers/${target.employerId}/payroll/import`,
      headers: { 'content-type': 'text/csv' },
      payload: payrollCsv(),
    }),
  },
  'GET /api/employers/{id}/payroll/imports': {
    request: (target) => ({
      method: 'GET',
      url: `/api/employers/${target.employerId}/payroll/imports`,
    }),
  },
  'GET /api/employers/{id}/payroll/imports/{importId}': {
    request: (target) => ({
      method: 'GET',
      url: `/api/employers/${target.employerId}/payroll/imports/${target.payrollUploadId}`,
    }),
  },
  'DELETE /api/employers/{id}/payroll/imports/{importId}': {
    request: async (target) => ({
      method: 'DELETE',
      url: `/api/employers/${target.employerId}/payroll/imports/${await fresh.payrollUpload(target)}`,
    }),
  },
  'GET /api/employers/{id}/auto-enrolment': {
    request: (target) => ({
      method: 'GET',
      url: `/api/employers/${target.employerId}/auto-enrolment?asOf=2026-03-31`,
    }),
  },
  'GET /api/employers/{id}/auto-enrolment/export': {
    request: (target) => ({
      method: 'GET',
      url: `/api/employers/${target.employerId}/auto-enrolment/export?asOf=2026-03-31`,
    }),
  },
  'GET /api/employers/{id}/auto-enrolment/summary.pdf': {
    request: (target) => ({
      method: 'GET',
      url: `/api/employers/${target.employerId}/auto-enrolment/summary.pdf?asOf=2026-03-31`,
    }),
  },
  'GET /api/employers/{id}/auto-enrolment/cost': {
    request: (target) => ({
      method: 'GET',
      url: `/api/employers/${target.employerId}/auto-enrolment/cost?asOf=2026-03-31`,
    }),
  },
  'GET /api/auto-enrolment/overview': {
    request: () => ({ method: 'GET', url: '/api/auto-enrolment/overview?asOf=2026-03-31' }),
  },
  'GET /api/audit': {
    request: () => ({ method: 'GET', url: '/api/audit' }),
  },
  'GET /api/audit/export.csv': {
    request: () => ({ method: 'GET', url: '/api/audit/export.csv' }),
  },
  'POST /api/ai/chat': {
    request: () => ({
      method: 'POST',
      url: '/api/ai/chat',
      payload: { question: 'How often is an own-risk assessment carried out?' },
    }),
  },
  'GET /api/tenant/ai-settings': {
    request: () => ({ method: 'GET', url: '/api/tenant/ai-settings' }),
  },
  'PUT /api/tenant/ai-settings': {
    request: () => ({
      method: 'PUT',
      url: '/api/tenant/ai-settings',
      payload: { monthlyRequestLimit: 500 },
    }),
  },
  'POST /api/ai/drafts': {
    request: (target) => ({
      method: 'POST',
      url: '/api/ai/drafts',
      payload: { schemeId: target.schemeId, kind: 'ora_outline' },
    }),
  },
  'GET /api/schemes/{id}/ai/drafts': {
    request: (target) => ({ method: 'GET', url: `/api/schemes/${target.schemeId}/ai/drafts` }),
  },
  'GET /api/ai/drafts/{id}': {
    request: (target) => ({ method: 'GET', url: `/api/ai/drafts/${target.aiDraftId}` }),
  },
  'PATCH /api/ai/drafts/{id}': {
    request: (target) => ({
      method: 'PATCH',
      url: `/api/ai/drafts/${target.aiDraftId}`,
      payload: { content: 'DRAFT FROM TEMPLATE\nOutline, edited' },
    }),
  },
  'POST /api/ai/drafts/{id}/review': {
    request: async (target) => ({
      method: 'POST',
      url: `/api/ai/drafts/${await fresh.aiDraft(target, 'draft')}/review`,
    }),
  },
  'POST /api/ai/drafts/{id}/approve': {
    request: async (target) => ({
      method: 'POST',
      url: `/api/ai/drafts/${await fresh.aiDraft(target, 'reviewed')}/approve`,
    }),
  },
  'POST /api/ai/drafts/{id}/issue': {
    request: async (target) => ({
      method: 'POST',
      url: `/api/ai/drafts/${await fresh.aiDraft(target, 'approved')}/issue`,
    }),
  },
};

/**
 * Routes that act on the signed-in person's own account only, whatever their role, and name no
 * record: no other tenant, employer or member to reach. Covered by the suite of each
 * (test/auth/change-password.test.ts, every role).
 */
const OWN_ACCOUNT_ROUTES = new Set([
  'POST /api/auth/change-password',
  // One's own second factors (test/auth/second-factor.test.ts, test/e2e/second-factor.test.ts).
  'POST /api/auth/mfa/confirm',
  'POST /api/auth/mfa/totp',
  'POST /api/auth/mfa/totp/confirm',
  'DELETE /api/auth/mfa/totp',
  'POST /api/auth/mfa/recovery-codes',
  'POST /api/auth/passkeys/registration/options',
  'POST /api/auth/passkeys/registration',
  'DELETE /api/auth/passkeys/{id}',
]);

/** A scheme with a fund and a member who has a contribution, and an account, in one employer. */
async function targetIn(brokerId: string, employerId: string): Promise<Target> {
  const user = await createUser(t.database, { brokerId, employerId, role: 'EmployerUser' });
  const invited = await createUser(t.database, {
    brokerId,
    employerId,
    role: 'EmployerUser',
    status: 'invited',
  });
  const schemeId = await createScheme(t.database, { id: employerId, brokerId });
  const member = await createMember(t.database, { brokerId, employerId, schemeId });
  const admin = await createUser(t.database, { brokerId, role: 'BrokerAdmin' });
  const fund = await t.requestAs(admin, 'POST', `/api/schemes/${schemeId}/funds`, {
    name: 'Default fund',
  });
  const contribution = await t.requestAs(admin, 'POST', `/api/members/${member.id}/contributions`, {
    period: '1999-12',
    kind: 'employer',
    amountCents: 50_000,
  });
  const imported = await t.app.inject({
    method: 'POST',
    url: `/api/schemes/${schemeId}/members/import`,
    remoteAddress: uniqueClientAddress(),
    headers: { authorization: `Bearer ${await t.tokenFor(admin)}`, 'content-type': 'text/csv' },
    payload: `First Name,Last Name,Date of Birth,Date Joined,Salary,PPSN\nSeán,Kelly,1979-05-06,2010-02-01,52000,${newPpsNumber()}\n`,
  });
  return {
    brokerId,
    employerId,
    schemeId,
    userId: user.id,
    invitedUserId: invited.id,
    memberId: member.id,
    memberPpsNumber: member.ppsNumber,
    importId: imported.json().id,
    contributionId: contribution.json().id,
    fundId: fund.json().id,
    trusteeId: await createTrustee(t.database, { brokerId, employerId, schemeId }),
    holderId: await createKeyFunctionHolder(t.database, { brokerId, employerId, schemeId }),
    policyId: await createPolicy(
      t.database,
      { brokerId, employerId, schemeId },
      { status: 'approved' },
    ),
    oraId: await createOraReport(t.database, { brokerId, employerId, schemeId }),
    documentId: await uploadDocument({ brokerId, schemeId }),
    aiDraftId: await insertAiDraft({ brokerId, employerId, schemeId }, 'draft'),
    payrollUploadId: await uploadPayroll({ brokerId, employerId }),
  };
}

beforeAll(async () => {
  const tenantA = await createBroker(t.database, 'Tenant A Brokers');
  const tenantB = await createBroker(t.database, 'Tenant B Brokers');
  const [a1, a2, b1] = await Promise.all([
    createEmployer(t.database, tenantA, 'A1 Ltd'),
    createEmployer(t.database, tenantA, 'A2 Ltd'),
    createEmployer(t.database, tenantB, 'B1 Ltd'),
  ]);
  const targets = {
    own: await targetIn(tenantA, a1),
    otherEmployer: await targetIn(tenantA, a2),
    otherTenant: await targetIn(tenantB, b1),
  };
  const actors = {} as Record<Role, UserRow>;
  for (const role of ROLES) {
    actors[role] = await createUser(t.database, {
      role,
      ...(role === 'SuperAdmin' ? {} : { brokerId: tenantA, employerId: a1 }),
      // The Member's own scope is their own member record.
      ...(role === 'Member' ? { memberId: targets.own.memberId } : {}),
    });
  }
  fixture = { actors, targets };
});
afterAll(() => t.close());

/** Nothing in a list answer may lie outside the actor's tenant or, in an employer role, employer. */
function assertListInReach(body: unknown, actor: UserRow) {
  const items = (body as { items?: Array<Record<string, unknown>> }).items;
  if (!Array.isArray(items) || actor.role === 'SuperAdmin') return;
  for (const item of items) {
    if ('brokerId' in item) expect(item.brokerId).toBe(actor.brokerId);
    if (['EmployerAdmin', 'EmployerUser', 'Member'].includes(actor.role)) {
      // An employer is its own employer; rows under a scheme or member name theirs, or sit
      // under a parent the route already checked.
      const isEmployer = 'id' in item && !('schemeId' in item) && !('memberId' in item);
      const employerOfItem = 'employerId' in item ? item.employerId : isEmployer ? item.id : null;
      if (employerOfItem !== null) expect(employerOfItem).toBe(actor.employerId);
    }
    // A row about a member is the Member's own; a row naming no member (a scheme-wide document)
    // is about nobody (decisions.md §7, "Documents about one member").
    if (actor.role === 'Member' && 'memberId' in item && item.memberId !== null) {
      expect(item.memberId).toBe(actor.memberId);
    }
  }
}

describe('tenant isolation matrix', () => {
  it('classifies every route the API documents, and no route it does not', () => {
    const keys = documented.map(({ key }) => key);
    const unclassified = keys.filter(
      (key) => !(key in ROUTES) && !PUBLIC_API_ROUTES.has(key) && !OWN_ACCOUNT_ROUTES.has(key),
    );
    expect(unclassified).toEqual([]);
    const stale = Object.keys(ROUTES).filter((key) => !keys.includes(key));
    expect(stale).toEqual([]);
    const withoutAction = Object.keys(ROUTES).filter((key) => actionOf.get(key) === undefined);
    expect(withoutAction).toEqual([]);
  });

  for (const [key, route] of Object.entries(ROUTES)) {
    const action = actionOf.get(key);
    if (action === undefined) continue;
    describe(`${key} (${action})`, () => {
      for (const role of ROLES) {
        for (const scope of SCOPES) {
          const outcome = expectedFor(action, role, scope);
          it(`as ${role} on a target in ${scope}: ${outcome}`, async () => {
            const actor = fixture.actors[role];
            const request = await route.request(fixture.targets[scope], fixture);
            const response = await t.app.inject({
              ...request,
              remoteAddress: uniqueClientAddress(),
              headers: { ...request.headers, authorization: `Bearer ${await t.tokenFor(actor)}` },
            });
            if (outcome === 'ok') {
              expect(response.statusCode, response.body).toBeGreaterThanOrEqual(200);
              expect(response.statusCode, response.body).toBeLessThan(300);
              // A CSV export is no JSON list; its reach is tested in test/audit/audit-readable.test.ts.
              const json = String(response.headers['content-type']).startsWith('application/json');
              if (response.statusCode !== 204 && json) assertListInReach(response.json(), actor);
            } else {
              expect(response.statusCode, response.body).toBe(outcome);
              expect(response.json()).toEqual({
                error: outcome === 403 ? 'Forbidden' : 'Not found',
              });
            }
          });
        }
      }
    });
  }
});
