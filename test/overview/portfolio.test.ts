import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PortfolioEmployers, PortfolioSchemes } from '../../src/contracts/portfolio.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { createEmployer, createMember, createScheme, createUser } from '../helpers/factories.js';
import { firmFixture } from '../helpers/fixtures.js';

/**
 * The portfolio lists: each employer and scheme with its members, its governance standing as the
 * governance dashboard assesses it, and the latest pay period received, in one request
 * (docs/decisions/0144-portfolio-lists.md).
 */

const clock = Date.parse('2026-11-12T10:00:00Z');
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ now: () => new Date(clock) });
});
afterAll(() => t.close());

async function portfolio() {
  const setup = await firmFixture(t.database, {
    brokerName: 'Murphy & Byrne Brokers',
    employerName: 'Liffey Engineering Ltd',
    users: { admin: 'BrokerAdmin', consultant: 'BrokerUser', hr: 'EmployerAdmin' },
  });
  const { brokerId, employerId, admin } = setup;
  const paid = await createScheme(t.database, { id: employerId, brokerId }, 'Liffey Staff DC');
  const quiet = await createScheme(t.database, { id: employerId, brokerId }, 'Liffey Directors DC');
  const first = await createMember(t.database, { brokerId, employerId, schemeId: paid });
  await createMember(t.database, { brokerId, employerId, schemeId: paid });
  await createMember(t.database, { brokerId, employerId, schemeId: quiet });
  for (const period of ['2026-09', '2026-10']) {
    const paidIn = await t.requestAs(admin, 'POST', `/api/members/${first.id}/contributions`, {
      period,
      kind: 'employee',
      amountCents: 10_000,
    });
    expect(paidIn.statusCode, paidIn.body).toBe(201);
  }
  const prsa = await t.requestAs(admin, 'POST', '/api/schemes', {
    employerId,
    name: 'Liffey PRSA',
    type: 'PRSA',
  });
  expect(prsa.statusCode, prsa.body).toBe(201);
  const other = await createEmployer(t.database, brokerId, 'Dodder Foods Ltd');
  return { ...setup, paid, quiet, prsa: prsa.json().id as string, other };
}

describe('GET /api/portfolio/schemes', () => {
  it('gives each scheme its members, the standing the governance dashboard gives it and its last period', async () => {
    const { consultant, paid, quiet, prsa } = await portfolio();
    const answer = await t.requestAs(consultant, 'GET', '/api/portfolio/schemes');
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json() as PortfolioSchemes;
    expect(body.nextCursor).toBeNull();
    expect(body.truncated).toBe(false);
    const rows = new Map(body.items.map((row) => [row.id, row]));
    expect(rows.get(paid)).toMatchObject({
      name: 'Liffey Staff DC',
      employerName: 'Liffey Engineering Ltd',
      memberCount: 2,
      lastPeriod: '2026-10',
    });
    expect(rows.get(quiet)).toMatchObject({ memberCount: 1, lastPeriod: null });
    // A PRSA keeps no governance registers: it has no standing to show.
    expect(rows.get(prsa)).toMatchObject({ memberCount: 0, governance: null, lastPeriod: null });

    const dashboard = await t.requestAs(consultant, 'GET', '/api/compliance/dashboard');
    expect(dashboard.statusCode, dashboard.body).toBe(200);
    for (const scheme of dashboard.json().schemes as Array<{ schemeId: string; status: string }>) {
      expect(rows.get(scheme.schemeId)?.governance).toBe(scheme.status);
    }
    expect(rows.get(paid)?.governance).not.toBeNull();
  });

  it('keeps an EmployerAdmin to their own employer, whatever employer the filter names', async () => {
    const { hr, brokerId, employerId, other } = await portfolio();
    const elsewhere = await createScheme(t.database, { id: other, brokerId }, 'Dodder Foods DC');
    const own = (await t.requestAs(hr, 'GET', '/api/portfolio/schemes')).json() as PortfolioSchemes;
    expect(own.items.length).toBe(3);
    expect(own.items.every((row) => row.employerId === employerId)).toBe(true);
    const filtered = await t.requestAs(hr, 'GET', `/api/portfolio/schemes?employerId=${other}`);
    expect(filtered.statusCode).toBe(200);
    expect((filtered.json() as PortfolioSchemes).items.map((row) => row.id)).not.toContain(
      elsewhere,
    );
  });

  it('filters to one employer for the firm’s staff', async () => {
    const { admin, brokerId, other } = await portfolio();
    const elsewhere = await createScheme(t.database, { id: other, brokerId }, 'Dodder Foods DC');
    const answer = await t.requestAs(admin, 'GET', `/api/portfolio/schemes?employerId=${other}`);
    expect((answer.json() as PortfolioSchemes).items.map((row) => row.id)).toEqual([elsewhere]);
  });

  it('shows nothing of another firm', async () => {
    const { paid } = await portfolio();
    const stranger = await createUser(t.database, { role: 'BrokerAdmin' });
    const answer = (
      await t.requestAs(stranger, 'GET', '/api/portfolio/schemes')
    ).json() as PortfolioSchemes;
    expect(answer.items.map((row) => row.id)).not.toContain(paid);
  });
});

describe('GET /api/portfolio/employers', () => {
  it('sums each employer’s schemes: members, the worst standing and the latest period', async () => {
    const { admin, employerId, other } = await portfolio();
    const answer = await t.requestAs(admin, 'GET', '/api/portfolio/employers');
    expect(answer.statusCode, answer.body).toBe(200);
    const body = answer.json() as PortfolioEmployers;
    const rows = new Map(body.items.map((row) => [row.id, row]));
    expect(rows.get(employerId)).toMatchObject({
      name: 'Liffey Engineering Ltd',
      schemeCount: 3,
      memberCount: 3,
      lastPeriod: '2026-10',
    });
    expect(rows.get(employerId)?.governance).not.toBeNull();
    expect(rows.get(other)).toEqual({
      id: other,
      brokerId: expect.any(String),
      name: 'Dodder Foods Ltd',
      schemeCount: 0,
      memberCount: 0,
      governance: null,
      lastPeriod: null,
    });
    expect(body.items.map((row) => row.name)).toEqual(
      [...body.items.map((row) => row.name)].sort((a, b) => a.localeCompare(b)),
    );
  });

  it('is refused to a Member, who has no list of employers', async () => {
    const member = await createUser(t.database, { role: 'Member' });
    const answer = await t.requestAs(member, 'GET', '/api/portfolio/employers');
    expect(answer.statusCode).toBe(403);
  });
});
