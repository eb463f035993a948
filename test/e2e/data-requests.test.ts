import { describe, expect, it } from 'vitest';
import { dueOnFor, extendedDueOn } from '../../src/contracts/data-request-rules.js';
import { dateInWords, formatIrishDate, todayInIreland } from '../../src/contracts/irish-dates.js';
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
 * The data-subject requests register in the browser (docs/decisions/0137-data-subject-requests.md):
 * the firm's staff arrive signed out at the root address, sign in, open Data requests, record a
 * member's request for access (a day before the member joined refused beside its field, then
 * today), extend it with what the member was told, see it waiting on the dashboard, and complete
 * it, reading its clock in words at each step.
 */
describe.skipIf(browserSuiteSkipReason)(
  'a data-subject request recorded, extended and completed',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    const e2e = useE2e('data-requests');

    it('records a request, extends it within its first month and completes it in time', async () => {
      const today = todayInIreland(new Date());
      const broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      const employer = 'Burren Stoneworks Ltd';
      const { id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
        name: employer,
      });
      const { id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
        employerId,
        name: 'Burren Stoneworks Pension Scheme',
        type: 'DC',
      });
      await broker.call('POST', `/api/schemes/${schemeId}/members`, {
        firstName: 'Máire',
        lastName: 'Ní Fhlatharta',
        dateOfBirth: '1979-06-14',
        dateJoined: '2016-04-01',
        salaryCents: 3_900_000,
        ppsNumber: newPpsNumber(),
      });

      const { page } = await e2e.open();
      await signInThroughForm(page, DEV_ACCOUNTS.brokerAdmin, '/');
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Data requests' })
        .click();
      await see(page.getByRole('heading', { name: 'Data requests' }));

      await page.getByRole('button', { name: 'Record a request' }).click();
      const dialog = page.getByRole('dialog', { name: 'Record a request' });
      await field(dialog, 'Employer').fill(employer);
      await page.getByRole('option', { name: employer }).click();
      await field(dialog, 'Member record').fill('Ní Fhlatharta');
      await page.getByRole('option', { name: /Ní Fhlatharta, Máire/ }).click();
      await field(dialog, 'What the member asked for').click();
      await page.getByRole('option', { name: 'Access (Art. 15)' }).click();
      const receivedOn = field(dialog, 'Received on');
      expect(await receivedOn.inputValue()).toBe(formatIrishDate(today));
      // A day before the member joined is refused by the server, beside its field.
      await receivedOn.fill('');
      await receivedOn.pressSequentially('15/03/2016');
      await receivedOn.press('Tab');
      await dialog.getByRole('button', { name: 'Record request' }).click();
      await expect.poll(() => receivedOn.getAttribute('aria-invalid')).toBe('true');
      const describedBy = ((await receivedOn.getAttribute('aria-describedby')) ?? '').split(' ');
      const described = await Promise.all(
        describedBy.filter(Boolean).map((id) => page.locator(`[id="${id}"]`).textContent()),
      );
      expect(described.join(' ')).toContain(
        'The request cannot have been received before the member joined the scheme',
      );
      await receivedOn.fill('');
      await receivedOn.pressSequentially(formatIrishDate(today));
      await receivedOn.press('Tab');
      await dialog.getByRole('button', { name: 'Record request' }).click();
      await seeNo(dialog, 'the record dialog');

      const table = page.getByRole('table', {
        name: 'Data-subject requests, the earliest due first',
      });
      const row = table.getByRole('row', { name: /Máire Ní Fhlatharta/ });
      await see(row);
      expect(await shownText(row)).toContain('days left');
      expect(await shownText(row)).toContain('Open');
      await e2e.checkPage(page, 'recorded');

      // On a phone the register scrolls sideways, but a row's buttons stay at its right edge, in
      // view before anything is scrolled.
      await page.setViewportSize({ width: 390, height: 844 });
      const extendButton = row.getByRole('button', { name: /^Extend: / });
      await expect
        .poll(async () => {
          const box = await extendButton.boundingBox();
          return box === null ? null : box.x + box.width <= 390;
        })
        .toBe(true);
      await e2e.checkPage(page, 'recorded-phone');
      await page.setViewportSize({ width: 1280, height: 720 });

      await extendButton.click();
      const extend = page.getByRole('dialog', { name: 'Extend a request' });
      await field(extend, 'What the member was told').fill(
        'Your records go back ten years and are held in two archives: we will answer within two more months',
      );
      await extend.getByRole('button', { name: 'Extend request' }).click();
      await seeNo(extend, 'the extend dialog');
      const extendedTo = extendedDueOn(dueOnFor(today));
      await expect.poll(() => shownText(row)).toContain('Extended');
      expect(await shownText(row)).toContain(
        `${dateInWords(extendedTo)} (extended from ${dateInWords(dueOnFor(today))})`,
      );
      await see(page.getByText(`Now due by ${dateInWords(extendedTo)}`, { exact: false }));
      expect(await row.getByRole('button', { name: /^Extend: / }).count()).toBe(0);

      // The firm's dashboard shows it among those still to be answered, with its clock.
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Dashboard' })
        .click();
      const waiting = await see(
        page
          .getByRole('table', {
            name: 'Data-subject requests still to be answered, the earliest due first',
          })
          .getByRole('row', { name: /Máire Ní Fhlatharta/ }),
      );
      expect(await shownText(waiting)).toContain(`due on ${dateInWords(extendedTo)}`);
      await e2e.checkPage(page, 'dashboard');
      await page.getByRole('link', { name: 'Every data request' }).click();

      await row.getByRole('button', { name: /^Complete: / }).click();
      const complete = page.getByRole('dialog', { name: 'Complete a request' });
      await field(complete, 'Note').fill('Copy of the data sent by registered post');
      await complete.getByRole('button', { name: 'Complete request' }).click();
      await seeNo(complete, 'the complete dialog');
      await expect.poll(() => shownText(row)).toContain('Answered in time');
      expect(await shownText(row)).toContain('Completed');
      expect(await row.getByRole('button').count()).toBe(0);
      await e2e.checkPage(page, 'completed');
    });
  },
);
