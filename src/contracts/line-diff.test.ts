import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type DiffLine,
  diffLines,
  diffRecord,
  diffSummary,
  lineDiff,
  linesOf,
  MAX_EDITS,
  recordedLine,
} from './line-diff.js';

/** The length of a longest common subsequence, by the textbook table: the most lines kept. */
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

/** One side of a comparison rebuilt: the unchanged lines and those only that side has. */
const side = (lines: readonly DiffLine[], which: 'before' | 'after') =>
  lines
    .filter(
      (line) => line.kind === 'same' || line.kind === (which === 'before' ? 'removed' : 'added'),
    )
    .map((line) => line.text);

/** Texts from a few distinct lines, so that the two sides share lines often. */
const text = fc
  .array(
    fc.constantFrom('Purpose', 'Scope', '', 'Roles', 'Review yearly', 'Approved by trustees'),
    { maxLength: 30 },
  )
  .map((lines) => lines.join('\n'));

const numberedLines = (count: number, prefix = 'Line') =>
  Array.from({ length: count }, (_, at) => `${prefix} ${at}`);

describe('the line diff of a draft against its generated text', () => {
  it('marks nothing when the text is unchanged, and records no lines', () => {
    const lines = diffLines('a\nb\nc', 'a\nb\nc');
    expect(lines.every((line) => line.kind === 'same')).toBe(true);
    expect(lineDiff('a\nb\nc', 'a\nb\nc')).toEqual({
      added: 0,
      removed: 0,
      unchanged: 3,
      lines: [],
    });
  });

  it('shows a moved line as removed where it stood and added where it now stands', () => {
    const generated = 'Purpose\nScope\nRoles\nReview';
    const reordered = 'Purpose\nRoles\nScope\nReview';
    expect(diffLines(generated, reordered)).toEqual([
      { kind: 'same', text: 'Purpose', before: 1, after: 1 },
      { kind: 'removed', text: 'Scope', before: 2 },
      { kind: 'same', text: 'Roles', before: 3, after: 2 },
      { kind: 'added', text: 'Scope', after: 3 },
      { kind: 'same', text: 'Review', before: 4, after: 4 },
    ]);
    expect(lineDiff(generated, reordered)).toEqual({
      added: 1,
      removed: 1,
      unchanged: 3,
      lines: ['- Scope', '  Roles', '+ Scope'],
    });
    // Two lines exchanged across two others: both moved, the two between them kept.
    const exchanged = lineDiff('A\nx\ny\nB', 'B\nx\ny\nA');
    expect(exchanged).toMatchObject({ added: 2, removed: 2, unchanged: 2 });
    expect(exchanged.lines.filter((line) => line.startsWith('  '))).toEqual(['  x', '  y']);
  });

  it('shows an inserted line as added and nothing else', () => {
    expect(lineDiff('a\nb\nc', 'a\nb\nnew\nc')).toEqual({
      added: 1,
      removed: 0,
      unchanged: 3,
      lines: ['+ new'],
    });
  });

  it('shows a deleted line as removed and nothing else', () => {
    expect(lineDiff('a\nb\nc', 'a\nc')).toEqual({
      added: 0,
      removed: 1,
      unchanged: 2,
      lines: ['- b'],
    });
  });

  it('shows an edited line as the old line removed, then the new one added, with line numbers', () => {
    expect(diffLines('Purpose\nScope\nReview', 'Purpose\nScope of the policy\nReview')).toEqual([
      { kind: 'same', text: 'Purpose', before: 1, after: 1 },
      { kind: 'removed', text: 'Scope', before: 2 },
      { kind: 'added', text: 'Scope of the policy', after: 2 },
      { kind: 'same', text: 'Review', before: 3, after: 3 },
    ]);
    expect(lineDiff('a\nb\nc\nd', 'a\nB\nC\nd')).toEqual({
      added: 2,
      removed: 2,
      unchanged: 2,
      lines: ['- b', '- c', '+ B', '+ C'],
    });
  });

  it('treats CR LF, CR and LF line ends alike, and a final line end as no extra line', () => {
    expect(linesOf('a\r\nb\rc\n')).toEqual(['a', 'b', 'c']);
    expect(linesOf('')).toEqual([]);
    expect(diffLines('a\r\nb\r\n', 'a\nb').every((line) => line.kind === 'same')).toBe(true);
  });

  it('handles an empty side', () => {
    expect(lineDiff('', 'x\ny')).toEqual({
      added: 2,
      removed: 0,
      unchanged: 0,
      lines: ['+ x', '+ y'],
    });
    expect(lineDiff('x\ny', '')).toEqual({
      added: 0,
      removed: 2,
      unchanged: 0,
      lines: ['- x', '- y'],
    });
    expect(diffLines('', '')).toEqual([]);
    expect(lineDiff('', '')).toEqual({ added: 0, removed: 0, unchanged: 0, lines: [] });
  });

  it('rebuilds both texts, and keeps as many lines unchanged as can be kept', () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        const lines = diffLines(before, after);
        expect(side(lines, 'before')).toEqual(linesOf(before));
        expect(side(lines, 'after')).toEqual(linesOf(after));
        expect(diffSummary(lines).unchanged).toBe(lcsLength(linesOf(before), linesOf(after)));
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

  it('records the same counts and lines the comparison shows, from the first change to the last', () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        const lines = diffLines(before, after);
        const record = lineDiff(before, after);
        const { added, removed, unchanged } = diffSummary(lines);
        expect(record).toMatchObject({ added, removed, unchanged });
        const changed = lines.flatMap((line, at) => (line.kind === 'same' ? [] : [at]));
        const shown =
          changed.length === 0
            ? []
            : lines.slice(changed[0], (changed[changed.length - 1] as number) + 1);
        expect(record.lines.map(recordedLine)).toEqual(
          shown.map((line) => ({ kind: line.kind, text: line.text })),
        );
        // Nothing changed exactly when the record says so.
        const same = JSON.stringify(linesOf(before)) === JSON.stringify(linesOf(after));
        expect(added === 0 && removed === 0).toBe(same);
      }),
      { numRuns: 300 },
    );
  });

  it('reads a recorded line back by its mark', () => {
    expect(['- gone', '+ new', '  kept', '+ ', '- '].map(recordedLine)).toEqual([
      { kind: 'removed', text: 'gone' },
      { kind: 'added', text: 'new' },
      { kind: 'same', text: 'kept' },
      { kind: 'added', text: '' },
      { kind: 'removed', text: '' },
    ]);
    expect(diffRecord([])).toEqual({ added: 0, removed: 0, unchanged: 0, lines: [] });
  });
});

