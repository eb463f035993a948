import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { PAYROLL_COLUMNS } from '../../src/contracts/auto-enrolment.js';
import {
  AE_REASONS,
  AE_RULES,
  SHORTFALL_PERIOD,
} from '../../src/contracts/auto-enrolment-rules.js';
import { todayInIreland } from '../../src/contracts/irish-dates.js';
import {
  type ApiClient,
  type Credentials,
  DEV_ACCOUNTS,
  invitedAccount,
} from '../helpers/built-server.js';
import {
  browserSuiteSkipReason,
  field,
  JOURNEY_TIMEOUT,
  see,
  settled,
  shownText,
  useE2e,
} from '../helpers/e2e.js';
import { csvFile } from '../helpers/imports.js';
import { newPpsNumber } from '../helpers/pps.js';

const HEADINGS = [
  PAYROLL_COLUMNS.ppsNumber[0],
  PAYROLL_COLUMNS.firstName[0],
  PAYROLL_COLUMNS.lastName[0],
  PAYROLL_COLUMNS.dateOfBirth[0],
  PAYROLL_COLUMNS.periodStart[0],
  PAYROLL_COLUMNS.periodEnd[0],
  PAYROLL_COLUMNS.grossPay[0],
  PAYROLL_COLUMNS.employeePension[0],
  PAYROLL_COLUMNS.employerPension[0],
  PAYROLL_COLUMNS.arrangement[0],
];

/** The first and last days of the calendar month `back` months before this one, in Ireland. */
function monthBefore(back: number): { start: string; end: string } {
  const [year, month] = todayInIreland(new Date()).split('-').map(Number);
  const first = new Date(Date.UTC(year ?? 1970, (month ?? 1) - 1 - back, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0));
  return { start: first.toISOString().slice(0, 10), end: last.toISOString().slice(0, 10) };
}

/** A year's age ago from today, as a date of birth of someone in the middle of that year. */
function bornYearsAgo(years: number): string {
  const today = todayInIreland(new Date());
  return `${Number(today.slice(0, 4)) - years}-01-15`;
}

interface Person {
  pps: string;
  first: string;
  last: string;
  born: string;
  grossPay: string;
  employee: string;
  employer: string;
  arrangement: 'scheme' | 'PRSA' | '';
}

/**
 * The auto-enrolment browser journey (docs/decisions/0068-auto-enrolment-readiness.md): an
 * EmployerAdmin arrives signed out, uploads a payroll file with a bad row (shown by line, nothing
 * stored), then the corrected file, follows its progress, opens the assessment, filters it, reads a
 * reason with its citation and downloads the CSV, which must be safe to open in a spreadsheet; the
 * broker then sees the employer on the firm's dashboard, opens its assessment and reads the
 * ten-year cost comparison. Every page is checked with axe.
 */
