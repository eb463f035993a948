import { createId } from '@paralleldrive/cuid2';
import { and, eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Action, POLICY, type Scope as Reach } from '../../src/contracts/policy.js';
import { aiDrafts, fundSwitches, userTotpSecrets } from '../../src/server/platform/db/schema.js';
import { ACTION_EXTENSION } from '../../src/server/platform/http/route-actions.js';
import { ROLES, type Role } from '../../src/server/platform/tenancy/roles.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { NAMED_OPERATOR } from '../helpers/config.js';
import { ownerOf } from '../helpers/database.js';
import { documentForm, SAMPLES } from '../helpers/documents.js';
import {
  createBroker,
  createEmployer,
  createKeyFunctionHolder,
  createMember,
  createMemberWhoIs,
  createOpenDataRequest,
  createOraReport,
  createPolicy,
  createRestrictedMember,
  createScheme,
  createTrustee,
  createUser,
  type UserRow,
} from '../helpers/factories.js';
import { newPpsNumber } from '../helpers/pps.js';
import { PUBLIC_API_ROUTES } from '../helpers/public-routes.js';
import {
  collectionOf,
  creationOf,
  exampleBody,
  exampleQuery,
  freshPeriod,
  parametersOf,
  pathWith,
  tableRoute,
} from '../helpers/route-examples.js';
import { createAssumptionSet, createIssuedStatement, createRunIn } from '../helpers/statements.js';

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
  /** The firm's own projection assumption set, which a statement run names. */
  assumptionsId: string;
}
interface Fixture {
  actors: Record<Role, UserRow>;
  targets: Record<Scope, Target>;
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
 * (docs/api.md, "Who may do what"). An action that names no record succeeds wherever the target is.
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
// The platform named, so that the register of information answers its staff (0139).
const t: TestApp = await buildTestApp({ counters: uncountedStore(), env: NAMED_OPERATOR });
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

/** Records in a state no route of the API creates them in. */
const fresh = {
  /** An AI draft in the state a lifecycle step takes it from (review, approve, issue). */
  aiDraft: (target: Target, status: 'draft' | 'reviewed' | 'approved') =>
    insertAiDraft(target, status),
  /** A payroll upload for the requests that use one up (delete). */
  payrollUpload: (target: Target) => uploadPayroll(target),
  /**
   * The target's member with no switch pending, for the request that asks for one: a switch asked
   * for before is taken as carried out (docs/decisions/0127-dc-money.md: one pending at a time).
   */
  memberWithNoSwitchPending: async (target: Target) => {
    await ownerOf(t.database)
      .update(fundSwitches)
      .set({ status: 'completed', completedOn: '2026-01-02' })
      .where(and(eq(fundSwitches.memberId, target.memberId), eq(fundSwitches.status, 'pending')));
    return target.memberId;
  },
  /** A member of the target's scheme of their own, for a step of the lifecycle. */
  memberWhoIs: (standing: 'active' | 'deferred') => (target: Target) =>
    createMemberWhoIs(t.database, target, standing),
  /** A breach of the target's firm, notified to the Commission, for the request that closes it. */
  notifiedBreach: async (target: Target) => {
    const id = await createdThroughApi('data-breaches', target);
    const admin = await createUser(t.database, { brokerId: target.brokerId, role: 'BrokerAdmin' });
    const response = await t.requestAs(admin, 'POST', `/api/data-breaches/${id}/notify-dpc`, {
      notifiedAt: '2026-01-11T09:00:00Z',
    });
    if (response.statusCode !== 200) throw new Error(`notify-dpc failed: ${response.body}`);
    return id;
  },
  /** An ICT incident of the target's firm classified major, for the request that reports it. */
  majorIncident: async (target: Target) => {
    const id = await createdThroughApi('ict-incidents', target);
    const admin = await createUser(t.database, { brokerId: target.brokerId, role: 'BrokerAdmin' });
    const body = exampleBody(tableRoute('POST /api/ict-incidents/{id}/classify'), {
      employer: target.employerId,
      scheme: target.schemeId,
      member: target.memberId,
      fund: target.fundId,
      assumptions: target.assumptionsId,
    }) as object;
    const response = await t.requestAs(admin, 'POST', `/api/ict-incidents/${id}/classify`, body);
    if (response.statusCode !== 200) throw new Error(`classify failed: ${response.body}`);
    return id;
  },
  /** A data-subject request of the target's member, open and received today. */
  openDataRequest: (target: Target) =>
    createOpenDataRequest(t.database, { brokerId: target.brokerId, memberId: target.memberId }),
  /** An open erasure request of a member of the target's scheme of their own, for the erasure. */
  openErasureRequest: async (target: Target) =>
    createOpenDataRequest(
      t.database,
      {
        brokerId: target.brokerId,
        memberId: await createMemberWhoIs(t.database, target, 'active'),
      },
      { kind: 'erasure' },
    ),
  /** A member whose data is restricted, for the request that lifts it. */
  restrictedMember: (target: Target) => createRestrictedMember(t.database, target),
  /**
   * A rectification request of the target's member, open, received on 5 January 2026: before the
   * day its route's example says the recipients were told
   * (docs/decisions/0148-rectification-and-recipients.md).
   */
  openRectification: (target: Target) =>
    createOpenDataRequest(
      t.database,
      { brokerId: target.brokerId, memberId: target.memberId },
      { kind: 'rectification', receivedOn: '2026-01-05' },
    ),
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

/** The target's record of each kind a path parameter names (test/helpers/route-examples.ts). */
const RECORD_OF: Record<string, keyof Target> = {
  brokers: 'brokerId',
  employers: 'employerId',
  users: 'userId',
  schemes: 'schemeId',
  members: 'memberId',
  contributions: 'contributionId',
  funds: 'fundId',
  trustees: 'trusteeId',
  'key-function-holders': 'holderId',
  policies: 'policyId',
  'ora-reports': 'oraId',
  imports: 'importId',
  documents: 'documentId',
  'ai/drafts': 'aiDraftId',
  'payroll/imports': 'payrollUploadId',
};

/**
 * A new record of each kind whose route of creation is not `POST …/<kind>`, for a deletion, which
 * uses its record up. Every other kind is created through its route (`createdThroughApi`).
 */
const NEW_RECORD: Record<string, (target: Target) => Promise<string>> = {
  'payroll/imports': fresh.payrollUpload,
};

/**
 * A new record of a kind, made as a person would, through the route that creates one with that
 * route's example (src/contracts/api-routes.ts), by a BrokerAdmin of the target's firm. A register
 * added later is tried by the matrix without a line here.
 */
async function createdThroughApi(collection: string, target: Target): Promise<string> {
  const key = creationOf(collection);
  if (key === undefined) throw new Error(`no route creates ${collection}`);
  const request = await requestFor(key, target);
  const admin = await createUser(t.database, { brokerId: target.brokerId, role: 'BrokerAdmin' });
  const response = await t.app.inject({
    ...request,
    remoteAddress: uniqueClientAddress(),
    headers: { ...request.headers, authorization: `Bearer ${await t.tokenFor(admin)}` },
  });
  if (response.statusCode !== 201) throw new Error(`${key} failed: ${response.body}`);
  return response.json().id;
}

/** The target's record of a kind it was not built with, made once through the API. */
const madeForTarget = new Map<string, Promise<string>>();
function recordOfTarget(collection: string, target: Target): Promise<string> {
  const cacheKey = `${target.schemeId} ${collection}`;
  let made = madeForTarget.get(cacheKey);
  if (made === undefined) {
    made = createdThroughApi(collection, target);
    madeForTarget.set(cacheKey, made);
  }
  return made;
}

/** Routes that act on a record in a given state: a step of a lifecycle, an account not set up. */
const RECORD_IN_STATE: Record<string, (target: Target) => Promise<string> | string> = {
  // Only a draft's title and version change; the target's policy is the approved one in use.
  'PATCH /api/policies/{id}': (target) => createdThroughApi('policies', target),
  'POST /api/policies/{id}/approve': (target) => createdThroughApi('policies', target),
  'POST /api/ai/drafts/{id}/review': (target) => fresh.aiDraft(target, 'draft'),
  'POST /api/ai/drafts/{id}/approve': (target) => fresh.aiDraft(target, 'reviewed'),
  'POST /api/ai/drafts/{id}/issue': (target) => fresh.aiDraft(target, 'approved'),
  'POST /api/users/{id}/invitation': (target) => target.invitedUserId,
  'POST /api/members/{id}/switches': fresh.memberWithNoSwitchPending,
  'POST /api/members/{id}/leave': fresh.memberWhoIs('active'),
  'POST /api/members/{id}/retire': fresh.memberWhoIs('active'),
  'POST /api/members/{id}/death': fresh.memberWhoIs('active'),
  'POST /api/members/{id}/leaving-choice': fresh.memberWhoIs('deferred'),
  'POST /api/members/{id}/transfer-out': fresh.memberWhoIs('deferred'),
  'POST /api/members/{id}/rejoin': fresh.memberWhoIs('deferred'),
  'POST /api/members/{id}/status-corrections': fresh.memberWhoIs('deferred'),
  // A step on a breach is taken once: each request gets a breach of its own, open, or, to close
  // one the Commission is to be told of, notified (docs/decisions/0138-personal-data-breaches.md).
  'PATCH /api/data-breaches/{id}': (target) => createdThroughApi('data-breaches', target),
  'POST /api/data-breaches/{id}/notify-dpc': (target) => createdThroughApi('data-breaches', target),
  'POST /api/data-breaches/{id}/members-told': (target) =>
    createdThroughApi('data-breaches', target),
  'POST /api/data-breaches/{id}/close': fresh.notifiedBreach,
  // A data-subject request still open within its first month: every step may be taken
  // (docs/decisions/0137-data-subject-requests.md).
  'POST /api/data-requests/{id}/extend': fresh.openDataRequest,
  'POST /api/data-requests/{id}/complete': fresh.openDataRequest,
  'POST /api/data-requests/{id}/refuse': fresh.openDataRequest,
  // Erasure and restriction (docs/decisions/0149-retention-and-erasure.md): an open erasure
  // request, a member with no restriction, and one with a restriction to lift.
  'POST /api/data-requests/{id}/erase': fresh.openErasureRequest,
  'POST /api/members/{id}/restriction': fresh.memberWhoIs('active'),
  'POST /api/members/{id}/restriction/lift': fresh.restrictedMember,
  'GET /api/data-requests/{id}/rectification': fresh.openRectification,
  'POST /api/data-requests/{id}/rectification': fresh.openRectification,
  // Only a major incident is reported, its initial notification first: each request gets an
  // incident of its own, classified major (docs/decisions/0139-dora-ict-incidents.md).
  'POST /api/ict-incidents/{id}/reports': fresh.majorIncident,
  // An EmployerUser with a factor to remove, an account a BrokerAdmin and a SuperAdmin look after
  // (contracts/second-factor.ts, SECOND_FACTOR_RESETTABLE); who else may not is in
  // test/auth/second-factor.test.ts.
  'DELETE /api/users/{id}/second-factor': fresh.userWithFactor,
  // A wind-up leaves its scheme read only: each request winds up a scheme of its own, under the
  // target's employer, never the target's (docs/decisions/0146-schemes-wound-up-not-deleted.md).
  'POST /api/schemes/{id}/wind-up': (target) => createdThroughApi('schemes', target),
  // A statement run is one per scheme and information date, queued by each request on a scheme of
  // its own; each step takes a run in the state it starts from, and a statement is read once
  // issued (docs/decisions/0141-pension-benefit-statements.md).
  'POST /api/schemes/{id}/statement-runs': (target) =>
    createScheme(t.database, { id: target.employerId, brokerId: target.brokerId }),
  'GET /api/statement-runs/{id}': (target) => createRunIn(t.database, target, 'ready'),
  'GET /api/statement-runs/{id}/statements': (target) => createRunIn(t.database, target, 'ready'),
  'POST /api/statement-runs/{id}/approve': (target) => createRunIn(t.database, target, 'ready'),
  'POST /api/statement-runs/{id}/issue': (target) => createRunIn(t.database, target, 'approved'),
  'GET /api/statements/{id}/pdf': (target) => createIssuedStatement(t.database, target),
  'GET /api/statement-runs/{id}/paper': (target) => createRunIn(t.database, target, 'issued'),
  'POST /api/statements/{id}/paper': (target) => createIssuedStatement(t.database, target),
};

/** Routes whose body is a file, not JSON: a CSV import, a document's multipart form. */
const FILE_BODIES: Record<string, (target: Target) => Pick<InjectOptions, 'headers' | 'payload'>> =
  {
    'POST /api/schemes/{id}/members/import': () => ({
      headers: { 'content-type': 'text/csv' },
      payload: `First Name,Last Name,Date of Birth,Date Joined,Salary,PPSN\nNiamh,Byrne,1988-03-04,2021-01-01,41000.00,${newPpsNumber()}\n`,
    }),
    'POST /api/schemes/{id}/contributions/import': (target) => ({
      headers: { 'content-type': 'text/csv' },
      payload: `PPSN,Period,Employee,Employer\n${target.memberPpsNumber},${freshPeriod()},120.00,240.00\n`,
    }),
    'POST /api/schemes/{id}/documents': () => {
      const form = documentForm('Trust deed.pdf', SAMPLES.pdf);
      return { headers: form.headers, payload: form.payload };
    },
    // The target's fund is named so (targetIn).
    'POST /api/schemes/{id}/fund-prices/import': () => ({
      headers: { 'content-type': 'text/csv' },
      payload: 'Fund,Date,Price\nDefault fund,2026-01-05,1.000000\n',
    }),
    'POST /api/employers/{id}/payroll/import': () => ({
      headers: { 'content-type': 'text/csv' },
      payload: payrollCsv(),
    }),
  };

/** How the record each path parameter names is found, or why it cannot be. */
function parameterSource(key: string, name: string, last: boolean): string | undefined {
  const [method, path] = key.split(' ') as [string, string];
  if (name === 'period') return 'a pay period';
  if (name === 'kind') return 'a kind of report';
  if (last && key in RECORD_IN_STATE) return 'a record in its state';
  const collection = collectionOf(path, name);
  const created = creationOf(collection) !== undefined;
  if (last && method === 'DELETE') {
    return collection in NEW_RECORD || created ? 'a new record' : undefined;
  }
  if (collection in RECORD_OF) return "the target's record";
  return created ? 'a record made through the API' : undefined;
}

/**
 * The request for a route on a target, from the route table: its path with the target's records,
 * its example query, and its example body with the target's ids (test/helpers/route-examples.ts).
 */
async function requestFor(key: string, target: Target): Promise<InjectOptions> {
  const [method, path] = key.split(' ') as [InjectOptions['method'] & string, string];
  const route = tableRoute(key);
  const names = parametersOf(path);
  const values: Record<string, string> = {};
  for (const [index, name] of names.entries()) {
    const collection = collectionOf(path, name);
    const inState = index === names.length - 1 ? RECORD_IN_STATE[key] : undefined;
    const deletion = index === names.length - 1 && method === 'DELETE';
    const field = RECORD_OF[collection];
    if (name === 'period') values[name] = '2026-01';
    else if (name === 'kind') values[name] = 'initial';
    else if (inState) values[name] = await inState(target);
    else if (deletion) {
      const make = NEW_RECORD[collection];
      values[name] = await (make ? make(target) : createdThroughApi(collection, target));
    } else if (field) values[name] = String(target[field]);
    else values[name] = await recordOfTarget(collection, target);
  }
  const url = `${pathWith(path, values)}${exampleQuery(route)}`;
  const file = FILE_BODIES[key];
  if (file) return { method, url, ...file(target) };
  const body = exampleBody(route, {
    employer: target.employerId,
    scheme: target.schemeId,
    member: target.memberId,
    fund: target.fundId,
    assumptions: target.assumptionsId,
  });
  return { method, url, ...(body === undefined ? {} : { payload: body as object }) };
}

/**
 * A member's own data-subject request carries no day of receipt: the service takes today, and
 * refuses another day; and it is of a kind the staff's example did not already leave open for the
 * same member, which would be a 409 (docs/decisions/0137-data-subject-requests.md, "Later").
 */
function ownRequestOf(role: string, key: string, request: InjectOptions): InjectOptions {
  if (role !== 'Member' || key !== 'POST /api/data-requests') return request;
  const { receivedOn: _, ...body } = request.payload as Record<string, unknown>;
  return { ...request, payload: { ...body, kind: 'objection' } };
}

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
    assumptionsId: await createAssumptionSet(t.database, brokerId),
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
    // is about nobody (docs/decisions/0090-member-documents.md).
    if (actor.role === 'Member' && 'memberId' in item && item.memberId !== null) {
      expect(item.memberId).toBe(actor.memberId);
    }
  }
}

