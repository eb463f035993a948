import { describe, expect, it } from 'vitest';
import { slotsBetween } from '../../src/server/platform/jobs/job-runner.js';
import {
  createJobRegistry,
  dailyInIreland,
  everyMinute,
  irishDayStart,
} from '../../src/server/platform/jobs/scheduled-jobs.js';
import { recordingJob } from './helpers.js';

describe('cadences', () => {
  it('every minute: the UTC minute', () => {
    const { slotOf } = everyMinute();
    expect(slotOf(new Date('2026-03-29T00:59:59.999Z'))).toEqual(new Date('2026-03-29T00:59:00Z'));
    expect(slotOf(new Date('2026-03-29T01:00:00Z'))).toEqual(new Date('2026-03-29T01:00:00Z'));
  });

  it('daily in Ireland: the Irish calendar day, in summer time, in winter and on the days the clocks change', () => {
    expect(irishDayStart('2026-07-01')).toEqual(new Date('2026-06-30T23:00:00Z'));
    expect(irishDayStart('2026-01-15')).toEqual(new Date('2026-01-15T00:00:00Z'));
    // Clocks go forward at 01:00 UTC on 29 March 2026 and back at 01:00 UTC on 25 October.
    expect(irishDayStart('2026-03-29')).toEqual(new Date('2026-03-29T00:00:00Z'));
    expect(irishDayStart('2026-03-30')).toEqual(new Date('2026-03-29T23:00:00Z'));
    expect(irishDayStart('2026-10-25')).toEqual(new Date('2026-10-24T23:00:00Z'));
    expect(irishDayStart('2026-10-26')).toEqual(new Date('2026-10-26T00:00:00Z'));
    const { slotOf, crontab, timeZone } = dailyInIreland({ hour: 6, minute: 15 });
    expect({ crontab, timeZone }).toEqual({ crontab: '15 6 * * *', timeZone: 'Europe/Dublin' });
    // 23:30 UTC on 1 July is already 2 July in Ireland.
    expect(slotOf(new Date('2026-07-01T23:30:00Z'))).toEqual(new Date('2026-07-01T23:00:00Z'));
    expect(slotOf(new Date('2026-12-31T23:59:59Z'))).toEqual(new Date('2026-12-31T00:00:00Z'));
  });

  it('count the slots strictly between two slot starts', () => {
    const daily = dailyInIreland({ hour: 6, minute: 0 });
    expect(slotsBetween(daily, irishDayStart('2026-03-27'), irishDayStart('2026-03-31'))).toBe(3);
    expect(slotsBetween(daily, irishDayStart('2026-03-30'), irishDayStart('2026-03-31'))).toBe(0);
    const minutely = everyMinute();
    expect(
      slotsBetween(minutely, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:10:00Z')),
    ).toBe(9);
  });
});

describe('the job registry', () => {
  it('refuses a malformed name, a second job of a name, and a schedule it cannot hand to Sentry', () => {
    const registry = createJobRegistry();
    registry.add(recordingJob('reminders').job);
    expect(() => registry.add(recordingJob('reminders').job)).toThrow('added twice');
    for (const name of ['Reminders', 'remind ers', '../x', '', 'x'.repeat(49), 'a_b']) {
      expect(() => registry.add(recordingJob(name).job), name).toThrow('malformed');
    }
    const { job } = recordingJob('odd-schedule');
    expect(() =>
      registry.add({ ...job, cadence: { ...job.cadence, crontab: 'every minute' } }),
    ).toThrow('crontab');
    expect(() => registry.add({ ...job, maxRuntimeMinutes: 0 })).toThrow('minutes');
    expect(registry.list().map((entry) => entry.name)).toEqual(['reminders']);
    expect(registry.get('constructor')).toBeUndefined();
  });
});
