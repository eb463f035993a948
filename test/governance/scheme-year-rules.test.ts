import { describe, expect, it } from 'vitest';
import type { TrusteeFacts } from '../../src/contracts/governance-rules.js';
import { namesAProvision } from '../../src/contracts/rule-sources.js';
import {
  addMonths,
  FILING_LOOK_BACK_PERIODS,
  type FilingFacts,
  filingDueOn,
  filingObligations,
  latestYearEnd,
  membershipBeganOn,
  newMemberInformationObligation,
  owedPeriodEnds,
  SCHEME_YEAR_RULES,
  trainingObligations,
  waitsForInformation,
} from '../../src/contracts/scheme-year-rules.js';

/** The scheme year's duties against worked dates (docs/decisions/0122-the-scheme-year.md). */

const trustee = (overrides: Partial<TrusteeFacts> = {}): TrusteeFacts => ({
  id: 'trustee-1',
  kind: 'individual',
  directorCount: null,
  appointedOn: '2026-01-15',
  endedOn: null,
  fitnessAndProbity: 'confirmed',
  ...overrides,
});

const filing = (overrides: Partial<FilingFacts>): FilingFacts => ({
  id: 'filing-1',
  kind: 'annual_report',
  periodEnd: '2025-12-31',
  completedOn: '2026-06-30',
  audited: true,
  ...overrides,
});

describe('months after a date', () => {
  it('keeps the day, or takes the month’s last where it has no such day', () => {
    expect(addMonths('2026-01-15', 6)).toBe('2026-07-15');
    expect(addMonths('2025-08-30', 6)).toBe('2026-02-28');
    expect(addMonths('2027-08-30', 6)).toBe('2028-02-29');
  });

  it('ends a period that starts on a month’s last day on its final month’s last day', () => {
    expect(addMonths('2025-12-31', 9)).toBe('2026-09-30');
    expect(addMonths('2026-03-31', 9)).toBe('2026-12-31');
    expect(addMonths('2026-06-30', 9)).toBe('2027-03-31');
    expect(addMonths('2025-08-31', 6)).toBe('2026-02-28');
    expect(addMonths('2027-08-31', 6)).toBe('2028-02-29');
    // 29 February is a month's last day: six months on is 31 August.
    expect(addMonths('2028-02-29', 6)).toBe('2028-08-31');
  });
});

describe('trustee training (s.59AA)', () => {
  it('is due within 6 months of appointment until the first, then 2 years after the latest', () => {
    const [first] = trainingObligations({ trustees: [trustee()], trainings: [] }, '2026-03-01');
    expect(first).toMatchObject({
      kind: 'trustee_training',
      subjectId: 'trustee-1',
      dueOn: '2026-07-15',
      status: 'ok',
      label: 'law',
      citation: 'Pensions Act 1990 s.59AA',
    });
    const trained = trainingObligations(
      {
        trustees: [trustee()],
        trainings: [{ trusteeId: 'trustee-1', completedOn: '2026-04-20', directorName: null }],
      },
      '2026-11-28',
    );
    expect(trained[0]).toMatchObject({ dueOn: '2028-04-20', status: 'ok' });
  });

  it('of an appointment on a month’s last day falls on the last day six months on', () => {
    const [due] = trainingObligations(
      { trustees: [trustee({ appointedOn: '2025-08-31' })], trainings: [] },
      '2026-02-01',
    );
    expect(due).toMatchObject({ dueOn: '2026-02-28', status: 'due_soon' });
    const [overdue] = trainingObligations(
      { trustees: [trustee({ appointedOn: '2025-08-31' })], trainings: [] },
      '2026-03-01',
    );
    expect(overdue?.status).toBe('overdue');
  });

  it('after training on 29 February, falls due on 28 February two years on', () => {
    const [due] = trainingObligations(
      {
        trustees: [trustee({ appointedOn: '2027-12-01' })],
        trainings: [{ trusteeId: 'trustee-1', completedOn: '2028-02-29', directorName: null }],
      },
      '2028-03-01',
    );
    expect(due?.dueOn).toBe('2030-02-28');
  });

  it('does not count a training before the appointment as the first one', () => {
    const [due] = trainingObligations(
      {
        trustees: [trustee()],
        trainings: [{ trusteeId: 'trustee-1', completedOn: '2025-11-01', directorName: null }],
      },
      '2026-08-01',
    );
    expect(due).toMatchObject({ dueOn: '2026-07-15', status: 'overdue' });
  });

  it('of a corporate trustee with three directors needs all three trained', () => {
    const corporate = trustee({ kind: 'corporate', directorCount: 3, appointedOn: '2026-01-31' });
    const two = [
      { trusteeId: 'trustee-1', completedOn: '2026-03-01', directorName: 'Aoife Murphy' },
      { trusteeId: 'trustee-1', completedOn: '2026-04-01', directorName: 'Seán Kelly' },
      // The same director again, written differently: still one director.
      { trusteeId: 'trustee-1', completedOn: '2026-05-01', directorName: ' seán  KELLY ' },
    ];
    const [partly] = trainingObligations({ trustees: [corporate], trainings: two }, '2026-08-01');
    expect(partly).toMatchObject({ dueOn: '2026-07-31', status: 'overdue' });
    expect(partly?.reason).toContain('2 of 3 directors trained');
    const three = [
      ...two,
      { trusteeId: 'trustee-1', completedOn: '2026-08-10', directorName: 'Niamh Byrne' },
    ];
    const [all] = trainingObligations({ trustees: [corporate], trainings: three }, '2026-08-11');
    // The earliest next date of the three: Aoife Murphy's, two years after 1 March 2026.
    expect(all).toMatchObject({ dueOn: '2028-03-01', status: 'ok' });
  });

  it('is not asked of a trustee whose appointment has ended', () => {
    expect(
      trainingObligations(
        { trustees: [trustee({ endedOn: '2026-02-01' })], trainings: [] },
        '2026-11-28',
      ),
    ).toEqual([]);
  });
});

