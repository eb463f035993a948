import { describe, expect, it } from 'vitest';
import type { StatementFigures } from '../../src/contracts/statements.js';
import { statementPdf } from '../../src/server/modules/statements/index.js';
import { flowing, readPdf } from '../helpers/pdf-text.js';
import { SAMPLE_FIGURES } from '../helpers/statements.js';

/**
 * The statement's closing words (docs/decisions/0141-pension-benefit-statements.md, "The PDF"):
 * the law it is given under, in prose, never on a page of its own.
 */
const DB_FIGURES: StatementFigures = {
  ...SAMPLE_FIGURES,
  schemeType: 'DB',
  dc: null,
  db: {
    accrualRate: '1/60',
    pensionableSalaryCents: 5_500_000,
    serviceMonths: 282,
    accruedPensionCents: 2_154_166,
    projectedPensionCents: 4_000_000,
    fundingLevelPct: 104.5,
  },
  // No change to report: the page is then just long enough that the closing sentence fell alone
  // onto a second page.
  changes: [],
};

describe('a statement’s closing words', () => {
  for (const [kind, figures] of [
    ['DC', SAMPLE_FIGURES],
    ['DB', DB_FIGURES],
  ] as const) {
    it(`say the law in prose and share their page with the section they close (${kind})`, async () => {
      const { pages } = readPdf(await statementPdf(figures));
      const last = flowing(pages.at(-1) ?? '');
      expect(last).toContain(
        'This statement is given under S.I. No. 128/2021, regulations 31 to 35.',
      );
      expect(last).toContain('Where to find more');
    });
  }
});
