import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  dateInWords,
  formatIrishDate,
  todayInIreland,
} from '../../src/contracts/irish-dates.js';
import { DATA_ISSUES } from '../../src/contracts/statement-rules.js';
import { RUN_STATUS_NAMES } from '../../src/contracts/statements.js';
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
import { flowing, readPdf } from '../helpers/pdf-text.js';
import { newPpsNumber } from '../helpers/pps.js';

/**
 * Pension Benefit Statements in the browser (docs/decisions/0141-pension-benefit-statements.md):
 * a broker's user starts a run for a DB scheme, follows it until its statements are ready, reads
 * the member whose data failed a check and the totals, and opens a statement as its member will
 * see it; the trustees' side (a BrokerAdmin, as the policy says) approves it from the link they
 * were sent; the user issues it; the member signs in from the root address and opens their own
 * statement in the portal. Everyone arrives signed out.
 */
describe.skipIf(browserSuiteSkipReason)(
  'Pension Benefit Statements in the browser',
  { timeout: JOURNEY_TIMEOUT * 2 },
  () => {
    const e2e = useE2e('benefit-statements');
    const scheme = 'Barrow Valley Mills DB Scheme';
    const brokerUser: Credentials = {
      email: 'caoimhe.brennan@dev-brokers.example.ie',
      password: 'Graiguenamanagh-Weir-Heron-5821',
    };
    const member: Credentials = {
      email: 'seamus.doran@barrowvalley.example.ie',
      password: 'Borris-Viaduct-Otter-7719',
    };

    /** Types a date into a date field day first, as a person does, and leaves the field. */
    async function typeDate(input: Locator, isoDate: string): Promise<void> {
      await input.fill('');
      await input.pressSequentially(formatIrishDate(isoDate));
      await input.press('Tab');
    }

    /** The PDF a button hands to the browser, read back as text. */
    async function pdfFrom(page: Page, button: Locator): Promise<string> {
      const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
      expect(download.suggestedFilename()).toMatch(/\.pdf$/);
      return flowing(readPdf(readFileSync(await download.path())).text);
    }

    it('a run is started, checked, approved by the trustees’ side, issued and read by the member', async () => {
      const today = todayInIreland(new Date());
      // Yesterday's figures: a member who joined today joined after them, and is listed.
      const informationDate = addDays(today, -1);
      const broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      const { id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
        name: 'Barrow Valley Mills Ltd',
      });
      const { id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
        employerId,
        name: scheme,
        type: 'DB',
      });
      const { id: memberId } = await broker.call<{ id: string }>(
        'POST',
        `/api/schemes/${schemeId}/members`,
        {
          firstName: 'Séamus',
          lastName: 'Doran',
          dateOfBirth: '1972-03-14',
          dateJoined: '2004-09-01',
          salaryCents: 5_200_000,
          ppsNumber: newPpsNumber(),
        },
      );
      await broker.call('POST', `/api/schemes/${schemeId}/members`, {
        firstName: 'Gráinne',
        lastName: 'Kinsella',
        dateOfBirth: '1994-07-22',
        dateJoined: today,
        salaryCents: 3_900_000,
        ppsNumber: newPpsNumber(),
      });
      await invitedAccount(e2e.server, broker, '/api/users', {
        ...brokerUser,
        name: 'Caoimhe Brennan',
        role: 'BrokerUser',
      });
      await invitedAccount(e2e.server, broker, `/api/employers/${employerId}/users`, {
        ...member,
        name: 'Séamus Doran',
        role: 'Member',
        memberId,
      });

      // The firm's user starts the run from the scheme's page.
      const page = (await e2e.openAs(brokerUser, '/')).page;
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Schemes' })
        .click();
      await page.getByRole('link', { name: scheme, exact: true }).click();
      // The normal retirement age every statement projects to, and the DB scheme's accrual rate
      // and funding level, are set in the scheme's own form, checked by the API's own rules.
      await page.getByRole('button', { name: 'Edit scheme' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit scheme' });
      const retirementAge = field(edit, 'Normal retirement age (years)');
      await retirementAge.fill('49');
      await field(edit, 'Accrual rate').fill('60');
      await field(edit, 'Funding level').fill('96');
      await edit.getByRole('button', { name: 'Save', exact: true }).click();
      await see(
        edit.getByText('Enter the normal retirement age in whole years, from 50 to 75', {
          exact: false,
        }),
      );
      await see(
        edit.getByText('Enter the accrual rate as a fraction of salary a year, such as 1/60'),
      );
      await retirementAge.fill('65');
      await field(edit, 'Accrual rate').fill('1/60');
      await edit.getByRole('button', { name: 'Save', exact: true }).click();
      await seeNo(edit, 'the scheme’s edit dialog, closed once saved');
      await see(page.getByText('65 years', { exact: true }));
      await see(page.getByText('1/60 of salary for each year of service', { exact: true }));
      await see(page.getByText('96%', { exact: true }));
      await page.getByRole('tab', { name: 'Statements' }).click();
      await see(page.getByText('No statement run has been started for this scheme.'));
      // With no assumption set yet the service refuses every run: the dialog asks for the firm's
      // own set first, checked as the service checks it, then starts the run with it.
      await page.getByRole('button', { name: 'Start a run' }).click();
      const dialog = page.getByRole('dialog', { name: 'Start a statement run' });
      await see(
        dialog.getByText('There is no projection assumption set yet, and a run needs one', {
          exact: false,
        }),
      );
      expect(await dialog.getByRole('button', { name: 'Start the run' }).count()).toBe(0);
      await field(dialog, 'Name').fill('Pensions Authority guidance');
      await typeDate(field(dialog, 'For information dates from'), '2023-03-10');
      await field(dialog, 'Source').fill(
        'The Pensions Authority’s guidance on benefit statement projections, updated 10 March 2023',
      );
      await field(dialog, 'Best-estimate return a year (%)').fill('4.75');
      await field(dialog, 'Unfavourable return a year (%)').fill('1.5');
      await field(dialog, 'Inflation a year (%)').fill('2.5');
      // Salary growth left out, and an annuity factor past the schema's bound: refused in words.
      await field(dialog, 'Annuity factor').fill('250');
      await dialog.getByRole('button', { name: 'Add the set', exact: true }).click();
      await see(
        dialog.getByText('Enter salary growth as a percentage from 0 to 20', { exact: false }),
      );
      await see(dialog.getByText('Enter the annuity factor', { exact: false }));
      await field(dialog, 'Salary growth a year (%)').fill('2.5');
      await field(dialog, 'Annuity factor').fill('25');
      await dialog.getByRole('button', { name: 'Add the set', exact: true }).click();
      // The run's form follows, with the new set chosen.
      await see(dialog.getByRole('button', { name: 'Start the run', exact: true }));
      expect(
        await field(dialog, 'Projection assumptions').locator('option:checked').textContent(),
      ).toBe('Pensions Authority guidance, version 1, from 10 Mar 2023');
      await see(dialog.getByText('1 set to choose from: your firm’s own', { exact: true }));
      // The scheme's retirement age is set: the dialog gives no warning of it.
      expect(await dialog.getByText('The scheme’s details are incomplete').count()).toBe(0);
      // Sent without its dates, the form says what is missing in words, under each field.
      await dialog.getByRole('button', { name: 'Start the run', exact: true }).click();
      await see(dialog.getByText('This is required').first());
      await typeDate(field(dialog, 'Information date'), informationDate);
      await typeDate(field(dialog, 'Members to have their statements by'), addDays(today, 120));
      // The set just added is the one chosen: nothing to pick before starting.
      await dialog.getByRole('button', { name: 'Start the run', exact: true }).click();
      await seeNo(dialog, 'the dialog, closed once the run started');

      // The run's page follows the run until its statements are ready.
      await page.waitForURL((url) => url.pathname.startsWith('/statement-runs/'));
      const runPath = new URL(page.url()).pathname;
      await see(
        page.getByText(RUN_STATUS_NAMES.ready, { exact: true }),
        'the run, ready for the trustees',
      );
      const problems = page.getByRole('table', {
        name: 'What is missing or implausible in each member’s data',
      });
      const listed = await see(problems.getByRole('row', { name: /Gráinne Kinsella/ }));
      expect(await shownText(listed)).toContain(DATA_ISSUES.joined_after_information_date);
      expect(await problems.getByRole('row', { name: /Séamus Doran/ }).count()).toBe(0);
      const totals = page.getByRole('table', { name: 'Totals' });
      await see(totals.getByRole('row', { name: 'Members checked 2', exact: true }));
      await see(totals.getByRole('row', { name: 'Statements made 1', exact: true }));
      // The firm's user does not approve: the trustees' side does.
      expect(
        await page.getByRole('button', { name: 'Record the trustees’ approval' }).count(),
      ).toBe(0);
      await see(page.getByText(/The trustees’ side .* records their approval/));
      const preview = await pdfFrom(
        page,
        page.getByRole('button', { name: 'Open the statement of Séamus Doran (PDF)' }),
      );
      expect(preview).toContain(`Pension Benefit Statement: ${scheme}`);
      expect(preview).toContain('Séamus Doran');
      expect(preview).not.toContain('Gráinne');
      // The button stays at the table's right edge on a phone while the other columns scroll.
      expect(
        await page
          .getByRole('button', { name: 'Open the statement of Séamus Doran (PDF)' })
          .evaluate((button) => {
            const cell = button.closest('td');
            if (cell === null) return null;
            return cell.ownerDocument.defaultView?.getComputedStyle(cell).position;
          }),
      ).toBe('sticky');
      await e2e.checkPage(page, 'run-ready');

      // The trustees' side opens the link they were sent and approves.
      const admin = (await e2e.openAs(DEV_ACCOUNTS.brokerAdmin, runPath)).page;
      await admin.getByRole('button', { name: 'Record the trustees’ approval' }).click();
      const approval = admin.getByRole('dialog', { name: 'Record the trustees’ approval' });
      await approval.getByRole('button', { name: 'Approve', exact: true }).click();
      await seeNo(approval, 'the approval dialog');
      await see(admin.getByText(RUN_STATUS_NAMES.approved, { exact: true }));

      // The firm's user issues it.
      await page.reload();
      await page.getByRole('button', { name: 'Issue the statements' }).click();
      const issue = page.getByRole('dialog', { name: 'Issue the statements' });
      await issue.getByRole('button', { name: 'Issue', exact: true }).click();
      await seeNo(issue, 'the issue dialog');
      await see(page.getByText(RUN_STATUS_NAMES.issued, { exact: true }));
      await see(page.getByText('The statements were issued to the members.'));
      await e2e.checkPage(page, 'run-issued');

      // The member rang to ask for paper: the user marks it on his page, and it is on the run's
      // printing list.
      await see(
        page.getByText('No member has asked for this run’s statement on paper.', { exact: false }),
      );
      await page
        .getByRole('table', { name: 'Each statement as its member will see it' })
        .getByRole('link', { name: 'Séamus Doran' })
        .click();
      const staffView = page.getByRole('table', {
        name: 'The member’s Pension Benefit Statements, the latest first',
      });
      const onPaper = staffView.getByRole('checkbox', {
        name: `The member asked for the statement at ${dateInWords(informationDate)} on paper`,
      });
      await onPaper.check();
      await see(
        page.getByText(`The statement at ${dateInWords(informationDate)} is on the printing list.`),
      );
      expect(await onPaper.isChecked()).toBe(true);
      await page.goBack();
      const printing = page.getByRole('table', { name: 'Statements to print and post, by member' });
      await see(printing.getByRole('row', { name: /Séamus Doran/ }));
      await see(page.getByText('1 member asked for their statement on paper.'));

      // The member signs in from the root address and opens their statement.
      const portal = (await e2e.open()).page;
      await signInThroughForm(portal, member, '/');
      expect(new URL(portal.url()).pathname).toBe(`/members/${memberId}`);
      const own = portal.getByRole('table', {
        name: 'Your Pension Benefit Statements, the latest first',
      });
      await see(own.getByRole('row', { name: new RegExp(scheme) }));
      const open = own.getByRole('button', { name: /^Open the statement at .* \(PDF\)$/ });
      // Pinned to the table's right edge, as on the run's page, for a member on a phone.
      expect(
        await open.evaluate((button) => {
          const cell = button.closest('td');
          if (cell === null) return null;
          return cell.ownerDocument.defaultView?.getComputedStyle(cell).position;
        }),
      ).toBe('sticky');
      const statement = await pdfFrom(portal, open);
      expect(statement).toContain(`Pension Benefit Statement: ${scheme}`);
      expect(statement).toContain('Séamus Doran');
      // Paper is asked of the firm: the member is told so, and marks nothing himself.
      expect(await own.getByRole('checkbox').count()).toBe(0);
      await see(portal.getByText(/To have your statements on paper too, ask/));
      await e2e.checkPage(portal, 'member-statements');
    });
  },
);
