import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../helpers/built-server.js';
import { DEV_ACCOUNTS } from '../helpers/built-server.js';
import {
  browserSuiteSkipReason,
  field,
  JOURNEY_TIMEOUT,
  see,
  seeNo,
  settled,
  shownText,
  useE2e,
} from '../helpers/e2e.js';
import {
  csvFile,
  MEMBER_HEADINGS,
  type MemberCsvRow,
  memberRow,
  membersCsv,
} from '../helpers/imports.js';
import { issuedPpsNumbers } from '../helpers/pps.js';

const CHECK_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVW';

/** The same number with another check letter: the typo a person makes, refused by the rule. */
function withWrongCheckLetter(ppsNumber: string): string {
  const letter = ppsNumber[7] ?? 'A';
  const wrong = CHECK_LETTERS[(CHECK_LETTERS.indexOf(letter) + 1) % CHECK_LETTERS.length];
  const typo = `${ppsNumber.slice(0, 7)}${wrong}${ppsNumber.slice(8)}`;
  // Looked for by the leak scan too, in the server's log.
  issuedPpsNumbers.add(typo);
  return typo;
}

/**
 * A BrokerUser's work on a scheme's members: a CSV import whose bad row is listed by
 * line and reason with nothing written, the corrected file imported, then a PPS reveal with its
 * confirmation and its record in the audit log.
 */
