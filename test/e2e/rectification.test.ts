import { describe, expect, it } from 'vitest';
import { addDays, todayInIreland } from '../../src/contracts/irish-dates.js';
import { DEV_ACCOUNTS, invitedAccount } from '../helpers/built-server.js';
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
 * A rectification request completed in the browser
 * (docs/decisions/0148-rectification-and-recipients.md): the firm's admin arrives signed out at
 * the root address, signs in, opens Data requests, records the correction of a member's address
 * and salary, confirms the employer the service proposes as a recipient told and adds the insurer,
 * and reads back on the register what was corrected and who was told.
 */
describe.skipIf(browserSuiteSkipReason)(
  'a rectification completed with the recipients told',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    const e2e = useE2e('rectification');

    it('records the details corrected and the recipients told, and shows them on the register', async () => {
      const today = todayInIreland(new Date());
      const broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      const employer = 'Moher Cliff Cafés Ltd';
      const { id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
        name: employer,
      });
      const { id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
        employerId,
        name: 'Moher Cliff Cafés Pension Scheme',
        type: 'DC',
      });
      const { id: memberId } = await broker.call<{ id: string }>(
        'POST',
        `/api/schemes/${schemeId}/members`,
        {
          firstName: 'Caoimhe',
          lastName: 'Ní Bhriain',
          dateOfBirth: '1988-10-03',
          dateJoined: '2019-05-01',
          salaryCents: 3_600_000,
          ppsNumber: newPpsNumber(),
        },
      );
      // The employer's payroll officer, whose account can read the member's record.
      await invitedAccount(e2e.server, broker, `/api/employers/${employerId}/users`, {
        email: 'payroll@moher-cliff.example.ie',
        password: 'moher-payroll-password-01',
        name: 'Moher payroll',
        role: 'EmployerAdmin',
      });
      await broker.call('POST', '/api/data-requests', {
        memberId,
        kind: 'rectification',
        receivedOn: addDays(today, -3),
      });

      const { page } = await e2e.open();
      await signInThroughForm(page, DEV_ACCOUNTS.brokerAdmin, '/');
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Data requests' })
        .click();
      await see(page.getByRole('heading', { name: 'Data requests' }));
      const row = page
        .getByRole('table', { name: 'Data-subject requests, the earliest due first' })
        .getByRole('row', { name: /Caoimhe Ní Bhriain/ });
      await see(row);
      // A rectification is not merely completed: it is completed with what was corrected.
      expect(await row.getByRole('button', { name: /^Complete: / }).count()).toBe(0);
      await row.getByRole('button', { name: /^Record the correction: / }).click();

      const dialog = page.getByRole('dialog', { name: 'Record the correction' });
      await dialog.getByRole('checkbox', { name: 'Address', exact: true }).check();
      await dialog.getByRole('checkbox', { name: 'Salary', exact: true }).check();
      const proposed = dialog.getByRole('list', { name: 'Recipients the service knows of' });
      await see(proposed);
      expect(await shownText(proposed)).toContain(
        `${employer}, the employer (payroll and HR): 1 account of the employer can read the member’s record`,
      );
      await e2e.checkPage(page, 'proposed');
      await proposed
        .getByRole('button', { name: `Add as told: ${employer}, the employer (payroll and HR)` })
        .click();
      expect(await field(dialog, 'Recipient 1').inputValue()).toBe(
        `${employer}, the employer (payroll and HR)`,
      );
      await dialog.getByRole('button', { name: 'Add another recipient' }).click();
      await field(dialog, 'Recipient 2').fill('Zurich Life, the insurer');
      await dialog.getByRole('button', { name: 'Complete request' }).click();
      await seeNo(dialog, 'the correction dialog');

      await expect.poll(() => shownText(row)).toContain('Completed: corrected Address, Salary');
      await row.getByRole('button', { name: /^Recipients told: / }).click();
      const details = page.getByRole('dialog', {
        name: 'The correction and the recipients told',
      });
      const told = details.getByRole('table', { name: 'Recipients told of the correction' });
      await see(told);
      expect(await shownText(told)).toContain(`${employer}, the employer (payroll and HR)`);
      expect(await shownText(told)).toContain('Zurich Life, the insurer');
      expect(await shownText(details)).toContain('Details corrected: Address, Salary.');
      await e2e.checkPage(page, 'recipients-told');
    });
  },
);
