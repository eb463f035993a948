import { describe, expect, it } from 'vitest';
import { PPS_REVEAL_REASON_WORDS } from '../../src/contracts/pps-reveal.js';
import { DEV_ACCOUNTS } from '../helpers/built-server.js';
import {
  browserSuiteSkipReason,
  field,
  JOURNEY_TIMEOUT,
  see,
  seeNo,
  settled,
  shownText,
  signInThroughForm,
  useE2e,
} from '../helpers/e2e.js';
import { newPpsNumber } from '../helpers/pps.js';

/**
 * A PPS number revealed for a reason (docs/decisions/0145-a-reason-for-a-pps-reveal.md): a
 * BrokerAdmin, signed out at the root address, opens a member, is asked why before the number is
 * shown (another reason refused without its note, beside the field), reads who revealed it and
 * why, and finds the reason in words in the audit log, without the note.
 */
describe.skipIf(browserSuiteSkipReason)(
  'a PPS number revealed for a reason',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    const e2e = useE2e('pps-reveal');

    it('asks why, keeps the note with the reveal and shows the reason in the audit log', async () => {
      const broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      const { id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
        name: 'Shannon Ferries Ltd',
      });
      const scheme = 'Shannon Ferries Pension Scheme';
      const { id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
        employerId,
        name: scheme,
        type: 'DC',
      });
      const ppsNumber = newPpsNumber();
      await broker.call('POST', `/api/schemes/${schemeId}/members`, {
        firstName: 'Éamon',
        lastName: 'Ó Cuív',
        dateOfBirth: '1975-10-03',
        dateJoined: '2015-02-01',
        salaryCents: 5_200_000,
        ppsNumber,
      });

      const { page } = await e2e.open();
      await signInThroughForm(page, DEV_ACCOUNTS.brokerAdmin, '/');
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Schemes' })
        .click();
      await page.getByRole('link', { name: scheme }).click();
      await page.getByRole('link', { name: 'Éamon Ó Cuív' }).click();
      await page.getByRole('button', { name: 'Reveal', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Reveal PPS number' });

      // Another reason needs its note: refused beside the field, and nothing is shown.
      await field(dialog, 'Why do you need it?').click();
      await page.getByRole('option', { name: PPS_REVEAL_REASON_WORDS.other }).click();
      await dialog.getByRole('button', { name: 'Reveal', exact: true }).click();
      const note = field(dialog, 'Note');
      await expect.poll(() => note.getAttribute('aria-invalid')).toBe('true');
      await see(dialog.getByText('Say why you need the PPS number'));
      expect(await page.getByText(ppsNumber).count()).toBe(0);
      await e2e.checkPage(page, 'reveal-reason');

      await note.fill('Checking the number against the member’s P60 for 2025');
      await dialog.getByRole('button', { name: 'Reveal', exact: true }).click();
      await seeNo(dialog, 'the reveal dialog');
      expect(await shownText(page.getByLabel('PPS number', { exact: true }))).toBe(ppsNumber);
      await page.getByRole('button', { name: 'Hide now' }).click();

      // Who revealed it, when and why, with the note.
      await page.getByRole('button', { name: 'Who revealed it' }).click();
      const history = page.getByRole('dialog', { name: 'Who revealed the PPS number' });
      const row = await see(history.getByRole('row').nth(1));
      const rowText = await shownText(row);
      expect(rowText).toContain(PPS_REVEAL_REASON_WORDS.other);
      expect(rowText).toContain('Checking the number against the member’s P60 for 2025');
      await e2e.checkPage(page, 'reveals');
      await history.getByRole('button', { name: 'Close dialog' }).click();

      // The audit log gives the reason in words, never the note.
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Audit log' })
        .click();
      await settled(page);
      const records = page.getByRole('table', { name: 'Audit records, newest first' });
      const reveal = await see(
        records.getByRole('row').filter({ hasText: 'Revealed a member’s PPS number' }).first(),
      );
      await reveal.getByRole('button', { name: /^Show details/ }).click();
      const details = await see(records.getByText(/^PPS reveal reason:/));
      expect(await shownText(details)).toContain(PPS_REVEAL_REASON_WORDS.other);
      expect(await page.getByText('P60 for 2025').count()).toBe(0);
    });
  },
);
