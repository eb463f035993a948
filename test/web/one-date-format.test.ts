// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the scanner is tested on lines of source code, placeholders and all
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../helpers/source-files.js';

/**
 * One way to show a date and one way to type a pay period in the web UI
 * (docs/decisions/0129-dates-shown-in-words.md). Pages showed "3 Apr 1985" beside "01/03/2024",
 * and a member's contribution took its pay period from the browser's month picker while the
 * scheme's took MM/YYYY. Dates are shown through src/web/format.ts, which writes them by the
 * service's own rule (src/contracts/irish-dates.ts), and pay periods are typed in
 * PayPeriodInput; these scans keep any other way out of src/web.
 */

const web = path.resolve(import.meta.dirname, '../../src/web');

/** The one formatter, and the one field a pay period is typed in. */
const FORMATTER = 'format.ts';
const PERIOD_FIELD = 'components/PayPeriodInput.tsx';

/** Every source file of the web UI, its tests left out, by its path under src/web. */
const sources = () => sourceFiles('src/web');

/** Ways a file writes a date of its own. */
const FORMATTING_A_DATE: readonly RegExp[] = [
  // The browser's own date formats, in whatever language and form it has.
  /\bIntl\.DateTimeFormat\b/,
  /\.toLocale(?:Date|Time)String\(/,
  /\bDate\([^)]*\)\.toLocaleString\(/,
  /\.toUTCString\(|\.toDateString\(/,
  // The typed form, DD/MM/YYYY, is for fields: a date shown to be read is in words.
  /\bformatIrishDate\b/,
  // A date put together from its parts: `${day}/${month}/${year}`, a Date's own parts, the day
  // and month cut out of an ISO date.
  /\$\{[^}]*(?:[dD]ay|[mM]onth|[yY]ear|slice)[^}]*\}\/\$\{[^}]*(?:[dD]ay|[mM]onth|[yY]ear|slice)[^}]*\}/,
  /\.get(?:UTC)?(?:Date|Month|FullYear)\(\)/,
  /\.slice\(\s*8\s*,\s*10\s*\)/,
  /\bdayjs\b/,
  // A date field writes what it understood in the typed form only.
  /valueFormat="(?!DD\/MM\/YYYY")/,
];

/** Ways a file takes a pay period of its own. */
const TYPING_A_PERIOD: readonly RegExp[] = [
  /type=["']month["']/,
  /\bMonthPicker(?:Input)?\b/,
  /\bparseIrishPeriod\b/,
];

function offences(patterns: readonly RegExp[], exempt: string): string[] {
  return sources()
    .filter(({ file }) => file !== exempt)
    .flatMap(({ file, text }) =>
      text
        .split('\n')
        .flatMap((line, index) =>
          patterns.some((pattern) => pattern.test(line))
            ? [`${file}:${index + 1}: ${line.trim()}`]
            : [],
        ),
    );
}

describe('dates in the web UI', () => {
  it('the scanner finds the ways of showing a date and typing a period the web UI had', () => {
    const had = [
      "const dateFormat = new Intl.DateTimeFormat('en-IE', {",
      'Pay periods ending from {formatIrishDate(overview.data.windowStart)} to',
      "const monthName = new Intl.DateTimeFormat('en-IE', { month: 'long', timeZone: 'UTC' });",
      "return isoDate ? formatIrishDate(isoDate) : '—';",
      'return `${isoDate.slice(8, 10)}/${isoDate.slice(5, 7)}/${isoDate.slice(0, 4)}`;',
      'const shown = new Date(value).toLocaleString();',
      'label: `${date.getDate()} ${months[date.getMonth()]}`,',
      '<DatePickerInput valueFormat="D MMM YYYY" />',
    ];
    for (const line of had) {
      expect(
        FORMATTING_A_DATE.some((pattern) => pattern.test(line)),
        line,
      ).toBe(true);
    }
    expect(TYPING_A_PERIOD.some((pattern) => pattern.test('type="month"'))).toBe(true);
    expect(
      TYPING_A_PERIOD.some((pattern) => pattern.test('const period = parseIrishPeriod(text);')),
    ).toBe(true);
    // Numbers in words, dates computed (not shown), and the typed form of a date field are fine.
    for (const line of [
      "return `${rowsRead.toLocaleString('en-IE')} rows`;",
      'const today = todayInIreland(new Date());',
      'valueFormat="DD/MM/YYYY"',
      "const [year, month] = period.split('-').map(Number);",
      "searchBy.text(row).toLocaleLowerCase('en-IE')",
      "const key = `${document.documentType}/${document.memberId ?? ''}/${document.filename}`;",
    ]) {
      expect(
        FORMATTING_A_DATE.some((pattern) => pattern.test(line)),
        line,
      ).toBe(false);
    }
  });

  it('no page shows a date but through src/web/format.ts', () => {
    expect(offences(FORMATTING_A_DATE, FORMATTER)).toEqual([]);
    // The formatter itself writes by the service's rule, and has no format of its own.
    const formatter = readFileSync(path.join(web, FORMATTER), 'utf8');
    expect(formatter).toMatch(/from '\.\.\/contracts\/irish-dates'/);
    expect(FORMATTING_A_DATE.some((pattern) => pattern.test(formatter))).toBe(false);
  });

  it('every pay period is typed in the one field, month first', () => {
    expect(offences(TYPING_A_PERIOD, PERIOD_FIELD)).toEqual([]);
    const fields = sources().filter(({ text }) => /<PayPeriodInput\b/.test(text));
    expect(fields.map(({ file }) => file).sort()).toEqual([
      'pages/employers/RemittanceCalendar.tsx',
      'pages/members/ContributionsPanel.tsx',
      'pages/schemes/SchemeContributionsPanel.tsx',
    ]);
  });
});
