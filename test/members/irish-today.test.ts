import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createMember } from '../helpers/factories.js';
import { schemeFixture } from '../helpers/fixtures.js';
import { memberRow, membersCsv, upload } from '../helpers/imports.js';
import { newPpsNumber } from '../helpers/pps.js';

/**
 * "Today" is the day in Ireland (Europe/Dublin), not in UTC (docs/decisions/0050-irish-dates.md).
 * At 23:30 UTC on 30 June it is 00:30 on 1 July in Dublin (Irish summer time, UTC+1): a fund choice
 * made then is effective from 1 July, a member born on 1 July is not born in the future, and a file
 * uploaded then is judged by the same day. In winter (GMT) the day is the UTC day.
 */
const SUMMER_NIGHT = '2026-06-30T23:30:00Z';
const WINTER_NIGHT = '2026-12-31T23:30:00Z';

let t: TestApp;
let clock = Date.parse(SUMMER_NIGHT);
beforeAll(async () => {
  t = await buildTestApp({ now: () => new Date(clock) });
});
afterAll(() => t.close());

const schemeWithPeople = () => schemeFixture(t.database, { users: { consultant: 'BrokerUser' } });

const newMember = (dateOfBirth: string) => ({
  firstName: 'Niamh',
  lastName: 'Breathnach',
  dateOfBirth,
  dateJoined: dateOfBirth,
  salaryCents: 4_000_000,
  ppsNumber: newPpsNumber(),
});

describe('today in Ireland', () => {
  it('makes a fund choice at 00:30 Irish summer time effective from that Irish day', async () => {
    clock = Date.parse(SUMMER_NIGHT);
    const { consultant, brokerId, employerId, schemeId } = await schemeWithPeople();
    const member = await createMember(t.database, { brokerId, employerId, schemeId });
    const fund = await t.requestAs(consultant, 'POST', `/api/schemes/${schemeId}/funds`, {
      name: 'Irish Equity',
    });
    expect(fund.statusCode, fund.body).toBe(201);
    const allocations = [{ fundId: fund.json().id, percent: 100 }];
    const url = `/api/members/${member.id}/fund-choices`;

    const chosen = await t.requestAs(consultant, 'PUT', url, { allocations });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.json()).toMatchObject({ effectiveFrom: '2026-07-01', current: true });

    // 30 June is still today in UTC, but yesterday in Ireland: the past, refused.
    const yesterday = await t.requestAs(consultant, 'PUT', url, {
      effectiveFrom: '2026-06-30',
      allocations,
    });
    expect(yesterday.statusCode).toBe(400);
    expect(yesterday.json().issues).toEqual([
      expect.objectContaining({ path: 'effectiveFrom', code: 'out_of_range' }),
    ]);

    // A year ahead counts from the Irish day: 366 days after 1 July 2026 is 2 July 2027.
    const latest = await t.requestAs(consultant, 'PUT', url, {
      effectiveFrom: '2027-07-02',
      allocations,
    });
    expect(latest.statusCode, latest.body).toBe(200);
    expect(latest.json().current).toBe(false);
    const beyond = await t.requestAs(consultant, 'PUT', url, {
      effectiveFrom: '2027-07-03',
      allocations,
    });
    expect(beyond.statusCode).toBe(400);
  });

  it('takes a member born on the Irish day, and refuses one born the day after', async () => {
    clock = Date.parse(SUMMER_NIGHT);
    const { consultant, schemeId } = await schemeWithPeople();
    const url = `/api/schemes/${schemeId}/members`;

    const born = await t.requestAs(consultant, 'POST', url, newMember('2026-07-01'));
    expect(born.statusCode, born.body).toBe(201);
    expect(born.json()).toMatchObject({ dateOfBirth: '2026-07-01', dateJoined: '2026-07-01' });

    const tomorrow = await t.requestAs(consultant, 'POST', url, newMember('2026-07-02'));
    expect(tomorrow.statusCode).toBe(400);
    expect(tomorrow.json().issues).toEqual([
      { path: 'dateOfBirth', code: 'custom', message: 'The date of birth cannot be in the future' },
    ]);

    const corrected = await t.requestAs(consultant, 'PATCH', `/api/members/${born.json().id}`, {
      dateOfBirth: '2026-07-02',
    });
    expect(corrected.statusCode).toBe(400);
    expect(corrected.json().issues).toEqual([
      { path: 'dateOfBirth', code: 'custom', message: 'The date of birth cannot be in the future' },
    ]);

    // In winter Ireland keeps GMT: at 23:30 UTC on 31 December it is still 31 December.
    clock = Date.parse(WINTER_NIGHT);
    const newYear = await t.requestAs(consultant, 'POST', url, newMember('2027-01-01'));
    expect(newYear.statusCode).toBe(400);
    const lastDay = await t.requestAs(consultant, 'POST', url, newMember('2026-12-31'));
    expect(lastDay.statusCode, lastDay.body).toBe(201);
  });

  it('judges a members file by the Irish day it was uploaded on', async () => {
    clock = Date.parse(SUMMER_NIGHT);
    const { consultant, schemeId } = await schemeWithPeople();
    const url = `/api/schemes/${schemeId}/members/import`;

    const refused = await upload(
      t,
      consultant,
      url,
      membersCsv([
        memberRow({ 'Date of Birth': '01/07/2026', 'Date Joined': '01/07/2026' }),
        memberRow({ 'Date of Birth': '02/07/2026', 'Date Joined': '02/07/2026' }),
      ]),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues).toEqual([
      expect.objectContaining({
        line: 3,
        column: 'Date of Birth',
        code: 'invalid_date',
        message: 'The date of birth cannot be in the future',
      }),
    ]);

    const taken = await upload(
      t,
      consultant,
      url,
      membersCsv([memberRow({ 'Date of Birth': '01/07/2026', 'Date Joined': '01/07/2026' })]),
    );
    expect(taken.statusCode, taken.body).toBe(201);
    const members = await t.requestAs(consultant, 'GET', `/api/schemes/${schemeId}/members`);
    expect(members.json().items).toEqual([
      expect.objectContaining({ dateOfBirth: '2026-07-01', dateJoined: '2026-07-01' }),
    ]);
  });
});
