import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePpsNumber } from './pps-number.js';

describe('PPS number check letter', () => {
  it('accepts valid numbers without a second letter and with a second letter that counts (A, H)', () => {
    for (const valid of ['6433435F', '6433435OA', '6433435IH']) {
      expect(parsePpsNumber(valid)).toBe(valid);
    }
  });

  it('normalises spaces and lower case', () => {
    expect(parsePpsNumber(' 643 3435 f ')).toBe('6433435F');
    expect(parsePpsNumber('6433435oa')).toBe('6433435OA');
  });

  it('refuses a wrong check letter, a wrong shape and an unknown second letter', () => {
    for (const invalid of [
      '6433435G',
      '6433435',
      '643343F',
      '64334355F',
      '6433435FZ',
      'F6433435',
      '',
    ]) {
      expect(parsePpsNumber(invalid)).toBeNull();
    }
  });

  it('finds exactly one valid check letter for any seven digits', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{7}$/), (digits) => {
        const valid = 'WABCDEFGHIJKLMNOPQRSTUV'
          .split('')
          .filter((letter) => letter <= 'W' && parsePpsNumber(`${digits}${letter}`) !== null);
        expect(valid).toHaveLength(1);
      }),
    );
  });
});
