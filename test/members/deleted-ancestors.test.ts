import { createId } from '@paralleldrive/cuid2';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  contributionAdjustments,
  contributions,
  employers,
  fundAllocations,
  funds,
  members,
  schemes,
  users,
} from '../../src/server/platform/db/schema.js';
import { withActor } from '../../src/server/platform/db/with-actor.js';
import { platformActor } from '../helpers/actors.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import type { MemberRow } from '../helpers/factories.js';
import {
  createBroker,
  createEmployer,
  createMember,
  createUser,
  type UserRow,
} from '../helpers/factories.js';
import { schemeFixture } from '../helpers/fixtures.js';
import { newPpsNumber } from '../helpers/pps.js';

/**
 * Deletes are soft, and a deleted record is hidden from every read (docs/api.md, "Who may do what";
 * docs/decisions/0038-soft-delete-reaches-beneath.md). Whatever lies beneath a deleted scheme or
 * employer (members, their PPS numbers, contributions, funds, fund choices, the accounts that reach
 * them) answers exactly as a deleted record does.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** A member with a contribution and a fund choice, their own account, and the people around them. */
async function world() {
  const { members, brokerId, employerId, schemeId, ...people } = await schemeFixture(t.database, {
    members: 1,
    users: {
      admin: 'BrokerAdmin',
      consultant: 'BrokerUser',
      hr: 'EmployerAdmin',
      payroll: 'EmployerUser',
      self: 'Member',
      platform: 'SuperAdmin',
    },
  });
  const scope = { brokerId, employerId };
  const member = members[0] as MemberRow;
  const contribution = await t.requestAs(
    people.hr,
    'POST',
    `/api/members/${member.id}/contributions`,
    { period: '2026-01', kind: 'employee', amountCents: 25_000 },
  );
  expect(contribution.statusCode, contribution.body).toBe(201);
  const fund = await t.requestAs(people.consultant, 'POST', `/api/schemes/${schemeId}/funds`, {
    name: 'Global Equity',
  });
  expect(fund.statusCode, fund.body).toBe(201);
  const choice = await t.requestAs(people.self, 'PUT', `/api/members/${member.id}/fund-choices`, {
    allocations: [{ fundId: fund.json().id, percent: 100 }],
  });
  expect(choice.statusCode, choice.body).toBe(200);
  return {
    ...scope,
    schemeId,
    member,
    contributionId: contribution.json().id as string,
    fundId: fund.json().id as string,
    ...people,
  };
}
type World = Awaited<ReturnType<typeof world>>;

/**
 * The two ways an ancestor goes, each written directly here. A scheme with members is wound up,
 * not deleted (docs/decisions/0146-schemes-wound-up-not-deleted.md), but schemes deleted before
 * that rule keep their members beneath them. An employer with live schemes cannot be deleted
 * (409), but a scheme created while its employer was being deleted is left live under a deleted
 * employer.
 */
const ANCESTORS = [
  {
    ancestor: 'scheme',
    where: 'a deleted scheme',
    async remove(w: World) {
      await withActor(t.database, platformActor(), (tx) =>
        tx.update(schemes).set({ deletedAt: new Date() }).where(eq(schemes.id, w.schemeId)),
      );
    },
  },
  {
    ancestor: 'employer',
    where: 'a scheme of a deleted employer',
    async remove(w: World) {
      await withActor(t.database, platformActor(), (tx) =>
        tx.update(employers).set({ deletedAt: new Date() }).where(eq(employers.id, w.employerId)),
      );
    },
  },
] as const;

