import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import {
  fundChoicesKey,
  holdingsKey,
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
