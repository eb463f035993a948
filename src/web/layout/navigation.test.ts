import { describe, expect, it } from 'vitest';
import { ROLES } from '../../contracts/roles';
import type { Me, Role } from '../api/types';
import type { Session } from '../auth/session';
import { homeOf, navigationFor } from './navigation';

function sessionOf(role: Role, memberId: string | null = null): Session {
  const user = {
    id: 'u1',
    email: 'someone@example.ie',
    role,
    brokerId: role === 'SuperAdmin' ? null : 'b1',
    employerId: ['EmployerAdmin', 'EmployerUser', 'Member'].includes(role) ? 'e1' : null,
  };
  const account: Me = {
    ...user,
    name: 'Someone',
    memberId,
    status: 'active',
    invitedUntil: null,
    createdAt: '2026-01-05T09:00:00.000Z',
    updatedAt: '2026-01-05T09:00:00.000Z',
    firmName: role === 'SuperAdmin' ? null : 'Murphy & Byrne Brokers',
    employerName: null,
  };
  return { user, account };
}

const labels = (session: Session) => navigationFor(session).map((item) => item.label);

describe('the navigation of each role (issue 21, item 3)', () => {
  it('offers every role their own account', () => {
    for (const role of ROLES) {
      expect(navigationFor(sessionOf(role, 'm1'))).toContainEqual({
        label: 'My account',
        to: '/account',
      });
    }
  });

  it('offers the API reference to staff and never to a Member', () => {
    for (const role of ROLES.filter((role) => role !== 'Member')) {
      expect(labels(sessionOf(role))).toContain('API reference');
    }
    expect(labels(sessionOf('Member', 'm1'))).toEqual(['My pension', 'My account']);
  });

  it('lands a Member on their pension, and one without a member record on their account', () => {
    expect(homeOf(sessionOf('Member', 'm1'))).toBe('/members/m1');
    expect(homeOf(sessionOf('Member'))).toBe('/account');
    expect(homeOf(sessionOf('BrokerAdmin'))).toBe('/dashboard');
  });
});
