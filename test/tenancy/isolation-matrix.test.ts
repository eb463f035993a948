import { createId } from '@paralleldrive/cuid2';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES, type Role } from '../../src/server/tenancy/roles.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import {
  createBroker,
  createEmployer,
  createMember,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';
import { newPpsNumber } from '../helpers/pps.js';

/**
 * The tenant-isolation matrix (issue 4): every documented route × every role × a target in the
 * actor's own employer, in another employer of the same tenant, and in another tenant. The routes
 * come from the OpenAPI description, so a new route fails "classifies every route" until it has
 * a row here.
 */
type Scope = 'own' | 'otherEmployer' | 'otherTenant';
const SCOPES: Scope[] = ['own', 'otherEmployer', 'otherTenant'];
type Outcome = 'ok' | 403 | 404;
/** One outcome whatever the target, or one per scope in the order of SCOPES. */
type Expected = Outcome | readonly [Outcome, Outcome, Outcome];

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
}
interface Fixture {
  actors: Record<Role, UserRow>;
  targets: Record<Scope, Target>;
}

interface RouteCase {
  request(target: Target, fixture: Fixture): Promise<InjectOptions> | InjectOptions;
  expected: Record<Role, Expected>;
}

const TENANT_REACH = ['ok', 'ok', 404] as const;
const EMPLOYER_REACH = ['ok', 404, 404] as const;
/** A write naming a parent the actor cannot reach is refused, not hidden (decisions.md §3). */
const TENANT_PARENT = ['ok', 'ok', 403] as const;
const EMPLOYER_PARENT = ['ok', 403, 403] as const;

const only = (allowed: Partial<Record<Role, Expected>>): Record<Role, Expected> =>
  Object.fromEntries(ROLES.map((role) => [role, allowed[role] ?? 403])) as Record<Role, Expected>;

let t: TestApp;
let fixture: Fixture;

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
};

/** Who reads member data: the tenant's brokers, the employer's people, the member themself. */
const MEMBER_READERS = only({
  SuperAdmin: 'ok',
  BrokerAdmin: TENANT_REACH,
  BrokerUser: TENANT_REACH,
  EmployerAdmin: EMPLOYER_REACH,
  EmployerUser: EMPLOYER_REACH,
  Member: EMPLOYER_REACH,
});
/** Who records member data: the tenant's brokers and the employer's administrator. */
const MEMBER_WRITERS = only({
  BrokerAdmin: TENANT_REACH,
  BrokerUser: TENANT_REACH,
  EmployerAdmin: EMPLOYER_REACH,
});
const SCHEME_CHILD_CREATORS = only({
  BrokerAdmin: TENANT_PARENT,
  BrokerUser: TENANT_PARENT,
  EmployerAdmin: EMPLOYER_PARENT,
});

/** The funds a scheme offers are the broker's (decisions.md §3): employer roles only read them. */
const FUND_MANAGERS = only({ BrokerAdmin: TENANT_REACH, BrokerUser: TENANT_REACH });
const FUND_CREATORS = only({ BrokerAdmin: TENANT_PARENT, BrokerUser: TENANT_PARENT });

