import { describe, expect, it } from 'vitest';
import {
  assumptionSetsInWords,
  assumptionsChosenAtFirst,
  mayBeApproved,
  missingRetirementAge,
  runStatusName,
} from './run-words';

/**
 * What the statement pages say of a run and of the run dialog's assumption sets
 * (docs/decisions/0141-pension-benefit-statements.md).
 */
describe('a run in words', () => {
  it('says a finished run that made nothing made no statement, and offers it no approval', () => {
    expect(runStatusName({ status: 'ready', done: 0 })).toBe('No statement made');
    expect(mayBeApproved({ status: 'ready', done: 0 })).toBe(false);
    expect(runStatusName({ status: 'ready', done: 3 })).toBe('Ready for the trustees');
    expect(mayBeApproved({ status: 'ready', done: 3 })).toBe(true);
    expect(runStatusName({ status: 'running', done: 0 })).toBe('Preparing');
    expect(runStatusName({ status: 'failed', done: 0 })).toBe('Failed');
    expect(mayBeApproved({ status: 'approved', done: 3 })).toBe(false);
  });

  it('knows when members went without a statement for want of the scheme’s retirement age', () => {
    const issue = (issues: string[]) => ({ memberId: 'm1', issues, words: [] }) as never;
    expect(missingRetirementAge({ issues: [issue(['implausible_age'])] })).toBe(false);
    expect(missingRetirementAge({ issues: [issue(['no_retirement_age'])] })).toBe(true);
    expect(missingRetirementAge({ issues: [] })).toBe(false);
  });
});

describe('the run dialog’s assumption sets', () => {
  it('are counted by whose there are', () => {
    expect(assumptionSetsInWords([{ owner: 'firm' }])).toBe(
      '1 set to choose from: your firm’s own',
    );
    expect(assumptionSetsInWords([{ owner: 'platform' }, { owner: 'platform' }])).toBe(
      '2 sets to choose from: the platform’s',
    );
    expect(assumptionSetsInWords([{ owner: 'platform' }, { owner: 'firm' }])).toBe(
      '2 sets to choose from: the platform’s and your firm’s own',
    );
  });

  it('start on the only one there is, and on none where there is a choice', () => {
    expect(assumptionsChosenAtFirst([{ id: 'a1' }])).toBe('a1');
    expect(assumptionsChosenAtFirst([{ id: 'a1' }, { id: 'a2' }])).toBe('');
    expect(assumptionsChosenAtFirst([])).toBe('');
  });
});
