import { describe, expect, it } from 'vitest';
import { MEMBER_PICKER_DESCRIPTIONS } from './member-picker';

/**
 * The member picker's help fits who is choosing and why: staff recording a data-subject request
 * see every member of the employer, so "the one member record this account may see" was wrong
 * there (docs/decisions/0137-data-subject-requests.md).
 */
describe('the member picker’s help', () => {
  it('speaks of the account only where an account is being made', () => {
    expect(MEMBER_PICKER_DESCRIPTIONS.account).toMatch(/account may see/);
    expect(MEMBER_PICKER_DESCRIPTIONS.request).not.toMatch(/account/);
    expect(MEMBER_PICKER_DESCRIPTIONS.request).toMatch(/made the request/);
  });
});