describe('the annual report, the return and the compliance statement', () => {
  it('of a scheme year ending 31 March are due by 31 December', () => {
    expect(latestYearEnd('03-31', '2026-11-28')).toBe('2026-03-31');
    expect(latestYearEnd('03-31', '2026-03-31')).toBe('2025-03-31');
    expect(filingDueOn('annual_report', '2026-03-31')).toBe('2026-12-31');
    const obligations = filingObligations(
      { yearEnd: '03-31', members: 10, filings: [] },
      '2026-11-28',
    );
    expect(obligations.map(({ kind, dueOn, status }) => ({ kind, dueOn, status }))).toEqual([
      { kind: 'annual_report', dueOn: '2026-12-31', status: 'due_soon' },
      { kind: 'annual_scheme_information', dueOn: '2026-12-31', status: 'due_soon' },
      // The statement for 2025 was due on 31 January 2026.
      { kind: 'annual_compliance_statement', dueOn: '2026-01-31', status: 'overdue' },
    ]);
  });

  it('a late filing is overdue until recorded, then the next year’s date is shown', () => {
    const [late] = filingObligations({ yearEnd: '12-31', members: 10, filings: [] }, '2026-10-01');
    expect(late).toMatchObject({ kind: 'annual_report', dueOn: '2026-09-30', status: 'overdue' });
    const [done] = filingObligations(
      { yearEnd: '12-31', members: 10, filings: [filing({ completedOn: '2026-10-05' })] },
      '2026-10-06',
    );
    expect(done).toMatchObject({ dueOn: '2027-09-30', status: 'ok' });
    expect(done?.reason).toContain('completed on 5 Oct 2026');
  });

  it('owes no filing for a scheme year that ended before the scheme began', () => {
    // Began on 1 January 2026: the year ended 31 December 2025 is not the scheme's; its first is
    // the year ending 31 December 2026, due by 30 September 2027.
    const obligations = filingObligations(
      { yearEnd: '12-31', members: 10, filings: [], startedOn: '2026-01-01' },
      '2026-11-30',
    );
    expect(obligations.map(({ kind, dueOn, status }) => ({ kind, dueOn, status }))).toEqual([
      { kind: 'annual_report', dueOn: '2027-09-30', status: 'ok' },
      { kind: 'annual_scheme_information', dueOn: '2027-09-30', status: 'ok' },
      { kind: 'annual_compliance_statement', dueOn: '2027-01-31', status: 'ok' },
    ]);
    expect(obligations[0]?.reason).toContain('the year ended 31 Dec 2026');
    // A scheme that began within the tracked year owes that year's filings.
    const [report] = filingObligations(
      { yearEnd: '12-31', members: 10, filings: [], startedOn: '2025-06-01' },
      '2026-11-30',
    );
    expect(report).toMatchObject({ dueOn: '2026-09-30', status: 'overdue' });
  });

  it('chases every year since the scheme began whose filing is not done, each naming its year', () => {
    // Began on 15 March 2024, nothing filed: on 30 November 2026 the years ended 31 December 2024
    // and 2025 are both overdue, and the compliance statements for 2024 and 2025.
    const started = { yearEnd: '12-31', members: 10, startedOn: '2024-03-15' };
    const none = filingObligations({ ...started, filings: [] }, '2026-11-30');
    expect(none.map(({ kind, dueOn, status }) => ({ kind, dueOn, status }))).toEqual([
      { kind: 'annual_report', dueOn: '2025-09-30', status: 'overdue' },
      { kind: 'annual_report', dueOn: '2026-09-30', status: 'overdue' },
      { kind: 'annual_scheme_information', dueOn: '2025-09-30', status: 'overdue' },
      { kind: 'annual_scheme_information', dueOn: '2026-09-30', status: 'overdue' },
      { kind: 'annual_compliance_statement', dueOn: '2025-01-31', status: 'overdue' },
      { kind: 'annual_compliance_statement', dueOn: '2026-01-31', status: 'overdue' },
    ]);
    expect(none[0]?.reason).toBe(
      'Annual report for the year ended 31 Dec 2024 not yet completed: due by 30 Sep 2025',
    );
    expect(none[1]?.reason).toContain('the year ended 31 Dec 2025');
    expect(none[4]?.reason).toBe(
      'Annual Compliance Statement for 2024 not yet prepared: due by 31 Jan 2025',
    );

    // The 2024 report filed: only 2025's is chased. A 2024 return recorded but not completed is
    // still owed, named by its record.
    const some = filingObligations(
      {
        ...started,
        filings: [
          filing({ id: 'report-2024', periodEnd: '2024-12-31', completedOn: '2025-09-01' }),
          filing({
            id: 'return-2024',
            kind: 'annual_scheme_information',
            periodEnd: '2024-12-31',
            completedOn: null,
            audited: null,
          }),
        ],
      },
      '2026-11-30',
    );
    expect(some.filter(({ kind }) => kind === 'annual_report').map(({ dueOn }) => dueOn)).toEqual([
      '2026-09-30',
    ]);
    expect(
      some
        .filter(({ kind }) => kind === 'annual_scheme_information')
        .map(({ dueOn, subjectId }) => ({ dueOn, subjectId })),
    ).toEqual([{ dueOn: '2025-09-30', subjectId: 'return-2024' }, { dueOn: '2026-09-30' }]);
  });

  it('without a start date chases the tracked year alone, and the next once it is done', () => {
    const none = filingObligations({ yearEnd: '12-31', members: 10, filings: [] }, '2026-11-30');
    expect(none.map(({ kind, dueOn }) => ({ kind, dueOn }))).toEqual([
      { kind: 'annual_report', dueOn: '2026-09-30' },
      { kind: 'annual_scheme_information', dueOn: '2026-09-30' },
      { kind: 'annual_compliance_statement', dueOn: '2026-01-31' },
    ]);
    // The tracked year done, with a start date: the earlier years done too, the next date shows.
    const done = filingObligations(
      {
        yearEnd: '12-31',
        members: 10,
        startedOn: '2024-03-15',
        filings: [
          filing({ id: 'report-2024', periodEnd: '2024-12-31', completedOn: '2025-09-01' }),
          filing({ id: 'report-2025', periodEnd: '2025-12-31', completedOn: '2026-09-01' }),
        ],
      },
      '2026-11-30',
    ).filter(({ kind }) => kind === 'annual_report');
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ subjectId: 'report-2025', dueOn: '2027-09-30', status: 'ok' });
    expect(done[0]?.reason).toContain('the next is due by 30 Sep 2027');
  });

  it(`looks back at most ${FILING_LOOK_BACK_PERIODS} years for a scheme that began long ago`, () => {
    expect(FILING_LOOK_BACK_PERIODS).toBe(6);
    const old = filingObligations(
      { yearEnd: '03-31', members: 10, filings: [], startedOn: '1990-01-01' },
      '2026-11-30',
    ).filter(({ kind }) => kind === 'annual_report');
    // The tracked year ended 31 March 2026 and the five before it.
    expect(old.map(({ dueOn }) => dueOn)).toEqual([
      '2021-12-31',
      '2022-12-31',
      '2023-12-31',
      '2024-12-31',
      '2025-12-31',
      '2026-12-31',
    ]);
    expect(old[0]?.reason).toContain('the year ended 31 Mar 2021');
    // A scheme that began on the last day of a scheme year owes that year.
    expect(
      owedPeriodEnds('annual_report', { yearEnd: '03-31', startedOn: '2025-03-31' }, '2026-11-30'),
    ).toEqual(['2025-03-31', '2026-03-31']);
  });

  it('an annual report not audited is incomplete above 100 members, not at 100', () => {
    const unaudited = [filing({ audited: false })];
    const [large] = filingObligations(
      { yearEnd: '12-31', members: 101, filings: unaudited },
      '2026-11-28',
    );
    expect(large?.status).toBe('incomplete');
    const [small] = filingObligations(
      { yearEnd: '12-31', members: 100, filings: unaudited },
      '2026-11-28',
    );
    expect(small?.status).toBe('ok');
  });

  it('the compliance statement for a year is due by 31 January of the next', () => {
    expect(filingDueOn('annual_compliance_statement', '2026-12-31')).toBe('2027-01-31');
    const obligations = filingObligations(
      {
        yearEnd: '12-31',
        members: 10,
        filings: [
          filing({
            kind: 'annual_compliance_statement',
            periodEnd: '2026-12-31',
            completedOn: '2027-01-20',
            audited: null,
          }),
        ],
      },
      '2027-01-25',
    );
    expect(obligations[2]).toMatchObject({ dueOn: '2028-01-31', status: 'ok' });
    expect(obligations[2]?.reason).toContain('prepared on 20 Jan 2027');
  });
});

