/**
 * Irish English formats of dates: 22 Nov 2026. Money is read and shown by the rule the server
 * holds it to, src/contracts/money.ts (docs/decisions/0100-one-money-rule.md).
 */
const dateFormat = new Intl.DateTimeFormat('en-IE', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});
const dateTimeFormat = new Intl.DateTimeFormat('en-IE', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
const monthFormat = new Intl.DateTimeFormat('en-IE', {
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A calendar date (`YYYY-MM-DD`), shown without any time-zone shift. */
export function formatDate(isoDate: string): string {
  const [year, month, day] = isoDate.slice(0, 10).split('-').map(Number);
  return dateFormat.format(new Date(year ?? 1970, (month ?? 1) - 1, day ?? 1));
}

export function formatDateTime(isoTimestamp: string): string {
  return dateTimeFormat.format(new Date(isoTimestamp));
}

/** A pay period `YYYY-MM` as "Oct 2026". */
export function formatPeriod(period: string): string {
  return monthFormat.format(new Date(`${period}-01T00:00:00Z`));
}
