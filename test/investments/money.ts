import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import type { UserRow } from '../helpers/factories.js';
import { schemeFixture } from '../helpers/fixtures.js';

/**
 * A DC scheme of a firm with funds and members, driven through the API as staff would, for the
 * suites of DC money (docs/decisions/0127-dc-money.md). The clock is the test's own: `at(day)`
 * moves it to noon of that day.
 */
export interface Clock {
  now: () => Date;
  at(day: string): void;
}

export function testClock(day: string): Clock {
  let current = Date.parse(`${day}T12:00:00Z`);
  return {
    now: () => new Date(current),
    at(next) {
      current = Date.parse(`${next}T12:00:00Z`);
    },
  };
}

export async function dcScheme(
  t: TestApp,
  funds: Array<{ name: string; annualChargeBasisPoints?: number; isin?: string }>,
  members = 1,
) {
  const setup = await schemeFixture(t.database, {
    members,
    users: {
      self: 'Member',
      consultant: 'BrokerUser',
      admin: 'BrokerAdmin',
      payroll: 'EmployerUser',
    },
  });
  const fundIds: string[] = [];
  for (const fund of funds) {
    const created = await t.requestAs(
      setup.consultant,
      'POST',
      `/api/schemes/${setup.schemeId}/funds`,
      fund,
    );
    expect(created.statusCode, created.body).toBe(201);
    fundIds.push(created.json().id);
  }
  const as = (user: UserRow) => ({
    get: (url: string) => t.requestAs(user, 'GET', url),
    post: (url: string, body: object) => t.requestAs(user, 'POST', url, body),
    put: (url: string, body: object) => t.requestAs(user, 'PUT', url, body),
    patch: (url: string, body: object) => t.requestAs(user, 'PATCH', url, body),
  });
  const staff = as(setup.consultant);
  return {
    ...setup,
    fundIds,
    as,
    staff,
    async prices(fundId: string, prices: Array<{ on: string; price: string }>) {
      const answer = await staff.post(`/api/funds/${fundId}/prices`, { prices });
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json() as {
        recorded: number;
        unchanged: number;
        corrected: number;
        replayed: number;
      };
    },
    async choose(memberId: string, allocations: Array<{ fundId: string; percent: number }>) {
      const chosen = await staff.put(`/api/members/${memberId}/fund-choices`, { allocations });
      expect(chosen.statusCode, chosen.body).toBe(200);
    },
    async contribute(
      memberId: string,
      body: { period: string; kind?: string; amountCents: number; receivedOn?: string },
    ) {
      const made = await staff.post(`/api/members/${memberId}/contributions`, {
        kind: 'employee',
        ...body,
      });
      expect(made.statusCode, made.body).toBe(201);
      return made.json() as { id: string; receivedOn: string };
    },
    async holdings(memberId: string, on?: string) {
      const read = await staff.get(
        `/api/members/${memberId}/holdings${on === undefined ? '' : `?on=${on}`}`,
      );
      expect(read.statusCode, read.body).toBe(200);
      return read.json();
    },
    async transactions(memberId: string) {
      const read = await staff.get(`/api/members/${memberId}/transactions?limit=100`);
      expect(read.statusCode, read.body).toBe(200);
      return read.json().items as Array<{
        id: string;
        kind: string;
        fundId: string;
        fundName: string;
        on: string;
        units: string;
        price: string;
        amountCents: number;
      }>;
    },
  };
}

/** One run of the investments job, as the scheduler's call would run it, with its counts. */
export async function runInvestments(t: TestApp) {
  const job = t.app.scheduledJobs.get('investments');
  if (!job) throw new Error('the investments job is not registered');
  return job.run({ scheduledFor: new Date(), runId: 'test' });
}
