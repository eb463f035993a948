/** Irish English formats: dates as 22 Nov 2026, money as €1,234.56. */
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
const euro = new Intl.NumberFormat('en-IE', { style: 'currency', currency: 'EUR' });
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

export function formatCents(cents: number): string {
  return euro.format(cents / 100);
}

/** A pay period `YYYY-MM` as "Oct 2026". */
export function formatPeriod(period: string): string {
  return monthFormat.format(new Date(`${period}-01T00:00:00Z`));
}

/** Euro typed by a person ("1,234.56", "€55000") as whole cents, without floating point; null if not money. */
export function parseEuro(text: string): number | null {
  const cleaned = text.replace(/[€\s,]/g, '');
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(cleaned);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}