const ROUTES: Record<string, RouteCase> = {
  'POST /api/brokers': {
    request: () => ({ method: 'POST', url: '/api/brokers', payload: { name: 'New Brokers' } }),
    expected: only({ SuperAdmin: 'ok' }),
  },
  'GET /api/brokers': {
    request: () => ({ method: 'GET', url: '/api/brokers' }),
    expected: only({ SuperAdmin: 'ok' }),
  },
  'GET /api/brokers/{brokerId}': {
    request: (target) => ({ method: 'GET', url: `/api/brokers/${target.brokerId}` }),
    expected: only({ SuperAdmin: 'ok', BrokerAdmin: TENANT_REACH, BrokerUser: TENANT_REACH }),
  },
  'PATCH /api/brokers/{brokerId}': {
    request: (target) => ({
      method: 'PATCH',
      url: `/api/brokers/${target.brokerId}`,
      payload: { name: 'Renamed Brokers' },
    }),
    expected: only({ SuperAdmin: 'ok' }),
  },
  'POST /api/brokers/{brokerId}/users': {
    request: (target) => ({
      method: 'POST',
      url: `/api/brokers/${target.brokerId}/users`,
      payload: { email: fresh.email(), name: 'New Broker User', role: 'BrokerUser' },
    }),
    expected: only({ SuperAdmin: 'ok' }),
  },
  'GET /api/brokers/{brokerId}/users': {
    request: (target) => ({ method: 'GET', url: `/api/brokers/${target.brokerId}/users` }),
    expected: only({ SuperAdmin: 'ok' }),
  },
  'POST /api/employers': {
    request: () => ({ method: 'POST', url: '/api/employers', payload: { name: 'New Employer' } }),
    expected: only({ BrokerAdmin: 'ok' }),
  },
  'GET /api/employers': {
    request: () => ({ method: 'GET', url: '/api/employers' }),
    expected: only({
      SuperAdmin: 'ok',
      BrokerAdmin: 'ok',
      BrokerUser: 'ok',
      EmployerAdmin: 'ok',
      EmployerUser: 'ok',
    }),
  },
  'GET /api/employers/{id}': {
    request: (target) => ({ method: 'GET', url: `/api/employers/${target.employerId}` }),
    expected: only({
      SuperAdmin: 'ok',
      BrokerAdmin: TENANT_REACH,
      BrokerUser: TENANT_REACH,
      EmployerAdmin: EMPLOYER_REACH,
      EmployerUser: EMPLOYER_REACH,
    }),
  },
  'PATCH /api/employers/{id}': {
    request: (target) => ({
      method: 'PATCH',
      url: `/api/employers/${target.employerId}`,
      payload: { name: 'Renamed Employer Ltd' },
    }),
    expected: only({ BrokerAdmin: TENANT_REACH, EmployerAdmin: EMPLOYER_REACH }),
  },
  'DELETE /api/employers/{id}': {
    request: async (target) => ({
      method: 'DELETE',
      url: `/api/employers/${await fresh.employer(target)}`,
    }),
    expected: only({ BrokerAdmin: TENANT_REACH }),
  },
  'POST /api/employers/{id}/users': {
    request: (target) => ({
      method: 'POST',
      url: `/api/employers/${target.employerId}/users`,
      payload: { email: fresh.email(), name: 'New HR user', role: 'EmployerUser' },
    }),
    expected: only({ BrokerAdmin: TENANT_PARENT }),
  },
  'GET /api/employers/{id}/users': {
    request: (target) => ({ method: 'GET', url: `/api/employers/${target.employerId}/users` }),
    expected: only({ SuperAdmin: 'ok', BrokerAdmin: TENANT_REACH, EmployerAdmin: EMPLOYER_REACH }),
  },
  'GET /api/users': {
    request: () => ({ method: 'GET', url: '/api/users' }),
    expected: only({ SuperAdmin: 'ok', BrokerAdmin: 'ok' }),
  },
  'GET /api/users/{id}': {
    request: (target) => ({ method: 'GET', url: `/api/users/${target.userId}` }),
    expected: only({ SuperAdmin: 'ok', BrokerAdmin: TENANT_REACH }),
  },
  'PATCH /api/users/{id}': {
    request: (target) => ({
      method: 'PATCH',
      url: `/api/users/${target.userId}`,
      payload: { name: 'Renamed User' },
    }),
    expected: only({ SuperAdmin: 'ok', BrokerAdmin: TENANT_REACH }),
  },
  'POST /api/users': {
    request: () => ({
      method: 'POST',
      url: '/api/users',
      payload: { email: fresh.email(), name: 'New colleague', role: 'BrokerUser' },
    }),
    expected: only({ BrokerAdmin: 'ok' }),
  },
  'POST /api/users/{id}/invitation': {
    request: (target) => ({ method: 'POST', url: `/api/users/${target.invitedUserId}/invitation` }),
    expected: only({ SuperAdmin: 'ok', BrokerAdmin: TENANT_REACH }),
  },
  'GET /api/overview': {
    request: () => ({ method: 'GET', url: '/api/overview' }),
    expected: only({
      BrokerAdmin: 'ok',
      BrokerUser: 'ok',
      EmployerAdmin: 'ok',
      EmployerUser: 'ok',
    }),
  },
  'GET /api/me': {
    request: () => ({ method: 'GET', url: '/api/me' }),
    expected: Object.fromEntries(ROLES.map((role) => [role, 'ok'])) as Record<Role, Expected>,
  },
  'POST /api/schemes': {
    request: (target) => ({
      method: 'POST',
      url: '/api/schemes',
      payload: { employerId: target.employerId, name: 'New DC scheme', type: 'DC' },
    }),
    expected: only({ BrokerAdmin: TENANT_PARENT, BrokerUser: TENANT_PARENT }),
  },
  'GET /api/schemes': {
    request: () => ({ method: 'GET', url: '/api/schemes' }),
    expected: only({
      SuperAdmin: 'ok',
      BrokerAdmin: 'ok',
      BrokerUser: 'ok',
      EmployerAdmin: 'ok',
      EmployerUser: 'ok',
    }),
  },
  'GET /api/schemes/{id}': {
    request: (target) => ({ method: 'GET', url: `/api/schemes/${target.schemeId}` }),
    expected: only({
      SuperAdmin: 'ok',
      BrokerAdmin: TENANT_REACH,
      BrokerUser: TENANT_REACH,
      EmployerAdmin: EMPLOYER_REACH,
      EmployerUser: EMPLOYER_REACH,
    }),
  },
  'PATCH /api/schemes/{id}': {
    request: (target) => ({
      method: 'PATCH',
      url: `/api/schemes/${target.schemeId}`,
      payload: { name: 'Renamed scheme' },
    }),
    expected: only({
      BrokerAdmin: TENANT_REACH,
      BrokerUser: TENANT_REACH,
      EmployerAdmin: EMPLOYER_REACH,
    }),
  },
  'DELETE /api/schemes/{id}': {
    request: async (target) => ({
      method: 'DELETE',
      url: `/api/schemes/${await fresh.scheme(target)}`,
    }),
    expected: only({ BrokerAdmin: TENANT_REACH }),
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
    expected: SCHEME_CHILD_CREATORS,
  },
  'GET /api/schemes/{id}/members': {
    request: (target) => ({ method: 'GET', url: `/api/schemes/${target.schemeId}/members` }),
    expected: only({
      SuperAdmin: 'ok',
      BrokerAdmin: TENANT_REACH,
      BrokerUser: TENANT_REACH,
      EmployerAdmin: EMPLOYER_REACH,
      EmployerUser: EMPLOYER_REACH,
    }),
  },
  'GET /api/members/{id}': {
    request: (target) => ({ method: 'GET', url: `/api/members/${target.memberId}` }),
    expected: MEMBER_READERS,
  },
  'PATCH /api/members/{id}': {
    request: (target) => ({
      method: 'PATCH',
      url: `/api/members/${target.memberId}`,
      payload: { address: '3 New Road, Cork' },
    }),
    expected: MEMBER_WRITERS,
  },
  'DELETE /api/members/{id}': {
    request: async (target) => ({
      method: 'DELETE',
      url: `/api/members/${await fresh.member(target)}`,
    }),
    expected: only({ BrokerAdmin: TENANT_REACH }),
  },
  'POST /api/members/{id}/pps/reveal': {
    request: (target) => ({ method: 'POST', url: `/api/members/${target.memberId}/pps/reveal` }),
    expected: only({ BrokerAdmin: TENANT_REACH, BrokerUser: TENANT_REACH }),
  },
  'GET /api/members/{id}/export': {
    request: (target) => ({ method: 'GET', url: `/api/members/${target.memberId}/export` }),
    expected: only({ BrokerAdmin: TENANT_REACH, Member: EMPLOYER_REACH }),
  },
  'GET /api/members/{id}/summary': {
    request: (target) => ({ method: 'GET', url: `/api/members/${target.memberId}/summary` }),
    expected: MEMBER_READERS,
  },
  'PATCH /api/members/{id}/contact': {
    request: (target) => ({
      method: 'PATCH',
      url: `/api/members/${target.memberId}/contact`,
      payload: { address: '4 Quay Street, Galway' },
    }),
    // The member's own door; staff change contact details through PATCH /api/members/{id}.
    expected: only({ Member: EMPLOYER_REACH }),
  },
  'GET /api/members/{id}/export.csv': {
    request: (target) => ({ method: 'GET', url: `/api/members/${target.memberId}/export.csv` }),
    expected: only({ BrokerAdmin: TENANT_REACH, Member: EMPLOYER_REACH }),
  },
  'GET /api/members/{id}/contributions': {
    request: (target) => ({ method: 'GET', url: `/api/members/${target.memberId}/contributions` }),
    expected: MEMBER_READERS,
  },
  'POST /api/members/{id}/contributions': {
    request: (target) => ({
      method: 'POST',
      url: `/api/members/${target.memberId}/contributions`,
      payload: { period: fresh.period(), kind: 'employee', amountCents: 12_345 },
    }),
    expected: MEMBER_WRITERS,
  },
  'POST /api/contributions/{id}/adjustments': {
    request: (target) => ({
      method: 'POST',
      url: `/api/contributions/${target.contributionId}/adjustments`,
      payload: { deltaCents: 1, reason: 'Rounding' },
    }),
    expected: MEMBER_WRITERS,
  },
  'GET /api/schemes/{id}/payroll/{period}': {
    request: (target) => ({
      method: 'GET',
      url: `/api/schemes/${target.schemeId}/payroll/2026-01`,
    }),
    expected: only({
      SuperAdmin: 'ok',
      BrokerAdmin: TENANT_REACH,
      BrokerUser: TENANT_REACH,
      EmployerAdmin: EMPLOYER_REACH,
      EmployerUser: EMPLOYER_REACH,
    }),
  },
  'PUT /api/schemes/{id}/payroll/{period}': {
    request: (target) => ({
      method: 'PUT',
      url: `/api/schemes/${target.schemeId}/payroll/2026-01`,
      payload: { rows: [] },
    }),
    expected: MEMBER_WRITERS,
  },
  'GET /api/schemes/{id}/contribution-periods': {
    request: (target) => ({
      method: 'GET',
      url: `/api/schemes/${target.schemeId}/contribution-periods`,
    }),
    expected: only({
      SuperAdmin: 'ok',
      BrokerAdmin: TENANT_REACH,
      BrokerUser: TENANT_REACH,
      EmployerAdmin: EMPLOYER_REACH,
      EmployerUser: EMPLOYER_REACH,
    }),
  },
  'GET /api/schemes/{id}/funds': {
    request: (target) => ({ method: 'GET', url: `/api/schemes/${target.schemeId}/funds` }),
    expected: MEMBER_READERS,
  },
  'POST /api/schemes/{id}/funds': {
    request: (target) => ({
      method: 'POST',
      url: `/api/schemes/${target.schemeId}/funds`,
      payload: { name: fresh.name() },
    }),
    expected: FUND_CREATORS,
  },
  'PATCH /api/funds/{id}': {
    request: (target) => ({
      method: 'PATCH',
      url: `/api/funds/${target.fundId}`,
      payload: { isin: 'IE00B4L5Y983' },
    }),
    expected: FUND_MANAGERS,
  },
  'GET /api/members/{id}/fund-choices': {
    request: (target) => ({ method: 'GET', url: `/api/members/${target.memberId}/fund-choices` }),
    expected: MEMBER_READERS,
  },
  'PUT /api/members/{id}/fund-choices': {
    request: (target) => ({
      method: 'PUT',
      url: `/api/members/${target.memberId}/fund-choices`,
      payload: { allocations: [{ fundId: target.fundId, percent: 100 }] },
    }),
    expected: only({
      BrokerAdmin: TENANT_REACH,
      BrokerUser: TENANT_REACH,
      EmployerAdmin: EMPLOYER_REACH,
      Member: EMPLOYER_REACH,
    }),
  },
  'POST /api/schemes/{id}/members/import': {
    request: (target) => ({
      method: 'POST',
      url: `/api/schemes/${target.schemeId}/members/import`,
      headers: { 'content-type': 'text/csv' },
      payload: `First Name,Last Name,Date of Birth,Date Joined,Salary,PPSN\nNiamh,Byrne,1988-03-04,2021-01-01,41000.00,${newPpsNumber()}\n`,
    }),
    expected: MEMBER_WRITERS,
  },
  'POST /api/schemes/{id}/contributions/import': {
    request: (target) => ({
      method: 'POST',
      url: `/api/schemes/${target.schemeId}/contributions/import`,
      headers: { 'content-type': 'text/csv' },
      payload: `PPSN,Period,Employee,Employer\n${target.memberPpsNumber},${fresh.period()},120.00,240.00\n`,
    }),
    expected: MEMBER_WRITERS,
  },
  'GET /api/schemes/{id}/imports': {
    request: (target) => ({ method: 'GET', url: `/api/schemes/${target.schemeId}/imports` }),
    expected: only({
      SuperAdmin: 'ok',
      BrokerAdmin: TENANT_REACH,
      BrokerUser: TENANT_REACH,
      EmployerAdmin: EMPLOYER_REACH,
      EmployerUser: EMPLOYER_REACH,
    }),
  },
  'GET /api/imports/{id}': {
    request: (target) => ({ method: 'GET', url: `/api/imports/${target.importId}` }),
    expected: only({
      SuperAdmin: 'ok',
      BrokerAdmin: TENANT_REACH,
      BrokerUser: TENANT_REACH,
      EmployerAdmin: EMPLOYER_REACH,
      EmployerUser: EMPLOYER_REACH,
    }),
  },
  'GET /api/audit': {
    request: () => ({ method: 'GET', url: '/api/audit' }),
    expected: only({ SuperAdmin: 'ok', BrokerAdmin: 'ok' }),
  },
  'GET /api/audit/export.csv': {
    request: () => ({ method: 'GET', url: '/api/audit/export.csv' }),
    expected: only({ SuperAdmin: 'ok', BrokerAdmin: 'ok' }),
  },
};

