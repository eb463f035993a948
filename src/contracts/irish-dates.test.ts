import { describe, expect, it } from 'vitest';
import {
  addDays,
  dateInWords,
  dayOfYearInWords,
  formatIrishDate,
  formatIrishPeriod,
  instantInIreland,
  isIsoDate,
  lastDayOfMonth,
  momentInWords,
  parseIrishDate,
  parseIrishPeriod,
  periodInWords,
  readIrishDate,
  todayInIreland,
} from './irish-dates.js';

describe('typed dates', () => {
  it('reads DD/MM/YYYY day first, with one or two digits, and the API’s YYYY-MM-DD', () => {
    expect(parseIrishDate('02/03/1985')).toBe('1985-03-02');
    expect(parseIrishDate('2/3/1985')).toBe('1985-03-02');
    expect(parseIrishDate('31/01/1985')).toBe('1985-01-31');
    expect(parseIrishDate('12/11/2026')).toBe('2026-11-12');
    expect(parseIrishDate(' 02/03/1985 ')).toBe('1985-03-02');
    expect(parseIrishDate('1985-03-02')).toBe('1985-03-02');
    expect(parseIrishDate('29/02/2024')).toBe('2024-02-29');
    expect(parseIrishDate('29/02/2000')).toBe('2000-02-29');
  });

  it('refuses days the calendar does not have, never moving them to another day', () => {
    for (const entry of [
      '31/04/2026',
      '29/02/2025',
      '29/02/1900',
      '31/02/1990',
      '00/01/2026',
      '01/00/2026',
      '01/13/2026',
      // Month first, as an American browser would read it: there is no month 31.
      '12/31/1985',
      '2026-02-30',
      '2026-13-01',
    ]) {
      expect(readIrishDate(entry), entry).toEqual({ ok: false, reason: 'no_such_day' });
    }
  });

  it('refuses what could be read more than one way or is no date at all', () => {
    for (const entry of [
      '',
      '02/03/85',
      '2/3',
      '02/03/19851',
      '1985/03/02',
      '02-03-1985',
      '02.03.1985',
      '2 March 1985',
      'March 2, 1985',
      '1985-3-2',
      '19850302',
      '+02/03/1985',
      '０２/０３/１９８５',
      'yesterday',
      `02/03/1985${' '.repeat(40)}x`,
      '1'.repeat(100_000),
    ]) {
      expect(readIrishDate(entry), entry).toEqual({ ok: false, reason: 'format' });
    }
  });

  it('knows the API’s form of a date, and writes it day first', () => {
    expect(isIsoDate('1985-03-02')).toBe(true);
    expect(isIsoDate('1985-02-29')).toBe(false);
    expect(isIsoDate('02/03/1985')).toBe(false);
    expect(isIsoDate(' 1985-03-02')).toBe(false);
    expect(formatIrishDate('1985-03-02')).toBe('02/03/1985');
    expect(formatIrishDate('not a date')).toBe('not a date');
    for (const entry of ['01/01/1900', '28/02/2025', '31/12/2099', '29/02/2028']) {
      expect(formatIrishDate(parseIrishDate(entry) ?? '')).toBe(entry);
    }
  });
});

describe('pay periods', () => {
  it('reads MM/YYYY (or M/YYYY) month first, and YYYY-MM', () => {
    expect(parseIrishPeriod('03/2026')).toBe('2026-03');
    expect(parseIrishPeriod('3/2026')).toBe('2026-03');
    expect(parseIrishPeriod('12/2026')).toBe('2026-12');
    expect(parseIrishPeriod('2026-03')).toBe('2026-03');
  });

  it('refuses a month that does not exist and a two-digit year', () => {
    for (const entry of [
      '13/2026',
      '00/2026',
      '3/26',
      '03/26',
      '2026-13',
      '2026-00',
      '2026-3',
      '2026/03',
      '03-2026',
      '202603',
      'March 2026',
      '',
      '1'.repeat(50_000),
    ]) {
      expect(parseIrishPeriod(entry), entry).toBeNull();
    }
  });
});

describe('today in Ireland', () => {
  it('turns the day at midnight in Dublin, an hour before midnight UTC in summer time', () => {
    // 23:30 UTC on 30 June is 00:30 Irish summer time (IST, UTC+1) on 1 July.
    expect(todayInIreland(new Date('2026-06-30T23:30:00Z'))).toBe('2026-07-01');
    expect(todayInIreland(new Date('2026-06-30T22:59:59Z'))).toBe('2026-06-30');
    expect(todayInIreland(new Date('2026-06-30T23:00:00Z'))).toBe('2026-07-01');
  });

  it('is the UTC day in winter (GMT)', () => {
    expect(todayInIreland(new Date('2026-12-31T23:30:00Z'))).toBe('2026-12-31');
    expect(todayInIreland(new Date('2027-01-01T00:00:00Z'))).toBe('2027-01-01');
  });

  it('follows the change of clocks on 29 March 2026 (01:00 UTC) and 25 October 2026', () => {
    // Before the clocks go forward: GMT, so 00:30 UTC is 00:30 on 29 March in Dublin.
    expect(todayInIreland(new Date('2026-03-29T00:30:00Z'))).toBe('2026-03-29');
    expect(todayInIreland(new Date('2026-03-28T23:30:00Z'))).toBe('2026-03-28');
    // After: IST, so 23:30 UTC is already 00:30 on 30 March.
    expect(todayInIreland(new Date('2026-03-29T23:30:00Z'))).toBe('2026-03-30');
    // The clocks go back at 01:00 UTC on 25 October: 23:30 UTC on the 24th is still IST.
    expect(todayInIreland(new Date('2026-10-24T23:30:00Z'))).toBe('2026-10-25');
    expect(todayInIreland(new Date('2026-10-25T23:30:00Z'))).toBe('2026-10-25');
  });
});

