import { describe, expect, it } from 'vitest';
import { addDays, formatIrishDate, todayInIreland } from '../../src/contracts/irish-dates.js';
import { FIELD_MESSAGES } from '../../src/contracts/plain-english.js';
import { type Credentials, DEV_ACCOUNTS, invitedAccount } from '../helpers/built-server.js';
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

const CRON_SECRET = 'pension-value-journey-cron-secret-0001';

/**
 * A DC member signs in from the root address and reads first what their pension is worth: its
 * value, the units of each fund behind it and every transaction in plain words; then switches
 * what they hold into another fund and sees the switch under way, one at a time
 * (docs/decisions/0127-dc-money.md). On a desktop and on a phone. First, the firm's staff import
 * a fund's prices from a file they see before it is sent, and read what all members hold. (The
 * scheduled run invests once a day, so the journeys call it once, in the member's.)
 */
describe.skipIf(browserSuiteSkipReason)(
  'a member’s pension value and a fund switch',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    const e2e = useE2e('pension-value', () => ({ CRON_SECRET }));

    it('lets the firm import prices it sees first, every problem by line, and read what all members hold', async () => {
      const broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      const { id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
        name: 'Kenmare Lace Ltd',
      });
      const scheme = 'Kenmare Lace DC Scheme';
      const { id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
        employerId,
        name: scheme,
        type: 'DC',
      });
      const { id: growth } = await broker.call<{ id: string }>(
        'POST',
        `/api/schemes/${schemeId}/funds`,
        { name: 'Kenmare Growth Fund', isin: 'IE00B4L5Y983', annualChargeBasisPoints: 100 },
      );
      const { id: memberId } = await broker.call<{ id: string }>(
        'POST',
        `/api/schemes/${schemeId}/members`,
        {
          firstName: 'Peig',
          lastName: 'Sayers',
          dateOfBirth: '1973-03-29',
          dateJoined: '2015-09-01',
          salaryCents: 3_900_000,
          ppsNumber: newPpsNumber(),
        },
      );
      await broker.call('PUT', `/api/members/${memberId}/fund-choices`, {
        allocations: [{ fundId: growth, percent: 100 }],
      });
      const today = todayInIreland(new Date());
      await broker.call('POST', `/api/members/${memberId}/contributions`, {
        period: today.slice(0, 7),
        kind: 'employer',
        amountCents: 25_000,
      });

      const { page } = await e2e.open();
      await signInThroughForm(page, DEV_ACCOUNTS.brokerAdmin, '/');
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Schemes' })
        .click();
      await page.getByRole('link', { name: scheme }).click();
      await page.getByRole('tab', { name: 'Funds' }).click();
      const funds = page.getByRole('table', { name: `Funds of ${scheme}, closed ones included` });
      const row = await see(funds.getByRole('row', { name: /Kenmare Growth Fund/ }));
      expect(await shownText(row)).toContain('1.00% a year');

      // A file with a fund the scheme does not have and a day to come: both shown, nothing sent.
      const yesterday = addDays(today, -1);
      const tomorrow = addDays(today, 1);
      await page.getByRole('button', { name: 'Import prices' }).click();
      const dialog = page.getByRole('dialog', { name: 'Import prices' });
      const choose = async (name: string, text: string) => {
        const chooser = page.waitForEvent('filechooser');
        await field(dialog, 'Prices file').click();
        await (await chooser).setFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
      };
      await choose(
        'prices-wrong.csv',
        `Fund,Date,Price\nGold Fund,${formatIrishDate(yesterday)},1.5\nKenmare Growth Fund,${formatIrishDate(tomorrow)},1.25\n`,
      );
      const problems = await see(
        dialog.getByRole('table', { name: 'Problems, by line of the file' }),
      );
      expect(await shownText(problems)).toContain('no fund of this scheme has this name or ISIN');
      expect(await shownText(problems)).toContain('the day is after today');
      expect(await dialog.getByRole('button', { name: 'Import prices' }).isDisabled()).toBe(true);

      await choose(
        'prices.csv',
        `Fund,Date,Price\nIE00B4L5Y983,${formatIrishDate(yesterday)},1.2\nkenmare growth fund,${formatIrishDate(today)},1.25\n`,
      );
      const preview = await see(dialog.getByRole('table', { name: '2 prices in the file' }));
      expect(await shownText(preview)).toContain('€1.250000');
      await dialog.getByRole('button', { name: 'Import 2 prices' }).click();
      await seeNo(dialog, 'the import dialog');
      await see(page.getByText('2 prices recorded.'));
      const recorded = await broker.call<{ items: Array<{ on: string; price: string }> }>(
        'GET',
        `/api/funds/${growth}/prices`,
      );
      expect(recorded.items).toEqual([
        { on: yesterday, price: '1.200000', corrected: false },
        { on: today, price: '1.250000', corrected: false },
      ]);

      // Each fund's prices, newest first, and one more recorded by hand.
      await row.getByRole('button', { name: 'Prices of Kenmare Growth Fund' }).click();
      const prices = page.getByRole('dialog', { name: 'Prices of Kenmare Growth Fund' });
      const history = await see(prices.getByRole('table', { name: /Unit prices of Kenmare/ }));
      expect(await shownText(history.getByRole('row').nth(1))).toContain('€1.250000');
      await field(prices, 'Day').fill(formatIrishDate(addDays(today, -2)));
      await field(prices, 'Unit price (€)').fill('1,19');
      await prices.getByRole('button', { name: 'Record price' }).click();
      // A comma is refused, never read as a decimal point, and nothing is recorded.
      await see(prices.getByText(FIELD_MESSAGES.unitPrice));
      expect(await history.getByRole('row').count()).toBe(3);
      await field(prices, 'Unit price (€)').fill('1.19');
      await prices.getByRole('button', { name: 'Record price' }).click();
      await see(page.getByText('1 price recorded.'));
      await see(history.getByRole('row').nth(3));
      expect(await shownText(history.getByRole('row').nth(3))).toContain('€1.190000');
      await prices.getByRole('button', { name: 'Close dialog' }).click();

      // Until the day's run invests it, the trustees' view shows the money waiting.
      const assets = await see(
        page.getByRole('table', { name: 'Units held in each fund, by all members' }),
      );
      const waiting = await see(assets.getByRole('row', { name: /waiting to be invested/ }));
      expect(await shownText(waiting)).toContain('€250.00');
      await e2e.checkPage(page, 'fund-assets');
    });

    it('shows the member what their pension is worth and lets them switch funds', async () => {
      const broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      const { id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
        name: 'Dingle Distillery Ltd',
      });
      const { id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
        employerId,
        name: 'Dingle Distillery DC Scheme',
        type: 'DC',
      });
      const fund = async (name: string) =>
        (
          await broker.call<{ id: string }>('POST', `/api/schemes/${schemeId}/funds`, {
            name,
            annualChargeBasisPoints: 75,
          })
        ).id;
      const equity = await fund('Irish Equity Fund');
      const cash = await fund('Euro Cash Fund');
      const { id: memberId } = await broker.call<{ id: string }>(
        'POST',
        `/api/schemes/${schemeId}/members`,
        {
          firstName: 'Máire',
          lastName: 'Ní Bhriain',
          dateOfBirth: '1984-06-12',
          dateJoined: '2019-02-01',
          salaryCents: 5_200_000,
          ppsNumber: newPpsNumber(),
        },
      );
      await broker.call('PUT', `/api/members/${memberId}/fund-choices`, {
        allocations: [{ fundId: equity, percent: 100 }],
      });
      const today = todayInIreland(new Date());
      await broker.call('POST', `/api/members/${memberId}/contributions`, {
        period: today.slice(0, 7),
        kind: 'employee',
        amountCents: 100_000,
      });
      await broker.call('POST', `/api/funds/${equity}/prices`, {
        prices: [{ on: today, price: '2.000000' }],
      });
      await broker.call('POST', `/api/funds/${cash}/prices`, {
        prices: [{ on: today, price: '1.000000' }],
      });
      const maire: Credentials = {
        email: 'maire@dingle.example.ie',
        password: 'Conor-Pass-Fog-Kettle-7731',
      };
      await invitedAccount(e2e.server, broker, `/api/employers/${employerId}/users`, {
        ...maire,
        name: 'Máire Ní Bhriain',
        role: 'Member',
        memberId,
      });

      const { page } = await e2e.open();
      await signInThroughForm(page, maire, '/');
      expect(new URL(page.url()).pathname).toBe(`/members/${memberId}`);
      // Before the money is invested nothing is held: no switch is offered, and the page says
      // where the waiting money goes.
      await see(
        page.getByText('You hold nothing in the funds yet, so there is nothing to switch.', {
          exact: false,
        }),
      );
      expect(await page.getByRole('button', { name: 'Switch funds' }).isDisabled()).toBe(true);
      // The scheduler's daily call invests what is due.
      const invested = await fetch(`${e2e.server.baseUrl}/api/cron/investments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${CRON_SECRET}` },
      });
      expect(invested.status, await invested.clone().text()).toBe(200);
      // This member's contribution, and the one the firm's journey left waiting.
      expect(await invested.json()).toMatchObject({ outcome: 'succeeded', invested: 2 });

      await page.reload();
      // The value leads the page.
      await see(page.getByRole('heading', { name: 'What your pension is worth' }));
      const headings = (await page.getByRole('heading', { level: 3 }).allTextContents()).map(
        (text) => text.trim(),
      );
      expect(headings[0]).toBe('What your pension is worth');
      expect(await shownText(await see(page.getByTestId('pension-value')))).toBe('€1,000.00');
      const held = page.getByRole('table', { name: 'Units held in each fund' });
      const equityRow = await see(held.getByRole('row', { name: /Irish Equity Fund/ }));
      expect(await shownText(equityRow)).toContain('500.000000');
      const movements = page.getByRole('table', { name: 'Every movement of units, newest first' });
      const bought = await see(movements.getByRole('row', { name: /Contribution invested/ }));
      expect(await shownText(bought)).toContain('€1,000.00');
      await e2e.checkPage(page, 'pension-value-desktop');

      // A switch of everything into cash: 100% and nothing else.
      await page.getByRole('button', { name: 'Switch funds' }).click();
      const dialog = page.getByRole('dialog', { name: 'Switch funds' });
      const submit = dialog.getByRole('button', { name: 'Switch funds' });
      expect(await submit.isDisabled()).toBe(true);
      await dialog.getByRole('textbox', { name: 'Percent in Euro Cash Fund' }).fill('100');
      await see(dialog.getByText('The total is 100%.'));
      await submit.click();
      await seeNo(dialog, 'the switch dialog');
      const underWay = await see(
        page.getByRole('status').filter({ hasText: 'A switch is under way' }),
      );
      expect(await shownText(underWay)).toContain('Euro Cash Fund 100%');
      // One at a time: no second switch while this one is under way.
      expect(await page.getByRole('button', { name: 'Switch funds' }).isDisabled()).toBe(true);
      const switches = await broker.call<{ items: Array<{ status: string; to: unknown[] }> }>(
        'GET',
        `/api/members/${memberId}/switches`,
      );
      expect(switches.items).toEqual([
        expect.objectContaining({
          status: 'pending',
          to: [expect.objectContaining({ fundId: cash, percent: 100 })],
        }),
      ]);

      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await see(page.getByRole('heading', { name: 'What your pension is worth' }));
      await e2e.checkPage(page, 'pension-value-phone');
    });
  },
);
