import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addDays,
  dateInWords,
  formatIrishDate,
  todayInIreland,
} from '../../src/contracts/irish-dates.js';
import { type ApiClient, DEV_ACCOUNTS } from '../helpers/built-server.js';
import {
  browserSuiteSkipReason,
  field,
  JOURNEY_TIMEOUT,
  see,
  seeNo,
  useE2e,
} from '../helpers/e2e.js';
import { registerName } from '../helpers/leak-registry.js';
import { newPpsNumber } from '../helpers/pps.js';

/** An American browser: its own date parsing reads 02/03/1985 as 3 February. */
const AMERICAN = { locale: 'en-US', timezoneId: 'America/New_York' };

const FORMAT_MESSAGE = 'Enter the date as DD/MM/YYYY, for example 31/01/1985';
const NO_SUCH_DAY_MESSAGE =
  'There is no such date: enter it day first, as DD/MM/YYYY, for example 31/01/1985';

interface MemberView {
  id: string;
  firstName: string;
  dateOfBirth: string;
  dateJoined: string;
}

interface FundChoiceView {
  effectiveFrom: string;
}

/** What a person does at a keyboard: clear the field, type the entry, move on with Tab. */
async function typeDate(input: Locator, entry: string): Promise<void> {
  await input.fill('');
  await input.pressSequentially(entry);
  await input.press('Tab');
}

/**
 * The field's own error, as a screen reader announces it (aria-describedby), once shown: introduced
 * as an error and ended as a sentence (docs/decisions/0126-field-errors-read-as-sentences.md).
 */
async function errorOf(page: Page, input: Locator): Promise<string> {
  await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true');
  const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(' ');
  const texts = await Promise.all(
    ids.filter(Boolean).map((id) => page.locator(`[id="${id}"]`).textContent()),
  );
  return texts.filter((text) => text?.startsWith('Error: ')).join(' ');
}

/** A message as the field's error is read: introduced as an error, closed with a full stop. */
const readAsError = (message: string) => `Error: ${message}.`;

/**
 * Dates are entered the Irish way, day first, whatever the browser's language
 * (docs/decisions/0050-irish-dates.md). In an American browser (en-US, New York time) a date typed
 * as 02/03/1985 is saved as 2 March 1985, exactly; a day that does not exist or a two-digit year is
 * refused under the field and nothing is sent; and a fund switch's date is typed or picked the same
 * way.
 */
