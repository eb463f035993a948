import { describe, expect, it } from 'vitest';
import {
  BREACH_STATUS_LABELS,
  DATA_CATEGORY_LABELS,
  RISK_TO_PEOPLE_LABELS,
} from '../../src/contracts/data-breach-rules.js';
import { formatIrishDate, momentInWords, todayInIreland } from '../../src/contracts/irish-dates.js';
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

/** The day (DD/MM/YYYY) and the time (HH:MM) a clock in Dublin reads at `at`, to the minute. */
function typedInIreland(at: Date): { day: string; time: string } {
  const time = momentInWords(at.toISOString()).split(', ')[1] ?? '';
  return { day: formatIrishDate(todayInIreland(at)), time };
}

/**
 * The personal-data breach register in the browser (docs/decisions/0138-personal-data-breaches.md):
 * a BrokerAdmin arrives signed out at the root address, signs in, opens Data breaches from the
 * navigation, records a breach the firm became aware of two hours ago, reads its 72-hour clock in
 * words, records the notification to the Data Protection Commission and closes the breach. The
 * instants are counted back from now, so the journey reads the same whenever it runs.
 */
describe.skipIf(browserSuiteSkipReason)(
  'the firm’s register of personal-data breaches',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    const e2e = useE2e('data-breaches');

    it('records a breach, shows its clock in words, records the notification and closes it', async () => {
      const title = 'Benefit statements e-mailed to the wrong member';
      const aware = typedInIreland(new Date(Date.now() - 2 * 60 * 60_000));

      const { page } = await e2e.open();
      await signInThroughForm(page, DEV_ACCOUNTS.brokerAdmin, '/');
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Data breaches' })
        .click();
      await see(page.getByRole('heading', { name: 'Data breaches' }));

      await page.getByRole('button', { name: 'Record a breach' }).click();
      const dialog = page.getByRole('dialog', { name: 'Record a breach' });
      await field(dialog, 'Title').fill(title);
      await field(dialog, 'What happened').fill(
        'Two annual benefit statements were sent to a member of another scheme.',
      );
      await field(dialog, 'Became aware: day').fill(aware.day);
      await field(dialog, 'Became aware: time').fill(aware.time);
      // The multi-select is opened from the keyboard: its frame, not its input, takes a click.
      await field(dialog, 'Kinds of personal data involved').focus();
      await page.keyboard.press('ArrowDown');
      await dialog.getByRole('option', { name: DATA_CATEGORY_LABELS.financial }).click();
      await dialog.getByRole('option', { name: DATA_CATEGORY_LABELS.identity }).click();
      await field(dialog, 'People affected, roughly').fill('2');
      await field(dialog, 'Risk to people').selectOption({ label: RISK_TO_PEOPLE_LABELS.risk });
      await dialog.getByRole('button', { name: 'Record breach' }).click();
      await seeNo(dialog, 'the breach dialog');

      const register = page.getByRole('table', {
        name: 'Personal-data breaches, the latest recorded first',
      });
      const row = await see(register.getByRole('row', { name: new RegExp(title) }));
      // Aware two hours ago, to the minute: 70 hours less some seconds are left.
      expect(await shownText(row)).toContain(
        '69 hours left to notify the Data Protection Commission',
      );
      expect(await shownText(row)).toContain(RISK_TO_PEOPLE_LABELS.risk);
      expect(await shownText(row)).toContain(BREACH_STATUS_LABELS.open);
      await e2e.checkPage(page, 'register');

      await row
        .getByRole('button', { name: `Record notification to the Commission: ${title}` })
        .click();
      const notify = page.getByRole('dialog', {
        name: 'Notification to the Data Protection Commission',
      });
      const notified = typedInIreland(new Date());
      await field(notify, 'Notified: day').fill(notified.day);
      await field(notify, 'Notified: time').fill(notified.time);
      await field(notify, 'The Commission’s reference').fill('BN-2026-0188');
      // Within the 72 hours, no reasons for a delay are asked.
      await seeNo(field(notify, 'Reasons for the delay'), 'the reasons for a delay');
      await notify.getByRole('button', { name: 'Record notification' }).click();
      await seeNo(notify, 'the notification dialog');
      await expect
        .poll(() => shownText(row))
        .toContain('The Commission was notified within 72 hours');
      expect(await shownText(row)).toContain('reference BN-2026-0188');
      expect(await shownText(row)).toContain(BREACH_STATUS_LABELS.notified);

      await row.getByRole('button', { name: `Close: ${title}` }).click();
      const closing = page.getByRole('dialog', { name: 'Close a breach' });
      await field(closing, 'Outcome').fill(
        'The member confirmed the e-mail was deleted; statements now go out after a second check.',
      );
      await closing.getByRole('button', { name: 'Close breach' }).click();
      await seeNo(closing, 'the closing dialog');
      await expect.poll(() => shownText(row)).toContain(BREACH_STATUS_LABELS.closed);
      expect(await row.getByRole('button').count()).toBe(0);
      await e2e.checkPage(page, 'closed');
    });
  },
);
