// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the scanner is tested on lines of source code, placeholders and all
import { describe, expect, it } from 'vitest';
import { counted, nounFor } from '../../src/contracts/plain-english.js';
import { sourceFiles } from '../helpers/source-files.js';

/**
 * A count is written with its noun by one helper, `counted` (or `nounFor` where the figure stands
 * apart), in src/contracts/plain-english.ts. A page that wrote `${issueCount} problems` said
 * "1 problems"; another wrote its own `=== 1 ? 'member' : 'members'`. These scans keep hand-made
 * plurals out of src/web.
 */

/** Every source file of the web UI, its tests left out, by its path under src/web. */
const sources = () => sourceFiles('src/web');

/**
 * Helpers that write a count with its noun (`counted`, and `savedInWords` of src/contracts/imports.ts,
 * which names what an import saved): a placeholder that is one of their calls makes no plural.
 */
const NOUN_WRITER = String.raw`(?!\s*(?:counted|savedInWords)\()`;

/** Ways a line makes a plural of its own. */
const HAND_MADE_PLURALS: readonly RegExp[] = [
  // A count put straight before a plural noun, in a template or in JSX.
  new RegExp(
    String.raw`\$\{${NOUN_WRITER}[^}]*(?:[cC]ount|\blength|Written|Read|[pP]eriods|Tokens)\b[^}]*\}\s+(?:[a-z]+ )?[a-z]+s\b`,
  ),
  // An account is no count: `<AccountState account={account} onResent={refresh} />` is no plural.
  new RegExp(
    String.raw`\{${NOUN_WRITER}[^{}]*(?:(?<![aA]c)[cC]ount|\blength|Written|Read)\)?\}\s+[a-z]+`,
  ),
  // A noun chosen by a count: `n === 1 ? 'member' : 'members'`, `'1 line' : …`, `'' : 's'`.
  /[=!]==\s*1n?\s*\?\s*(['"`])(?:1 )?[a-z ]*\1\s*:\s*(?:(['"`])[a-z ]*s\2|`\$\{)/,
  // A noun left for the reader to make plural: "amount(s)".
  /[a-z]\(s\)/,
];

describe('counts in words', () => {
  it('are written with the noun in the singular for exactly one', () => {
    expect(counted(1, 'problem')).toBe('1 problem');
    expect(counted(0, 'problem')).toBe('0 problems');
    expect(counted(2, 'problem')).toBe('2 problems');
    expect(counted(12_500, 'row')).toBe('12,500 rows');
    expect(counted(1, 'person', 'people')).toBe('1 person');
    expect(counted(3, 'person', 'people')).toBe('3 people');
    expect(nounFor(1, 'scheme')).toBe('scheme');
    expect(nounFor(4, 'scheme')).toBe('schemes');
  });

  it('the scanner finds the plurals the web UI made by hand', () => {
    const had = [
      '                        ? ` (${upload.issueCount} problems)`',
      '                      ? ` (${upload.rowsWritten} rows)`',
      "            {issueCount === 1 ? '1 problem' : `${issueCount.toLocaleString('en-IE')} problems`}",
      "            <Text size=\"sm\">{counts[status] === 1 ? 'scheme' : 'schemes'}</Text>",
      "export const lineCount = (count: number) => `${count} line${count === 1 ? '' : 's'}`;",
      '              ? `The first ${preview.rows.length} rows of the file`',
      "                        {shown ? 'Hide' : 'Show'} {earlier.length} earlier{' '}",
      "            {cost.data.employees === 1 ? 'member' : 'members'} below the standard, bringing the",
      'Delete the upload of “{name}”? Its {counter.format(upload.rowsWritten)} pay lines are',
      '              description={`${parsed.corrections} recorded amount(s) will be corrected.`}',
    ];
    for (const line of had) {
      expect(
        HAND_MADE_PLURALS.some((pattern) => pattern.test(line)),
        line,
      ).toBe(true);
    }
    for (const line of [
      '                  ? ` (${counted(upload.rowsWritten, "row")})`',
      '            <Text size="sm">{nounFor(counts[status], \'scheme\')}</Text>',
      "              : preview.rows.length === 1\n                ? 'The only row of the file'",
      '    {left.length === 0 ? <Empty /> : <List />}',
      '  return <AccountState account={account} onResent={refresh} />;',
      '        message: `${savedInWords(kind, result.rowsWritten)} imported`,',
      "          Every row of the file was saved: {savedInWords(kind, result.rowsWritten)} from{' '}",
    ]) {
      expect(
        HAND_MADE_PLURALS.some((pattern) => pattern.test(line)),
        line,
      ).toBe(false);
    }
  });

  it('no page of the web UI makes a plural of its own', () => {
    const found = sources().flatMap(({ file, text }) =>
      text
        .split('\n')
        .flatMap((line, index) =>
          HAND_MADE_PLURALS.some((pattern) => pattern.test(line))
            ? [`${file}:${index + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(found).toEqual([]);
  });
});
