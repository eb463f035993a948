import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { todayInIreland } from '../../src/contracts/irish-dates.js';
import {
  type ApiClient,
  type Credentials,
  DEV_ACCOUNTS,
  invitedAccount,
} from '../helpers/built-server.js';
import {
  browserSuiteSkipReason,
  field,
  JOURNEY_TIMEOUT,
  see,
  seeNo,
  signInThroughForm,
  useE2e,
} from '../helpers/e2e.js';
import { newPpsNumber } from '../helpers/pps.js';

/**
 * An EmployerAdmin enters a month's payroll for the whole scheme in one grid, then corrects it,
 * starting at the root address as they would
 * (docs/decisions/0048-contributions-as-a-payroll-grid.md); an amount with a decimal comma is
 * refused, not saved a hundred times too large (docs/decisions/0100-one-money-rule.md); last
 * month's amounts copied and a percentage of salary filled are saved only when they save
 * (docs/decisions/0152-payroll-grid-fills.md).
 */
describe.skipIf(browserSuiteSkipReason)(
  'a payroll period in one grid',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    const e2e = useE2e('payroll-grid');

    /**
     * A scheme of a new employer with these members, and an EmployerAdmin of the employer who
     * enters its payroll (invited by the broker, as in the service).
     */
    async function schemeWithPayroll(
      employer: string,
      people: ReadonlyArray<readonly [string, string]>,
      payroll: Credentials,
    ): Promise<{ schemeId: string; scheme: string; broker: ApiClient }> {
      const broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      const { id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
        name: `${employer} Ltd`,
      });
      const scheme = `${employer} DC Scheme`;
      const { id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
        employerId,
        name: scheme,
        type: 'DC',
      });
      for (const [firstName, lastName] of people) {
        await broker.call('POST', `/api/schemes/${schemeId}/members`, {
          firstName,
          lastName,
          dateOfBirth: '1980-06-15',
          dateJoined: '2014-01-06',
          salaryCents: 4_000_000,
          ppsNumber: newPpsNumber(),
        });
      }
      await invitedAccount(e2e.server, broker, `/api/employers/${employerId}/users`, {
        ...payroll,
        name: `${employer} Wages`,
        role: 'EmployerAdmin',
      });
      return { schemeId, scheme, broker };
    }

    /** From the root address, signed out, to the grid of a pay period, as a person goes. */
    async function openGrid(page: Page, payroll: Credentials, scheme: string, schemeId: string) {
      await signInThroughForm(page, payroll, '/');
      await page.getByRole('link', { name: scheme, exact: true }).first().click();
      await page.getByRole('tab', { name: 'Contributions' }).click();
      await field(page, 'Pay period').fill('10/2026');
      await page.getByRole('button', { name: 'Enter or correct this period' }).click();
      await page.waitForURL(`**/schemes/${schemeId}/payroll/2026-10`);
      await see(page.getByRole('heading', { name: 'Oct 2026 contributions' }));
    }

    it('records a period for every member in one save, and corrects it with a reason', async () => {
      const payroll: Credentials = {
        email: 'wages@athenry-oats.example.ie',
        password: 'Castle-Oat-Field-Winter-11',
      };
      const { schemeId, scheme, broker } = await schemeWithPayroll(
        'Athenry Oats',
        [
          ['Nóra', 'Burke'],
          ['Séamus', 'Kenny'],
        ],
        payroll,
      );

      const { page } = await e2e.open();
      await openGrid(page, payroll, scheme, schemeId);

      await field(page, 'Employee contribution of Nóra Burke').fill('250.00');
      await field(page, 'Employer contribution of Nóra Burke').fill('375.00');
      await field(page, 'Employee contribution of Séamus Kenny').fill('200');
      await page.getByRole('button', { name: 'Save Oct 2026' }).click();
      await see(page.getByText('Oct 2026 saved: 3 recorded, 0 corrected.'));
      await see(page.getByText('Recorded total for the period: €825.00'));
      await seeNo(page.getByText('This pay period has not begun'));
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
      // Scrolled to the last column, each row still says whose amounts these are.
      await page
        .getByRole('region', { name: 'Oct 2026 contributions' })
        .evaluate((region) => region.scrollTo({ left: region.scrollWidth }));
      await expect
        .poll(async () => (await page.getByRole('link', { name: 'Nóra Burke' }).boundingBox())?.x)
        .toBeGreaterThanOrEqual(0);

      // A month still to come is said to be so, not refused: a payroll may be run ahead of it.
      const [year, month] = todayInIreland(new Date()).split('-').map(Number) as [number, number];
      const next =
        month === 12 ? `${year + 1}-01` : `${year}-${String(month + 1).padStart(2, '0')}`;
      await page.goto(`/schemes/${schemeId}/payroll/${next}`);
      await see(page.getByText('This pay period has not begun'));
      await see(page.getByRole('button', { name: /^Save / }));
    });

    it('refuses 12,50 in a cell as ambiguous, saying why and saving nothing; 12.50 saves €12.50', async () => {
      const payroll: Credentials = {
        email: 'wages@loughrea-malt.example.ie',
        password: 'Barley-Kiln-Harbour-Frost-24',
      };
      const { schemeId, scheme, broker } = await schemeWithPayroll(
        'Loughrea Malt',
        [['Gráinne', 'Fahy']],
        payroll,
      );
      const { page } = await e2e.open();
      await openGrid(page, payroll, scheme, schemeId);
      const cell = field(page, 'Employee contribution of Gráinne Fahy');
      const ambiguous =
        'Write the cents after a full stop, like 12.50: a comma only separates thousands, as in 1,250.00';

      // The old page read 12,50 as 1250 euro and saved €1,250.00.
      await cell.fill('12,50');
      await see(page.getByText(ambiguous));
      await page.getByRole('button', { name: 'Save Oct 2026' }).click();
      await see(page.getByRole('alert').getByText('Some amounts are not in euro'));
      await expect.poll(() => cell.getAttribute('aria-invalid')).toBe('true');
      await cell.fill('1,23');
      await see(page.getByText(ambiguous));
      await page.getByRole('button', { name: 'Save Oct 2026' }).click();
      await see(page.getByRole('alert').getByText('Some amounts are not in euro'));
      await see(page.getByText('Recorded total for the period: €0.00'));
      const nothing = await broker.call<{ items: unknown[] }>(
        'GET',
        `/api/schemes/${schemeId}/contribution-periods`,
      );
      expect(nothing.items).toEqual([]);

      await cell.fill('12.50');
      await seeNo(page.getByText(ambiguous));
      await page.getByRole('button', { name: 'Save Oct 2026' }).click();
      await see(page.getByText('Oct 2026 saved: 1 recorded, 0 corrected.'));
      await see(page.getByText('Recorded total for the period: €12.50'));
      await expect.poll(() => cell.inputValue()).toBe('12.50');
      const saved = await broker.call<{ items: Array<{ period: string; totalCents: number }> }>(
        'GET',
        `/api/schemes/${schemeId}/contribution-periods`,
      );
      expect(saved.items).toEqual([
        expect.objectContaining({ period: '2026-10', employeeCents: 1_250, totalCents: 1_250 }),
      ]);
    });

    it("copies last month's amounts, fills a percentage of salary, and saves only when told", async () => {
      const payroll: Credentials = {
        email: 'wages@tuam-bakery.example.ie',
        password: 'Oven-Crust-Meadow-Spring-37',
      };
      const { schemeId, scheme, broker } = await schemeWithPayroll(
        'Tuam Bakery',
        [
          ['Aoife', 'Walsh'],
          ['Pádraig', 'Moran'],
        ],
        payroll,
      );
      // The scheme's own employee rate; its employer rate is typed once on the grid.
      await broker.call('PATCH', `/api/schemes/${schemeId}`, {
        employeeContributionBasisPoints: 500,
      });
      const listed = await broker.call<{ items: Array<{ id: string; firstName: string }> }>(
        'GET',
        `/api/schemes/${schemeId}/members`,
      );
      const idOf = (name: string) => listed.items.find((one) => one.firstName === name)?.id;
      await broker.call('PUT', `/api/schemes/${schemeId}/payroll/2026-09`, {
        rows: [
          {
            memberId: idOf('Aoife'),
            employeeCents: 15_000,
            employerCents: 20_000,
            avcCents: 5_000,
          },
          { memberId: idOf('Pádraig'), employeeCents: 10_000 },
        ],
      });

      const { page } = await e2e.open();
      await openGrid(page, payroll, scheme, schemeId);
      await page.getByRole('button', { name: 'Copy Sep 2026' }).click();
      await see(page.getByText('4 amounts copied from Sep 2026: check them, then save.'));
      expect(await field(page, 'Employer contribution of Aoife Walsh').inputValue()).toBe('200.00');
      expect(await field(page, 'AVC contribution of Aoife Walsh').inputValue()).toBe('50.00');
      expect(await field(page, 'Employee contribution of Pádraig Moran').inputValue()).toBe(
        '100.00',
      );

      // €40,000 a year: 5% is €166.67 a month, 7.5% is €250.00.
      expect(await field(page, 'Employee % of salary').inputValue()).toBe('5');
      await field(page, 'Employer % of salary').fill('7.5');
      await page.getByRole('button', { name: 'Fill from salary' }).click();
      await see(page.getByText('4 amounts filled from salary: check them, then save.'));
      expect(await field(page, 'Employee contribution of Aoife Walsh').inputValue()).toBe('166.67');
      expect(await field(page, 'Employer contribution of Pádraig Moran').inputValue()).toBe(
        '250.00',
      );
      // Each filled amount is still the person's to change.
      await field(page, 'Employer contribution of Aoife Walsh').fill('260.00');

      // Nothing is saved until Save.
      const before = await broker.call<{ items: Array<{ period: string }> }>(
        'GET',
        `/api/schemes/${schemeId}/contribution-periods`,
      );
      expect(before.items.map((item) => item.period)).toEqual(['2026-09']);
      await e2e.checkPage(page, 'grid-filled');
      await page.getByRole('button', { name: 'Save Oct 2026' }).click();
      await see(page.getByText('Oct 2026 saved: 5 recorded, 0 corrected.'));

      type Row = {
        name: string;
        employee: { amountCents: number } | null;
        employer: { amountCents: number } | null;
        avc: { amountCents: number } | null;
      };
      const saved = await broker.call<{ rows: Row[] }>(
        'GET',
        `/api/schemes/${schemeId}/payroll/2026-10`,
      );
      const amounts = saved.rows.map((row) => [
        row.name,
        row.employee?.amountCents ?? null,
        row.employer?.amountCents ?? null,
        row.avc?.amountCents ?? null,
      ]);
      expect(amounts).toEqual([
        ['Pádraig Moran', 16_667, 25_000, null],
        ['Aoife Walsh', 16_667, 26_000, 5_000],
      ]);
    });
  },
);
