import { describe, expect, it } from 'vitest';
import {
  formatIrishDate,
  formatIrishPeriod,
  periodInWords,
  todayInIreland,
} from '../../src/contracts/irish-dates.js';
import {
  addToMonth,
  monthOfDay,
  REMITTANCE_STATUS_LABELS,
} from '../../src/contracts/remittance-rules.js';
import { DEV_ACCOUNTS } from '../helpers/built-server.js';
import {
  browserSuiteSkipReason,
  field,
  JOURNEY_TIMEOUT,
  see,
  seeNo,
  shownText,
  signInThroughForm,
  useE2e,
} from '../helpers/e2e.js';
import { newPpsNumber } from '../helpers/pps.js';

/**
 * Contribution remittance in the browser (docs/decisions/0136-contribution-remittance.md): the
 * firm's staff arrive signed out at the root address, sign in, open an employer's remittance
 * calendar, see a month from before the scheme was added shown as not chased rather than missing,
 * record the payment received for it and see the month turn on time; then open the scheme's
 * Governance tab and read the trustees' late-payment report. The months are counted back from
 * today, so the journey reads the same whenever it runs.
 */
describe.skipIf(browserSuiteSkipReason)(
  'an employer’s remittance calendar and a scheme’s late payments',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    const e2e = useE2e('remittance');

    it('records a payment on the calendar, turns the month on time, and shows the late one to the trustees', async () => {
      const thisMonth = monthOfDay(todayInIreland(new Date()));
      // The scheme is added today. Two months ago: not chased, being before it, until the journey
      // records its payment. Three months ago: paid late, which is reported whatever its month.
      const unpaid = addToMonth(thisMonth, -2);
      const paidLate = addToMonth(thisMonth, -3);
      const broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      const employer = 'Skellig Seafoods Ltd';
      const { id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
        name: employer,
      });
      const scheme = 'Skellig Seafoods Pension Scheme';
      const { id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
        employerId,
        name: scheme,
        type: 'DC',
      });
      const { id: memberId } = await broker.call<{ id: string }>(
        'POST',
        `/api/schemes/${schemeId}/members`,
        {
          firstName: 'Tomás',
          lastName: 'Ó Criomhthain',
          dateOfBirth: '1981-12-21',
          dateJoined: '2018-03-01',
          salaryCents: 4_600_000,
          ppsNumber: newPpsNumber(),
        },
      );
      for (const period of [unpaid, paidLate]) {
        await broker.call('POST', `/api/members/${memberId}/contributions`, {
          period,
          kind: 'employee',
          amountCents: 20_000,
        });
        await broker.call('POST', `/api/members/${memberId}/contributions`, {
          period,
          kind: 'employer',
          amountCents: 30_000,
        });
      }
      // Paid on the 25th of the next month: 4 days after the 21st.
      await broker.call('POST', `/api/employers/${employerId}/remittance-receipts`, {
        month: paidLate,
        receivedOn: `${addToMonth(paidLate, 1)}-25`,
        amountCents: 50_000,
      });

      const { page } = await e2e.open();
      await signInThroughForm(page, DEV_ACCOUNTS.brokerAdmin, '/');
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Employers' })
        .click();
      await page.getByRole('link', { name: employer }).click();
      await see(page.getByRole('heading', { name: 'Remittance calendar' }));
      // The service's own counting rules are labelled once as its policy, not each as a citation.
      const policy = await see(page.getByText(/^How this service counts/));
      expect(await shownText(policy)).toContain('(its own policy, not the law)');
      expect(await page.getByText('Product policy:', { exact: false }).count()).toBe(0);
      const calendar = page.getByRole('table', {
        name: /^Each month’s deductions and the payments received/,
      });
      const unpaidRow = calendar.getByRole('row', {
        name: new RegExp(`^${periodInWords(unpaid)}`),
      });
      expect(await shownText(unpaidRow)).toContain('€500.00');
      expect(await shownText(unpaidRow)).toContain(REMITTANCE_STATUS_LABELS.not_chased);
      await see(
        page.getByText(
          `Months are chased from ${periodInWords(thisMonth)}, when the employer’s first scheme was added to this service.`,
        ),
      );
      const lateRow = calendar.getByRole('row', {
        name: new RegExp(`^${periodInWords(paidLate)}`),
      });
      expect(await shownText(lateRow)).toContain(REMITTANCE_STATUS_LABELS.late);

      await page.getByRole('button', { name: 'Record a payment received' }).click();
      const dialog = page.getByRole('dialog', { name: 'Record a payment received' });
      await field(dialog, 'Month of deduction').fill(formatIrishPeriod(unpaid));
      const receivedOn = `${addToMonth(unpaid, 1)}-15`;
      await field(dialog, 'Received on').fill(formatIrishDate(receivedOn));
      await field(dialog, 'Amount received (€)').fill('500.00');
      await field(dialog, 'Payment reference').fill('EFT Skellig payroll');
      await dialog.getByRole('button', { name: 'Record payment' }).click();
      await seeNo(dialog, 'the payment dialog');
      await see(page.getByText(`€500.00 for ${periodInWords(unpaid)} recorded as received`));
      await expect.poll(() => shownText(unpaidRow)).toContain(REMITTANCE_STATUS_LABELS.on_time);
      const payments = page.getByRole('table', { name: 'Payments received, the latest first' });
      await see(payments.getByRole('row', { name: /EFT Skellig payroll/ }));
      await e2e.checkPage(page, 'calendar');

      // The trustees read the late payment on the scheme's Governance tab.
      await page
        .getByRole('table', { name: `Schemes of ${employer}` })
        .getByRole('link', { name: scheme })
        .click();
      await page.getByRole('tab', { name: 'Governance' }).click();
      await see(page.getByRole('heading', { name: 'Late payments by the employer' }));
      await field(page, 'Year').selectOption(paidLate.slice(0, 4));
      const report = page.getByRole('table', {
        name: `Months of ${paidLate.slice(0, 4)} remitted late or not in full`,
      });
      const late = await see(
        report.getByRole('row', { name: new RegExp(`^${periodInWords(paidLate)}`) }),
      );
      expect(await shownText(late)).toContain('4 days');
      expect(await shownText(late)).toContain(REMITTANCE_STATUS_LABELS.late);
      // The month paid on time is not in the report.
      expect(await report.getByRole('row').count()).toBe(2);
      await e2e.checkPage(page, 'late-payments');
    });
  },
);
