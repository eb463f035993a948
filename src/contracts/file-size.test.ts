import { describe, expect, it } from 'vitest';
import { fileSizeInWords, sizeOverLimit } from './file-size.js';
import { MAX_PRICE_FILE_BYTES } from './fund-price-file.js';
import { MAX_IMPORT_BYTES } from './imports.js';

/** One way to write a file's size, limits included (contracts/file-size.ts). */
describe('a file size in words', () => {
  it('is in bytes, whole KB or MB to one decimal, a KB being 1,024 bytes', () => {
    expect(fileSizeInWords(1)).toBe('1 byte');
    expect(fileSizeInWords(900)).toBe('900 bytes');
    expect(fileSizeInWords(20 * 1024)).toBe('20 KB');
    expect(fileSizeInWords(3.5 * 1024 * 1024)).toBe('3.5 MB');
    expect(fileSizeInWords(1_234 * 1024 * 1024)).toBe('1,234 MB');
  });

  it('writes the limits the pages name as the same words', () => {
    expect(fileSizeInWords(MAX_IMPORT_BYTES)).toBe('25 MB');
    expect(fileSizeInWords(MAX_PRICE_FILE_BYTES)).toBe('4 MB');
  });

  it('says a file a little over the limit is over it, not the limit itself', () => {
    expect(sizeOverLimit(MAX_IMPORT_BYTES + 1, MAX_IMPORT_BYTES)).toBe('over 25 MB');
    expect(sizeOverLimit(30 * 1024 * 1024, MAX_IMPORT_BYTES)).toBe('30 MB');
  });
});
