/** The pay period after `period` (`YYYY-MM`). */
export function nextMonth(period: string): string {
  const year = Number(period.slice(0, 4));
  const month = Number(period.slice(5, 7));
  return month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, '0')}`;
}

/**
 * The months a member's contributions chart shows, oldest first, every one present so that a gap
 * shows as a gap. It starts at the later of the range's first month and the member's first month
 * in the scheme: the month they joined, or of their first contribution where payroll recorded one
 * before it, so that a member who joined lately is not shown the months before they were a member.
 * "All" (no `rangeFrom`) starts at the first contribution. It runs to this month, or to the latest
 * month paid when payroll ran ahead. No months when nothing was paid in the range.
 */
export function chartMonths({
  rangeFrom,
  joinedOn,
  periods,
  thisMonth,
}: {
  /** The first month of the range chosen, `YYYY-MM`; none for "All". */
  rangeFrom: string | undefined;
  /** The day the member joined, `YYYY-MM-DD`. */
  joinedOn: string;
  /** The months paid in the range, in any order. */
  periods: readonly string[];
  /** This month in Ireland (docs/decisions/0050-irish-dates.md). */
  thisMonth: string;
}): string[] {
  if (periods.length === 0) return [];
  // Months as `YYYY-MM` text order as they fall in time.
  const paid = [...periods].sort();
  const firstPaid = paid[0] as string;
  const firstOwn = [firstPaid, joinedOn.slice(0, 7)].sort()[0] as string;
  const first = rangeFrom === undefined ? firstPaid : ([rangeFrom, firstOwn].sort()[1] as string);
  const last = [paid.at(-1) as string, thisMonth].sort()[1] as string;
  const months: string[] = [];
  for (let month = first; month <= last; month = nextMonth(month)) months.push(month);
  return months;
}