describe.skipIf(browserSuiteSkipReason)(
  'dates typed day first in an American browser',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    const e2e = useE2e('irish-dates');
    const scheme = { id: '', name: 'Bantry Bay Mussels DC Scheme' };
    let api: ApiClient;

    beforeAll(async () => {
      // The scheme and its funds are not this journey's subject: seeded as the BrokerAdmin.
      api = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      const employer = await api.call<{ id: string }>('POST', '/api/employers', {
        name: 'Bantry Bay Mussels Ltd',
      });
      scheme.id = (
        await api.call<{ id: string }>('POST', '/api/schemes', {
          employerId: employer.id,
          name: scheme.name,
          type: 'DC',
        })
      ).id;
      await api.call('POST', `/api/schemes/${scheme.id}/funds`, { name: 'Irish Equity' });
    });

    const membersOfScheme = async () =>
      (await api.call<{ items: MemberView[] }>('GET', `/api/schemes/${scheme.id}/members`)).items;

    it('saves a member’s dates typed day first exactly, and refuses impossible or ambiguous ones', async () => {
      const { page } = await e2e.openAs(DEV_ACCOUNTS.brokerAdmin, '/', AMERICAN);
      // The browser is American: left to itself it reads 02/03/1985 month first.
      expect(await page.evaluate('navigator.language')).toBe('en-US');
      expect(await page.evaluate(() => new Date('02/03/1985').getMonth())).toBe(1);

      await page.goto(`/schemes/${scheme.id}`);
      await see(page.getByRole('heading', { name: scheme.name }));
      await page.getByRole('button', { name: 'Add member' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add member' });
      const firstName = registerName('Clodagh');
      const lastName = registerName('Ó Súilleabháin');
      await field(dialog, 'First name').fill(firstName);
      await field(dialog, 'Last name').fill(lastName);
      await field(dialog, 'Salary (€ a year)').fill('41,000.00');
      await field(dialog, 'PPS number').fill(newPpsNumber());
      const born = field(dialog, 'Date of birth');
      const joined = field(dialog, 'Date joined');
      await typeDate(joined, '1/6/2012');

      // 31 February does not exist: refused under the field, kept as typed, and never sent.
      await typeDate(born, '31/02/1990');
      expect(await errorOf(page, born)).toBe(readAsError(NO_SUCH_DAY_MESSAGE));
      expect(await born.inputValue()).toBe('31/02/1990');
      await e2e.checkPage(page, 'member-date-refused');
      await dialog.getByRole('button', { name: 'Add member' }).click();
      await see(dialog, 'the add-member dialog, still open');
      expect(await errorOf(page, born)).toBe(readAsError(NO_SUCH_DAY_MESSAGE));
      expect(await membersOfScheme()).toEqual([]);

      // A two-digit year could be 1985 or 2085: refused, never guessed.
      await typeDate(born, '02/03/85');
      expect(await errorOf(page, born)).toBe(readAsError(FORMAT_MESSAGE));
      await dialog.getByRole('button', { name: 'Add member' }).click();
      await see(dialog, 'the add-member dialog, still open');
      expect(await membersOfScheme()).toEqual([]);

      // Day first, as typed in Ireland: 2 March 1985, and 1 June 2012 (not 6 January).
      await typeDate(born, '02/03/1985');
      await expect.poll(() => born.getAttribute('aria-invalid')).not.toBe('true');
      expect(await born.inputValue()).toBe('02/03/1985');
      // Leaving the field writes the date out in full: what was understood is what is shown.
      expect(await joined.inputValue()).toBe('01/06/2012');
      await dialog.getByRole('button', { name: 'Add member' }).click();
      await seeNo(dialog, 'the add-member dialog');

      const [saved, ...others] = await membersOfScheme();
      expect(others).toEqual([]);
      expect(saved).toMatchObject({
        firstName,
        dateOfBirth: '1985-03-02',
        dateJoined: '2012-06-01',
      });
      const members = page.getByRole('table', { name: new RegExp(`^Members of ${scheme.name}`) });
      const row = await see(members.getByRole('row', { name: new RegExp(firstName) }));
      expect(await row.textContent()).toContain('2 Mar 1985');

      // Correcting the member shows the dates day first, and an impossible one is not saved.
      await row.getByRole('link', { name: `${firstName} ${lastName}` }).click();
      await see(page.getByRole('heading', { name: `${firstName} ${lastName}` }));
      await page.getByRole('button', { name: 'Edit member' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit member' });
      const bornAgain = field(edit, 'Date of birth');
      expect(await bornAgain.inputValue()).toBe('02/03/1985');
      await typeDate(bornAgain, '29/02/1985');
      expect(await errorOf(page, bornAgain)).toBe(readAsError(NO_SUCH_DAY_MESSAGE));
      await edit.getByRole('button', { name: 'Save' }).click();
      await see(edit, 'the edit dialog, still open');
      const [unchanged] = await membersOfScheme();
      expect(unchanged?.dateOfBirth).toBe('1985-03-02');
    });

    it('types or picks a fund switch’s date day first, and refuses one that does not exist', async () => {
      const member = await api.call<MemberView>('POST', `/api/schemes/${scheme.id}/members`, {
        firstName: registerName('Tadhg'),
        lastName: registerName('Ó Murchú'),
        dateOfBirth: '1990-11-05',
        dateJoined: '2015-02-01',
        salaryCents: 3_900_000,
        ppsNumber: newPpsNumber(),
      });
      const choices = async () =>
        (
          await api.call<{ items: FundChoiceView[] }>(
            'GET',
            `/api/members/${member.id}/fund-choices`,
          )
        ).items;
      // A day ahead whose day of the month is 12 or less and differs from its month, so that
      // reading it month first would give another date.
      const today = todayInIreland(new Date());
      let ahead = addDays(today, 2);
      while (Number(ahead.slice(8)) > 12 || ahead.slice(8) === ahead.slice(5, 7)) {
        ahead = addDays(ahead, 1);
      }

      const { page } = await e2e.openAs(DEV_ACCOUNTS.brokerAdmin, '/', AMERICAN);
      await page.goto(`/members/${member.id}`);
      const openEditor = async () => {
        await page.getByRole('button', { name: 'Change fund choice' }).click();
        const dialog = page.getByRole('dialog', { name: 'Change fund choice' });
        await field(dialog, 'Percent in Irish Equity').fill('100');
        return dialog;
      };

      const dialog = await openEditor();
      const effective = field(dialog, 'Effective from');
      await typeDate(effective, `31/02/${today.slice(0, 4)}`);
      expect(await errorOf(page, effective)).toBe(readAsError(NO_SUCH_DAY_MESSAGE));
      await dialog.getByRole('button', { name: 'Save fund choice' }).click();
      await see(dialog, 'the fund-choice dialog, still open');
      expect(await choices()).toEqual([]);

      await typeDate(effective, formatIrishDate(ahead));
      await dialog.getByRole('button', { name: 'Save fund choice' }).click();
      await seeNo(dialog, 'the fund-choice dialog');
      await expect.poll(async () => (await choices()).map((c) => c.effectiveFrom)).toEqual([ahead]);

      // Picked from the calendar: the day after tomorrow in Ireland, by its name.
      const picked = addDays(today, 2);
      const again = await openEditor();
      const pickFrom = field(again, 'Effective from');
      await pickFrom.click();
      const [year, month, day] = picked.split('-').map(Number);
      const label = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day)).toLocaleDateString(
        'en-GB',
        { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' },
      );
      const dayButton = page.getByRole('button', { name: label, exact: true });
      if (!(await dayButton.isVisible())) {
        await page.getByRole('button', { name: 'Next month' }).click();
      }
      await dayButton.click();
      expect(await pickFrom.inputValue()).toBe(formatIrishDate(picked));
      await again.getByRole('button', { name: 'Save fund choice' }).click();
      await seeNo(again, 'the fund-choice dialog');
      await expect
        .poll(async () => (await choices()).map((c) => c.effectiveFrom).sort())
        .toEqual([ahead, picked].sort());
      // Shown as every date of the web UI is, day first with the month in words.
      const history = page.getByRole('table', { name: 'Every fund choice, newest first' });
      await see(history.getByRole('cell', { name: dateInWords(ahead), exact: true }));
    });

    it('takes a pay period typed month first, MM/YYYY, as on a payslip and in the scheme’s grid', async () => {
      const member = await api.call<MemberView>('POST', `/api/schemes/${scheme.id}/members`, {
        firstName: registerName('Saoirse'),
        lastName: registerName('Ní Laoire'),
        dateOfBirth: '1992-04-07',
        dateJoined: '2019-01-01',
        salaryCents: 3_600_000,
        ppsNumber: newPpsNumber(),
      });
      const periods = async () =>
        (
          await api.call<{ items: Array<{ period: string }> }>(
            'GET',
            `/api/members/${member.id}/contributions`,
          )
        ).items.map((item) => item.period);
      const { page } = await e2e.openAs(
        DEV_ACCOUNTS.brokerAdmin,
        `/members/${member.id}`,
        AMERICAN,
      );
      await page.getByRole('button', { name: 'Add contribution' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add contribution' });
      const period = field(dialog, 'Pay period');
      // A text field taking MM/YYYY, not the browser's own month picker; it starts at this month.
      expect(await period.evaluate((input) => (input as unknown as { type: string }).type)).toBe(
        'text',
      );
      const thisMonth = todayInIreland(new Date()).slice(0, 7);
      expect(await period.inputValue()).toBe(`${thisMonth.slice(5)}/${thisMonth.slice(0, 4)}`);
      await field(dialog, 'Amount (€)').fill('125.00');
      // A two-digit year, and a month that does not exist, are refused under the field.
      for (const typed of ['3/26', '13/2026']) {
        await period.fill(typed);
        await dialog.getByRole('button', { name: 'Add contribution' }).click();
        expect(await errorOf(page, period)).toBe(
          readAsError('Enter the pay period as MM/YYYY, for example 10/2026'),
        );
      }
      expect(await periods()).toEqual([]);
      // March 2026 as a payslip writes it; leaving the field writes it out in full.
      await period.fill('3/2026');
      await period.press('Tab');
      expect(await period.inputValue()).toBe('03/2026');
      await dialog.getByRole('button', { name: 'Add contribution' }).click();
      await seeNo(dialog, 'the contribution dialog');
      expect(await periods()).toEqual(['2026-03']);
      const contributions = page.getByRole('table', {
        name: 'Contributions, newest pay period first',
      });
      await see(contributions.getByRole('cell', { name: 'Mar 2026', exact: true }));
      // The summary above counts it at once, without a reload.
      const summary = page.getByRole('region', { name: 'Pension summary' });
      await see(summary.getByRole('row', { name: /^Total paid in.*€125\.00/ }));
      await e2e.checkPage(page, 'member-pay-period');
    });
  },
);
