import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { periodInWords } from '../../src/contracts/irish-dates.js';
import { DEV_ACCOUNTS } from '../helpers/built-server.js';
import {
  browserSuiteSkipReason,
  JOURNEY_TIMEOUT,
  see,
  settled,
  shownText,
  signInThroughForm,
  useE2e,
} from '../helpers/e2e.js';
import { newPpsNumber } from '../helpers/pps.js';

/**
 * The portfolio lists in the browser (docs/decisions/0144-portfolio-lists.md): a BrokerAdmin,
 * signed out at the root address, opens the firm's employers and schemes, reads each row's members,
 * governance standing and last pay period received, sorts by them, and each list is one request.
 */
describe.skipIf(browserSuiteSkipReason)(
  'the firm’s employers and schemes with their members, standing and last period',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    const e2e = useE2e('portfolio');

    /** The API requests a reload of the page makes, besides the session's two every page makes. */
    async function requestsOfReload(page: Page, ready: () => Promise<unknown>) {
      const asked: string[] = [];
      const listen = (request: { url: () => string; method: () => string }) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith('/api/')) asked.push(`${request.method()} ${url.pathname}`);
      };
      page.on('request', listen);
      await page.reload();
      await ready();
      await settled(page);
      page.off('request', listen);
      return asked.filter((request) => !['GET /api/auth/session', 'GET /api/me'].includes(request));
    }

    it('shows each row’s members, standing and last period, sorted by any of them, in one request', async () => {
      const broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      const busy = 'Aran Knitwear Ltd';
      const idle = 'Achill Boatyard Ltd';
      const { id: busyId } = await broker.call<{ id: string }>('POST', '/api/employers', {
        name: busy,
      });
      await broker.call('POST', '/api/employers', { name: idle });
      const { id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
        employerId: busyId,
        name: 'Aran Knitwear Pension Scheme',
        type: 'DC',
      });
      const memberIds: string[] = [];
      for (const [firstName, lastName] of [
        ['Nóra', 'Ní Dhomhnaill'],
        ['Colm', 'Mac Giolla'],
      ] as const) {
        const { id } = await broker.call<{ id: string }>(
          'POST',
          `/api/schemes/${schemeId}/members`,
          {
            firstName,
            lastName,
            dateOfBirth: '1981-05-20',
            dateJoined: '2020-01-06',
            salaryCents: 3_600_000,
            ppsNumber: newPpsNumber(),
          },
        );
        memberIds.push(id);
      }
      await broker.call('POST', `/api/members/${memberIds[0]}/contributions`, {
        period: '2026-08',
        kind: 'employee',
        amountCents: 15_000,
      });

      const { page } = await e2e.open();
      await signInThroughForm(page, DEV_ACCOUNTS.brokerAdmin, '/');
      const navigation = page.getByRole('navigation', { name: 'Main' });
      await navigation.getByRole('link', { name: 'Employers' }).click();
      const employers = page.getByRole('table', { name: 'Employers' });
      const busyRow = await see(employers.getByRole('row', { name: new RegExp(busy) }));
      const busyText = await shownText(busyRow);
      expect(busyText).toContain(periodInWords('2026-08'));
      // One scheme, two members.
      expect(
        await busyRow.getByRole('cell').evaluateAll((cells) => cells.map((c) => c.textContent)),
      ).toEqual(expect.arrayContaining([busy, '1', '2']));
      expect(busyText).toMatch(/OK|Due soon|Overdue|Incomplete/);
      const idleText = await shownText(employers.getByRole('row', { name: new RegExp(idle) }));
      expect(idleText).toContain('No schemes');
      expect(idleText).toContain('None yet');
      await e2e.checkPage(page, 'employers');

      // Sorted by members, most first: the employer with two comes before the one with none.
      const members = employers.getByRole('button', { name: /^Members/ });
      await members.click();
      await members.click();
      await expect
        .poll(async () => (await employers.getByRole('row').allTextContents()).slice(1).join('|'))
        .toMatch(new RegExp(`${busy}.*\\|.*${idle}`));
      expect(
        await requestsOfReload(page, () =>
          see(employers.getByRole('row', { name: new RegExp(busy) })),
        ),
      ).toEqual(['GET /api/portfolio/employers']);

      await navigation.getByRole('link', { name: 'Schemes' }).click();
      const schemes = page.getByRole('table', { name: 'Schemes' });
      const schemeRow = await see(
        schemes.getByRole('row', { name: /Aran Knitwear Pension Scheme/ }),
      );
      const schemeText = await shownText(schemeRow);
      expect(schemeText).toContain(busy);
      expect(schemeText).toContain(periodInWords('2026-08'));
      expect(schemeText).toMatch(/OK|Due soon|Overdue|Incomplete/);
      await schemes.getByRole('button', { name: /^Last pay period received/ }).click();
      await see(page.locator('th[aria-sort="ascending"]', { hasText: 'Last pay period received' }));
      await e2e.checkPage(page, 'schemes');
      expect(
        await requestsOfReload(page, () =>
          see(schemes.getByRole('row', { name: /Aran Knitwear Pension Scheme/ })),
        ),
      ).toEqual(['GET /api/portfolio/schemes']);
    });
  },
);
