import { describe, expect, it } from 'vitest';
import { dueOnFor } from '../../src/contracts/data-request-rules.js';
import { dateInWords, todayInIreland } from '../../src/contracts/irish-dates.js';
import { type Credentials, DEV_ACCOUNTS, invitedAccount } from '../helpers/built-server.js';
import {
  browserSuiteSkipReason,
  field,
  JOURNEY_TIMEOUT,
  see,
  shownText,
  signInThroughForm,
  useE2e,
} from '../helpers/e2e.js';
import { newPpsNumber } from '../helpers/pps.js';

/**
 * A member makes a data-subject request themselves (docs/decisions/0137-data-subject-requests.md,
 * "Later"): signed out at the root address, they sign in, read their rights under "Your data",
 * ask for access, and see the request listed, received today and due a month later; asking again
 * is refused with the first one's due day. The firm's administrator then finds it in the register.
 */
describe.skipIf(browserSuiteSkipReason)(
  'a member’s own data-subject request',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    const e2e = useE2e('member-data-requests');

    it('is made in the portal and reaches the firm’s register', async () => {
      const today = todayInIreland(new Date());
      const dueOn = dateInWords(dueOnFor(today));
      const broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      const { id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
        name: 'Dingle Oyster Company Ltd',
      });
      const { id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
        employerId,
        name: 'Dingle Oyster Staff Pension Scheme',
        type: 'DC',
      });
      const { id: memberId } = await broker.call<{ id: string }>(
        'POST',
        `/api/schemes/${schemeId}/members`,
        {
          firstName: 'Síle',
          lastName: 'Ní Chonchúir',
          dateOfBirth: '1984-02-21',
          dateJoined: '2014-09-01',
          salaryCents: 4_100_000,
          ppsNumber: newPpsNumber(),
        },
      );
      const sile: Credentials = {
        email: 'sile@dingle-oysters.example.ie',
        password: 'Ventry-Harbour-Curlew-5521',
      };
      await invitedAccount(e2e.server, broker, `/api/employers/${employerId}/users`, {
        ...sile,
        name: 'Síle Ní Chonchúir',
        role: 'Member',
        memberId,
      });

      const { page } = await e2e.open();
      await signInThroughForm(page, sile, '/');
      expect(new URL(page.url()).pathname).toBe(`/members/${memberId}`);
      const yourData = page.getByRole('region', { name: 'Your data' });
      await see(yourData);
      await see(yourData.getByText(/^Access: ask for a copy of the data/));
      await see(yourData.getByText(/^Erasure: /));
      await see(yourData.getByText('You have made no request about your data.'));

      const form = yourData.getByRole('form', { name: 'Make a request about your data' });
      await field(form, 'What you are asking for').click();
      await page.getByRole('option', { name: 'Access (Art. 15)' }).click();
      await form.getByRole('button', { name: 'Make request' }).click();
      await see(page.getByText(`it is due to be answered by ${dueOn}`, { exact: false }));

      const requests = yourData.getByRole('table', {
        name: 'Your requests about your data, the earliest due first',
      });
      const row = await see(requests.getByRole('row', { name: /Access \(Art\. 15\)/ }));
      const shown = await shownText(row);
      expect(shown).toContain(dateInWords(today));
      expect(shown).toContain(dueOn);
      expect(shown).toContain('Open');
      await e2e.checkPage(page, 'requested');

      // A second access request while the first is with the firm is refused, naming its due day.
      await field(form, 'What you are asking for').click();
      await page.getByRole('option', { name: 'Access (Art. 15)' }).click();
      await form.getByRole('button', { name: 'Make request' }).click();
      const refused = await see(form.getByRole('alert'));
      expect(await shownText(refused)).toContain(
        `is already with the firm: it is due to be answered by ${dueOn}`,
      );
      expect(await requests.getByRole('row').count()).toBe(2);

      // The firm's administrator finds it in the register, as any other.
      const staff = await e2e.open();
      await signInThroughForm(staff.page, DEV_ACCOUNTS.brokerAdmin, '/');
      await staff.page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Data requests' })
        .click();
      const register = staff.page.getByRole('table', {
        name: 'Data-subject requests, the earliest due first',
      });
      const theirs = await see(register.getByRole('row', { name: /Síle Ní Chonchúir/ }));
      expect(await shownText(theirs)).toContain('Access (Art. 15)');
      expect(await shownText(theirs)).toContain(dueOn);
    });
  },
);
