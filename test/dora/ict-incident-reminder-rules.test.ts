import { describe, expect, it } from 'vitest';
import type { Deadline } from '../../src/contracts/dora-rules.js';
import { ictIncidentReminderStage } from '../../src/contracts/ict-incident-reminder-rules.js';

/** When a major ICT incident's report is reminded of (docs/decisions/0139-dora-ict-incidents.md). */
const dueAt = new Date('2026-03-10T13:00:00Z');
const minutesBefore = (minutes: number) => new Date(dueAt.getTime() - minutes * 60_000);
const deadline = (kind: Deadline['kind'], status: Deadline['status'] = 'due'): Deadline => ({
  kind,
  dueAt,
  status,
});

describe('the stage a deadline has reached', () => {
  it('reminds of a clock in hours at 2 hours and 30 minutes before, and of the others a day before', () => {
    for (const kind of ['initial', 'intermediate_update'] as const) {
      expect(ictIncidentReminderStage(deadline(kind), minutesBefore(121))).toBeNull();
      expect(ictIncidentReminderStage(deadline(kind), minutesBefore(120))).toBe('hours_2');
      expect(ictIncidentReminderStage(deadline(kind), minutesBefore(31))).toBe('hours_2');
      expect(ictIncidentReminderStage(deadline(kind), minutesBefore(30))).toBe('minutes_30');
      expect(ictIncidentReminderStage(deadline(kind), minutesBefore(1))).toBe('minutes_30');
    }
    for (const kind of ['intermediate', 'final', 'reclassified'] as const) {
      expect(ictIncidentReminderStage(deadline(kind), minutesBefore(24 * 60 + 1))).toBeNull();
      expect(ictIncidentReminderStage(deadline(kind), minutesBefore(24 * 60))).toBe('hours_24');
      expect(ictIncidentReminderStage(deadline(kind), minutesBefore(10))).toBe('hours_24');
    }
  });

  it('reminds of nothing met, late, withdrawn or waiting', () => {
    for (const status of ['met', 'late', 'withdrawn'] as const) {
      expect(ictIncidentReminderStage(deadline('initial', status), minutesBefore(20))).toBeNull();
    }
    expect(
      ictIncidentReminderStage(
        { kind: 'final', dueAt: null, status: 'waiting' },
        minutesBefore(20),
      ),
    ).toBeNull();
  });

  it('reminds of a deadline passed unmet as overdue, whatever its clock', () => {
    for (const kind of ['initial', 'intermediate', 'final'] as const) {
      expect(ictIncidentReminderStage(deadline(kind, 'overdue'), minutesBefore(-60))).toBe(
        'overdue',
      );
      // The instant it falls due, it is past.
      expect(ictIncidentReminderStage(deadline(kind), dueAt)).toBe('overdue');
    }
  });
});