describe('information for new members (s.54)', () => {
  it('is due within 2 months of joining, by the earliest still waiting', () => {
    const waiting = newMemberInformationObligation(
      {
        newMembers: [
          { joinedOn: '2026-09-30', informationSentOn: null },
          { joinedOn: '2026-08-31', informationSentOn: null },
          { joinedOn: '2026-07-01', informationSentOn: '2026-07-20' },
        ],
      },
      '2026-11-28',
    );
    expect(waiting).toMatchObject({
      kind: 'new_member_information',
      dueOn: '2026-10-31',
      status: 'overdue',
      label: 'law',
    });
    expect(waiting.reason).toContain('2 members who joined are waiting');
  });

  it('is ok when every new member has had it, or nobody has joined', () => {
    expect(
      newMemberInformationObligation(
        { newMembers: [{ joinedOn: '2026-09-30', informationSentOn: '2026-10-02' }] },
        '2026-11-28',
      ),
    ).toMatchObject({ status: 'ok', reason: expect.stringContaining('has been given') });
    expect(newMemberInformationObligation({ newMembers: [] }, '2026-11-28')).toMatchObject({
      status: 'ok',
      reason: expect.stringContaining('No member has joined'),
    });
    expect(
      newMemberInformationObligation(
        { newMembers: [{ joinedOn: '2026-11-01', informationSentOn: null }] },
        '2026-11-28',
      ),
    ).toMatchObject({ dueOn: '2027-01-01', status: 'due_soon' });
  });
});

