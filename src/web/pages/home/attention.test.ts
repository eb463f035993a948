import { describe, expect, it } from 'vitest';
import type { Overview, RemittanceMonth } from '../../api/types';
import {
  dueHeading,
  dueStanding,
  remittanceNotes,
  schemeNeedText,
  uploadAction,
} from './attention';

describe('why a scheme needs attention, in words', () => {
  it('names its governance by the standing the governance counts give it', () => {
    const none = { owing: 0, unpaid: 0 };
    expect(
      schemeNeedText('governance', { governance: 'incomplete', duePeriodMembers: none }, '2026-10'),
    ).toBe('Governance: incomplete');
    expect(
      schemeNeedText('governance', { governance: 'due_soon', duePeriodMembers: none }, '2026-10'),
    ).toBe('Governance: due soon');
    expect(
      schemeNeedText('contributions_due', { governance: null, duePeriodMembers: none }, '2026-10'),
    ).toBe('Oct 2026 contributions not in');
  });

  it('counts the members with nothing paid for the due month', () => {
    expect(
      schemeNeedText(
        'contributions_missing',
        { governance: null, duePeriodMembers: { owing: 3, unpaid: 1 } },
        '2026-10',
      ),
    ).toBe('Oct 2026: nothing paid for 1 member');
  });
});

type Standing = Overview['schemes'][number]['dueStanding'];

/** A scheme's card as the server sends it: the due month's standing, and the latest month in. */
const scheme = (
  dueStanding: Standing,
  lastPeriod: string | null,
  unpaid = 0,
  owing = 3,
  memberCount = 3,
) =>
  ({
    lastPeriod,
    memberCount,
    duePeriodMembers: { owing, unpaid },
    dueStanding,
    chasedFrom: '2026-01',
  }) as unknown as Overview['schemes'][number];

describe('where a scheme’s card says the due month stands', () => {
  it('says the month is in only when every member who owed it has something paid', () => {
    expect(dueStanding(scheme('in', '2026-10'), '2026-10')).toBe('Oct 2026 contributions are in.');
    expect(dueStanding(scheme('part_in', '2026-10', 1), '2026-10')).toBe(
      'Oct 2026 contributions are in for 2 of 3 members; nothing is paid for 1 member.',
    );
  });

  it('names the latest month in, or that there is none', () => {
    expect(dueStanding(scheme('not_in', '2026-09'), '2026-10')).toBe(
      'Latest contributions: Sep 2026.',
    );
    expect(dueStanding(scheme('not_in', null), '2026-10')).toBe('No contributions yet.');
  });

  it('says so where nobody owed the month: no members yet, or all joined since', () => {
    expect(dueStanding(scheme('nothing_owed', null, 0, 0, 0), '2026-10')).toBe('No members yet.');
    expect(dueStanding(scheme('nothing_owed', null, 0, 0, 2), '2026-10')).toBe(
      'No member owed contributions for Oct 2026.',
    );
  });

  it('asks for no month before the scheme was added, as the remittance calendar chases none', () => {
    const added = { ...scheme('before_service', null), chasedFrom: '2026-11' };
    expect(dueStanding(added, '2026-10')).toBe(
      'Added in Nov 2026: contributions are asked for from Nov 2026.',
    );
    expect(uploadAction({ ...added, name: 'Liffey DC' }, '2026-10')).toMatchObject({
      pressing: false,
    });
    expect(dueHeading({ duePeriod: '2026-10', schemes: [added] }, true)).toBe('Contributions');
    // Beside a scheme that is asked for the month, the month is named.
    expect(
      dueHeading({ duePeriod: '2026-10', schemes: [added, scheme('in', '2026-10')] }, true),
    ).toBe('Oct 2026 contributions');
  });
});

describe('the upload button on a scheme’s card', () => {
  const named = (
    dueStanding: Standing,
    lastPeriod: string | null,
    unpaid = 0,
    owing = 3,
    memberCount = 3,
  ) => ({
    ...scheme(dueStanding, lastPeriod, unpaid, owing, memberCount),
    name: 'Liffey DC',
  });

  it('asks for the month, then for what is missing, and offers a correction once all is in', () => {
    expect(uploadAction(named('not_in', '2026-09'), '2026-10')).toEqual({
      text: 'Upload Oct 2026 contributions',
      label: 'Upload Oct 2026 contributions for Liffey DC',
      pressing: true,
    });
    expect(uploadAction(named('part_in', '2026-10', 1), '2026-10')).toEqual({
      text: 'Upload the missing Oct 2026 contributions',
      label: 'Upload the missing Oct 2026 contributions for Liffey DC',
      pressing: true,
    });
    expect(uploadAction(named('in', '2026-10'), '2026-10')).toEqual({
      text: 'Upload a correction',
      label: 'Upload a correction to Oct 2026 contributions for Liffey DC',
      pressing: false,
    });
  });

  it('presses for nothing where nobody owed the month', () => {
    expect(uploadAction(named('nothing_owed', null, 0, 0, 0), '2026-10')).toEqual({
      text: 'Upload contributions',
      label: 'Upload contributions for Liffey DC',
      pressing: false,
    });
  });
});

describe('the heading above the schemes on the home page', () => {
  it('asks for an upload only while a scheme still lacks the due month', () => {
    const overview = {
      duePeriod: '2026-10',
      schemes: [scheme('in', '2026-10'), scheme('not_in', '2026-09')],
    };
    expect(dueHeading(overview, true)).toBe('Upload Oct 2026 contributions');
    expect(dueHeading(overview, false)).toBe('Oct 2026 contributions');
  });

  it('names the month without asking for it once every scheme has it in', () => {
    const overview = {
      duePeriod: '2026-10',
      schemes: [scheme('in', '2026-10'), scheme('in', '2026-11')],
    };
    expect(dueHeading(overview, true)).toBe('Oct 2026 contributions');
  });

  it('asks for an upload while a member of a scheme that has the month in has nothing paid', () => {
    const overview = { duePeriod: '2026-10', schemes: [scheme('part_in', '2026-10', 1)] };
    expect(dueHeading(overview, true)).toBe('Upload Oct 2026 contributions');
  });

  it('asks for nothing of a scheme with no members, nor of one whose members all joined since', () => {
    const overview = {
      duePeriod: '2026-10',
      schemes: [
        scheme('in', '2026-10'),
        scheme('nothing_owed', null, 0, 0, 0),
        scheme('nothing_owed', '2026-08', 0, 0, 2),
      ],
    };
    expect(dueHeading(overview, true)).toBe('Oct 2026 contributions');
  });

  it('asks for the first contributions of a scheme that has none', () => {
    expect(dueHeading({ duePeriod: '2026-10', schemes: [scheme('not_in', null)] }, true)).toBe(
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
