import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duePeriodAt } from '../../src/server/modules/overview/overview.service.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import { createEmployer, createMember, createScheme, createUser } from '../helpers/factories.js';
import { firmFixture } from '../helpers/fixtures.js';

/**
 * The home pages lead to the work, from one answer per person
 * (docs/decisions/0045-home-pages-by-role.md).
 */

// 10:00 in Dublin on 12 November 2026: October's contributions are the ones due.
const clock = Date.parse('2026-11-12T10:00:00Z');
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ now: () => new Date(clock) });
});
afterAll(() => t.close());

const firm = () =>
  firmFixture(t.database, {
    brokerName: 'Murphy & Byrne Brokers',
    employerName: 'Liffey Engineering Ltd',
    users: { admin: 'BrokerAdmin', consultant: 'BrokerUser', hr: 'EmployerAdmin' },
  });

/**
 * Dates the firm's schemes as added in January 2026, so that October is a month the remittance
 * rules chase for them (remittance-rules.ts, schemeChasedFrom): a scheme added by a factory is
 * dated by the database's clock, not the test's.
 */
const addedInJanuary = (brokerId: string) =>
  ownerOf(t.database).execute(
    sql`update schemes set created_at = '2026-01-05T10:00:00Z' where broker_id = ${brokerId}`,
  );

type Overview = {
  duePeriod: string;
  schemes: Array<{
    id: string;
    name: string;
    needs: string[];
    memberCount: number;
    duePeriodMembers: { owing: number; unpaid: number };
    dueStanding: string;
    chasedFrom: string;
    governance: string | null;
  }>;
  recentUploads: Array<{ schemeId: string; kind: string }>;
  membersNeedingAttention: Array<{ id: string; needs: string[] }>;
};