describe('information for a member who rejoins', () => {
  it('is owed from the latest rejoining, and what was given before it does not count', () => {
    const rejoiner = { status: 'active', dateJoined: '2019-03-01', statusOn: '2026-11-02' };
    expect(membershipBeganOn(rejoiner)).toBe('2026-11-02');
    // Someone who left keeps their first day: their status day is their leaving.
    expect(membershipBeganOn({ ...rejoiner, status: 'deferred' })).toBe('2019-03-01');
    expect(membershipBeganOn({ ...rejoiner, statusOn: null })).toBe('2019-03-01');
    expect(waitsForInformation({ joinedOn: '2026-11-02', informationSentOn: '2019-03-20' })).toBe(
      true,
    );
    expect(waitsForInformation({ joinedOn: '2026-11-02', informationSentOn: '2026-11-02' })).toBe(
      false,
    );
    expect(
      newMemberInformationObligation(
        { newMembers: [{ joinedOn: '2026-11-02', informationSentOn: '2019-03-20' }] },
        '2026-11-28',
      ),
    ).toMatchObject({ dueOn: '2027-01-02', status: 'due_soon' });
  });
});

describe('the sources of the scheme year’s duties', () => {
  it('each carries a label, and a provision where it is law', () => {
    for (const [name, source] of Object.entries(SCHEME_YEAR_RULES)) {
      expect(['law', 'guidance', 'product_policy'], name).toContain(source.label);
      if (source.label === 'law') expect(namesAProvision(source.citation), name).toBe(true);
      else expect(source.citation, name).not.toMatch(/\bs\.\d|\bArt\. \d|\breg\. \d/);
    }
  });
});
