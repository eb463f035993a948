import { describe, expect, it } from 'vitest';
import {
  assumptionSetsInWords,
  assumptionsChosenAtFirst,
  hadNoMembers,
  mayBeApproved,
  nextStepAfterNothing,
  runStatusName,
  schemeTermsInWords,
  whatToCorrect,
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

  const issue = (issues: string[]) => ({ memberId: 'm1', issues, words: [] }) as never;
  const finished = { status: 'ready' as const, done: 0, total: 0 };

  it('says the scheme’s missing terms once, where they are set, apart from the members’ records', () => {
    const db = {
      ...finished,
      issues: [issue(['no_accrual_rate', 'no_funding_level']), issue(['no_funding_level'])],
    };
    expect(whatToCorrect(db)).toEqual({
      scheme: ['no_accrual_rate', 'no_funding_level'],
      members: 0,
      prices: 0,
    });
    expect(nextStepAfterNothing(db)).toBe(
      'Set the scheme’s accrual rate and funding level with Edit scheme on the scheme’s page, then start a new run for the same date.',
    );
    const both = {
      ...finished,
      issues: [issue(['no_retirement_age', 'implausible_age']), issue(['no_retirement_age'])],
    };
    expect(whatToCorrect(both)).toEqual({ scheme: ['no_retirement_age'], members: 1, prices: 0 });
    expect(nextStepAfterNothing(both)).toBe(
      'Set the scheme’s normal retirement age with Edit scheme on the scheme’s page and correct the records of the 1 member listed, then start a new run for the same date.',
    );
    const members = { ...finished, issues: [issue(['no_value']), issue(['no_salary'])] };
    expect(whatToCorrect(members)).toEqual({ scheme: [], members: 2, prices: 0 });
    expect(nextStepAfterNothing(members)).toBe(
      'Correct the records of the 2 members listed, then start a new run for the same date.',
    );
    // A fund with no price is not a fault in the member's record: the price is what to add.
    const priced = { ...finished, issues: [issue(['no_price']), issue(['no_price', 'no_salary'])] };
    expect(whatToCorrect(priced)).toEqual({ scheme: [], members: 1, prices: 1 });
    expect(nextStepAfterNothing({ ...finished, issues: [issue(['no_price'])] })).toBe(
      'Add each fund’s price for a day up to the information date with Import prices on the scheme’s page, then start a new run for the same date.',
    );
    expect(schemeTermsInWords(['no_funding_level', 'no_retirement_age', 'no_accrual_rate'])).toBe(
      'normal retirement age, accrual rate and funding level',
    );
  });

  it('says plainly that a scheme with no members had no one to make statements for', () => {
    const empty = { ...finished, issues: [] };
    expect(hadNoMembers(empty)).toBe(true);
    expect(nextStepAfterNothing(empty)).toBe(
      'The scheme had no active or deferred members to make statements for. Add its members, then start a new run for the same date.',
    );
    expect(hadNoMembers({ ...empty, status: 'running' })).toBe(false);
    expect(hadNoMembers({ ...empty, status: 'failed' })).toBe(false);
    expect(hadNoMembers({ ...empty, issues: [issue(['no_value'])] })).toBe(false);
    expect(hadNoMembers({ ...empty, done: 2, total: 2 })).toBe(false);
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