describe.skipIf(browserSuiteSkipReason)(
  'member records in the browser',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    const e2e = useE2e('member-records');
    const scheme = { id: '', name: 'Kinsale Boatyards DC Scheme' };
    const rows: MemberCsvRow[] = [
      memberRow({ 'First Name': 'Aoife', Surname: 'Ní Bhriain' }),
      memberRow({ 'First Name': 'Darragh', Surname: 'Fitzgerald' }),
      memberRow({ 'First Name': 'Órla', Surname: 'McCarthy' }),
    ];
    let api: ApiClient;

    beforeAll(async () => {
      // The scheme is not this journey's subject: seeded as the development BrokerAdmin.
      api = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      const employer = await api.call<{ id: string }>('POST', '/api/employers', {
        name: 'Kinsale Boatyards Ltd',
      });
      scheme.id = (
        await api.call<{ id: string }>('POST', '/api/schemes', {
          employerId: employer.id,
          name: scheme.name,
          type: 'DC',
        })
      ).id;
    });

    /**
     * Through the wizard's three steps with a file (text as UTF-8, or bytes as given); resolves
     * once its outcome is shown. `previewShows` is a cell the preview must show first.
     */
    async function importFile(
      page: Page,
      name: string,
      csv: string | Buffer,
      checkPages: boolean,
      previewShows?: string,
    ) {
      await see(page.getByRole('heading', { name: 'Import a CSV file' }));
      await page.getByRole('radio', { name: 'Members' }).check();
      const chooser = page.waitForEvent('filechooser');
      await field(page, 'CSV file').click();
      const buffer = typeof csv === 'string' ? Buffer.from(csv) : csv;
      await (await chooser).setFiles({ name, mimeType: 'text/csv', buffer });
      if (checkPages) await e2e.checkPage(page, 'import-wizard');
      await page.getByRole('button', { name: 'Preview the file' }).click();
      await see(page.getByText(name));
      if (previewShows) await see(page.getByRole('cell', { name: previewShows, exact: true }));
      if (checkPages) await e2e.checkPage(page, 'import-preview');
      await page.getByRole('button', { name: 'Start import' }).click();
      await see(page.getByRole('button', { name: 'Import another file' }));
    }

    it('lists the bad row of an import by line and reason, writes nothing, then imports the fixed file', async () => {
      const { page } = await e2e.openAs(DEV_ACCOUNTS.brokerAdmin, `/schemes/${scheme.id}`);
      await see(page.getByRole('heading', { name: scheme.name }));
      await page.getByRole('tab', { name: 'Imports' }).click();
      await page.getByRole('link', { name: 'Import a CSV file' }).click();

      // The second member's PPS number has a typo: the file's line 3 (the headings are line 1).
      const typo = rows.map((row, index) =>
        index === 1 ? { ...row, PPSN: withWrongCheckLetter(row.PPSN) } : row,
      );
      await importFile(page, 'kinsale-members.csv', membersCsv(typo), true);
      expect(
        await shownText(page.getByRole('alert').filter({ hasText: 'not imported' })),
      ).toContain('Nothing was written.');
      const issues = page.getByRole('table', { name: /^1 problem on 1 line/ });
      const issue = await see(issues.getByRole('row').filter({ hasText: 'PPS number' }));
      const cells = await issue.getByRole('cell').allTextContents();
      expect(cells).toEqual([
        '3',
        'PPSN',
        'Enter a PPS number: 7 digits and a matching check letter',
      ]);
      await e2e.checkPage(page, 'import-rejected');

      // Nothing was written: the scheme still has no members.
      await page.getByRole('link', { name: 'Back to the scheme' }).click();
      await see(page.getByText('This scheme has no members yet.'));

      // A heading the import does not read refuses the whole file: the preview says so beside a
      // Start import that cannot be pressed.
      await page.goto(`/schemes/${scheme.id}/import`);
      await see(page.getByRole('heading', { name: 'Import a CSV file' }));
      const chooser = page.waitForEvent('filechooser');
      await field(page, 'CSV file').click();
      await (await chooser).setFiles({
        name: 'kinsale-members-notes.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(
          csvFile([...MEMBER_HEADINGS, 'Notes'], rows as unknown as Array<Record<string, string>>),
        ),
      });
      await page.getByRole('button', { name: 'Preview the file' }).click();
      await see(
        page.getByText(
          'The service will refuse this file as it is: a heading (Notes) that this import does not read.',
          { exact: false },
        ),
      );
      expect(await page.getByRole('button', { name: 'Start import' }).isDisabled()).toBe(true);

      // The corrected file goes through, saved this time as Excel on Windows saves "CSV (Comma
      // delimited)": Windows-1252, a byte a character, with the payroll's Arrangement column
      // naming the scheme as the payroll writes it. The preview and the members list show the
      // fadas as typed.
      await page.goto(`/schemes/${scheme.id}/import`);
      const windows1252 = Buffer.from(
        csvFile(
          [...MEMBER_HEADINGS, 'Arrangement'],
          rows.map((row) => ({ ...row, Arrangement: scheme.name.toUpperCase() })),
        ),
        'latin1',
      );
      await importFile(page, 'kinsale-members-fixed.csv', windows1252, false, 'Órla');
      expect(await shownText(page.getByRole('status').filter({ hasText: 'Imported' }))).toContain(
        'Every row of the file was saved: 3 members from 3 rows.',
      );
      await e2e.checkPage(page, 'import-done');
      await page.getByRole('link', { name: 'Back to the scheme' }).click();
      const members = page.getByRole('table', { name: new RegExp(`^Members of ${scheme.name}`) });
      for (const row of rows) {
        await see(members.getByRole('link', { name: `${row['First Name']} ${row.Surname}` }));
      }
    });

    it('reveals a PPS number after a confirmation, says it is recorded, and the audit log shows it', async () => {
      const [aoife] = rows;
      if (!aoife) throw new Error('no member rows');
      const { page } = await e2e.openAs(DEV_ACCOUNTS.brokerAdmin, `/schemes/${scheme.id}`);
      await page.getByRole('link', { name: `${aoife['First Name']} ${aoife.Surname}` }).click();
      await see(page.getByRole('heading', { name: `${aoife['First Name']} ${aoife.Surname}` }));
      const memberId = new URL(page.url()).pathname.split('/')[2] ?? '';
      // Until revealed, only that a number is on file.
      expect(await page.getByText(aoife.PPSN).count()).toBe(0);

      await page.getByRole('button', { name: 'Reveal', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Reveal PPS number' });
      expect(await shownText(dialog)).toContain(
        'Every reveal is recorded in the audit log with your account, the time and the reason you give.',
      );
      await field(dialog, 'Why do you need it?').click();
      await page.getByRole('option', { name: 'Checking who the member is' }).click();
      await dialog.getByRole('button', { name: 'Reveal', exact: true }).click();
      await seeNo(dialog, 'the confirmation dialog');
      expect(await shownText(page.getByLabel('PPS number', { exact: true }))).toBe(aoife.PPSN);
      await see(
        page
          .getByRole('status')
          .filter({ hasText: 'This reveal has been recorded in the audit log.' }),
      );
      await e2e.checkPage(page, 'member-pps-revealed');
      // Hidden again on request, before its 30 seconds are up.
      await page.getByRole('button', { name: 'Hide now' }).click();
      expect(await page.getByText(aoife.PPSN).count()).toBe(0);

      // The audit log says what happened in words, naming the member, never the number; the
      // member's name shows that member's history.
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Audit log' })
        .click();
      await see(page.getByRole('heading', { name: 'Audit log' }));
      await settled(page);
      const records = page.getByRole('table', { name: 'Audit records, newest first' });
      const memberName = `${aoife['First Name']} ${aoife.Surname}`;
      const reveal = await see(
        records
          .getByRole('row')
          .filter({ hasText: 'Revealed a member’s PPS number' })
          .filter({ hasText: memberName }),
      );
      await reveal.getByRole('link', { name: memberName, exact: true }).click();
      await page.waitForURL((url) => url.searchParams.get('entityId') === memberId);
      await settled(page);
      // The row says it in words; the action's code is only in the record's details.
      const filtered = await shownText(records.getByRole('row').nth(1));
      expect(filtered).toContain('Revealed a member’s PPS number');
      expect(filtered).not.toContain('member.pps_decrypted');
      expect(await page.getByText(aoife.PPSN).count()).toBe(0);
      await e2e.checkPage(page, 'audit');
    });

    it('loads a member’s page, arrived at by its link, with one request for what it shows', async () => {
      const listed = await api.call<{ items: Array<{ id: string; firstName: string }> }>(
        'GET',
        `/api/schemes/${scheme.id}/members`,
      );
      const member = listed.items[0];
      if (!member) throw new Error('no member in the scheme');
      const link = `/members/${member.id}`;
      const { page } = await e2e.openAs(DEV_ACCOUNTS.brokerAdmin, link);
      await see(page.getByRole('heading', { name: 'Contributions', exact: true }));
      // A full load of the page, as when the link is opened again: every API request it makes.
      const asked: string[] = [];
      page.on('request', (request) => {
        const url = new URL(request.url());
        if (url.pathname.startsWith('/api/')) asked.push(`${request.method()} ${url.pathname}`);
      });
      await page.reload();
      await see(page.getByRole('heading', { name: 'Contributions', exact: true }));
      await see(page.getByRole('heading', { name: 'Monthly totals by kind' }));
      await settled(page);
      expect(asked.filter((request) => request.includes('/members/'))).toEqual([
        `GET /api/members/${member.id}/page`,
      ]);
      // Besides the page's own: the session and the signed-in account, which every page reads.
      expect(asked.length, asked.join(', ')).toBeLessThanOrEqual(3);
      expect(page.url()).toContain(link);
    });

    it('says in plain words that a sort orders the members shown, while more are still to load', async () => {
      // Enough members for a second page: the list shows 50 at a time.
      const more = Array.from({ length: 50 }, () => memberRow());
      const { page } = await e2e.openAs(DEV_ACCOUNTS.brokerAdmin, `/schemes/${scheme.id}/import`);
      await importFile(page, 'kinsale-members-more.csv', membersCsv(more), false);
      await page.getByRole('link', { name: 'Back to the scheme' }).click();
      const members = page.getByRole('table', { name: new RegExp(`^Members of ${scheme.name}`) });
      await see(members);
      await see(page.getByRole('button', { name: 'Load more' }));
      // No sort yet, nothing to say; the table's caption names the scheme's members, nothing more.
      expect(await shownText(members.locator('caption'))).toBe(`Members of ${scheme.name}`);
      await seeNo(page.getByText(/^Sorted by/), 'a sort’s note before any sort');
      await members.getByRole('button', { name: 'Name' }).click();
      expect(await shownText(page.getByRole('status').filter({ hasText: /^Sorted by/ }))).toBe(
        'Sorted by name: the 50 members shown here only. Load more to sort the rest with them.',
      );
      await e2e.checkPage(page, 'scheme-members-sorted');
      await page.getByRole('button', { name: 'Load more' }).click();
      await seeNo(page.getByText(/^Sorted by/), 'the note, once every member is shown');
      await seeNo(page.getByText('Sorting orders the members loaded so far'), 'the old wording');
    });
  },
);
