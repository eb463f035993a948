import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import {
  fundChoicesKey,
  holdingsKey,
  memberContributionsKey,
  memberKey,
  memberSummaryKey,
  refreshAfterContribution,
  refreshAfterFundChoice,
  valueHistoryKey,
} from './member-page-cache';

/**
 * A saved fund choice refreshes every panel it changes: the value panel's note that the money
 * sits in the default fund for want of a choice is read from the holdings, so they are read again
 * too (docs/decisions/0127-dc-money.md).
 */
describe('the member page after a fund choice is saved', () => {
  it('marks the fund choices and the holdings the value panel reads stale, and no other member', async () => {
    const client = new QueryClient();
    const recent = [...fundChoicesKey('m1'), 'recent'];
    client.setQueryData(recent, { items: [] });
    client.setQueryData(holdingsKey('m1'), { defaultFund: true });
    client.setQueryData(holdingsKey('m2'), { defaultFund: true });
    client.setQueryData(valueHistoryKey('m1'), { points: [] });

    await refreshAfterFundChoice(client, 'm1');

    expect(client.getQueryState(recent)?.isInvalidated).toBe(true);
    expect(client.getQueryState(holdingsKey('m1'))?.isInvalidated).toBe(true);
    expect(client.getQueryState(holdingsKey('m2'))?.isInvalidated).toBe(false);
    // The value at each month end is what was paid in and priced: a new choice leaves it be.
    expect(client.getQueryState(valueHistoryKey('m1'))?.isInvalidated).toBe(false);
  });
});

describe('the member page after a contribution is recorded or adjusted', () => {
  it('marks the contributions, the summary’s totals and the member’s money stale, and no other member', async () => {
    const client = new QueryClient();
    const table = [...memberContributionsKey('m1'), 'table'];
    client.setQueryData(table, { items: [] });
    client.setQueryData(memberSummaryKey('m1'), { totalPaidInCents: 0 });
    client.setQueryData(holdingsKey('m1'), { items: [] });
    client.setQueryData(valueHistoryKey('m1'), { points: [] });
    client.setQueryData(memberSummaryKey('m2'), { totalPaidInCents: 0 });
    client.setQueryData(memberKey('m1'), { firstName: 'Aoife' });

    await refreshAfterContribution(client, 'm1');

    for (const key of [table, memberSummaryKey('m1'), holdingsKey('m1'), valueHistoryKey('m1')]) {
      expect(client.getQueryState(key)?.isInvalidated, JSON.stringify(key)).toBe(true);
    }
    expect(client.getQueryState(memberSummaryKey('m2'))?.isInvalidated).toBe(false);
    // The member's own details are not changed by a contribution.
    expect(client.getQueryState(memberKey('m1'))?.isInvalidated).toBe(false);
  });
});
