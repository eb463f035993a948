import { describe, expect, it } from 'vitest';
import { type Credentials, DEV_ACCOUNTS, invitedAccount } from '../helpers/built-server.js';
import {
  browserSuiteSkipReason,
  field,
  JOURNEY_TIMEOUT,
  see,
  signInThroughForm,
  useE2e,
} from '../helpers/e2e.js';
import { newPpsNumber } from '../helpers/pps.js';

/**
 * An EmployerAdmin enters a month's payroll for the whole scheme in one grid, then corrects it,
 * starting at the root address as they would
 * (docs/decisions/0048-contributions-as-a-payroll-grid.md).
 */
describe.skipIf(browserSuiteSkipReason)(
  'a payroll period in one grid',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    const e2e = useE2e('payroll-grid');

    it('records a period for every member in one save, and corrects it with a reason', async () => {
      const broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      const { id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
        name: 'Athenry Oats Ltd',
      });
      const { id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
        employerId,
        name: 'Athenry Oats DC Scheme',
        type: 'DC',
      });
      for (const [firstName, lastName] of [
        ['Nóra', 'Burke'],
        ['Séamus', 'Kenny'],
      ] as const) {
        await broker.call('POST', `/api/schemes/${schemeId}/members`, {
          firstName,
          lastName,
          dateOfBirth: '1980-06-15',
          dateJoined: '2014-01-06',
          salaryCents: 4_000_000,
          ppsNumber: newPpsNumber(),
        });
      }
      const payroll: Credentials = {
        email: 'wages@athenry-oats.example.ie',
        password: 'Castle-Oat-Field-Winter-11',
      };
      await invitedAccount(e2e.server, broker, `/api/employers/${employerId}/users`, {
        ...payroll,
        name: 'Athenry Wages',
        role: 'EmployerAdmin',
      });

      const { page } = await e2e.open();
      await signInThroughForm(page, payroll, '/');
      await page.getByRole('link', { name: 'Athenry Oats DC Scheme', exact: true }).first().click();
      await page.getByRole('tab', { name: 'Contributions' }).click();
      await field(page, 'Pay period').fill('10/2026');
      await page.getByRole('button', { name: 'Enter or correct this period' }).click();
      await page.waitForURL(`**/schemes/${schemeId}/payroll/2026-10`);
      await see(page.getByRole('heading', { name: 'Oct 2026 contributions' }));

      await field(page, 'Employee contribution of Nóra Burke').fill('250.00');
      await field(page, 'Employer contribution of Nóra Burke').fill('375.00');
      await field(page, 'Employee contribution of Séamus Kenny').fill('200');
      await page.getByRole('button', { name: 'Save Oct 2026' }).click();
      await see(page.getByText('Oct 2026 saved: 3 recorded, 0 corrected.'));
      await see(page.getByText('Recorded total for the period: €825.00'));
      await e2e.checkPage(page, 'grid');

      // A correction asks why before it is saved.
      await field(page, 'Employee contribution of Séamus Kenny').fill('225.00');
      await page.getByRole('button', { name: 'Save Oct 2026' }).click();
      await see(page.getByText('Say why amounts already recorded are being corrected.'));
      await field(page, 'Why are recorded amounts being corrected?').fill('Overtime left out');
      await page.getByRole('button', { name: 'Save Oct 2026' }).click();
      await see(page.getByText('Oct 2026 saved: 0 recorded, 1 corrected.'));
      await see(page.getByText('Recorded total for the period: €850.00'));

      const periods = await broker.call<{ items: Array<{ period: string; totalCents: number }> }>(
        'GET',
        `/api/schemes/${schemeId}/contribution-periods`,
      );
      expect(periods.items).toEqual([
        expect.objectContaining({ period: '2026-10', totalCents: 85_000 }),
      ]);

      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await see(page.getByRole('heading', { name: 'Oct 2026 contributions' }));
      await e2e.checkPage(page, 'grid-phone');
    });
  },
);
