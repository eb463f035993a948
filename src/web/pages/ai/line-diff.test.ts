import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type DiffLine, diffLines, diffSummary, linesOf } from './line-diff';

/** The length of a longest common subsequence, by the textbook table: the minimum to match. */
function lcsLength(a: string[], b: string[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (const line of a) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j] ?? 0;
      row[j] = line === b[j - 1] ? diagonal + 1 : Math.max(row[j] ?? 0, row[j - 1] ?? 0);
      diagonal = above;
    }
  }
  return row[b.length] ?? 0;
}

const side = (lines: DiffLine[], which: 'before' | 'after') =>
  lines
    .filter(
      (line) => line.kind === 'same' || line.kind === (which === 'before' ? 'removed' : 'added'),
    )
    .map((line) => line.text);

/** Texts from a few distinct lines, so that the two sides share lines often. */
const text = fc
  .array(
    fc.constantFrom('Purpose', 'Scope', '', 'Roles', 'Review yearly', 'Approved by trustees'),
    {
      maxLength: 30,
    },
  )
  .map((lines) => lines.join('\n'));

describe('the line diff of a draft against its generated text', () => {
  it('marks nothing when the text is unchanged', () => {
    const lines = diffLines('a\nb\nc', 'a\nb\nc');
    expect(lines.every((line) => line.kind === 'same')).toBe(true);
    expect(diffSummary(lines)).toEqual({ added: 0, removed: 0 });
  });

  it('shows an edited line as the old line removed, then the new one added, with line numbers', () => {
    expect(diffLines('Purpose\nScope\nReview', 'Purpose\nScope of the policy\nReview')).toEqual([
      { kind: 'same', text: 'Purpose', before: 1, after: 1 },
      { kind: 'removed', text: 'Scope', before: 2 },
      { kind: 'added', text: 'Scope of the policy', after: 2 },
      { kind: 'same', text: 'Review', before: 3, after: 3 },
    ]);
  });

  it('treats CR LF, CR and LF line ends alike, and a final line end as no extra line', () => {
    expect(linesOf('a\r\nb\rc\n')).toEqual(['a', 'b', 'c']);
    expect(linesOf('')).toEqual([]);
    expect(diffLines('a\r\nb\r\n', 'a\nb').every((line) => line.kind === 'same')).toBe(true);
  });

  it('handles an empty side', () => {
    expect(diffSummary(diffLines('', 'x\ny'))).toEqual({ added: 2, removed: 0 });
    expect(diffSummary(diffLines('x\ny', ''))).toEqual({ added: 0, removed: 2 });
    expect(diffLines('', '')).toEqual([]);
  });

  it('rebuilds both texts, and keeps as many lines unchanged as can be kept', () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        const lines = diffLines(before, after);
        expect(side(lines, 'before')).toEqual(linesOf(before));
        expect(side(lines, 'after')).toEqual(linesOf(after));
        const same = lines.filter((line) => line.kind === 'same').length;
        expect(same).toBe(lcsLength(linesOf(before), linesOf(after)));
      }),
      { numRuns: 300 },
    );
  });

  it('lists removed lines before added ones within each run of changes', () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        const kinds = diffLines(before, after).map((line) => line.kind);
        for (let at = 1; at < kinds.length; at++) {
          expect(kinds[at - 1] === 'added' && kinds[at] === 'removed').toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('stays quick on a long draft with a few edits', () => {
    const long = Array.from({ length: 5000 }, (_, at) => `Line ${at}`).join('\n');
    const edited = long.replace('Line 2500', 'Line 2500, amended').replace('Line 10\n', '');
    const started = performance.now();
    expect(diffSummary(diffLines(long, edited))).toEqual({ added: 1, removed: 2 });
    expect(performance.now() - started).toBeLessThan(500);
  });
});