describe('the cost of the line diff', () => {
  it('finds a few edits spread over a 100,000-line text, which a table of every pair of lines could not hold', () => {
    // Edits at the very start and end leave no shared head or tail: the search spans all of it.
    // The textbook table would need 10¹⁰ cells; the search makes about 10⁶ comparisons.
    const generated = numberedLines(100_000);
    const edited = [...generated];
    edited[0] = 'Line 0, amended';
    edited.splice(50_000, 1);
    edited.splice(75_000, 0, 'A new line');
    edited[edited.length - 1] = 'The last line, amended';
    const record = lineDiff(generated.join('\n'), edited.join('\n'));
    expect(record).toMatchObject({ added: 3, removed: 3, unchanged: 99_997 });
    expect(record.lines[0]).toBe('- Line 0');
    expect(record.lines.filter((line) => !line.startsWith('  '))).toEqual([
      '- Line 0',
      '+ Line 0, amended',
      '- Line 50000',
      '+ A new line',
      '- Line 99999',
      '+ The last line, amended',
    ]);
  });

  it('searches for at most MAX_EDITS changed lines, then shows the middle all removed and all added', () => {
    // 400 lines reversed: the shortest script changes 798 lines, under the cap, and keeps one.
    const under = numberedLines(400);
    expect(lineDiff(under.join('\n'), [...under].reverse().join('\n'))).toMatchObject({
      added: 399,
      removed: 399,
      unchanged: 1,
    });
    // 600 lines reversed: the shortest script would change 1,198, past the cap. Every line of the
    // middle is then counted as changed: more than the least, never a changed line as unchanged.
    const over = numberedLines(600);
    expect(2 * (over.length - 1)).toBeGreaterThan(MAX_EDITS);
    const generated = ['Title', ...over, 'End'].join('\n');
    const reversed = ['Title', ...[...over].reverse(), 'End'].join('\n');
    const record = lineDiff(generated, reversed);
    expect(record).toMatchObject({ added: 600, removed: 600, unchanged: 2 });
    expect(record.lines).toEqual([
      ...over.map((line) => `- ${line}`),
      ...[...over].reverse().map((line) => `+ ${line}`),
    ]);
    const lines = diffLines(generated, reversed);
    expect(side(lines, 'before')).toEqual(linesOf(generated));
    expect(side(lines, 'after')).toEqual(linesOf(reversed));
  });

  it('answers a rewrite of 20,000 lines from the cap, where the full search would keep 1.6 × 10⁹ numbers', () => {
    const record = lineDiff(
      numberedLines(20_000, 'Old').join('\n'),
      numberedLines(20_000, 'New').join('\n'),
    );
    expect(record).toMatchObject({ added: 20_000, removed: 20_000, unchanged: 0 });
    expect(record.lines).toHaveLength(40_000);
  });
});
