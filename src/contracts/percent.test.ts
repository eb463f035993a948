import { describe, expect, it } from 'vitest';
import { percentEntry, percentInWords, rateBasisPoints, readPercent } from './percent.js';
import { FIELD_MESSAGES } from './plain-english.js';

describe('a rate of salary', () => {
  it('is read from a percentage as typed into whole basis points, without floating point', () => {
    expect(readPercent('5')).toBe(500);
    expect(readPercent(' 7.5 ')).toBe(750);
    expect(readPercent('7.50%')).toBe(750);
    expect(readPercent('7.25 %')).toBe(725);
    expect(readPercent('0')).toBe(0);
    expect(readPercent('100')).toBe(10_000);
    // 0.1 + 0.2 is not 0.3 in floating point; these are exact.
    expect(readPercent('0.29')).toBe(29);
    expect(readPercent('4.35')).toBe(435);
    // Read, then refused by the range of the request schema, in its words.
    expect(readPercent('150')).toBe(15_000);
  });

  it('is not read from anything else', () => {
    for (const typed of [
      '',
      '5.125',
      '5,5',
      '-1',
      '.5',
      '5.',
      '1e2',
      'five',
      '5%%',
      '1000',
      '5 5',
    ]) {
      expect(readPercent(typed), typed).toBeNull();
    }
    expect(readPercent('5'.repeat(100_000))).toBeNull();
  });

  it('is shown as a percentage, and offered for editing as it would be typed', () => {
    expect(percentInWords(500)).toBe('5%');
    expect(percentInWords(750)).toBe('7.5%');
    expect(percentInWords(725)).toBe('7.25%');
    expect(percentInWords(5)).toBe('0.05%');
    expect(percentInWords(10_000)).toBe('100%');
    for (const basisPoints of [0, 1, 5, 10, 99, 100, 101, 550, 725, 9_999, 10_000]) {
      expect(readPercent(percentEntry(basisPoints))).toBe(basisPoints);
    }
  });

  it('is whole basis points from 0 to 100% in a request, refused in plain English otherwise', () => {
    expect(rateBasisPoints.safeParse(0).success).toBe(true);
    expect(rateBasisPoints.safeParse(10_000).success).toBe(true);
    for (const value of [-1, 10_001, 5.5, '500', null]) {
      const result = rateBasisPoints.safeParse(value);
      expect(result.success, String(value)).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(FIELD_MESSAGES.contributionRate);
    }
  });
});
