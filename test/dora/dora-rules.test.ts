import { describe, expect, it } from 'vitest';
import {
  type ClassificationFacts,
  classificationInWords,
  deadlineInWords,
  doraApplies,
  type IncidentClockFacts,
  incidentDeadlines,
  irishPublicHolidays,
  isMajor,
  isWorkingDay,
  onWorkingDay,
  reportAllowed,
  thresholdsMet,
} from '../../src/contracts/dora-rules.js';

/** DORA's scope, classification and reporting clocks (src/contracts/dora-rules.ts), to the minute. */

const at = (text: string) => new Date(text);
const iso = (value: Date | null) => value?.toISOString() ?? null;

function facts(overrides: Partial<IncidentClockFacts>): IncidentClockFacts {
  return {
    becameAwareAt: at('2026-03-02T08:00:00Z'),
    classifiedMajorAt: at('2026-03-02T09:00:00Z'),
    reclassifiedAt: null,
    servicesRecoveredAt: null,
    reports: [],
    ...overrides,
  };
}

const deadline = (f: IncidentClockFacts, kind: string, now = at('2026-03-01T00:00:00Z')) =>
  incidentDeadlines(f, now).find((d) => d.kind === kind);

describe('scope', () => {
  it('applies to an IORP whose schemes together have more than 15 members, not 15 or fewer', () => {
    expect(doraApplies(16)).toBe(true);
    expect(doraApplies(15)).toBe(false);
    expect(doraApplies(0)).toBe(false);
  });
});

describe('classification', () => {
  const quiet: ClassificationFacts = {
    criticalServicesAffected: true,
    membersAffected: 0,
    membersOfService: 1000,
    relevantMembersAffected: false,
    reputationalImpact: false,
    durationHours: 1,
    downtimeHours: 0,
    memberStatesAffected: 1,
    dataLosses: false,
    economicImpactCents: 0,
  };

  it('is major on critical services and the data-loss threshold alone', () => {
    expect(isMajor({ ...quiet, dataLosses: true })).toBe(true);
  });

  it('is major on critical services and two other thresholds, not one', () => {
    expect(isMajor({ ...quiet, durationHours: 25 })).toBe(false);
    expect(isMajor({ ...quiet, durationHours: 25, membersAffected: 101 })).toBe(true);
  });

  it('is never major without critical services, whatever thresholds are met', () => {
    const all = { ...quiet, dataLosses: true, reputationalImpact: true, durationHours: 30 };
    expect(isMajor({ ...all, criticalServicesAffected: false })).toBe(false);
    expect(classificationInWords({ ...all, criticalServicesAffected: false })).toMatch(
      /^Not major: no critical service/,
    );
  });

  it('reads each threshold at its figure: more than 10% of members, 24 hours, 2 hours down, two Member States, EUR 100,000', () => {
    expect(thresholdsMet({ ...quiet, membersAffected: 100 })).toEqual([]);
    expect(thresholdsMet({ ...quiet, membersAffected: 101 })).toEqual(['clients']);
    expect(thresholdsMet({ ...quiet, durationHours: 24, downtimeHours: 2 })).toEqual([]);
    expect(thresholdsMet({ ...quiet, downtimeHours: 2.5 })).toEqual(['duration']);
    expect(thresholdsMet({ ...quiet, memberStatesAffected: 2 })).toEqual(['geographical']);
    expect(thresholdsMet({ ...quiet, economicImpactCents: 10_000_000 })).toEqual([]);
    expect(thresholdsMet({ ...quiet, economicImpactCents: 10_000_001 })).toEqual(['economic']);
  });
});

describe('Irish public holidays', () => {
  it('are the ten days of 2026, St Brigid’s Day on the first Monday of February', () => {
    expect(irishPublicHolidays(2026)).toEqual([
      '2026-01-01',
      '2026-02-02',
      '2026-03-17',
      '2026-04-06',
      '2026-05-04',
      '2026-06-01',
      '2026-08-03',
      '2026-10-26',
      '2026-12-25',
      '2026-12-26',
    ]);
  });

  it('put St Brigid’s Day on 1 February when that is a Friday', () => {
    expect(irishPublicHolidays(2030)).toContain('2030-02-01');
    expect(irishPublicHolidays(2030)).not.toContain('2030-02-04');
  });

  it('count neither weekends nor holidays as working days', () => {
    expect(isWorkingDay('2026-03-17')).toBe(false);
    expect(isWorkingDay('2026-03-14')).toBe(false);
    expect(isWorkingDay('2026-03-18')).toBe(true);
  });
});

