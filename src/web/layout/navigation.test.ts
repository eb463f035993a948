import { describe, expect, it } from 'vitest';
import { ROLES } from '../../contracts/roles';
import type { Me, Role } from '../api/types';
import type { Session } from '../auth/session';
import { currentItem, homeOf, navigationFor } from './navigation';

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
  return { user, account, secondFactorSetupRequired: false };
}

const labels = (session: Session) => navigationFor(session).map((item) => item.label);

describe('the navigation of each role', () => {
  it('offers every role their own account', () => {
    for (const role of ROLES) {
      expect(navigationFor(sessionOf(role, 'm1'))).toContainEqual({
        label: 'My account',
        to: '/account',
      });
    }
  });

  it('offers the API reference to those whose work it scripts, never to an EmployerUser or a Member', () => {
    const offered = (role: Role) => labels(sessionOf(role, 'm1')).includes('API reference');
    expect(ROLES.filter(offered)).toEqual([
      'SuperAdmin',
      'BrokerAdmin',
      'BrokerUser',
      'EmployerAdmin',
    ]);
    expect(labels(sessionOf('Member', 'm1'))).toEqual(['My pension', 'My account']);
  });

  it('offers questions on the regulations to those who run schemes, and AI settings to a BrokerAdmin', () => {
    const ask = (role: Role) => labels(sessionOf(role, 'm1')).includes('Ask about regulations');
    expect(ROLES.filter(ask)).toEqual([
      'BrokerAdmin',
      'BrokerUser',
      'EmployerAdmin',
      'EmployerUser',
    ]);
    const settings = (role: Role) => labels(sessionOf(role, 'm1')).includes('AI settings');
    expect(ROLES.filter(settings)).toEqual(['BrokerAdmin']);
  });

  it('lands a Member on their pension, and one without a member record on their account', () => {
    expect(homeOf(sessionOf('Member', 'm1'))).toBe('/members/m1');
    expect(homeOf(sessionOf('Member'))).toBe('/account');
    expect(homeOf(sessionOf('BrokerAdmin'))).toBe('/dashboard');
  });

  it('offers an employer’s staff their employer’s automatic enrolment, and a firm reaches it by employer', () => {
    for (const role of ['EmployerAdmin', 'EmployerUser'] as const) {
      expect(navigationFor(sessionOf(role))).toContainEqual({
        label: 'Automatic enrolment',
        to: '/employers/e1/auto-enrolment',
      });
    }
    for (const role of ['BrokerAdmin', 'BrokerUser', 'SuperAdmin', 'Member'] as const) {
      expect(labels(sessionOf(role, 'm1'))).not.toContain('Automatic enrolment');
    }
  });

  it('marks the one item a page belongs to, the most particular when addresses nest', () => {
    const items = navigationFor(sessionOf('EmployerAdmin'));
    const at = (path: string) => items[currentItem(items, path)]?.label;
    expect(at('/employers/e1/auto-enrolment/upload')).toBe('Automatic enrolment');
    expect(at('/employers/e1')).toBe('My employer');
    expect(at('/schemes/s1')).toBe('Schemes');
    expect(currentItem(items, '/nowhere')).toBe(-1);
  });
});
