import { describe, expect, it } from 'vitest';
import { todayInIreland } from '../../src/contracts/irish-dates.js';
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
 * An erasure request, and the member's retention, in the browser
 * (docs/decisions/0149-retention-and-erasure.md): a BrokerAdmin signed in from the root address
 * opens Data requests, carries out an active member's erasure request, reads that nothing may be
 * erased yet and why, and refuses it with the reasons; then, from the member's page, reads the
 * retention schedule with its sources, restricts the disputed data and lifts the restriction.
 */
describe.skipIf(browserSuiteSkipReason)(
  'an erasure request refused under the retention schedule, and a restriction',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    const e2e = useE2e('erasure');

    it('refuses an active member’s erasure with each part’s rule, and restricts and lifts their data', async () => {
      const broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      const { id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
        name: 'Inis Meáin Knitwear Ltd',
      });
      const { id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
        employerId,
        name: 'Inis Meáin Knitwear Pension Scheme',
        type: 'DC',
      });
      const { id: memberId } = await broker.call<{ id: string }>(
        'POST',
        `/api/schemes/${schemeId}/members`,
        {
          firstName: 'Peadar',
          lastName: 'Ó Conghaile',
          dateOfBirth: '1981-02-03',
          dateJoined: '2017-05-01',
          salaryCents: 4_100_000,
          ppsNumber: newPpsNumber(),
        },
      );
      await broker.call('POST', '/api/data-requests', {
        memberId,
        kind: 'erasure',
        receivedOn: todayInIreland(new Date()),
      });

      const { page } = await e2e.open();
      await signInThroughForm(page, DEV_ACCOUNTS.brokerAdmin, '/');
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Data requests' })
        .click();
      const row = page
        .getByRole('table', { name: 'Data-subject requests, the earliest due first' })
        .getByRole('row', { name: /Peadar Ó Conghaile/ });
      await see(row);
      await row.getByRole('button', { name: /^Erase: / }).click();
      const dialog = page.getByRole('dialog', { name: 'Carry out an erasure request' });
      await see(dialog.getByText('Nothing may be erased today.'));
      const shown = await shownText(dialog);
      expect(shown).toContain('Contact details: Kept while the member is in the scheme');
      expect(shown).toContain('Law: S.I. No. 128 of 2021 reg. 31');
      await e2e.checkPage(page, 'erase-dialog');
      await dialog.getByRole('button', { name: 'Refuse, with the reasons' }).click();
      await seeNo(dialog, 'the erasure dialog');
      await expect.poll(() => shownText(row)).toContain('Refused');
      await see(page.getByText('Nothing may be erased yet', { exact: false }));

      // The member's page, from the link in the register's row.
      await page.goto(`${e2e.server.baseUrl}/members/${memberId}`);
      await page.getByRole('button', { name: 'Retention and restriction' }).click();
      const schedule = page.getByRole('table', {
        name: 'Each part of the record, how long it is kept and why',
      });
      await see(schedule);
      const scheduleText = await shownText(schedule);
      expect(scheduleText).toContain('Identity and benefits');
      expect(scheduleText).toContain('No end day yet');
      await page.getByRole('button', { name: 'Restrict the data' }).click();
      const restrict = page.getByRole('dialog', { name: 'Restrict the member’s data' });
      await restrict.getByRole('button', { name: 'Restrict' }).click();
      // Refused in the browser by the shared schema, beside its field.
      await expect
        .poll(() => field(restrict, 'What is disputed').getAttribute('aria-invalid'))
        .toBe('true');
      await field(restrict, 'What is disputed').fill('The member says the 2024 salary is wrong');
      await restrict.getByRole('button', { name: 'Restrict' }).click();
      await seeNo(restrict, 'the restriction dialog');
      await see(page.getByText('The member says the 2024 salary is wrong', { exact: false }));
      await e2e.checkPage(page, 'restricted');
      await page.getByRole('button', { name: 'Lift the restriction' }).click();
      await see(page.getByRole('button', { name: 'Restrict the data' }));
      await seeNo(
        page.getByText('The member says the 2024 salary is wrong', { exact: false }),
        'the restriction',
      );
    });
  },
);