describe('a deadline not on a working day', () => {
  it('moves to noon in Dublin of the next working day, summer time included', () => {
    // Saturday 6 June 2026, 10:00 in Dublin; Monday 8 June, noon in Dublin is 11:00 UTC.
    expect(iso(onWorkingDay(at('2026-06-06T09:00:00Z')))).toBe('2026-06-08T11:00:00.000Z');
  });
});

describe('the initial notification', () => {
  it('classified at 16:30 on a Friday: due at 20:30 that Friday, a working day, not moved', () => {
    const f = facts({
      becameAwareAt: at('2026-06-05T08:00:00Z'),
      classifiedMajorAt: at('2026-06-05T15:30:00Z'), // 16:30 in Dublin
    });
    expect(iso(deadline(f, 'initial')?.dueAt ?? null)).toBe('2026-06-05T19:30:00.000Z');
  });

  it('classified at 21:00 on a Friday: 01:00 on Saturday moves to Monday noon', () => {
    const f = facts({
      becameAwareAt: at('2026-06-05T18:00:00Z'),
      classifiedMajorAt: at('2026-06-05T20:00:00Z'),
    });
    expect(iso(deadline(f, 'initial')?.dueAt ?? null)).toBe('2026-06-08T11:00:00.000Z');
  });

  it('aware at 23:00, classified 20 hours later: due at 23:00 the next day, both limits meeting', () => {
    const f = facts({
      becameAwareAt: at('2026-03-10T23:00:00Z'),
      classifiedMajorAt: at('2026-03-11T19:00:00Z'),
    });
    expect(iso(deadline(f, 'initial')?.dueAt ?? null)).toBe('2026-03-11T23:00:00.000Z');
  });

  it('aware at 23:00, classified 22 hours later: still 24 hours after awareness, not 4 after classifying', () => {
    const f = facts({
      becameAwareAt: at('2026-03-10T23:00:00Z'),
      classifiedMajorAt: at('2026-03-11T21:00:00Z'),
    });
    expect(iso(deadline(f, 'initial')?.dueAt ?? null)).toBe('2026-03-11T23:00:00.000Z');
  });

  it('is due, then overdue, then met or late, as its clock says in words', () => {
    const f = facts({});
    const now = at('2026-03-02T10:30:00Z');
    const [initial] = incidentDeadlines(f, now);
    expect(initial).toMatchObject({ kind: 'initial', status: 'due' });
    expect(deadlineInWords(initial as never, now)).toBe('Initial notification: 2 hours left');
    const late = incidentDeadlines(f, at('2026-03-02T16:00:00Z'))[0];
    expect(late?.status).toBe('overdue');
    expect(deadlineInWords(late as never, at('2026-03-02T16:00:00Z'))).toBe(
      'Initial notification: overdue by 3 hours',
    );
    const made = facts({ reports: [{ kind: 'initial', submittedAt: at('2026-03-02T13:30:00Z') }] });
    expect(deadline(made, 'initial')?.status).toBe('late');
  });
});

describe('the intermediate report', () => {
  it('is waiting until the initial is made, then due 72 hours after it', () => {
    expect(deadline(facts({}), 'intermediate')).toEqual({
      kind: 'intermediate',
      dueAt: null,
      status: 'waiting',
    });
    const f = facts({ reports: [{ kind: 'initial', submittedAt: at('2026-03-02T11:00:00Z') }] });
    expect(iso(deadline(f, 'intermediate')?.dueAt ?? null)).toBe('2026-03-05T11:00:00.000Z');
  });

  it('falling on St Patrick’s Day moves to noon on 18 March', () => {
    const f = facts({
      becameAwareAt: at('2026-03-13T08:00:00Z'),
      classifiedMajorAt: at('2026-03-13T09:00:00Z'),
      reports: [{ kind: 'initial', submittedAt: at('2026-03-14T09:00:00Z') }],
    });
    expect(iso(deadline(f, 'intermediate')?.dueAt ?? null)).toBe('2026-03-18T12:00:00.000Z');
  });
});

