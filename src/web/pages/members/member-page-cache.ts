import type { QueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../contracts/api-routes';
import { todayInIreland } from '../../../contracts/irish-dates';
import type { MemberPageView } from '../../../contracts/portal';
import { api } from '../../api/client';
import { SEEDED_FRESH_MS } from '../../api/seeded';
import { memberStatementsKey } from '../statements/statementQueries';

/**
 * The member page asks the service once (GET /api/members/{id}/page,
 * docs/decisions/0118-pages-composed-on-the-server.md) and hands each panel its part through the
 * query cache, under the key the panel reads it by. A panel still reads its own part again when a
 * change makes it stale, and pages on by itself.
 */

export const memberKey = (memberId: string) => ['members', memberId] as const;
export const memberPageKey = (memberId: string) => ['members', memberId, 'page'] as const;
export const memberSummaryKey = (memberId: string) => ['members', memberId, 'summary'] as const;
/** Where the member stands (docs/decisions/0135-members-lifecycle.md). */
export const lifecycleKey = (memberId: string) => ['members', memberId, 'lifecycle'] as const;
export const fundChoicesKey = (memberId: string) => ['members', memberId, 'fund-choices'] as const;
export const openFundsKey = (schemeId: string) => ['schemes', schemeId, 'funds', 'open'] as const;
export const memberContributionsKey = (memberId: string) =>
  ['members', memberId, 'contributions'] as const;

/** What the member's money is worth and how it moved (docs/decisions/0127-dc-money.md). */
export const memberMoneyKey = (memberId: string) => ['members', memberId, 'money'] as const;
export const holdingsKey = (memberId: string) => [...memberMoneyKey(memberId), 'holdings'] as const;
/** The member's holdings, as the value panel and the switch panel both read them. */
export const holdingsQuery = (memberId: string) => ({
  queryKey: holdingsKey(memberId),
  queryFn: () => api(apiRoutes.holdings.ofMember, { params: { id: memberId }, query: {} }),
  staleTime: SEEDED_FRESH_MS,
});
export const valueHistoryKey = (memberId: string) =>
  [...memberMoneyKey(memberId), 'value-history'] as const;
export const transactionsKey = (memberId: string) =>
  [...memberMoneyKey(memberId), 'transactions'] as const;
export const switchesKey = (memberId: string) => [...memberMoneyKey(memberId), 'switches'] as const;
/** The newest switches, the one under way among them: the switch panel reads it apart from its table. */
export const recentSwitchesKey = (memberId: string) =>
  [...switchesKey(memberId), 'recent'] as const;

/**
 * What a saved fund choice changes: the choices themselves, and the holdings, whose note says
 * whether the money sits in the scheme's default fund for want of a choice
 * (docs/decisions/0127-dc-money.md).
 */
export const refreshedByFundChoice = (memberId: string) =>
  [fundChoicesKey(memberId), holdingsKey(memberId)] as const;

/** Marks stale, and reads again if shown, every panel a saved fund choice changes. */
export async function refreshAfterFundChoice(client: QueryClient, memberId: string): Promise<void> {
  await Promise.all(
    refreshedByFundChoice(memberId).map((queryKey) => client.invalidateQueries({ queryKey })),
  );
}

/**
 * What a recorded or adjusted contribution changes: the contributions, the summary's latest
 * contributions and total paid in, and the member's money (units bought with it, and its value).
 */
export const refreshedByContribution = (memberId: string) =>
  [memberContributionsKey(memberId), memberSummaryKey(memberId), memberMoneyKey(memberId)] as const;

/** Marks stale, and reads again if shown, every panel a contribution changes. */
export async function refreshAfterContribution(
  client: QueryClient,
  memberId: string,
): Promise<void> {
  await Promise.all(
    refreshedByContribution(memberId).map((queryKey) => client.invalidateQueries({ queryKey })),
  );
}

export type ChartRange = '12' | '24' | 'all';
/** The chart's range when the page opens. */
export const DEFAULT_CHART_RANGE: ChartRange = '24';
export const chartKey = (memberId: string, range: ChartRange) =>
  [...memberContributionsKey(memberId), 'chart', range] as const;

/** The pay period `count - 1` months before this month in Ireland (docs/decisions/0050-irish-dates.md). */
function monthsBack(count: number): string {
  const [year, month] = todayInIreland(new Date()).split('-').map(Number);
  return new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1 - (count - 1), 1))
    .toISOString()
    .slice(0, 7);
}

/** The first pay period of a chart range; none for "All". */
export const chartFrom = (range: ChartRange): string | undefined =>
  range === 'all' ? undefined : monthsBack(Number(range));

/** A first page as a paged table's query holds it: one page, read from no cursor. */
const firstPageOf = <T>(page: T) => ({ pages: [page], pageParams: [null] });

/** Hands each panel of the member page its part of the composed answer. */
export function seedMemberPage(client: QueryClient, page: MemberPageView): void {
  const { id, schemeId } = page.member;
  client.setQueryData(memberKey(id), page.member);
  client.setQueryData(memberSummaryKey(id), page.summary);
  client.setQueryData(lifecycleKey(id), page.lifecycle);
  client.setQueryData([...fundChoicesKey(id), 'recent'], page.fundChoices);
  client.setQueryData([...fundChoicesKey(id), 'history'], firstPageOf(page.fundChoices));
  if (page.openFunds !== null) client.setQueryData(openFundsKey(schemeId), page.openFunds);
  client.setQueryData([...memberContributionsKey(id), 'table'], firstPageOf(page.contributions));
  client.setQueryData(chartKey(id, DEFAULT_CHART_RANGE), page.chart);
  if (page.money !== null) {
    client.setQueryData(holdingsKey(id), page.money.holdings);
    client.setQueryData(valueHistoryKey(id), page.money.valueHistory);
    client.setQueryData(transactionsKey(id), firstPageOf(page.money.transactions));
    client.setQueryData(switchesKey(id), firstPageOf(page.money.switches));
    client.setQueryData(recentSwitchesKey(id), page.money.switches);
  }
  if (page.statements !== null) client.setQueryData(memberStatementsKey(id), page.statements);
}