/** Routes open without a session: covered by the identity and health suites. */
const PUBLIC_ROUTES = new Set([
  'POST /api/auth/callback/credentials',
  'POST /api/auth/signin',
  'GET /api/auth/session',
  'POST /api/auth/signout',
  'POST /api/auth/forgot-password',
  'POST /api/auth/reset-password',
  'POST /api/auth/accept-invitation',
  'GET /api/health/live',
  'GET /api/health/ready',
  'GET /api/health/db',
]);

/**
 * Routes that act on the signed-in person's own account only, whatever their role, and name no
 * record: no other tenant, employer or member to reach. Covered by the suite of each.
 */
const OWN_ACCOUNT_ROUTES = new Set(['POST /api/auth/change-password']);

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
  };
}

beforeAll(async () => {
  // Hundreds of requests as one user, about something else than rate limits.
  t = await buildTestApp({ counters: uncountedStore() });
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

function expectedFor(route: RouteCase, role: Role, scope: Scope): Outcome {
  const expected = route.expected[role];
  return typeof expected === 'object' ? (expected[SCOPES.indexOf(scope)] as Outcome) : expected;
}

/** Nothing in a list answer may lie outside the actor's tenant or, in an employer role, employer. */
function assertListInReach(body: unknown, actor: UserRow) {
  const items = (body as { items?: Array<Record<string, unknown>> }).items;
  if (!Array.isArray(items) || actor.role === 'SuperAdmin') return;
  for (const item of items) {
    if ('brokerId' in item) expect(item.brokerId).toBe(actor.brokerId);
    if (['EmployerAdmin', 'EmployerUser', 'Member'].includes(actor.role)) {
      // An employer is its own employer; rows under a scheme or member name theirs, or sit
      // under a parent the route already checked.
      const isEmployer = !('schemeId' in item) && !('memberId' in item);
      const employerOfItem = 'employerId' in item ? item.employerId : isEmployer ? item.id : null;
      if (employerOfItem !== null) expect(employerOfItem).toBe(actor.employerId);
    }
    if (actor.role === 'Member' && 'memberId' in item) expect(item.memberId).toBe(actor.memberId);
  }
}

describe('tenant isolation matrix', () => {
  it('classifies every route the API documents, and no route it does not', async () => {
    const spec = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(spec.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const unclassified = documented.filter(
      (key) => !(key in ROUTES) && !PUBLIC_ROUTES.has(key) && !OWN_ACCOUNT_ROUTES.has(key),
    );
    expect(unclassified).toEqual([]);
    const stale = Object.keys(ROUTES).filter((key) => !documented.includes(key));
    expect(stale).toEqual([]);
  });

  for (const [key, route] of Object.entries(ROUTES)) {
    describe(key, () => {
      for (const role of ROLES) {
        for (const scope of SCOPES) {
          const outcome = expectedFor(route, role, scope);
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
              // A CSV export is no JSON list; its reach is tested in test/modules/audit-readable.test.ts.
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
