import { describe, expect, it } from 'vitest';
import type { RowScope } from '../../contracts/permits';
import { ACTIONS, POLICY, type Scope } from '../../contracts/policy';
import { ROLES, type Role } from '../../contracts/roles';
import type { Me, SessionUser } from '../api/types';
import { navigationFor } from '../layout/navigation';
import { PAGES } from '../layout/pages';
import { allows, can, mayResetSecondFactorOf, scopeIn } from './can';
import type { Session } from './session';

/**
 * The UI's visibility checks read the policy table the server enforces (contracts/policy.ts):
 * for every action and role, what the UI offers is what the table allows.
 */

const TENANT = 'tenant-a';
const EMPLOYER = 'employer-a1';
const MEMBER = 'member-a1';

function sessionOf(role: Role): Session {
  const user: SessionUser = {
    id: `user-${role}`,
    email: `${role}@example.ie`,
    role,
    brokerId: role === 'SuperAdmin' ? null : TENANT,
    employerId: ['EmployerAdmin', 'EmployerUser', 'Member'].includes(role) ? EMPLOYER : null,
  };
  const account: Me = {
    ...user,
    name: role,
    memberId: role === 'Member' ? MEMBER : null,
    status: 'active',
    invitedUntil: null,
    createdAt: '2026-01-05T09:00:00.000Z',
    updatedAt: '2026-01-05T09:00:00.000Z',
    firmName: null,
    employerName: null,
  };
  return { user, account, secondFactorSetupRequired: false };
}

const reachOf = (role: Role, action: (typeof ACTIONS)[number]): Scope | undefined =>
  (POLICY[action].roles as Partial<Record<Role, Scope>>)[role];

/** A record in the session's own member record, another employer of its firm, another firm. */
const ROWS: Record<'own' | 'otherEmployer' | 'otherTenant', RowScope> = {
  own: { brokerId: TENANT, employerId: EMPLOYER, memberId: MEMBER },
  otherEmployer: { brokerId: TENANT, employerId: 'employer-a2', memberId: 'member-a2' },
  otherTenant: { brokerId: 'tenant-b', employerId: 'employer-b1', memberId: 'member-b1' },
};
const REACHED: Record<Scope, Record<keyof typeof ROWS, boolean>> = {
  platform: { own: true, otherEmployer: true, otherTenant: true },
  tenant: { own: true, otherEmployer: true, otherTenant: false },
  employer: { own: true, otherEmployer: false, otherTenant: false },
  member: { own: true, otherEmployer: false, otherTenant: false },
};

describe('can', () => {
  it('offers every action exactly to the roles the policy table lists', () => {
    for (const action of ACTIONS) {
      for (const role of ROLES) {
        expect(can(sessionOf(role), action), `${role} ${action}`).toBe(
          reachOf(role, action) !== undefined,
        );
        expect(scopeIn(sessionOf(role), action), `${role} ${action}`).toBe(
          reachOf(role, action) ?? null,
        );
      }
    }
  });

  it('offers an action on a record exactly within the reach the table gives the role', () => {
    for (const action of ACTIONS) {
      for (const role of ROLES) {
        const reach = reachOf(role, action);
        for (const [place, row] of Object.entries(ROWS) as Array<[keyof typeof ROWS, RowScope]>) {
          const expected = reach !== undefined && REACHED[reach][place];
          expect(can(sessionOf(role), action, row), `${role} ${action} ${place}`).toBe(expected);
        }
      }
    }
  });

  it('refuses an action the table does not hold', () => {
    for (const role of ROLES) {
      expect(can(sessionOf(role), 'scheme.approve' as (typeof ACTIONS)[number])).toBe(false);
    }
  });
});

