import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Money is read and shown by one rule, src/contracts/money.ts
 * (docs/decisions/0100-one-money-rule.md). A page with a parser of its own read `12,50` as
 * €1,250.00 while the server refused it; these scans keep any other way of turning typed text
 * into cents, or cents into euro text, out of the web UI and the server.
 */

const root = path.resolve(import.meta.dirname, '../..');

/** The source files under a folder of src, tests left out, as paths from the repository root. */
function sources(folder: string): string[] {
  const base = path.join(root, folder);
  return readdirSync(base, { recursive: true, withFileTypes: true })
    .filter(
      (entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.'),
    )
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

/** Ways a file turns cents into euro text of its own. */
const FORMATTING = [
  // (cents / 100).toFixed(2), and Intl asked for euro.
  /\.toFixed\(\s*2\s*\)/,
  /style:\s*['"]currency['"]/,
  /currency:\s*['"]EUR['"]/,
  // cents / 100, salaryCents / 100, euro * 100: a conversion between euro and cents.
  /\b\w*(?:cents|euro|amount|salary)\w*\)?\s*[*/]\s*100\b/i,
];

/** Ways a file reads typed text as money of its own. */
const PARSING = [
  /\bparseFloat\(/,
  // Number(match[1]) * 100 + Number(match[2]): digits put together into cents.
  /\*\s*100\s*\+/,
  // Number(amountText), Number(typed.euro): a number read from an amount's text.
  /\bNumber\([^)]*(?:cents|euro|amount|salary)/i,
];

function offences(file: string, patterns: readonly RegExp[]): string[] {
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
  return lines.flatMap((line, index) =>
    patterns.some((pattern) => pattern.test(line)) ? [`${file}:${index + 1}: ${line.trim()}`] : [],
  );
}

describe('one money rule', () => {
  it('the scan finds the local parsers and formatters the web UI had', () => {
    const had = [
      'return euro.format(cents / 100);',
      "const cleaned = text.replace(/[€\\s,]/g, ''); return Number(match[1]) * 100 + Number(x);",
      "salaryCents: member ? (member.salaryCents / 100).toFixed(2) : '',",
      "const compactEuro = new Intl.NumberFormat('en-IE', { style: 'currency', currency: 'EUR' });",
      'const cents = Math.round(parseFloat(typed) * 100);',
      'const amount = Number(amountText);',
    ];
    for (const line of had) {
      expect(
        [...FORMATTING, ...PARSING].some((pattern) => pattern.test(line)),
        line,
      ).toBe(true);
    }
    // Percentages and byte counts are not money.
    for (const line of [
      'return Math.min(100, Math.floor((used / limit) * 100));',
      'value={Math.round(progress * 100)}',
      'const shown = Number((bytes / (1024 * 1024)).toFixed(1));',
      "const rate = (basisPoints / 100).toLocaleString('en-IE');",
    ]) {
      expect(
        [...FORMATTING, ...PARSING].some((pattern) => pattern.test(line)),
        line,
      ).toBe(false);
    }
  });

  it('no page of the web UI parses or formats money but through src/contracts/money.ts', () => {
    const found = sources('src/web').flatMap((file) => offences(file, [...FORMATTING, ...PARSING]));
    expect(found).toEqual([]);
  });

  it('every amount field of the web UI is read by the rule', () => {
    const amountFields = sources('src/web').filter((file) =>
      readFileSync(path.join(root, file), 'utf8').includes('inputMode="decimal"'),
    );
    expect(amountFields.length).toBeGreaterThan(0);
    const unread = amountFields.filter((file) => {
      const source = readFileSync(path.join(root, file), 'utf8');
      return !(
        /from '(?:\.\.\/)+contracts\/money'/.test(source) &&
        /\b(?:readEuro|euroFieldError)\(/.test(source)
      );
    });
    expect(unread).toEqual([]);
  });

  it('the server formats money only through src/contracts/money.ts', () => {
    /**
     * The AI guard reads every sum that text an AI wrote might hold (45,000.00 and 45.000,00
     * alike, "45k"), to keep a member's salary out of it: a net cast as wide as it can be, not a
     * rule for reading an amount someone entered.
     */
    const guard = [
      'src/server/modules/ai/provider-guard.rules.ts',
      'src/server/modules/ai/written-forms.rules.ts',
    ];
    const found = sources('src/server')
      .filter((file) => !guard.includes(file))
      .flatMap((file) => offences(file, FORMATTING));
    expect(found).toEqual([]);
  });
});
