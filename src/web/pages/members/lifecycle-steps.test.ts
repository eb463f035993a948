import { describe, expect, it } from 'vitest';
import type { LifecycleView, StatusChangeView } from '../../../contracts/member-lifecycle';
import { LEAVING_OPTION_NAMES } from '../../../contracts/member-lifecycle-rules';
import { permits, type Subject } from '../../../contracts/permits';
import type { Role } from '../../../contracts/roles';
import {
  choicesOffered,
  latestUndoable,
  type May,
  newestFirst,
  stepsOffered,
} from './lifecycle-steps';

/**
 * The membership panel offers what the policy table lets the role do and what the member's status
 * allows (docs/decisions/0135-members-lifecycle.md).
 */

const ROW = { brokerId: 'tenant-a', employerId: 'employer-a1', memberId: 'member-a1' };

function mayAs(role: Role): May {
  const subject: Subject = {
    role,
    tenantId: role === 'SuperAdmin' ? null : ROW.brokerId,
    employerId: ['EmployerAdmin', 'EmployerUser', 'Member'].includes(role) ? ROW.employerId : null,
    memberId: role === 'Member' ? ROW.memberId : null,
  };
  return (action) => permits(subject, action, ROW);
}

const change = (fields: Partial<StatusChangeView> & Pick<StatusChangeView, 'id' | 'kind'>) => ({
  fromStatus: 'active' as const,
  toStatus: 'deferred' as const,
  on: '2026-01-31',
  receivingArrangement: null,
  reason: null,
  correctsId: null,
  corrected: false,
  createdAt: '2026-02-01T10:00:00.000Z',
  ...fields,
});

function lifecycleOf(fields: Partial<LifecycleView>): LifecycleView {
  return {
    memberId: ROW.memberId,
    status: 'active',
    statusOn: null,
    qualifyingService: { months: 23, days: 0, inWords: '1 year and 11 months' },
    leaving: null,
    history: [],
    payouts: [],
    dependants: [],
    ...fields,
  };
}

const leaver = (options: Array<'preserved' | 'refund' | 'transfer'>, chosen = null) =>
  lifecycleOf({
    status: 'deferred',
    statusOn: '2026-01-31',
    leaving: {
      leftOn: '2026-01-31',
      preservationEntitled: options.includes('preserved'),
      options: options.map((option) => ({
        option,
        name: LEAVING_OPTION_NAMES[option],
        why: 'The rules',
      })),
      chosen,
      sources: [],
    },
    history: [change({ id: 'c1', kind: 'left' })],
  });

describe('the steps of the membership panel', () => {
  it('offers an active member’s staff leaving, retirement and death, and the employer leaving only', () => {
    const active = lifecycleOf({});
    expect(stepsOffered(active, mayAs('BrokerUser'))).toEqual(['leave', 'retire', 'death']);
    expect(stepsOffered(active, mayAs('EmployerAdmin'))).toEqual(['leave']);
    expect(stepsOffered(active, mayAs('EmployerUser'))).toEqual([]);
    expect(stepsOffered(active, mayAs('Member'))).toEqual([]);
  });

  it('offers a leaver’s choice among the options they were given, and rejoining', () => {
    const young = leaver(['refund', 'transfer']);
    expect(choicesOffered(young, mayAs('BrokerUser'))).toEqual(['refund', 'transfer']);
    expect(stepsOffered(young, mayAs('BrokerUser'))).toEqual([
      'choose',
      'rejoin',
      'retire',
      'death',
    ]);
    // The employer records leaving and rejoining; the choice is the administrator's.
    expect(choicesOffered(young, mayAs('EmployerAdmin'))).toEqual([]);
    expect(stepsOffered(young, mayAs('EmployerAdmin'))).toEqual(['rejoin']);
    expect(choicesOffered(leaver(['preserved', 'transfer']), mayAs('BrokerAdmin'))).toEqual([
      'preserved',
      'transfer',
    ]);
  });

  it('leaves a transfer alone to a member who kept a preserved benefit', () => {
    const kept = leaver(['preserved', 'transfer']);
    const chosen = lifecycleOf({
      ...kept,
      leaving: kept.leaving && { ...kept.leaving, chosen: 'preserved' },
    });
    expect(choicesOffered(chosen, mayAs('BrokerUser'))).toEqual(['transfer']);
  });

  it('offers a member paid out rejoining alone, and undoing it to a BrokerAdmin only', () => {
    const refunded = lifecycleOf({
      status: 'refunded',
      statusOn: '2026-02-10',
      history: [
        change({ id: 'c1', kind: 'left' }),
        change({
          id: 'c2',
          kind: 'refunded',
          fromStatus: 'deferred',
          toStatus: 'refunded',
          on: '2026-02-10',
          createdAt: '2026-02-10T10:00:00.000Z',
        }),
      ],
    });
    expect(stepsOffered(refunded, mayAs('BrokerAdmin'))).toEqual(['rejoin', 'undo']);
    expect(stepsOffered(refunded, mayAs('BrokerUser'))).toEqual(['rejoin']);
    expect(choicesOffered(refunded, mayAs('BrokerAdmin'))).toEqual([]);
    expect(latestUndoable(refunded.history)?.id).toBe('c2');
    expect(newestFirst(refunded.history).map((one) => one.id)).toEqual(['c2', 'c1']);
  });

  it('undoes the newest change not already undone, never a correction', () => {
    const history = [
      change({ id: 'c1', kind: 'left' }),
      change({ id: 'c2', kind: 'rejoined', corrected: true, createdAt: '2026-03-01T10:00:00Z' }),
      change({
        id: 'c3',
        kind: 'corrected',
        correctsId: 'c2',
        reason: 'Wrong member',
        createdAt: '2026-03-02T10:00:00Z',
      }),
    ];
    expect(latestUndoable(history)?.id).toBe('c1');
    expect(latestUndoable([history[2] as StatusChangeView])).toBeNull();
    expect(stepsOffered(lifecycleOf({ history: [] }), mayAs('BrokerAdmin'))).not.toContain('undo');
  });

  it('offers a deceased member’s record no step but undoing', () => {
    const died = lifecycleOf({
      status: 'deceased',
      history: [change({ id: 'c1', kind: 'died', toStatus: 'deceased' })],
    });
    expect(stepsOffered(died, mayAs('BrokerAdmin'))).toEqual(['undo']);
    expect(stepsOffered(died, mayAs('BrokerUser'))).toEqual([]);
  });
});