describe('GET /api/overview', () => {
  it('lists a firm’s schemes with what each needs: members, funds, the due contributions', async () => {
    const { brokerId, employerId, admin, consultant } = await firm();
    const empty = await createScheme(t.database, { id: employerId, brokerId }, 'A Empty DC');
    const unpaid = await createScheme(t.database, { id: employerId, brokerId }, 'B Unpaid DC');
    const paid = await createScheme(t.database, { id: employerId, brokerId }, 'C Paid DC');
    for (const schemeId of [unpaid, paid]) {
      await t.requestAs(admin, 'POST', `/api/schemes/${schemeId}/funds`, { name: 'Equity' });
    }
    await createMember(t.database, { brokerId, employerId, schemeId: unpaid });
    const paidMember = await createMember(t.database, { brokerId, employerId, schemeId: paid });
    const contribution = await t.requestAs(
      admin,
      'POST',
      `/api/members/${paidMember.id}/contributions`,
      { period: '2026-10', kind: 'employee', amountCents: 10_000 },
    );
    expect(contribution.statusCode, contribution.body).toBe(201);

    // A PRSA keeps no governance registers: with a member, a fund and October paid, it has no
    // work waiting at all.
    const prsaCreated = await t.requestAs(admin, 'POST', '/api/schemes', {
      employerId,
      name: 'D Paid PRSA',
      type: 'PRSA',
    });
    expect(prsaCreated.statusCode, prsaCreated.body).toBe(201);
    const prsa = prsaCreated.json().id as string;
    await t.requestAs(admin, 'POST', `/api/schemes/${prsa}/funds`, { name: 'Cash' });
    const saver = await createMember(t.database, { brokerId, employerId, schemeId: prsa });
    await t.requestAs(admin, 'POST', `/api/members/${saver.id}/contributions`, {
      period: '2026-10',
      kind: 'employee',
      amountCents: 10_000,
    });

    await addedInJanuary(brokerId);
    const answer = await t.requestAs(consultant, 'GET', '/api/overview');
    expect(answer.statusCode, answer.body).toBe(200);
    const overview = answer.json() as Overview;
    expect(overview.duePeriod).toBe('2026-10');
    const needs = Object.fromEntries(overview.schemes.map((s) => [s.id, s.needs]));
    // A DC scheme is a trust with registers to keep: until they are, its governance is
    // incomplete, and it is not up to date however well its payroll is kept.
    expect(needs).toEqual({
      [empty]: ['no_members', 'no_funds', 'governance'],
      [unpaid]: ['contributions_due', 'governance'],
      [paid]: ['governance'],
      [prsa]: [],
    });
    const standing = Object.fromEntries(overview.schemes.map((s) => [s.id, s.dueStanding]));
    expect(standing).toEqual({
      [empty]: 'nothing_owed',
      [unpaid]: 'not_in',
      [paid]: 'in',
      [prsa]: 'in',
    });
    // The schemes with work come first.
    expect(overview.schemes.at(-1)?.id).toBe(prsa);
    // Members are the employer's list, not the firm's.
    expect(overview.membersNeedingAttention).toEqual([]);
  });

  it('says a scheme needs attention exactly when the governance dashboard does not count it OK', async () => {
    const { brokerId, employerId, admin, consultant, hr } = await firm();
    const dc = await createScheme(t.database, { id: employerId, brokerId }, 'Liffey DC');
    await t.requestAs(admin, 'POST', `/api/schemes/${dc}/funds`, { name: 'Equity' });
    await createMember(t.database, { brokerId, employerId, schemeId: dc });
    for (const reader of [consultant, hr]) {
      const overview = (await t.requestAs(reader, 'GET', '/api/overview')).json() as Overview;
      const governance = (await t.requestAs(reader, 'GET', '/api/compliance/dashboard')).json() as {
        counts: Record<string, number>;
        schemes: Array<{ schemeId: string; status: string }>;
      };
      const standing = new Map(governance.schemes.map((s) => [s.schemeId, s.status]));
      for (const scheme of overview.schemes) {
        expect(scheme.governance).toBe(standing.get(scheme.id) ?? null);
        expect(scheme.needs.includes('governance')).toBe(
          (standing.get(scheme.id) ?? 'ok') !== 'ok',
        );
      }
      // "Every scheme is up to date" only where the governance counts are all OK.
      const upToDate = overview.schemes.every((scheme) => scheme.needs.length === 0);
      const allOk = Object.entries(governance.counts).every(
        ([status, count]) => status === 'ok' || count === 0,
      );
      expect(upToDate && !allOk).toBe(false);
      // Its registers are empty, and on 12 November its year's filings are overdue besides.
      expect(overview.schemes.find((scheme) => scheme.id === dc)).toMatchObject({
        governance: 'overdue',
        needs: expect.arrayContaining(['governance']),
      });
    }
  });

  it('shows nothing of another firm, and only their own employer to employer staff', async () => {
    const mine = await firm();
    const other = await firm();
    const otherEmployer = await createEmployer(t.database, mine.brokerId, 'Shannon Foods Ltd');
    const ours = await createScheme(t.database, { id: mine.employerId, brokerId: mine.brokerId });
    const sibling = await createScheme(t.database, { id: otherEmployer, brokerId: mine.brokerId });
    const theirs = await createScheme(t.database, {
      id: other.employerId,
      brokerId: other.brokerId,
    });
    const seen = async (user: typeof mine.hr) =>
      ((await t.requestAs(user, 'GET', '/api/overview')).json() as Overview).schemes.map(
        (s) => s.id,
      );
    expect((await seen(mine.consultant)).sort()).toEqual([ours, sibling].sort());
    expect(await seen(mine.hr)).toEqual([ours]);
    expect(await seen(other.consultant)).toEqual([theirs]);
  });

  it('tells employer staff which members were missed in the due period or have no e-mail', async () => {
    const { brokerId, employerId, admin, hr } = await firm();
    const schemeId = await createScheme(t.database, { id: employerId, brokerId });
    const paid = await createMember(t.database, { brokerId, employerId, schemeId });
    const missed = await createMember(t.database, { brokerId, employerId, schemeId });
    const unreachable = await createMember(
      t.database,
      { brokerId, employerId, schemeId },
      { email: null },
    );
    for (const member of [paid, unreachable]) {
      await t.requestAs(admin, 'POST', `/api/members/${member.id}/contributions`, {
        period: '2026-10',
        kind: 'employer',
        amountCents: 5_000,
      });
    }
    const overview = (await t.requestAs(hr, 'GET', '/api/overview')).json() as Overview;
    const needs = Object.fromEntries(overview.membersNeedingAttention.map((m) => [m.id, m.needs]));
    expect(needs).toEqual({
      [missed.id]: ['missed_last_period'],
      [unreachable.id]: ['no_email'],
    });
  });

  it('counts a member whose portal account, or open invitation, has an address as reachable by e-mail', async () => {
    const { brokerId, employerId, hr } = await firm();
    const schemeId = await createScheme(t.database, { id: employerId, brokerId });
    const noAddress = () =>
      createMember(t.database, { brokerId, employerId, schemeId }, { email: null });
    const [invited, signedUp, lapsed, deactivated, neither] = [
      await noAddress(),
      await noAddress(),
      await noAddress(),
      await noAddress(),
      await noAddress(),
    ];
    const invite = async (memberId: string) => {
      const created = await t.requestAs(hr, 'POST', `/api/employers/${employerId}/users`, {
        email: `member-${memberId}@example.ie`,
        name: 'Seán Ó Briain',
        role: 'Member',
        memberId,
      });
      expect(created.statusCode, created.body).toBe(201);
      return created.json().id as string;
    };
    await invite(invited.id);
    await createUser(t.database, { role: 'Member', brokerId, employerId, memberId: signedUp.id });
    // An invitation left to expire, and an account since deactivated, give no address to use.
    const expired = await invite(lapsed.id);
    await ownerOf(t.database).execute(
      sql`update users set invited_until = ${new Date(clock - 1000).toISOString()}::timestamptz where id = ${expired}`,
    );
    await createUser(t.database, {
      role: 'Member',
      brokerId,
      employerId,
      memberId: deactivated.id,
      status: 'deactivated',
    });
    const overview = (await t.requestAs(hr, 'GET', '/api/overview')).json() as Overview;
    const needs = Object.fromEntries(overview.membersNeedingAttention.map((m) => [m.id, m.needs]));
    expect(needs).toEqual({
      [lapsed.id]: ['no_email'],
      [deactivated.id]: ['no_email'],
      [neither.id]: ['no_email'],
    });
  });

  it('never says the due month is in while a member who owed contributions for it has none', async () => {
    const { brokerId, employerId, admin, hr } = await firm();
    const schemeId = await createScheme(t.database, { id: employerId, brokerId });
    const scheme = { brokerId, employerId, schemeId };
    const paid = await createMember(t.database, scheme);
    const missed = await createMember(t.database, scheme);
    // Owed nothing for October: joined in November, or left in September.
    const joinedLater = await createMember(t.database, scheme);
    const leftBefore = await createMember(t.database, scheme);
    // Left in November, so a member for the whole of October: owed.
    const leftAfter = await createMember(t.database, scheme);
    await ownerOf(t.database).execute(
      sql`update members set date_joined = '2026-11-03' where id = ${joinedLater.id}`,
    );
    await ownerOf(t.database).execute(
      sql`update members set status = 'deferred', status_on = '2026-09-15' where id = ${leftBefore.id}`,
    );
    await ownerOf(t.database).execute(
      sql`update members set status = 'deferred', status_on = '2026-11-04' where id = ${leftAfter.id}`,
    );
    const overviewOf = async () => {
      const answer = await t.requestAs(hr, 'GET', '/api/overview');
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json() as Overview;
    };
    const pay = (memberId: string) =>
      t.requestAs(admin, 'POST', `/api/members/${memberId}/contributions`, {
        period: '2026-10',
        kind: 'employee',
        amountCents: 10_000,
      });

    expect((await pay(paid.id)).statusCode).toBe(201);
    let overview = await overviewOf();
    expect(overview.schemes[0]).toMatchObject({
      duePeriodMembers: { owing: 3, unpaid: 2 },
      dueStanding: 'part_in',
      needs: expect.arrayContaining(['contributions_missing']),
    });
    expect(overview.schemes[0]?.needs).not.toContain('contributions_due');
    const missing = overview.membersNeedingAttention
      .filter((member) => member.needs.includes('missed_last_period'))
      .map((member) => member.id);
    expect(missing.sort()).toEqual([missed.id, leftAfter.id].sort());

    for (const member of [missed, leftAfter]) expect((await pay(member.id)).statusCode).toBe(201);
    overview = await overviewOf();
    expect(overview.schemes[0]?.duePeriodMembers).toEqual({ owing: 3, unpaid: 0 });
    expect(overview.schemes[0]?.dueStanding).toBe('in');
    expect(overview.schemes[0]?.needs).not.toContain('contributions_missing');
    expect(overview.membersNeedingAttention).toEqual([]);
  });

  it('asks for no contributions of a month that every member joined after', async () => {
    const { brokerId, employerId, hr } = await firm();
    const schemeId = await createScheme(t.database, { id: employerId, brokerId });
    const newcomer = await createMember(t.database, { brokerId, employerId, schemeId });
    await ownerOf(t.database).execute(
      sql`update members set date_joined = '2026-11-03' where id = ${newcomer.id}`,
    );
    await addedInJanuary(brokerId);
    const overview = (await t.requestAs(hr, 'GET', '/api/overview')).json() as Overview;
    expect(overview.schemes[0]).toMatchObject({
      memberCount: 1,
      duePeriodMembers: { owing: 0, unpaid: 0 },
      dueStanding: 'nothing_owed',
    });
    expect(overview.schemes[0]?.needs).not.toContain('contributions_due');
  });

  it('asks for no month before the scheme was added, as the remittance calendar chases none', async () => {
    const { brokerId, employerId, admin, hr } = await firm();
    // Added on 12 November 2026 (the test's clock): October is before the service, so neither the
    // remittance calendar nor the home page asks for it, though a member was in the scheme then.
    const created = await t.requestAs(admin, 'POST', '/api/schemes', {
      employerId,
      name: 'Newly Added DC',
      type: 'DC',
    });
    expect(created.statusCode, created.body).toBe(201);
    const schemeId = created.json().id as string;
    await t.requestAs(admin, 'POST', `/api/schemes/${schemeId}/funds`, { name: 'Equity' });
    await createMember(t.database, { brokerId, employerId, schemeId });
    const overview = (await t.requestAs(hr, 'GET', '/api/overview')).json() as Overview;
    const added = overview.schemes.find((scheme) => scheme.id === schemeId);
    expect(added).toMatchObject({
      memberCount: 1,
      duePeriodMembers: { owing: 1, unpaid: 1 },
      dueStanding: 'before_service',
      chasedFrom: '2026-11',
    });
    expect(added?.needs).not.toContain('contributions_due');

    // November's contributions, sent once the scheme is on the service, do not make October owed:
    // the scheme is still not chased for it, and nobody is said to have missed it.
    const [member] = (
      (await t.requestAs(admin, 'GET', `/api/schemes/${schemeId}/members`)).json() as {
        items: { id: string }[];
      }
    ).items;
    const paid = await t.requestAs(admin, 'POST', `/api/members/${member?.id}/contributions`, {
      period: '2026-11',
      kind: 'employee',
      amountCents: 10_000,
    });
    expect(paid.statusCode, paid.body).toBe(201);
    const after = (await t.requestAs(hr, 'GET', '/api/overview')).json() as Overview;
    expect(after.schemes.find((scheme) => scheme.id === schemeId)).toMatchObject({
      lastPeriod: '2026-11',
      dueStanding: 'before_service',
      needs: expect.not.arrayContaining(['contributions_missing', 'contributions_due']),
    });
    expect(after.membersNeedingAttention.flatMap((row) => row.needs)).not.toContain(
      'missed_last_period',
    );
  });

  it('refuses a Member and the platform, who have no such work', async () => {
    const { brokerId, employerId } = await firm();
    const member = await createUser(t.database, { brokerId, employerId, role: 'Member' });
    const platform = await createUser(t.database, { role: 'SuperAdmin' });
    expect((await t.requestAs(member, 'GET', '/api/overview')).statusCode).toBe(403);
    expect((await t.requestAs(platform, 'GET', '/api/overview')).statusCode).toBe(403);
  });
});

describe('the due pay period', () => {
  it('is last month in Irish time, also across midnight and the year end', () => {
    // 23:30 UTC on 30 June is 00:30 on 1 July in Dublin (summer time): June is now due.
    expect(duePeriodAt(new Date('2026-06-30T23:30:00Z'))).toBe('2026-06');
    expect(duePeriodAt(new Date('2026-06-30T22:30:00Z'))).toBe('2026-05');
    expect(duePeriodAt(new Date('2027-01-01T00:30:00Z'))).toBe('2026-12');
  });
});

describe('GET /api/me', () => {
  it('names the firm and the employer for the header', async () => {
    const { hr, consultant } = await firm();
    expect((await t.requestAs(hr, 'GET', '/api/me')).json()).toMatchObject({
      firmName: 'Murphy & Byrne Brokers',
      employerName: 'Liffey Engineering Ltd',
    });
    expect((await t.requestAs(consultant, 'GET', '/api/me')).json()).toMatchObject({
      firmName: 'Murphy & Byrne Brokers',
      employerName: null,
    });
  });
});
