import { describe, expect, it } from 'vitest';
import { dateInWords, formatIrishDate, todayInIreland } from '../../src/contracts/irish-dates.js';
import { WIND_UP_REASON_WORDS } from '../../src/contracts/scheme-wind-up.js';
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
 * Closing a scheme (docs/decisions/0146-schemes-wound-up-not-deleted.md): a BrokerAdmin, signed
 * out at the root address, finds no delete on a scheme that has members, only a wind-up; winds it
 * up with a day and a reason; the scheme reads wound up, without its edit, and the list says so;
 * its member's page offers no change.
 * An empty scheme made by mistake is still deleted.
 */
describe.skipIf(browserSuiteSkipReason)(
  'a scheme wound up, not deleted',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    const e2e = useE2e('scheme-wind-up');

    it('winds up a scheme with members and deletes only an empty one', async () => {
      const broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      const { id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
        name: 'Lough Derg Marine Ltd',
      });
      const scheme = 'Lough Derg Marine Pension Scheme';
      const { id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
        employerId,
        name: scheme,
        type: 'DC',
      });
      await broker.call('POST', `/api/schemes/${schemeId}/members`, {
        firstName: 'Ciara',
        lastName: 'Ní Bhriain',
        dateOfBirth: '1988-07-14',
        dateJoined: '2021-03-01',
        salaryCents: 4_000_000,
        ppsNumber: newPpsNumber(),
      });
      const mistake = 'Lough Derg Marine Scheme (made twice)';
      await broker.call('POST', '/api/schemes', { employerId, name: mistake, type: 'DC' });

      const { page } = await e2e.open();
      await signInThroughForm(page, DEV_ACCOUNTS.brokerAdmin, '/');
      const navigation = page.getByRole('navigation', { name: 'Main' });
      await navigation.getByRole('link', { name: 'Schemes' }).click();
      await page.getByRole('link', { name: scheme, exact: true }).click();
      await see(page.getByRole('heading', { name: scheme }));
      expect(await page.getByRole('button', { name: 'Delete scheme' }).count()).toBe(0);

      await page.getByRole('button', { name: 'Wind up scheme' }).click();
      const dialog = page.getByRole('dialog', { name: 'Wind up scheme' });
      const today = todayInIreland(new Date());
      expect(await field(dialog, 'Wound up on').inputValue()).toBe(formatIrishDate(today));
      await field(dialog, 'Why').click();
      await page
        .getByRole('option', { name: WIND_UP_REASON_WORDS.moved_to_another_arrangement })
        .click();
      await field(dialog, 'Note').fill('Members moved to the group master trust');
      await e2e.checkPage(page, 'wind-up');
      await dialog.getByRole('button', { name: 'Wind up scheme' }).click();
      await seeNo(dialog, 'the wind-up dialog');

      const notice = await see(page.getByRole('alert').filter({ hasText: 'Wound up on' }));
      const text = await shownText(notice);
      expect(text).toContain(`Wound up on ${dateInWords(today)}`);
      expect(text).toContain(WIND_UP_REASON_WORDS.moved_to_another_arrangement);
      expect(text).toContain('Members moved to the group master trust');
      expect(await page.getByRole('button', { name: 'Edit scheme' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Wind up scheme' }).count()).toBe(0);
      await e2e.checkPage(page, 'wound-up');

      // Beneath it nothing is offered to change: no member added, and the member's page, read as
      // it was, offers no edit, step, contribution, correction or fund choice.
      expect(await page.getByRole('button', { name: 'Add member' }).count()).toBe(0);
      await page.getByRole('link', { name: /Ní Bhriain/ }).click();
      await see(page.getByRole('heading', { name: 'Ciara Ní Bhriain' }));
      await see(page.getByRole('heading', { name: 'Contributions' }));
      await see(page.getByRole('heading', { name: 'Membership' }));
      for (const offered of [
        'Edit member',
        'Delete member',
        'Add contribution',
        'Change fund choice',
        'Leave service',
      ]) {
        expect(await page.getByRole('button', { name: offered }).count(), offered).toBe(0);
      }
      await e2e.checkPage(page, 'wound-up member');

      await navigation.getByRole('link', { name: 'Schemes' }).click();
      const row = await see(
        page
          .getByRole('table', { name: 'Schemes' })
          .getByRole('row', { name: new RegExp(`^${scheme}`) }),
      );
      // The list read before the wind-up is shown until its fresh answer arrives.
      await expect.poll(() => shownText(row)).toContain('Wound up');

      // The scheme made by mistake never had a member: it is deleted.
      await page.getByRole('link', { name: mistake }).click();
      await page.getByRole('button', { name: 'Delete scheme' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete scheme' });
      await confirm.getByRole('button', { name: 'Delete scheme' }).click();
      await page.waitForURL((url) => url.pathname === '/schemes');
      await see(page.getByRole('link', { name: scheme, exact: true }));
      await expect.poll(() => page.getByRole('link', { name: mistake }).count()).toBe(0);
    });
  },
);
