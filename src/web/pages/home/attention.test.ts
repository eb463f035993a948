import { describe, expect, it } from 'vitest';
import type { Overview, RemittanceMonth } from '../../api/types';
import { dueHeading, remittanceNotes, schemeNeedText } from './attention';

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

describe('the heading above the schemes on the home page', () => {
  const scheme = (lastPeriod: string | null) =>
    ({ lastPeriod }) as unknown as Overview['schemes'][number];

  it('asks for an upload only while a scheme still lacks the due month', () => {
    const overview = { duePeriod: '2026-10', schemes: [scheme('2026-10'), scheme('2026-09')] };
    expect(dueHeading(overview, true)).toBe('Upload Oct 2026 contributions');
    expect(dueHeading(overview, false)).toBe('Oct 2026 contributions');
  });

  it('names the month without asking for it once every scheme has it in', () => {
    const overview = { duePeriod: '2026-10', schemes: [scheme('2026-10'), scheme('2026-11')] };
    expect(dueHeading(overview, true)).toBe('Oct 2026 contributions');
  });

  it('asks for the first contributions of a scheme that has none', () => {
    expect(dueHeading({ duePeriod: '2026-10', schemes: [scheme(null)] }, true)).toBe(
      'Upload Oct 2026 contributions',
    );
  });
});

describe('the late and missing months on the employer’s home page', () => {
  const month = (
    name: string,
    status: RemittanceMonth['status'],
    dueOn: string,
    receivedOn: string | null = null,
  ): RemittanceMonth => ({
    month: name,
    dueOn,
    expectedCents: 100_00,
    receivedCents: receivedOn ? 100_00 : 0,
    receivedOn,
    status,
  });

  it('names the missing months first, then the late ones, and leaves out the rest', () => {
    expect(
      remittanceNotes([
        month('2026-07', 'on_time', '2026-08-21', '2026-08-10'),
        month('2026-08', 'late', '2026-09-21', '2026-09-25'),
        month('2026-09', 'missing', '2026-10-21'),
        month('2026-10', 'due', '2026-11-21'),
      ]),
    ).toEqual([
      'Sep 2026 deductions, due by 21 Oct 2026: not received in full',
      'Aug 2026 deductions, due by 21 Sep 2026: received late, on 25 Sep 2026',
    ]);
  });

  it('says nothing when every month is on time or not yet due', () => {
    expect(remittanceNotes([month('2026-10', 'due', '2026-11-21')])).toEqual([]);
  });
});