describe('pages and navigation', () => {
  it('open a page to those the table lets carry out its action, at the reach it is for', () => {
    for (const [page, access] of Object.entries(PAGES)) {
      const scopes: readonly Scope[] | undefined = 'scopes' in access ? access.scopes : undefined;
      const actions: readonly (typeof ACTIONS)[number][] =
        typeof access.action === 'string' ? [access.action] : access.action;
      for (const role of ROLES) {
        const expected = actions.some((action) => {
          const reach = reachOf(role, action);
          return reach !== undefined && (scopes === undefined || scopes.includes(reach));
        });
        expect(allows(sessionOf(role), access), `${role} ${page}`).toBe(expected);
      }
    }
  });

  it('opens no page of a firm’s records to the platform, and each role within a firm keeps its own', () => {
    // A firm's employers, schemes, members, runs, imports, payroll, automatic enrolment, drafts
    // and its lists are the work of those within it; the platform reads them through the audited
    // API only (docs/decisions/0153-firm-records-not-the-platforms-pages.md). Named here, not read
    // from PAGES, so that a page losing its reaches fails this test.
    const firmRecords = [
      'dashboard',
      'home',
      'employers',
      'employer',
      'autoEnrolment',
      'autoEnrolmentUpload',
      'schemes',
      'scheme',
      'schemeImport',
      'payrollGrid',
      'statementRun',
      'draft',
      'member',
      'governance',
      'complianceCalendar',
      'users',
      'dataRequests',
    ] as const satisfies readonly (keyof typeof PAGES)[];
    const opens = (role: Role) =>
      firmRecords.filter((page) => allows(sessionOf(role), PAGES[page]));
    expect(opens('SuperAdmin')).toEqual([]);
    const firmsStaff = [
      'dashboard',
      'employers',
      'employer',
      'autoEnrolment',
      'autoEnrolmentUpload',
      'schemes',
      'scheme',
      'schemeImport',
      'payrollGrid',
      'statementRun',
      'draft',
      'member',
      'governance',
      'complianceCalendar',
    ];
    expect(opens('BrokerAdmin')).toEqual([...firmsStaff, 'users', 'dataRequests']);
    expect(opens('BrokerUser')).toEqual([...firmsStaff, 'dataRequests']);
    expect(opens('EmployerAdmin')).toEqual([
      'home',
      'employer',
      'autoEnrolment',
      'autoEnrolmentUpload',
      'schemes',
      'scheme',
      'schemeImport',
      'payrollGrid',
      'draft',
      'member',
      'governance',
      'complianceCalendar',
    ]);
    // An EmployerUser reads: no upload, no import.
    expect(opens('EmployerUser')).toEqual([
      'home',
      'employer',
      'autoEnrolment',
      'schemes',
      'scheme',
      'payrollGrid',
      'draft',
      'member',
      'governance',
      'complianceCalendar',
    ]);
    expect(opens('Member')).toEqual(['member']);
    // The platform keeps every page of its own work.
    const platform = (['brokers', 'broker', 'audit', 'apiReference', 'account'] as const).filter(
      (page) => allows(sessionOf('SuperAdmin'), PAGES[page]),
    );
    expect(platform).toEqual(['brokers', 'broker', 'audit', 'apiReference', 'account']);
  });

  it('lists for each role what it works on, every page one it may open', () => {
    const labels = (role: Role) => navigationFor(sessionOf(role)).map((item) => item.label);
    expect(labels('SuperAdmin')).toEqual(['Brokers', 'Audit log', 'API reference', 'My account']);
    expect(labels('BrokerAdmin')).toEqual([
      'Dashboard',
      'Employers',
      'Schemes',
      'Governance',
      'Compliance calendar',
      'Data requests',
      'Data breaches',
      'ICT incidents',
      'ICT providers',
      'Ask about regulations',
      'Users',
      'Audit log',
      'AI settings',
      'API reference',
      'My account',
    ]);
    expect(labels('BrokerUser')).toEqual([
      'Dashboard',
      'Employers',
      'Schemes',
      'Governance',
      'Compliance calendar',
      'Data requests',
      'Data breaches',
      'ICT incidents',
      'ICT providers',
      'Ask about regulations',
      'API reference',
      'My account',
    ]);
    for (const role of ['EmployerAdmin', 'EmployerUser'] as const) {
      expect(navigationFor(sessionOf(role))).toEqual([
        { label: 'Home', to: '/home' },
        { label: 'My employer', to: `/employers/${EMPLOYER}` },
        { label: 'Automatic enrolment', to: `/employers/${EMPLOYER}/auto-enrolment` },
        { label: 'Schemes', to: '/schemes' },
        { label: 'Governance', to: '/governance' },
        { label: 'Compliance calendar', to: '/compliance-calendar' },
        { label: 'Ask about regulations', to: '/ask' },
        // An EmployerAdmin sends the payroll in, by script if they like; an EmployerUser reads.
        ...(role === 'EmployerAdmin' ? [{ label: 'API reference', to: '/api-reference' }] : []),
        { label: 'My account', to: '/account' },
      ]);
    }
    // A member's portal offers no API reference.
    expect(navigationFor(sessionOf('Member'))).toEqual([
      { label: 'My pension', to: `/members/${MEMBER}` },
      { label: 'My account', to: '/account' },
    ]);
  });
});

describe('whose second factor the web offers to reset', () => {
  const account = (role: Role, brokerId: string | null, employerId: string | null = null) => ({
    id: `account-${role}-${brokerId}`,
    role,
    brokerId,
    employerId,
  });

  it('offers a BrokerAdmin the accounts of their firm they look after, and no peer, outsider or self', () => {
    const admin = sessionOf('BrokerAdmin');
    expect(mayResetSecondFactorOf(admin, account('BrokerUser', TENANT))).toBe(true);
    expect(mayResetSecondFactorOf(admin, account('EmployerUser', TENANT, EMPLOYER))).toBe(true);
    expect(mayResetSecondFactorOf(admin, account('BrokerAdmin', TENANT))).toBe(false);
    expect(mayResetSecondFactorOf(admin, account('BrokerUser', 'tenant-b'))).toBe(false);
    expect(mayResetSecondFactorOf(admin, { ...admin.user, brokerId: TENANT })).toBe(false);
  });

  it('offers a SuperAdmin any firm’s accounts but never a SuperAdmin’s, and everyone else nothing', () => {
    const platform = sessionOf('SuperAdmin');
    expect(mayResetSecondFactorOf(platform, account('BrokerAdmin', 'tenant-b'))).toBe(true);
    expect(mayResetSecondFactorOf(platform, account('SuperAdmin', null))).toBe(false);
    for (const role of ['BrokerUser', 'EmployerAdmin', 'EmployerUser', 'Member'] as const) {
      expect(mayResetSecondFactorOf(sessionOf(role), account('Member', TENANT, EMPLOYER))).toBe(
        false,
      );
    }
  });
});
