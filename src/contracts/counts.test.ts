import { describe, expect, it } from 'vitest';
import { countInWords, countInWordsFirst, isOrAre, numberInWords } from './counts.js';

const document = { one: 'document', other: 'documents' };

describe('counts in words', () => {
  it('say up to ten in words and more in figures, with the noun singular only for one', () => {
    expect(countInWords(0, document)).toBe('no documents');
    expect(countInWords(1, document)).toBe('one document');
    expect(countInWords(2, document)).toBe('two documents');
    expect(countInWords(10, document)).toBe('ten documents');
    expect(countInWords(11, document)).toBe('11 documents');
    expect(countInWords(1204, document)).toBe('1,204 documents');
    expect(numberInWords(7)).toBe('seven');
  });

  it('begin a sentence with a capital, and agree with their verb', () => {
    expect(countInWordsFirst(1, document)).toBe('One document');
    expect(countInWordsFirst(0, document)).toBe('No documents');
    expect(`${countInWordsFirst(3, document)} ${isOrAre(3)} left out`).toBe(
      'Three documents are left out',
    );
    expect(isOrAre(1)).toBe('is');
  });
});