/** Row counts of everything a refused request might have written, audit records included. */
async function footprint(brokerId: string) {
  return withActor(t.database, platformActor(), async (tx) => {
    const rows = async (
      table:
        | typeof members
        | typeof contributions
        | typeof contributionAdjustments
        | typeof funds
        | typeof fundAllocations
        | typeof users,
    ) => (await tx.select({ n: count() }).from(table).where(eq(table.brokerId, brokerId)))[0]?.n;
    return {
      members: await rows(members),
      contributions: await rows(contributions),
      adjustments: await rows(contributionAdjustments),
      funds: await rows(funds),
      fundChoices: await rows(fundAllocations),
      users: await rows(users),
      audit: (
        await tx.select({ n: count() }).from(auditLog).where(eq(auditLog.tenantId, brokerId))
      )[0]?.n,
      memberRow: (await tx.select().from(members).where(eq(members.brokerId, brokerId))).map(
        (row) => ({ ...row }),
      ),
    };
  });
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The status of each request, keyed by who asked and what. */
async function statuses(requests: Array<[UserRow, Method, string, object?]>) {
  const answers: Record<string, number> = {};
  for (const [user, method, url, body] of requests) {
    const answer = await t.requestAs(user, method, url, body);
    answers[`${user.role} ${method} ${url}`] = answer.statusCode;
  }
  return answers;
}

const allNotFound = (answers: Record<string, number>) =>
  Object.fromEntries(Object.keys(answers).map((key) => [key, 404]));

describe.each(ANCESTORS)('everything under a deleted $ancestor', ({ ancestor, where, remove }) => {
  it(`a member of a deleted ${ancestor} reads as not found, to every role`, async () => {
    const w = await world();
    await remove(w);
    const url = `/api/members/${w.member.id}`;
    const answers = await statuses(
      [w.admin, w.consultant, w.hr, w.payroll, w.self, w.platform].map(
        (user) => [user, 'GET', url] as [UserRow, Method, string],
      ),
    );
    expect(answers).toEqual(allNotFound(answers));
  });

  it(`the members of ${where} are not listed`, async () => {
    const w = await world();
    await remove(w);
    const url = `/api/schemes/${w.schemeId}/members`;
    const answers = await statuses(
      [w.admin, w.consultant, w.hr, w.payroll, w.platform].map(
        (user) => [user, 'GET', url] as [UserRow, Method, string],
      ),
    );
    expect(answers).toEqual(allNotFound(answers));
  });

  it(`a member under a deleted ${ancestor} can be neither changed nor deleted`, async () => {
    const w = await world();
    await remove(w);
    const before = await footprint(w.brokerId);
    const url = `/api/members/${w.member.id}`;
    const answers = await statuses([
      [w.consultant, 'PATCH', url, { salaryCents: 1 }],
      [w.hr, 'PATCH', url, { ppsNumber: newPpsNumber() }],
      [w.admin, 'DELETE', url],
    ]);
    expect(answers).toEqual(allNotFound(answers));
    expect(await footprint(w.brokerId)).toEqual(before);
  });

  it(`no PPS number is revealed under a deleted ${ancestor}`, async () => {
    const w = await world();
    await remove(w);
    const before = await footprint(w.brokerId);
    for (const user of [w.admin, w.consultant]) {
      const answer = await t.requestAs(user, 'POST', `/api/members/${w.member.id}/pps/reveal`, {
        reason: 'identity_check',
      });
      expect(answer.statusCode).toBe(404);
      expect(answer.body).not.toContain(w.member.ppsNumber);
    }
    // No member.pps_decrypted record: nothing was revealed.
    expect(await footprint(w.brokerId)).toEqual(before);
  });

  it(`no GDPR export is given of a member under a deleted ${ancestor}`, async () => {
    const w = await world();
    await remove(w);
    const before = await footprint(w.brokerId);
    const url = `/api/members/${w.member.id}/export`;
    const answers = await statuses([
      [w.admin, 'GET', url],
      [w.self, 'GET', url],
    ]);
    expect(answers).toEqual(allNotFound(answers));
    expect(await footprint(w.brokerId)).toEqual(before);
  });

  it(`no member can be added to ${where}: it answers as a scheme that never existed`, async () => {
    const w = await world();
    await remove(w);
    const before = await footprint(w.brokerId);
    const newMember = () => ({
      firstName: 'Siobhán',
      lastName: 'Ní Bhriain',
      dateOfBirth: '1980-02-29',
      dateJoined: '2012-06-01',
      salaryCents: 6_250_000,
      ppsNumber: newPpsNumber(),
    });
    for (const user of [w.consultant, w.hr]) {
      const missing = await t.requestAs(user, 'POST', `/api/schemes/${createId()}/members`, {
        ...newMember(),
      });
      const answer = await t.requestAs(user, 'POST', `/api/schemes/${w.schemeId}/members`, {
        ...newMember(),
      });
      expect(answer.statusCode).toBe(missing.statusCode);
      expect(answer.body).toBe(missing.body);
    }
    expect(await footprint(w.brokerId)).toEqual(before);
  });

  it(`no contribution can be added, read or adjusted under a deleted ${ancestor}`, async () => {
    const w = await world();
    await remove(w);
    const before = await footprint(w.brokerId);
    const contributionsUrl = `/api/members/${w.member.id}/contributions`;
    const answers = await statuses([
      [w.hr, 'POST', contributionsUrl, { period: '2026-02', kind: 'employee', amountCents: 100 }],
      [w.consultant, 'POST', contributionsUrl, { period: '2026-02', kind: 'avc', amountCents: 1 }],
      [w.hr, 'GET', contributionsUrl],
      [w.payroll, 'GET', contributionsUrl],
      [w.self, 'GET', contributionsUrl],
      [
        w.consultant,
        'POST',
        `/api/contributions/${w.contributionId}/adjustments`,
        { deltaCents: -100, reason: 'Payroll correction' },
      ],
    ]);
    expect(answers).toEqual(allNotFound(answers));
    expect(await footprint(w.brokerId)).toEqual(before);
  });

  it(`the funds of ${where} can be neither read, added to nor changed`, async () => {
    const w = await world();
    await remove(w);
    const before = await footprint(w.brokerId);
    const fundsUrl = `/api/schemes/${w.schemeId}/funds`;
    const answers = await statuses([
      [w.consultant, 'GET', fundsUrl],
      [w.payroll, 'GET', fundsUrl],
      [w.self, 'GET', fundsUrl],
      [w.consultant, 'PATCH', `/api/funds/${w.fundId}`, { closed: true }],
      [w.consultant, 'PATCH', `/api/funds/${w.fundId}`, { name: 'Renamed' }],
    ]);
    expect(answers).toEqual(allNotFound(answers));
    // A new fund answers as it would for a scheme that never existed.
    const missing = await t.requestAs(w.consultant, 'POST', `/api/schemes/${createId()}/funds`, {
      name: 'Cash',
    });
    const added = await t.requestAs(w.consultant, 'POST', fundsUrl, { name: 'Cash' });
    expect([added.statusCode, added.body]).toEqual([missing.statusCode, missing.body]);
    expect(await footprint(w.brokerId)).toEqual(before);
  });

  it(`no fund choice is read or changed under a deleted ${ancestor}`, async () => {
    const w = await world();
    await remove(w);
    const before = await footprint(w.brokerId);
    const url = `/api/members/${w.member.id}/fund-choices`;
    const choice = { allocations: [{ fundId: w.fundId, percent: 100 }] };
    const answers = await statuses([
      [w.self, 'GET', url],
      [w.payroll, 'GET', url],
      [w.self, 'PUT', url, choice],
      [w.hr, 'PUT', url, choice],
      [w.consultant, 'PUT', url, choice],
    ]);
    expect(answers).toEqual(allNotFound(answers));
    expect(await footprint(w.brokerId)).toEqual(before);
  });

  it(`no Member account can be opened for a member under a deleted ${ancestor}`, async () => {
    const w = await world();
    const colleague = await createMember(t.database, {
      brokerId: w.brokerId,
      employerId: w.employerId,
      schemeId: w.schemeId,
    });
    await remove(w);
    const before = await footprint(w.brokerId);
    const opened = await t.requestAs(w.admin, 'POST', `/api/employers/${w.employerId}/users`, {
      email: `colleague-${colleague.id}@example.ie`,
      name: 'A Colleague',
      role: 'Member',
      memberId: colleague.id,
    });
    // Under a deleted scheme the employer lives and the member is unknown to it (400); under a
    // deleted employer the employer itself is missing (403, as for an employer of no one's).
    expect(opened.statusCode).toBe(ancestor === 'scheme' ? 400 : 403);
    expect(await footprint(w.brokerId)).toEqual(before);
  });
});

describe('a scheme left live under a deleted employer', () => {
  it('is neither listed nor read, changed or deleted', async () => {
    const w = await world();
    await ANCESTORS[1].remove(w);
    for (const user of [w.admin, w.consultant, w.hr, w.payroll, w.platform]) {
      const listed = await t.requestAs(user, 'GET', '/api/schemes');
      expect(listed.statusCode).toBe(200);
      expect(listed.json().items.map((scheme: { id: string }) => scheme.id)).not.toContain(
        w.schemeId,
      );
      const filtered = await t.requestAs(user, 'GET', `/api/schemes?employerId=${w.employerId}`);
      expect(filtered.json().items).toEqual([]);
    }
    const before = await footprint(w.brokerId);
    const url = `/api/schemes/${w.schemeId}`;
    const answers = await statuses([
      [w.payroll, 'GET', url],
      [w.platform, 'GET', url],
      [w.hr, 'PATCH', url, { name: 'Renamed' }],
      [w.admin, 'DELETE', url],
    ]);
    expect(answers).toEqual(allNotFound(answers));
    expect(await footprint(w.brokerId)).toEqual(before);
  });
});

describe('the accounts of a deleted employer', () => {
  it('see nothing of it, and the BrokerAdmin can still find and deactivate them', async () => {
    const brokerId = await createBroker(t.database);
    const employerId = await createEmployer(t.database, brokerId);
    const scope = { brokerId, employerId };
    const admin = await createUser(t.database, { brokerId, role: 'BrokerAdmin' });
    const hr = await createUser(t.database, { ...scope, role: 'EmployerAdmin' });
    const payroll = await createUser(t.database, { ...scope, role: 'EmployerUser' });
    expect((await t.requestAs(admin, 'DELETE', `/api/employers/${employerId}`)).statusCode).toBe(
      204,
    );
    for (const user of [hr, payroll]) {
      expect((await t.requestAs(user, 'GET', `/api/employers/${employerId}`)).statusCode).toBe(404);
      expect((await t.requestAs(user, 'GET', '/api/employers')).json().items).toEqual([]);
      expect((await t.requestAs(user, 'GET', '/api/schemes')).json().items).toEqual([]);
    }
    expect((await t.requestAs(hr, 'GET', `/api/employers/${employerId}/users`)).statusCode).toBe(
      404,
    );
    // Accounts are not records of the employer but people who sign in: they stay within the
    // BrokerAdmin's reach, so that they can be deactivated.
    const found = await t.requestAs(admin, 'GET', `/api/users/${hr.id}`);
    expect(found.statusCode).toBe(200);
    const deactivated = await t.requestAs(admin, 'PATCH', `/api/users/${hr.id}`, {
      status: 'deactivated',
    });
    expect(deactivated.statusCode, deactivated.body).toBe(200);
    expect(deactivated.json().status).toBe('deactivated');
  });
});