describe.skipIf(browserSuiteSkipReason)(
  'automatic-enrolment readiness in the browser',
  { timeout: JOURNEY_TIMEOUT * 2 },
  () => {
    const e2e = useE2e('auto-enrolment');
    const employer = 'Bantry Bay Joinery Ltd';
    const scheme = 'Bantry Bay Joinery DC Scheme';
    const employerAdmin: Credentials = {
      email: 'payroll@bantry-joinery.example.ie',
      password: 'Whiddy-Island-Chisel-4417',
    };
    let broker: ApiClient;
    let employerId = '';
    let schemeId = '';

    const people: Person[] = [
      // Eligible, with nothing through payroll: My Future Fund would enrol her.
      {
        pps: newPpsNumber(),
        first: 'Caoimhe',
        last: 'Ó Súilleabháin',
        born: bornYearsAgo(34),
        grossPay: '4000.00',
        employee: '0.00',
        employer: '0.00',
        arrangement: '',
      },
      // In the scheme, the employer paying 0.5%: below the standard. The name starts with a
      // sign a spreadsheet would take for a formula.
      {
        pps: newPpsNumber(),
        first: 'Tadhg',
        last: '=Harrington',
        born: bornYearsAgo(41),
        grossPay: '5000.00',
        employee: '150.00',
        employer: '25.00',
        arrangement: 'scheme',
      },
      // In the scheme at 5% and 5%: exempt.
      {
        pps: newPpsNumber(),
        first: 'Nuala',
        last: 'Crowley',
        born: bornYearsAgo(47),
        grossPay: '4200.00',
        employee: '210.00',
        employer: '210.00',
        arrangement: 'scheme',
      },
      // Twenty: below the age band.
      {
        pps: newPpsNumber(),
        first: 'Eoin',
        last: 'Daly',
        born: bornYearsAgo(20),
        grossPay: '2600.00',
        employee: '0.00',
        employer: '0.00',
        arrangement: '',
      },
    ];

    /**
     * Two months of payroll for everyone, each month a line; one gross pay in words if asked, and
     * a column the service does not read if asked.
     */
    function payrollCsv(badGrossPayOf?: string, extraColumn?: string): string {
      return payrollCsvOf(people, badGrossPayOf, extraColumn);
    }

    function payrollCsvOf(
      who: readonly Person[],
      badGrossPayOf?: string,
      extraColumn?: string,
    ): string {
      const rows = [monthBefore(2), monthBefore(1)].flatMap((month, index) =>
        who.map((person) => ({
          [HEADINGS[0] as string]: person.pps,
          [HEADINGS[1] as string]: person.first,
          [HEADINGS[2] as string]: person.last,
          [HEADINGS[3] as string]: person.born,
          [HEADINGS[4] as string]: month.start,
          [HEADINGS[5] as string]: month.end,
          [HEADINGS[6] as string]:
            index === 0 && badGrossPayOf === person.first ? 'four thousand' : person.grossPay,
          [HEADINGS[7] as string]: person.employee,
          [HEADINGS[8] as string]: person.employer,
          // The scheme by its name as a payroll export writes it, in its own case.
          [HEADINGS[9] as string]:
            person.arrangement === 'scheme' ? scheme.toUpperCase() : person.arrangement,
          ...(extraColumn ? { [extraColumn]: 'Joinery' } : {}),
        })),
      );
      return csvFile(extraColumn ? [...HEADINGS, extraColumn] : HEADINGS, rows);
    }

    beforeAll(async () => {
      broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      ({ id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
        name: employer,
      }));
      ({ id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
        employerId,
        name: scheme,
        type: 'DC',
      }));
      await invitedAccount(e2e.server, broker, `/api/employers/${employerId}/users`, {
        ...employerAdmin,
        name: 'Bantry Payroll',
        role: 'EmployerAdmin',
      });
    }, 60_000);

    it('an EmployerAdmin uploads payroll, fixes a bad row, reads the assessment and downloads a formula-safe CSV', async () => {
      const { page } = await e2e.openAs(employerAdmin, '/');
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Automatic enrolment' })
        .click();
      await see(page.getByRole('heading', { name: 'Automatic enrolment', level: 2 }));
      await see(page.getByText('No employees yet'));
      await e2e.checkPage(page, 'assessment-empty');

      /** Through the wizard's first steps with a file, to its preview. */
      async function chooseAndPreview(name: string, csv: string, checkPages: boolean) {
        await see(page.getByRole('heading', { name: 'Upload a payroll file' }));
        // The Arrangement column takes the scheme's name; its id is shown only where another
        // scheme of the employer shares the name, and none does here.
        const arrangements = page.getByRole('table', {
          name: /^What the Arrangement column holds/,
        });
        await see(arrangements.getByRole('row').filter({ hasText: scheme }));
        expect(await arrangements.getByText(schemeId).count()).toBe(0);
        const chooser = page.waitForEvent('filechooser');
        await field(page, 'CSV file').click();
        await (await chooser).setFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
        if (checkPages) await e2e.checkPage(page, 'payroll-upload');
        await page.getByRole('button', { name: 'Preview the file' }).click();
        await see(page.getByText(name));
        if (checkPages) await e2e.checkPage(page, 'payroll-preview');
      }

      /** Through the wizard's steps with a file; resolves once its outcome is shown. */
      async function uploadFile(name: string, csv: string, checkPages: boolean) {
        await chooseAndPreview(name, csv, checkPages);
        await page.getByRole('button', { name: 'Start upload' }).click();
        await see(page.getByRole('button', { name: 'Upload another file' }));
      }

      // A Department column the service does not read is known from the preview: the file is not
      // offered for sending, and the reason stands beside the button.
      await page.getByRole('link', { name: 'Upload a payroll file' }).click();
      await chooseAndPreview(
        'bantry-payroll-department.csv',
        payrollCsv('Nuala', 'Department'),
        true,
      );
      const start = page.getByRole('button', { name: 'Start upload' });
      await expect.poll(() => start.isDisabled()).toBe(true);
      await see(
        page.getByText(/The service will refuse this file as it is: a heading \(Department\)/),
      );
      await page.getByRole('button', { name: 'Back' }).click();

      // Without it, Nuala's gross pay in the first month is still words: line 4 (the headings are
      // line 1), which only the service reads. Nothing is stored.
      await uploadFile('bantry-payroll.csv', payrollCsv('Nuala'), false);
      expect(
        await shownText(page.getByRole('alert').filter({ hasText: 'not imported' })),
      ).toContain('Nothing was written.');
      const problems = page.getByRole('table', { name: /^1 problem on 1 line/ });
      // Its line's row names the column, Gross Pay.
      const problem = await see(
        problems
          .getByRole('row')
          .filter({ has: page.getByRole('cell', { name: '4', exact: true }) }),
      );
      const cells = await problem.getByRole('cell').allTextContents();
      expect(cells.slice(0, 2)).toEqual(['4', 'Gross Pay']);
      expect(cells[2]).not.toContain('four thousand');
      await e2e.checkPage(page, 'payroll-rejected');

      // The corrected file, held back for a moment on its way so that its progress shows.
      await page.route('**/payroll/import?**', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        await route.continue();
      });
      await page.getByRole('button', { name: 'Upload another file' }).click();
      const chooser = page.waitForEvent('filechooser');
      await field(page, 'CSV file').click();
      await (await chooser).setFiles({
        name: 'bantry-payroll-fixed.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(payrollCsv()),
      });
      await page.getByRole('button', { name: 'Preview the file' }).click();
      await page.getByRole('button', { name: 'Start upload' }).click();
      await see(page.getByRole('progressbar', { name: 'Import progress' }));
      expect(await shownText(page.getByRole('status').filter({ hasText: 'Stored' }))).toContain(
        'All 8 payroll rows were stored',
      );
      await page.unroute('**/payroll/import?**');
      await e2e.checkPage(page, 'payroll-stored');

      await page.getByRole('link', { name: 'Open the assessment' }).click();
      await see(page.getByRole('heading', { name: 'Automatic enrolment', level: 2 }));
      const counts = page.getByRole('region', { name: 'Employees by status' });
      await see(counts.getByRole('region', { name: 'Below the standard: 1' }));
      await see(counts.getByRole('region', { name: 'Likely to be enrolled: 1' }));
      await see(counts.getByRole('region', { name: 'Exempt: 1' }));
      await see(
        counts.getByRole('region', { name: 'Likely exempt: confirm payroll reporting: 0' }),
      );
      await see(counts.getByRole('region', { name: 'Not eligible: 1' }));
      await e2e.checkPage(page, 'assessment');

      // What needs acting on comes first.
      const everyone = page.getByRole('table', { name: /^Every employee in the payroll/ });
      expect(await shownText(everyone.getByRole('row').nth(1))).toContain('Tadhg');

      // Only those below the standard, each reason in the rule module's words with its citation.
      await page.getByText('Below the standard (1)').click();
      const employees = page.getByRole('table', { name: /^Employees: below the standard/ });
      const rows = employees.getByRole('row');
      expect(await rows.count()).toBe(2);
      const tadhg = await see(rows.filter({ hasText: 'Tadhg' }));
      const why = await shownText(tadhg);
      expect(why).toContain(AE_REASONS.employer_below_minimum);
      expect(why).toContain(AE_RULES.minimumStandard.citation);
      expect(why).toMatch(/€\d/);
      // The shortfall says what it is over, beside a cost comparison that is a year's.
      await see(
        employees.getByRole('columnheader', {
          name: `Shortfall over ${SHORTFALL_PERIOD}`,
        }),
      );

      // The CSV: what the table shows, no cell a spreadsheet would run as a formula.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download CSV' }).click(),
      ]);
      const csv = readFileSync(await download.path(), 'utf8');
      expect(csv).toContain('Harrington');
      for (const line of csv.split(/\r?\n/)) {
        for (const cell of line.split(',')) {
          expect(cell.replace(/^"/, ''), `a cell of ${JSON.stringify(line)}`).not.toMatch(
            /^[=+\-@\t\r]/,
          );
        }
      }
      for (const person of people) expect(csv).not.toContain(person.pps);

      // Another day, typed day first: the window moves with it, and no one was paid in it.
      const asOf = field(page, 'Assess as of');
      await asOf.fill('');
      await asOf.pressSequentially('01/01/2026');
      await asOf.press('Tab');
      await see(counts.getByRole('region', { name: 'Not eligible: 4' }));
      expect(await shownText(page.getByText(/^Pay periods ending from/))).toBe(
        'Pay periods ending from 2 Oct 2025 to 1 Jan 2026 are assessed.',
      );
    });

    it('the broker sees the employer’s position on the dashboard and its ten-year cost comparison', async () => {
      // An employer that has uploaded no payroll file yet is said to have none, not shown a row of
      // noughts.
      const silent = 'Dunmore Ferries Ltd';
      await (await e2e.api(DEV_ACCOUNTS.brokerAdmin)).call('POST', '/api/employers', {
        name: silent,
      });
      const { page } = await e2e.openAs(DEV_ACCOUNTS.brokerAdmin, '/');
      const positions = page.getByRole('table', {
        name: 'Every employer’s employees by automatic-enrolment status',
      });
      const row = await see(positions.getByRole('row').filter({ hasText: employer }));
      // Below the standard, likely enrolled, likely exempt, exempt, not eligible.
      expect(await row.getByRole('cell').allTextContents()).toEqual(['1', '1', '0', '1', '1']);
      const none = positions.getByRole('row').filter({ hasText: silent });
      expect(await none.getByRole('cell').allTextContents()).toEqual([
        'No payroll file uploaded for these pay periods yet',
      ]);
      await e2e.checkPage(page, 'dashboard');
      await row.getByRole('link', { name: employer }).click();
      await see(page.getByRole('heading', { name: 'Automatic enrolment', level: 2 }));
      const cost = page.getByRole('table', { name: 'The employer’s cost a year, either way' });
      await see(cost);
      expect(await cost.getByRole('row').count()).toBe(11);
      // By calendar year: year 10 of the rate schedule is 2035.
      await see(cost.getByRole('row').filter({ hasText: '2035' }).getByText('6%'));

      // The PDF summary comes as a file of its own name.
      const [pdf] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download PDF summary' }).click(),
      ]);
      expect(pdf.suggestedFilename()).toBe('auto-enrolment-summary.pdf');
      expect(
        readFileSync(await pdf.path())
          .subarray(0, 5)
          .toString('latin1'),
      ).toBe('%PDF-');
      await settled(page);
      await e2e.checkPage(page, 'assessment-broker');
      await page.setViewportSize({ width: 390, height: 844 });
      await e2e.checkPage(page, 'assessment-phone');
    });
    it('an upload deleted after its confirmation leaves the assessment as it was', async () => {
      const newcomer: Person = {
        pps: newPpsNumber(),
        first: 'Siobhán',
        last: 'Kehoe',
        born: bornYearsAgo(29),
        grossPay: '3900.00',
        employee: '0.00',
        employer: '0.00',
        arrangement: '',
      };
      const { page } = await e2e.openAs(employerAdmin, `/employers/${employerId}/auto-enrolment`);
      const counts = page.getByRole('region', { name: 'Employees by status' });
      await see(counts.getByRole('region', { name: 'Likely to be enrolled: 1' }));
      await page.getByRole('link', { name: 'Upload a payroll file' }).click();
      const chooser = page.waitForEvent('filechooser');
      await field(page, 'CSV file').click();
      await (await chooser).setFiles({
        name: 'bantry-newcomer.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(payrollCsvOf([newcomer])),
      });
      await page.getByRole('button', { name: 'Preview the file' }).click();
      await page.getByRole('button', { name: 'Start upload' }).click();
      await see(page.getByRole('status').filter({ hasText: 'Stored' }));
      const likely = async () =>
        (
          await broker.call<{ totals: { likely_enrolled: number } }>(
            'GET',
            `/api/employers/${employerId}/auto-enrolment`,
          )
        ).totals.likely_enrolled;
      expect(await likely()).toBe(2);

      await page.getByRole('button', { name: 'Delete this upload' }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete the payroll upload' });
      expect(await shownText(dialog)).toContain('every employee no other upload names');
      await e2e.checkPage(page, 'payroll-delete');
      await dialog.getByRole('button', { name: 'Delete the upload' }).click();
      // Said once the service has answered: the page's heading was on screen all along.
      await see(page.getByText('Payroll upload deleted.'));
      await see(page.getByRole('heading', { name: 'Upload a payroll file' }));
      expect(await likely()).toBe(1);
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Automatic enrolment' })
        .click();
      await see(counts.getByRole('region', { name: 'Likely to be enrolled: 1' }));
      expect(await page.getByText('Kehoe').count()).toBe(0);
    });

    it('the assessment lists the uploads, newest first, and one is deleted from the list after its confirmation', async () => {
      const latecomer: Person = {
        pps: newPpsNumber(),
        first: 'Donncha',
        last: 'Moynihan',
        born: bornYearsAgo(36),
        grossPay: '3700.00',
        employee: '0.00',
        employer: '0.00',
        arrangement: '',
      };
      const { page } = await e2e.openAs(employerAdmin, `/employers/${employerId}/auto-enrolment`);
      const uploads = page.getByRole('table', { name: 'Payroll uploads' });
      await see(uploads);
      // The refused file and the stored one; the upload deleted before is gone from the list.
      const listed = uploads.getByRole('row');
      await see(listed.filter({ hasText: 'bantry-payroll-fixed.csv' }));
      expect(await listed.count()).toBe(3);
      const stored = await shownText(listed.filter({ hasText: 'bantry-payroll-fixed.csv' }));
      expect(stored).toContain('Stored');
      // Who uploaded it, by name and role in words, so that a question about it finds them.
      expect(stored).toContain('Bantry Payroll (Employer administrator)');
      expect(stored).not.toContain('EmployerAdmin');
      expect(stored).toContain('2 periods');
      expect(await shownText(listed.filter({ hasText: 'bantry-payroll.csv' }))).toContain(
        'Refused',
      );
      expect(await shownText(uploads)).not.toContain('bantry-newcomer.csv');
      await e2e.checkPage(page, 'assessment-uploads');
      // On a phone each status is read whole, never cut to "S…" and told from "R…" by colour.
      await page.setViewportSize({ width: 390, height: 844 });
      for (const status of ['Stored', 'Refused']) {
        const badge = uploads.getByText(status, { exact: true });
        expect(
          await badge.evaluate((label) => label.scrollWidth <= label.clientWidth),
          status,
        ).toBe(true);
      }
      await page.setViewportSize({ width: 1280, height: 800 });

      await page.getByRole('link', { name: 'Upload a payroll file' }).click();
      const chooser = page.waitForEvent('filechooser');
      await field(page, 'CSV file').click();
      await (await chooser).setFiles({
        name: 'bantry-latecomer.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(payrollCsvOf([latecomer])),
      });
      await page.getByRole('button', { name: 'Preview the file' }).click();
      await page.getByRole('button', { name: 'Start upload' }).click();
      await see(page.getByRole('status').filter({ hasText: 'Stored' }));
      await page.getByRole('link', { name: 'Open the assessment' }).click();
      const counts = page.getByRole('region', { name: 'Employees by status' });
      await see(counts.getByRole('region', { name: 'Likely to be enrolled: 2' }));
      expect(await shownText(listed.nth(1))).toContain('bantry-latecomer.csv');

      await uploads
        .getByRole('button', { name: 'Delete the upload of bantry-latecomer.csv' })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Delete the payroll upload' });
      expect(await shownText(dialog)).toContain('bantry-latecomer.csv');
      await dialog.getByRole('button', { name: 'Delete the upload' }).click();
      await see(counts.getByRole('region', { name: 'Likely to be enrolled: 1' }));
      await expect.poll(() => listed.count()).toBe(3);
      expect(await shownText(uploads)).not.toContain('bantry-latecomer.csv');
      expect(await page.getByText('Moynihan').count()).toBe(0);
    });
  },
);