describe('an intermediate report updated twice', () => {
  const f = facts({
    servicesRecoveredAt: at('2026-03-09T08:00:00Z'),
    reports: [
      { kind: 'initial', submittedAt: at('2026-03-02T10:00:00Z') },
      { kind: 'intermediate', submittedAt: at('2026-03-05T09:00:00Z') },
      { kind: 'intermediate', submittedAt: at('2026-03-09T15:00:00Z') },
      { kind: 'intermediate', submittedAt: at('2026-03-20T10:00:00Z') },
    ],
  });
  const now = at('2026-03-21T00:00:00Z');

  it('meets the intermediate and the update after recovery', () => {
    expect(deadline(f, 'intermediate', now)?.status).toBe('met');
    expect(deadline(f, 'intermediate_update', now)).toMatchObject({
      dueAt: at('2026-03-10T08:00:00Z'),
      status: 'met',
    });
  });

  it('puts the final report a month after the latest update, at the same time in Dublin', () => {
    // 10:00 GMT on 20 March; 10:00 summer time on 20 April is 09:00 UTC.
    expect(deadline(f, 'final', now)).toMatchObject({
      dueAt: at('2026-04-20T09:00:00Z'),
      status: 'due',
    });
  });

  it('refuses a final report before any intermediate, and any report after the final', () => {
    const early = facts({
      reports: [{ kind: 'initial', submittedAt: at('2026-03-02T10:00:00Z') }],
    });
    expect(reportAllowed('final', early, now)).toMatchObject({ ok: false });
    expect(reportAllowed('intermediate', f, now)).toEqual({ ok: true });
    const closed = { ...f, reports: [...f.reports, { kind: 'final' as const, submittedAt: now }] };
    expect(reportAllowed('intermediate', closed, now)).toMatchObject({ ok: false });
  });
});

describe('reclassified as not major', () => {
  it('after the initial: what is outstanding is withdrawn and a reclassification report is due in its place', () => {
    const f = facts({
      reclassifiedAt: at('2026-03-03T10:00:00Z'),
      reports: [{ kind: 'initial', submittedAt: at('2026-03-02T12:00:00Z') }],
    });
    const now = at('2026-03-03T11:00:00Z');
    expect(incidentDeadlines(f, now).map((d) => [d.kind, iso(d.dueAt), d.status])).toEqual([
      ['initial', '2026-03-02T13:00:00.000Z', 'met'],
      ['intermediate', '2026-03-05T12:00:00.000Z', 'withdrawn'],
      ['final', null, 'withdrawn'],
      ['reclassified', '2026-03-05T12:00:00.000Z', 'due'],
    ]);
    expect(reportAllowed('reclassified', f, now)).toEqual({ ok: true });
    expect(reportAllowed('intermediate', f, now)).toMatchObject({ ok: false });
  });

  it('before any report: nothing is due and nothing is to be reported', () => {
    const f = facts({ reclassifiedAt: at('2026-03-02T10:00:00Z') });
    const deadlines = incidentDeadlines(f, at('2026-03-02T11:00:00Z'));
    expect(deadlines.every((d) => d.status === 'withdrawn')).toBe(true);
    expect(reportAllowed('reclassified', f, at('2026-03-02T11:00:00Z'))).toMatchObject({
      ok: false,
    });
  });

  it('never classified major: no deadlines and no reports', () => {
    const f = facts({ classifiedMajorAt: null });
    expect(incidentDeadlines(f, at('2026-03-02T11:00:00Z'))).toEqual([]);
    expect(reportAllowed('initial', f, at('2026-03-02T11:00:00Z'))).toMatchObject({ ok: false });
  });
});
