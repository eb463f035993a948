// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the scanner is tested on lines of source code, placeholders and all
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../helpers/source-files.js';

/**
 * A file's size, and a limit on one, is written one way, by fileSizeInWords in
 * src/contracts/file-size.ts, from the limit's own constant: one page said "25 MiB" where another
 * said "25 MB" of the same limit. This scan keeps sizes written by hand out of what people read.
 */

/** A size written out in a line of code: a figure and a unit, or a binary unit at all. */
const SIZE_BY_HAND = /\d\s?(?:MiB|KiB|MB|KB)\b|\b(?:MiB|KiB)\b/;
/** A comment's line: comments speak to developers, who read MiB. */
const COMMENT = /^\s*(?:\/\/|\/\*|\*)/;

const scanned = () => [
  ...sourceFiles('src/web', '.'),
  ...sourceFiles('src/contracts', '.').filter(({ file }) => file !== 'src/contracts/file-size.ts'),
];

describe('file sizes in words', () => {
  it('the scanner finds the sizes the pages wrote by hand', () => {
    for (const line of [
      '        description="UTF-8, comma-separated, headings on the first line; at most 25 MiB"',
      "      message: 'The file is over 25 MiB. Split it into smaller files and import each.',",
      '    return `The file is ${shown} MB: a document may be at most 25 MB`;',
      '    : `${(size / (1024 * 1024)).toFixed(1)} MiB`;',
    ]) {
      expect(SIZE_BY_HAND.test(line), line).toBe(true);
    }
    expect(COMMENT.test('  /** the file itself may be 25 MiB. */')).toBe(true);
    expect(SIZE_BY_HAND.test('at most ${fileSizeInWords(MAX_IMPORT_BYTES)}')).toBe(false);
  });

  it('are written by the one rule in what the web UI and the contracts say', () => {
    const found = scanned().flatMap(({ file, text }) =>
      text
        .split('\n')
        .flatMap((line, index) =>
          !COMMENT.test(line) && SIZE_BY_HAND.test(line)
            ? [`${file}:${index + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(found).toEqual([]);
  });
});