describe('adding days', () => {
  it('counts calendar days across months, years and 29 February', () => {
    expect(addDays('2026-06-30', 1)).toBe('2026-07-01');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-07-01', 366)).toBe('2027-07-02');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    // Across the change of clocks, a day is still a day.
    expect(addDays('2026-03-28', 2)).toBe('2026-03-30');
  });
});

describe('dates shown to be read (docs/decisions/0129-dates-shown-in-words.md)', () => {
  it('writes a date day first with the month as a word, the same in every browser', () => {
    expect(dateInWords('1985-04-03')).toBe('3 Apr 1985');
    expect(dateInWords('2026-09-30')).toBe('30 Sep 2026');
    expect(dateInWords('2024-02-29')).toBe('29 Feb 2024');
    expect(dateInWords('2027-12-01')).toBe('1 Dec 2027');
    // What is no date is given back as it is.
    expect(dateInWords('not a date')).toBe('not a date');
    expect(dateInWords('2025-02-29')).toBe('2025-02-29');
  });

  it('shows a moment as its day in Ireland, summer time included', () => {
    // 23:30 UTC on 30 June is 00:30 on 1 July in Dublin; in winter Dublin keeps UTC.
    expect(dateInWords('2026-06-30T23:30:00.000Z')).toBe('1 Jul 2026');
    expect(dateInWords('2026-12-31T23:30:00.000Z')).toBe('31 Dec 2026');
  });

  it('writes a moment with its time on a clock in Dublin', () => {
    expect(momentInWords('2026-04-03T13:05:00.000Z')).toBe('3 Apr 2026, 14:05');
    expect(momentInWords('2026-11-20T09:00:00.000Z')).toBe('20 Nov 2026, 09:00');
    expect(momentInWords('2026-06-30T23:30:00Z')).toBe('1 Jul 2026, 00:30');
    expect(momentInWords('yesterday')).toBe('yesterday');
  });

  it('writes a pay period back as it is typed, month first', () => {
    expect(formatIrishPeriod('2026-03')).toBe('03/2026');
    expect(parseIrishPeriod(formatIrishPeriod('2026-12'))).toBe('2026-12');
    expect(formatIrishPeriod('March')).toBe('March');
  });

  it('writes a pay period and a day of every year in words', () => {
    expect(periodInWords('2026-10')).toBe('Oct 2026');
    expect(periodInWords('2026-13')).toBe('2026-13');
    expect(dayOfYearInWords('12-31')).toBe('31 December');
    expect(dayOfYearInWords('04-05')).toBe('5 April');
  });
});

describe('a date and a time on a clock in Dublin', () => {
  it('reads winter time as UTC and summer time as an hour ahead of it', () => {
    expect(instantInIreland('2026-01-09', '10:15')).toBe('2026-01-09T10:15:00.000Z');
    expect(instantInIreland('2026-07-01', '00:30')).toBe('2026-06-30T23:30:00.000Z');
    expect(momentInWords(instantInIreland('2026-07-01', '00:30') ?? '')).toBe('1 Jul 2026, 00:30');
  });

  it('refuses the hour skipped in spring, takes the first of the hour read twice in autumn', () => {
    expect(instantInIreland('2026-03-29', '01:30')).toBeNull();
    expect(instantInIreland('2026-10-25', '01:30')).toBe('2026-10-25T00:30:00.000Z');
  });

  it('refuses what is no clock time or no date', () => {
    expect(instantInIreland('2026-01-09', '24:00')).toBeNull();
    expect(instantInIreland('2026-01-09', '9:15')).toBeNull();
    expect(instantInIreland('09/01/2026', '09:15')).toBeNull();
  });
});

describe('the last day of a month', () => {
  it('is the 28th or 29th of February by the leap years, and the 30th or 31st of the others', () => {
    expect(lastDayOfMonth('2026-02')).toBe('2026-02-28');
    expect(lastDayOfMonth('2028-02')).toBe('2028-02-29');
    expect(lastDayOfMonth('2100-02')).toBe('2100-02-28');
    expect(lastDayOfMonth('2000-02')).toBe('2000-02-29');
    expect(lastDayOfMonth('2026-04')).toBe('2026-04-30');
    expect(lastDayOfMonth('2026-12')).toBe('2026-12-31');
  });
});
