import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayInIreland } from '../../src/contracts/irish-dates.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createMember, type MemberRow, type UserRow } from '../helpers/factories.js';
import { schemeFixture } from '../helpers/fixtures.js';

/**
 * The member page in one request (docs/decisions/0118-pages-composed-on-the-server.md): each part
 * is what its own route answers, to the same person, so the page shows nothing a person could not
 * read part by part and leaves nothing out that they could.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function memberWithHistory() {
  const setup = await schemeFixture(t.database, {
    members: [{ firstName: 'Aoife' }],
    users: { admin: 'BrokerAdmin', payroll: 'EmployerUser', self: 'Member' },
  });
  const member = setup.members[0] as MemberRow;
  const { admin } = setup;
  const fund = await t.requestAs(admin, 'POST', `/api/schemes/${setup.schemeId}/funds`, {
    name: 'Cautious growth',
  });
  expect(fund.statusCode, fund.body).toBe(201);
  const choice = await t.requestAs(admin, 'PUT', `/api/members/${member.id}/fund-choices`, {
    effectiveFrom: todayInIreland(new Date()),
    allocations: [{ fundId: fund.json().id, percent: 100 }],
  });
  expect(choice.statusCode, choice.body).toBe(200);
  // 30 months of pay: more than the table's first page, and some before the chart's range.
  for (let month = 0; month < 30; month += 1) {
    const period = `${2024 + Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}`;
    const paid = await t.requestAs(admin, 'POST', `/api/members/${member.id}/contributions`, {
      period,
      kind: 'employee',
      amountCents: 10_000 + month,
    });
    expect(paid.statusCode, paid.body).toBe(201);
  }
  return { ...setup, member };
}

async function readJson(user: UserRow, url: string) {
  const answer = await t.requestAs(user, 'GET', url);
  expect(answer.statusCode, `${url}: ${answer.body}`).toBe(200);
  return answer.json();
}

/** Every item of a list route, a page of 100 at a time, as the browser used to read them. */
async function everyItem(user: UserRow, url: string) {
  const items: unknown[] = [];
  let cursor: string | null = null;
  do {
    const separator = url.includes('?') ? '&' : '?';
    const page = await readJson(
      user,
      `${url}${separator}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return items;
}

describe('GET /api/members/{id}/page', () => {
  it('answers, part by part, what each part’s own route answers the same person', async () => {
    const { admin, member, schemeId } = await memberWithHistory();
    const id = member.id;
    const page = await readJson(admin, `/api/members/${id}/page?chartFrom=2025-06`);

    expect(page.member).toEqual(await readJson(admin, `/api/members/${id}`));
    expect(page.summary).toEqual(await readJson(admin, `/api/members/${id}/summary`));
    expect(page.lifecycle).toEqual(await readJson(admin, `/api/members/${id}/lifecycle`));
    expect(page.fundChoices).toEqual(
      await readJson(admin, `/api/members/${id}/fund-choices?limit=20`),
    );
    expect(page.openFunds).toEqual(await everyItem(admin, `/api/schemes/${schemeId}/funds`));
    expect(page.contributions).toEqual(
      await readJson(admin, `/api/members/${id}/contributions?limit=25`),
    );
    expect(page.contributions.items).toHaveLength(25);
    expect(page.contributions.nextCursor).not.toBeNull();
    expect(page.chart).toEqual(
      await everyItem(admin, `/api/members/${id}/contributions?from=2025-06`),
    );
    // 2025-06 to 2026-06: the chart's range and nothing before it.
    expect(page.chart).toHaveLength(13);
    expect(page.money).toEqual({
      holdings: await readJson(admin, `/api/members/${id}/holdings`),
      valueHistory: await readJson(admin, `/api/members/${id}/value-history`),
      transactions: await readJson(admin, `/api/members/${id}/transactions?limit=25`),
      switches: await readJson(admin, `/api/members/${id}/switches?limit=5`),
    });
    // Thirty months paid, no price yet: all of it waits to be invested.
    expect(page.money.holdings).toMatchObject({ valueCents: 300_435, uninvestedCents: 300_435 });
  });

  it('has no money part for a member of a defined benefit scheme, who holds no units', async () => {
    const { admin, brokerId, employerId } = await memberWithHistory();
    const scheme = await t.requestAs(admin, 'POST', '/api/schemes', {
      employerId,
      name: 'Final salary plan',
      type: 'DB',
    });
    expect(scheme.statusCode, scheme.body).toBe(201);
    const member = await createMember(t.database, {
      brokerId,
      employerId,
      schemeId: scheme.json().id,
    });
    const page = await readJson(admin, `/api/members/${member.id}/page`);
    expect(page.money).toBeNull();
    expect(page.member.id).toBe(member.id);
  });

  it('gives the chart every contribution when no range is named', async () => {
    const { admin, member } = await memberWithHistory();
    const page = await readJson(admin, `/api/members/${member.id}/page`);
    expect(page.chart).toHaveLength(30);
  });

  it('leaves out the funds to choose from for whoever may not make a choice, and shows the rest', async () => {
    const { payroll, member } = await memberWithHistory();
    const page = await readJson(payroll, `/api/members/${member.id}/page`);
    expect(page.openFunds).toBeNull();
    expect(page.member.id).toBe(member.id);
    expect(page.fundChoices.items).toHaveLength(1);
  });

  it('shows a member their own page as their own routes show it', async () => {
    const { self, member } = await memberWithHistory();
    const id = member.id;
    const page = await readJson(self, `/api/members/${id}/page`);
    expect(page.member).toEqual(await readJson(self, `/api/members/${id}`));
    expect(page.summary).toEqual(await readJson(self, `/api/members/${id}/summary`));
    // Their membership without the people to contact about a death, which is the firm's to read.
    expect(page.lifecycle).toEqual(await readJson(self, `/api/members/${id}/lifecycle`));
    expect(page.lifecycle.dependants).toBeNull();
    expect(page.contributions).toEqual(
      await readJson(self, `/api/members/${id}/contributions?limit=25`),
    );
    expect(page.openFunds).toEqual(await everyItem(self, `/api/schemes/${member.schemeId}/funds`));
  });

  it('is "not found" for a member of another employer, as the member’s own route is', async () => {
    const { payroll } = await memberWithHistory();
    const other = await memberWithHistory();
    const answer = await t.requestAs(payroll, 'GET', `/api/members/${other.member.id}/page`);
    expect(answer.statusCode).toBe(404);
    expect(answer.body).not.toContain(other.member.id);
  });

  it('says whether the member has a portal account, and its state only, to those who list the employer’s accounts', async () => {
    const { admin, payroll, self, member, brokerId, employerId, schemeId } =
      await memberWithHistory();
    const page = await readJson(admin, `/api/members/${member.id}/page`);
    expect(page.portalAccount).toEqual({
      account: { id: self.id, status: 'active', invitedUntil: null },
    });
    // Neither the employer's payroll clerk nor the member is shown it.
    expect((await readJson(payroll, `/api/members/${member.id}/page`)).portalAccount).toBeNull();
    expect((await readJson(self, `/api/members/${member.id}/page`)).portalAccount).toBeNull();

    const newcomer = await createMember(t.database, { brokerId, employerId, schemeId });
    expect((await readJson(admin, `/api/members/${newcomer.id}/page`)).portalAccount).toEqual({
      account: null,
    });
    const email = `newcomer-${newcomer.id}@example.ie`;
    const invited = await t.requestAs(admin, 'POST', `/api/employers/${employerId}/users`, {
      email,
      name: 'Nessa Kelly',
      role: 'Member',
      memberId: newcomer.id,
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const after = await t.requestAs(admin, 'GET', `/api/members/${newcomer.id}/page`);
    expect(after.json().portalAccount).toEqual({
      account: {
        id: invited.json().id,
        status: 'invited',
        invitedUntil: invited.json().invitedUntil,
      },
    });
    // The state only: the account's address and name are not in the page's answer.
    expect(after.body).not.toContain(email);
    expect(after.body).not.toContain('Nessa Kelly');
  });

  it('refuses a chart range that is no month, and reads nothing', async () => {
    const { admin, member } = await memberWithHistory();
    const answer = await t.requestAs(admin, 'GET', `/api/members/${member.id}/page?chartFrom=June`);
    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toMatchObject({ error: expect.any(String) });
  });
});
