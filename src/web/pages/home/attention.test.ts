import { describe, expect, it } from 'vitest';
import { schemeNeedText } from './attention';

describe('why a scheme needs attention, in words', () => {
  it('names its governance by the standing the governance counts give it', () => {
    expect(schemeNeedText('governance', { governance: 'incomplete' }, '2026-10')).toBe(
      'Governance: incomplete',
    );
    expect(schemeNeedText('governance', { governance: 'due_soon' }, '2026-10')).toBe(
      'Governance: due soon',
    );
    expect(schemeNeedText('contributions_due', { governance: null }, '2026-10')).toBe(
      'Oct 2026 contributions not in',
    );
  });
});
