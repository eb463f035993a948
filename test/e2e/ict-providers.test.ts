import { readFileSync } from 'node:fs';
import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { formatIrishDate } from '../../src/contracts/irish-dates.js';
import { DEV_ACCOUNTS } from '../helpers/built-server.js';
import { NAMED_OPERATOR } from '../helpers/config.js';
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

/** Types a date into a date field day first, as a person does, and leaves the field. */
async function typeDate(input: Locator, isoDate: string): Promise<void> {
  await input.fill('');
  await input.pressSequentially(formatIrishDate(isoDate));
  await input.press('Tab');
}

/**
 * The firm's register of ICT providers in the browser (docs/decisions/0139-dora-ict-incidents.md,
 * "The firm's other ICT providers"): a BrokerAdmin arrives signed out at the root address, signs
 * in, opens ICT providers from the navigation, adds a provider whose LEI is mistyped and is told
 * why in words, corrects it, finds it listed as current with its service type in the annex's
 * words, records the end of its arrangement, finds it listed as ended, and downloads the register
 * of information from the same page.
 */
describe.skipIf(browserSuiteSkipReason)(
  'the firm’s register of ICT providers',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    // The platform named, so that the register of information can be made.
    const e2e = useE2e('ict-providers', () => ({ ...NAMED_OPERATOR }));

    it('adds a provider, refusing a mistyped LEI in words, records its end and downloads the register of information', async () => {
      const name = 'Harbour Payroll Services';

      const { page } = await e2e.open();
      await signInThroughForm(page, DEV_ACCOUNTS.brokerAdmin, '/');
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'ICT providers' })
        .click();
      await see(page.getByRole('heading', { name: 'ICT providers' }));

      await page.getByRole('button', { name: 'Add a provider' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add a provider' });
      await field(dialog, 'Name').fill(name);
      await field(dialog, 'Identifier type').selectOption('LEI');
      await field(dialog, 'LEI or EUID').fill('635400-HPS');
      expect(await field(dialog, 'Country').inputValue()).toBe('IE');
      await field(dialog, 'ICT service').selectOption({ label: 'Cloud services: SaaS (S19)' });
      await field(dialog, 'Contract reference').fill('HPS-2025-014');
      await typeDate(field(dialog, 'Contract start'), '2025-02-01');
      await field(dialog, 'Supports a critical or important function').check();
      await dialog.getByRole('button', { name: 'Add provider' }).click();
      await see(
        dialog.getByText('An LEI is 20 characters: 18 capital letters or digits, then two digits'),
        'the LEI refused in words',
      );
      await e2e.checkPage(page, 'lei-refused');

      await field(dialog, 'LEI or EUID').fill('635400EXAMPLE0LEI012');
      await dialog.getByRole('button', { name: 'Add provider' }).click();
      await seeNo(dialog, 'the dialog, closed once the provider is added');

      const register = page.getByRole('table', { name: 'ICT providers, the latest added first' });
      const row = await see(register.getByRole('row', { name: new RegExp(name) }));
      const listed = await shownText(row);
      for (const shown of [
        'LEI: 635400EXAMPLE0LEI012',
        'Cloud services: SaaS (S19)',
        'HPS-2025-014',
        'From 1 Feb 2025',
        'Current',
      ]) {
        expect(listed).toContain(shown);
      }
      await e2e.checkPage(page, 'listed');

      await row.getByRole('button', { name: `Record the end: ${name}` }).click();
      const ending = page.getByRole('dialog', { name: 'Record the end' });
      await typeDate(field(ending, 'Last day of the arrangement'), '2026-01-31');
      await ending.getByRole('button', { name: 'Save end date' }).click();
      await seeNo(ending, 'the dialog, closed once the end is recorded');
      await expect.poll(() => shownText(row)).toContain('Ended on 31 Jan 2026');
      expect(await shownText(row)).toContain('From 1 Feb 2025 to 31 Jan 2026');
      await see(row.getByRole('button', { name: `Change: ${name}` }), 'an ended provider, kept');
      await e2e.checkPage(page, 'ended');

      // Before the download, the page says the firm has no LEI, and its BrokerAdmin sets it,
      // the LEI held to the same rule in words.
      const missing = page.getByRole('alert').filter({ hasText: 'LEIs missing from the register' });
      await see(missing.getByText(/has no LEI recorded/), 'the firm’s LEI, missing');
      await page.getByRole('button', { name: 'Set the firm’s LEI' }).click();
      const leiDialog = page.getByRole('dialog', { name: 'The firm’s LEI' });
      await field(leiDialog, 'LEI').fill('MURPHY');
      await leiDialog.getByRole('button', { name: 'Save LEI' }).click();
      await see(
        leiDialog.getByText(
          'An LEI is 20 characters: 18 capital letters or digits, then two digits',
        ),
        'the firm’s LEI refused in words',
      );
      await field(leiDialog, 'LEI').fill('635400murphybyrne012');
      await leiDialog.getByRole('button', { name: 'Save LEI' }).click();
      await seeNo(leiDialog, 'the dialog, closed once the LEI is saved');
      await see(page.getByText('Firm’s LEI: 635400MURPHYBYRNE012'));
      await seeNo(page.getByText(/has no LEI recorded/), 'the firm no longer missing');
      await e2e.checkPage(page, 'firm LEI set');

      // The register of information (ITS (EU) 2024/2956) downloads as a ZIP of its templates.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download the register of information' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(
        /^register-of-information-\d{4}-\d{2}-\d{2}\.zip$/,
      );
      const zip = readFileSync(await download.path());
      expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
      for (const template of ['B_01.01.csv', 'B_05.02.csv', 'B_99.01.csv']) {
        expect(zip.includes(template), template).toBe(true);
      }
    });
  },
);
