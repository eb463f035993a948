import { describe, expect, it } from 'vitest';
import { safeReturnPath, signInSearch } from './return-path';

describe('the page a person returns to after signing in', () => {
  it('is a path of this site, with its query kept', () => {
    expect(safeReturnPath('/members/abc')).toBe('/members/abc');
    expect(safeReturnPath('/audit?entityType=member')).toBe('/audit?entityType=member');
  });

  it('is never another site, however the address is written', () => {
    for (const hostile of [
      '//evil.example',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '/\tmembers',
      '',
      undefined,
      42,
      `/${'a'.repeat(3_000)}`,
    ]) {
      expect(safeReturnPath(hostile), String(hostile)).toBeUndefined();
    }
  });

  it('is never a signed-out page, which would only bounce', () => {
    expect(safeReturnPath('/signin')).toBeUndefined();
    expect(safeReturnPath('/reset-password#token=x')).toBeUndefined();
  });

  it('is left out of the sign-in address for the root, which leads home anyway', () => {
    expect(signInSearch('/')).toEqual({});
    expect(signInSearch('/schemes/s1')).toEqual({ next: '/schemes/s1' });
  });
});
