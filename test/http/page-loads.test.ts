import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PER_USER_PER_MINUTE } from '../../src/server/platform/http/rate-limits.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { schemeFixture } from '../helpers/fixtures.js';

/**
 * A person working fast is never refused (docs/decisions/0106-limits-for-a-person-working-fast.md):
 * 60 full page loads in one minute, each replaying the requests the web UI makes for that page
 * (read from src/web/pages, as the decision lists them), every one answered.
 */

let t: TestApp;
beforeAll(async () => {
  // The limits' windows run on Date.now(): held still, every load below falls in one minute.
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
  t = await buildTestApp({ now: () => new Date() });
});
afterAll(async () => {
  await t.close();
  vi.useRealTimers();
});

/** A month `back` months before this one, as the contributions chart asks for its range. */
function monthsBack(back: number): string {
  const at = new Date();
  at.setUTCDate(1);
  at.setUTCMonth(at.getUTCMonth() - back);
  return at.toISOString().slice(0, 7);
}

interface Places {
  schemeId: string;
  employerId: string;
  memberId: string;
}

/**
 * What each main page asks of the API on a full load, besides reading the session (which no
 * limit counts): the signed-in layout's `/api/me`, then the page's own requests.
 */
const PAGES: Record<string, (at: Places) => string[]> = {
  // Composed on the server, as the member page is; the browser journey in test/e2e/homes.test.ts
  // holds the web to this one request.
  dashboard: () => ['/api/overview/dashboard'],
  'members list': ({ schemeId, employerId }) => [
    `/api/schemes/${schemeId}`,
    `/api/employers/${employerId}`,
    `/api/schemes/${schemeId}/members?limit=50`,
  ],
  'scheme page, funds tab': ({ schemeId, employerId }) => [
    `/api/schemes/${schemeId}`,
    `/api/employers/${employerId}`,
    `/api/schemes/${schemeId}/funds?limit=100`,
  ],
  // Composed on the server (docs/decisions/0118-pages-composed-on-the-server.md); the browser
  // journey in test/e2e/member-records.test.ts holds the web to this one request.
  'member page': ({ memberId }) => [`/api/members/${memberId}/page?chartFrom=${monthsBack(24)}`],
};

describe('one person loading pages as fast as they work', () => {
  it('is answered at every one of 60 page loads in a minute, on any mix of the main pages', async () => {
    const setup = await schemeFixture(t.database, { members: 3, users: { admin: 'BrokerAdmin' } });
    const places = {
      schemeId: setup.schemeId,
      employerId: setup.employerId,
      memberId: setup.members[0]?.id ?? '',
    };
    const authorization = `Bearer ${await t.tokenFor(setup.admin)}`;
    // The office's one address: per-user counting is what holds this person.
    const remoteAddress = uniqueClientAddress();
    const load = async (page: string) => {
      const urls = ['/api/auth/session', '/api/me', ...(PAGES[page]?.(places) ?? [])];
      const answers = await Promise.all(
        urls.map((url) => t.app.inject({ url, headers: { authorization }, remoteAddress })),
      );
      return answers.map((answer, index) => ({ url: urls[index], status: answer.statusCode }));
    };

    const names = Object.keys(PAGES);
    // The heaviest page alone 60 times is the most a minute can ask; then a mix, in a new minute.
    const heaviest = names.reduce((most, name) =>
      (PAGES[name]?.(places).length ?? 0) > (PAGES[most]?.(places).length ?? 0) ? name : most,
    );
    const countedPerLoad = 1 + (PAGES[heaviest]?.(places).length ?? 0);
    expect(60 * countedPerLoad).toBeLessThanOrEqual(PER_USER_PER_MINUTE);
    for (const sequence of [
      Array.from({ length: 60 }, () => heaviest),
      Array.from({ length: 60 }, (_, n) => names[n % names.length] as string),
    ]) {
      for (const [n, page] of sequence.entries()) {
        const answered = await load(page);
        const refused = answered.filter(({ status }) => status !== 200);
        expect(refused, `load ${n + 1}, the ${page}`).toEqual([]);
      }
      vi.setSystemTime(Date.now() + 60_000);
    }
  }, 600_000);
});