/** The routes the matrix tries: every documented one but those open to all and one's own account's. */
const TRIED = documented
  .map(({ key }) => key)
  .filter((key) => !PUBLIC_API_ROUTES.has(key) && !OWN_ACCOUNT_ROUTES.has(key));

describe('tenant isolation matrix', () => {
  it('tries every route the API documents but the public and own-account ones, each naming its action', () => {
    expect(TRIED.length).toBeGreaterThan(90);
    expect(TRIED.filter((key) => actionOf.get(key) === undefined)).toEqual([]);
    expect(TRIED.filter((key) => tableRoute(key) === undefined)).toEqual([]);
  });

  it('knows the record each path parameter of each route names', () => {
    const unknown = TRIED.flatMap((key) => {
      const names = parametersOf(key.split(' ')[1] as string);
      return names
        .filter((name, index) => !parameterSource(key, name, index === names.length - 1))
        .map((name) => `${key}: ${name}`);
    });
    expect(unknown).toEqual([]);
    // And the lists of special cases name routes that exist.
    const keys = documented.map(({ key }) => key);
    const stale = [...Object.keys(RECORD_IN_STATE), ...Object.keys(FILE_BODIES)].filter(
      (key) => !keys.includes(key),
    );
    expect(stale).toEqual([]);
  });

  for (const key of TRIED) {
    const action = actionOf.get(key);
    if (action === undefined) continue;
    describe(`${key} (${action})`, () => {
      for (const role of ROLES) {
        for (const scope of SCOPES) {
          const outcome = expectedFor(action, role, scope);
          it(`as ${role} on a target in ${scope}: ${outcome}`, async () => {
            const actor = fixture.actors[role];
            const request = ownRequestOf(role, key, await requestFor(key, fixture.targets[scope]));
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
