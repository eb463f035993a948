import { describe, expect, it } from 'vitest';
import { todayInIreland } from '../../src/contracts/irish-dates.js';
import { type Credentials, DEV_ACCOUNTS, invitedAccount } from '../helpers/built-server.js';
import {
  browserSuiteSkipReason,
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
 * (docs/decisions/0127-dc-money.md). On a desktop and on a phone.
 */
describe.skipIf(browserSuiteSkipReason)(
  'a member’s pension value and a fund switch',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    const e2e = useE2e('pension-value', () => ({ CRON_SECRET }));

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
      // The scheduler's daily call invests what is due.
      const invested = await fetch(`${e2e.server.baseUrl}/api/cron/investments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${CRON_SECRET}` },
      });
      expect(invested.status, await invested.clone().text()).toBe(200);
      expect(await invested.json()).toMatchObject({ invested: 1 });

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
