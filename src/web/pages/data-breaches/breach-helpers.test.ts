import { describe, expect, it } from 'vitest';
import { permits } from '../../../contracts/permits';
import type { Action } from '../../../contracts/policy';
import type { Role } from '../../../contracts/roles';
import {
  breachSteps,
  instantOf,
  momentErrors,
  NO_SUCH_TIME_MESSAGE,
  TIME_FORMAT_MESSAGE,
} from './breach-helpers';

const mayAs = (role: Role) => (action: Action) =>
  permits({ role, tenantId: 'b1', employerId: null, memberId: null }, action, {
    brokerId: 'b1',
    employerId: null,
  });

const open = {
  status: 'open',
  dpcNotifiedAt: null,
  membersToldAt: null,
  riskToPeople: 'high',
} as const;

describe('the steps a breach offers', () => {
  it('offers a BrokerAdmin the notification and the people told on an open breach, not yet closing', () => {
    expect(breachSteps(open, mayAs('BrokerAdmin'))).toEqual(['notify', 'membersTold']);
  });

  it('offers closing once the Commission is told, or straight away when unlikely to risk people', () => {
    const notified = {
      ...open,
      status: 'notified' as const,
      dpcNotifiedAt: '2026-01-10T09:00:00.000Z',
    };
    expect(breachSteps(notified, mayAs('BrokerAdmin'))).toEqual(['membersTold', 'close']);
    const told = { ...notified, membersToldAt: '2026-01-11T09:00:00.000Z' };
    expect(breachSteps(told, mayAs('BrokerAdmin'))).toEqual(['close']);
    expect(breachSteps({ ...open, riskToPeople: 'unlikely' }, mayAs('BrokerAdmin'))).toEqual([
      'notify',
      'membersTold',
      'close',
    ]);
  });

  it('offers nothing on a closed breach, nor to a BrokerUser or the platform', () => {
    expect(breachSteps({ ...open, status: 'closed' }, mayAs('BrokerAdmin'))).toEqual([]);
    for (const role of ['BrokerUser', 'SuperAdmin', 'EmployerAdmin', 'Member'] as const) {
      expect(breachSteps(open, mayAs(role))).toEqual([]);
    }
  });
});

describe('a day and a time in Ireland', () => {
  it('is the instant the API takes, or empty when it cannot be read', () => {
    expect(instantOf('2026-01-09', '10:15')).toBe('2026-01-09T10:15:00.000Z');
    expect(instantOf('2026-07-09', ' 10:15 ')).toBe('2026-07-09T09:15:00.000Z');
    expect(instantOf('09/01/2026', '10:15')).toBe('');
    expect(instantOf('2026-01-09', '10.15')).toBe('');
  });

  it('says under each field what is missing or unreadable', () => {
    expect(momentErrors({ on: '', at: '' }, 'on', 'at')).toEqual({
      on: 'This is required',
      at: 'This is required',
    });
    expect(momentErrors({ on: '2026-01-09', at: '25:00' }, 'on', 'at')).toEqual({
      at: TIME_FORMAT_MESSAGE,
    });
    expect(momentErrors({ on: '2026-03-29', at: '01:30' }, 'on', 'at')).toEqual({
      at: NO_SUCH_TIME_MESSAGE,
    });
    expect(momentErrors({ on: '2026-01-09', at: '10:15' }, 'on', 'at')).toEqual({});
  });
});
