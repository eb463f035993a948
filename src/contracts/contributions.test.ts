import { describe, expect, it } from 'vitest';
import {
  CONTRIBUTION_KIND_LABELS_FOR_MEMBER,
  compareContributions,
  correctionNotes,
} from './contributions.js';

describe('the order of a member’s contributions', () => {
  it('puts the newest month first and, within every month, you, your employer, then AVCs', () => {
    const recorded = [
      { period: '2026-09', kind: 'employer' },
      { period: '2026-09', kind: 'avc' },
      { period: '2026-09', kind: 'employee' },
      { period: '2026-10', kind: 'avc' },
      { period: '2026-10', kind: 'employee' },
      { period: '2026-10', kind: 'employer' },
    ];
    expect(
      [...recorded].sort(compareContributions).map((row) => `${row.period} ${row.kind}`),
    ).toEqual([
      '2026-10 employee',
      '2026-10 employer',
      '2026-10 avc',
      '2026-09 employee',
      '2026-09 employer',
      '2026-09 avc',
    ]);
  });

  it('names the kinds to a member in that order', () => {
    expect(Object.values(CONTRIBUTION_KIND_LABELS_FOR_MEMBER)).toEqual([
      'Paid by you',
      'Paid by your employer',
      'Your extra contributions (AVC)',
    ]);
  });
});

describe('what a member reads of a correction', () => {
  it('says nothing of a contribution never corrected', () => {
    expect(correctionNotes({ originalAmountCents: 15_000, adjustments: [] })).toEqual([]);
  });

  it('says what each correction changed it from, and the day in Ireland it was made', () => {
    expect(
      correctionNotes({
        originalAmountCents: 15_000,
        adjustments: [
          // Late in the evening of 3 November, Irish time: still the 3rd in Ireland.
          { deltaCents: -1_000, createdAt: '2026-11-03T23:30:00.000Z' },
          { deltaCents: 2_500, createdAt: '2026-11-20T10:00:00.000Z' },
        ],
      }),
    ).toEqual(['Corrected from €150.00 on 3 Nov 2026', 'Corrected from €140.00 on 20 Nov 2026']);
  });
});
