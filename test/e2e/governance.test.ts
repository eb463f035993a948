import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addYears,
  dateStatus,
  FITNESS_NAMES,
  GOVERNANCE_RULES,
  KEY_FUNCTION_NAMES,
  OBLIGATION_NAMES,
  OBLIGATION_OWNERS,
  OBLIGATION_STATUS_LABELS,
  POLICY_KIND_NAMES,
  requiredPolicyKinds,
} from '../../src/contracts/governance-rules.js';
import {
  addDays,
  dateInWords,
  formatIrishDate,
  todayInIreland,
} from '../../src/contracts/irish-dates.js';
import { DEFAULT_YEAR_END, RAC_KIND_NAMES } from '../../src/contracts/organisation.js';
import { FIELD_MESSAGES } from '../../src/contracts/plain-english.js';
import { sourceInWords } from '../../src/contracts/rule-sources.js';
import {
  addMonths,
  FILING_KIND_NAMES,
  FILING_KINDS,
  type FilingKind,
  filingDueOn,
  NEW_MEMBER_INFORMATION_WITHIN_MONTHS,
  SCHEME_YEAR_RULES,
  TRAINING_EVERY_YEARS,
  trackedPeriodEnd,
} from '../../src/contracts/scheme-year-rules.js';
import {
  type ApiClient,
  type Credentials,
  DEV_ACCOUNTS,
  invitedAccount,
} from '../helpers/built-server.js';
import { SAMPLES } from '../helpers/documents.js';
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
import { newPpsNumber } from '../helpers/pps.js';

/**
 * The governance browser journeys (docs/decisions/0059-governance-rules.md): a BrokerUser fills a
 * DC scheme's governance registers in the browser, confirms each trustee's fitness and probity and
 * records each key function holder's notification to the Pensions Authority, records the duties of
 * its scheme year (docs/decisions/0122-the-scheme-year.md: each trustee's training and the year's
 * filings) and sees its standing turn to OK, the scheme year's timeline moving on as each duty is
 * done; the internal-audit rule refuses a second function for its holder under the form; a scheme
 * whose own-risk assessment is overdue shows on the governance dashboard with its due date, and first
 * in the compliance calendar as it opens; a new RAC is asked its kind and takes its own year end, and keeps
 * governance registers only once it is held under trust; a member who joined since the scheme was
 * added waits for its information until it is recorded on their page; and the registers completed
 * (docs/decisions/0133-governance-registers-completed.md): trustees' contact details and the chair
 * moving between them, a conflict of interest declared, managed and closed, a policy approved at
 * a minuted meeting, a key function holder appointed with their letter. Each journey arrives
 * signed out, at the root address or at a link; each page is checked with axe.
 */
describe.skipIf(browserSuiteSkipReason)(
  'governance under IORP II in the browser',
  { timeout: JOURNEY_TIMEOUT * 2 },
  () => {
    const e2e = useE2e('governance');
    const employer = 'Shannon Turbines Ltd';
    const scheme = 'Shannon Turbines DC Scheme';
    const lateScheme = 'Shannon Turbines Staff DC Scheme';
    const prsa = 'Shannon Turbines PRSA';
    const brokerUser: Credentials = {
      email: 'ailbhe.doyle@dev-brokers.example.ie',
      password: 'Estuary-Turbine-Kestrel-6203',
    };
    let broker: ApiClient;
    let employerId = '';

    /** The scheme's standing as the governance tab states it, in words. */
    const standing = (page: Page) =>
      shownText(page.getByRole('status', { name: 'Compliance status' }), 'the scheme’s status');

    /** The row of the compliance table for an obligation, as its Obligation column names it. */
    const obligationRow = (page: Page, what: string) =>
      page
        .getByRole('table', {
          name: 'Each obligation, why it stands as it does, and where the rule comes from',
        })
        .getByRole('row', { name: new RegExp(RegExp.escape(what)) });

    /** Types a date into a date field day first, as a person does, and leaves the field. */
    async function typeDate(input: Locator, isoDate: string): Promise<void> {
      await input.fill('');
      await input.pressSequentially(formatIrishDate(isoDate));
      await input.press('Tab');
    }

    /** Fills in and sends a dialog's form, then waits for the dialog to close. */
    async function send(dialog: Locator, button: string): Promise<void> {
      await dialog.getByRole('button', { name: button, exact: true }).click();
      await seeNo(dialog, 'the dialog, closed once saved');
    }

    beforeAll(async () => {
      broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      ({ id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
        name: employer,
      }));
      for (const [name, type] of [
        [scheme, 'DC'],
        [lateScheme, 'DC'],
        [prsa, 'PRSA'],
      ] as const) {
        await broker.call('POST', '/api/schemes', { employerId, name, type });
      }
      await invitedAccount(e2e.server, broker, '/api/users', {
        ...brokerUser,
        name: 'Ailbhe Doyle',
        role: 'BrokerUser',
      });
    }, 60_000);

    it('a BrokerUser fills a DC scheme’s registers and its scheme year, and sees it turn to OK', async () => {
      // The server's clock is the real one, so every date of the scheme year is worked out from
      // today by the rule module. The scheme keeps the default year end, 31 December.
      const today = todayInIreland(new Date());
      const trackedPeriod = (kind: FilingKind) => trackedPeriodEnd(kind, DEFAULT_YEAR_END, today);
      const page = (await e2e.openAs(brokerUser, '/')).page;
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Schemes' })
        .click();
      await page.getByRole('link', { name: scheme, exact: true }).click();
      await page.getByRole('tab', { name: 'Governance' }).click();
      // A new scheme lacks its registers, which is Incomplete; worse, Overdue, once a filing for a
      // period already over is past its day.
      const unfiled = FILING_KINDS.map((kind) =>
        dateStatus(filingDueOn(kind, trackedPeriod(kind)), today),
      );
      const fresh = unfiled.includes('overdue') ? 'overdue' : 'incomplete';
      expect(await standing(page)).toBe(`Status: ${OBLIGATION_STATUS_LABELS[fresh]}`);
      await see(page.getByRole('cell', { name: /The scheme has no trustee/ }));
      await e2e.checkPage(page, 'governance-incomplete');

      // Fitness and probity (Art. 22): one trustee is appointed confirmed, the other while the
      // assessment is under way, which leaves a duty naming him until it is confirmed.
      const trustees = page.getByRole('table', { name: 'Trustees serving today' });
      for (const [name, fitness] of [
        ['Órla Ní Bhriain', 'confirmed'],
        ['Diarmuid Kavanagh', 'pending'],
      ] as const) {
        await page.getByRole('button', { name: 'Appoint a trustee' }).click();
        const dialog = page.getByRole('dialog', { name: 'Appoint a trustee' });
        await field(dialog, 'Trustee name').fill(name);
        expect(await field(dialog, 'Fitness and probity').inputValue()).toBe('pending');
        await field(dialog, 'Fitness and probity').selectOption(fitness);
        await send(dialog, 'Appoint');
        await see(
          trustees.getByRole('row', { name: new RegExp(`${name}.*${FITNESS_NAMES[fitness]}`) }),
        );
      }
      const trusteeFitness = `${OBLIGATION_NAMES.fitness_and_probity}: Diarmuid Kavanagh`;
      const pendingTrustee = await see(obligationRow(page, trusteeFitness), trusteeFitness);
      expect(await pendingTrustee.textContent()).toContain(
        `The fitness and probity of a trustee appointed on ${dateInWords(today)} is not yet confirmed`,
      );
      expect(
        await obligationRow(
          page,
          `${OBLIGATION_NAMES.fitness_and_probity}: Órla Ní Bhriain`,
        ).count(),
      ).toBe(0);
      await page.getByRole('button', { name: 'Update Diarmuid Kavanagh', exact: true }).click();
      const trusteeDialog = page.getByRole('dialog', { name: 'Update a trustee' });
      await field(trusteeDialog, 'Fitness and probity').selectOption('confirmed');
      await send(trusteeDialog, 'Save');
      await see(
        trustees.getByRole('row', {
          name: new RegExp(`Diarmuid Kavanagh.*${FITNESS_NAMES.confirmed}`),
        }),
      );
      await seeNo(obligationRow(page, trusteeFitness), trusteeFitness);

      const appoint = async (
        fn: 'risk_management' | 'internal_audit',
        name: string,
        fitness: 'pending' | 'confirmed' = 'confirmed',
        notifiedOn: string | null = today,
      ) => {
        await page.getByRole('button', { name: 'Appoint a key function holder' }).click();
        const dialog = page.getByRole('dialog', { name: 'Appoint a key function holder' });
        await field(dialog, 'Key function').selectOption(fn);
        await field(dialog, 'Holder’s name').fill(name);
        await field(dialog, 'Fitness and probity').selectOption(fitness);
        if (notifiedOn !== null) {
          await typeDate(field(dialog, 'Notified to the Pensions Authority on'), notifiedOn);
        }
        return dialog;
      };
      // Appointed while the fitness and probity assessment is under way and before the
      // appointment is notified to the Pensions Authority; both recorded once done.
      await send(await appoint('risk_management', 'Fionnuala Moran', 'pending', null), 'Appoint');
      const moran = `Fionnuala Moran (${KEY_FUNCTION_NAMES.risk_management})`;
      const holders = page.getByRole('table', { name: 'Key function holders serving today' });
      await see(holders.getByRole('row', { name: /Fionnuala Moran.*Pending.*Not yet/ }));
      await see(
        page.getByRole('cell', {
          name: /fitness and probity of the risk management holder is not yet confirmed/,
        }),
      );
      const notification = `${OBLIGATION_NAMES.key_function_notification}: ${moran}`;
      const unnotified = await see(obligationRow(page, notification), notification);
      expect(await unnotified.textContent()).toContain(
        'The appointment of the risk management holder is not recorded as notified to the Pensions Authority',
      );
      await page.getByRole('button', { name: `Update the standing of ${moran}` }).click();
      const standingDialog = page.getByRole('dialog', { name: 'Update a key function holder' });
      await field(standingDialog, 'Fitness and probity').selectOption('confirmed');
      await typeDate(field(standingDialog, 'Notified to the Pensions Authority on'), today);
      await send(standingDialog, 'Save');
      await seeNo(
        page.getByRole('cell', { name: /fitness and probity of the risk management holder/ }),
      );
      await seeNo(obligationRow(page, notification), notification);
      await see(
        holders.getByRole('row', {
          name: new RegExp(`Fionnuala Moran.*Confirmed.*${RegExp.escape(dateInWords(today))}`),
        }),
      );

      // The internal audit holder may hold no other key function: the API's sentence shows under
      // the function, and the dialog stays open to put it right.
      const audit = await appoint('internal_audit', 'Fionnuala Moran');
      await audit.getByRole('button', { name: 'Appoint', exact: true }).click();
      const keyFunction = field(audit, 'Key function');
      await expect.poll(() => keyFunction.getAttribute('aria-invalid')).toBe('true');
      await see(
        audit.getByText(
          /^The holder of the internal audit function may hold no other key function in the same scheme \(Directive \(EU\) 2016\/2341 Art\. 24/,
        ),
        'the internal-audit rule under the form',
      );
      await e2e.checkPage(page, 'governance-internal-audit-conflict');
      await field(audit, 'Holder’s name').fill('Colm Tierney');
      await send(audit, 'Appoint');
      // Appointed confirmed, and notified the same day.
      await see(
        holders.getByRole('row', {
          name: new RegExp(
            `${KEY_FUNCTION_NAMES.internal_audit}.*Colm Tierney.*Confirmed.*${RegExp.escape(dateInWords(today))}`,
          ),
        }),
      );
      await seeNo(
        obligationRow(page, OBLIGATION_NAMES.key_function_notification),
        'a holder not notified',
      );
      await seeNo(obligationRow(page, OBLIGATION_NAMES.fitness_and_probity), 'fitness pending');

      // The policies this scheme needs, as the rule module lists them: each drafted, then approved.
      for (const kind of requiredPolicyKinds('DC')) {
        await page.getByRole('button', { name: 'Draft a policy' }).click();
        const draft = page.getByRole('dialog', { name: 'Draft a policy' });
        await field(draft, 'Kind of policy').selectOption(kind);
        expect(await field(draft, 'Title').inputValue()).toBe(POLICY_KIND_NAMES[kind]);
        await send(draft, 'Save draft');
        await page
          .getByRole('button', { name: `Approve ${POLICY_KIND_NAMES[kind]} 1.0`, exact: true })
          .click();
        const approval = page.getByRole('dialog', { name: 'Approve policy' });
        await field(approval, 'Meeting or minute reference').fill('Board meeting, minute 2.1');
        await send(approval, 'Approve');
        await see(
          page.getByRole('button', {
            name: `Draft a new version of ${POLICY_KIND_NAMES[kind]} 1.0`,
          }),
        );
      }

      // A person reads the notices of the drafts and approvals, which close by themselves, before
      // the button beneath them is clicked; a busy machine keeps them up longer.
      await seeNo(page.getByRole('alert').filter({ hasText: /drafted|approved/ }), 'the notices');
      await page.getByRole('button', { name: 'Record an own-risk assessment' }).click();
      await send(page.getByRole('dialog', { name: 'Record an own-risk assessment' }), 'Record');

      // The scheme year's timeline.
      const timeline = page.getByRole('table', {
        name: 'What falls due in the scheme year, soonest first',
      });
      const onTimeline = (what: string) =>
        see(timeline.getByRole('row', { name: new RegExp(RegExp.escape(what)) }), what);
      // Nothing is filed yet: the compliance statement for last year is due by 31 January, and
      // on any day of this year is due soon or overdue, so the scheme is not OK.
      for (const kind of FILING_KINDS) {
        const dueOn = filingDueOn(kind, trackedPeriod(kind));
        const row = await onTimeline(OBLIGATION_NAMES[kind]);
        const text = await row.textContent();
        expect(text).toContain(dateInWords(dueOn));
        expect(text).toContain(OBLIGATION_OWNERS[kind]);
        expect(text).toContain(OBLIGATION_STATUS_LABELS[dateStatus(dueOn, today)]);
      }
      expect(await standing(page)).not.toBe('Status: OK');

      // Each trustee's training, recorded from the trustees register.
      for (const name of ['Órla Ní Bhriain', 'Diarmuid Kavanagh']) {
        await page.getByRole('button', { name: `Training of ${name}`, exact: true }).click();
        const dialog = page.getByRole('dialog', { name: `Training of ${name}` });
        await see(dialog.getByText('No training is recorded.'));
        expect(await field(dialog, 'Completed on').inputValue()).toBe(formatIrishDate(today));
        await field(dialog, 'Topic (optional)').fill('Trustee Handbook, chapters 1 to 4');
        await dialog.getByRole('button', { name: 'Record training', exact: true }).click();
        const trainings = dialog.getByRole('table', { name: `Training recorded for ${name}` });
        await see(trainings.getByRole('cell', { name: dateInWords(today), exact: true }));
        if (name === 'Órla Ní Bhriain') await e2e.checkPage(page, 'governance-trustee-training');
        await dialog.getByRole('button', { name: 'Close', exact: true }).click();
        await seeNo(dialog, 'the training dialog, closed');
        const next = dateInWords(addYears(today, TRAINING_EVERY_YEARS));
        await see(
          timeline.getByRole('row', {
            name: new RegExp(
              `${RegExp.escape(next)}.*${OBLIGATION_NAMES.trustee_training}: ${name}`,
            ),
          }),
          `${name}’s next training, due by ${next}`,
        );
      }

      // The annual report, recorded before it is done, then marked completed and audited.
      const reportPeriod = dateInWords(trackedPeriod('annual_report'));
      await page.getByRole('button', { name: 'Record a filing' }).click();
      const reportDialog = page.getByRole('dialog', { name: 'Record a filing' });
      await field(reportDialog, 'Filing').selectOption('annual_report');
      // The period it starts from is the one the rule module chases.
      expect(await field(reportDialog, 'Period').inputValue()).toBe(trackedPeriod('annual_report'));
      await send(reportDialog, 'Record');
      const filings = page.getByRole('table', {
        name: 'Filings of the scheme year, latest recorded first',
      });
      const reportRow = await see(
        filings.getByRole('row', {
          name: new RegExp(`${FILING_KIND_NAMES.annual_report}.*${reportPeriod}.*Not yet`),
        }),
      );
      expect(await reportRow.textContent()).toContain(
        dateInWords(filingDueOn('annual_report', trackedPeriod('annual_report'))),
      );
      await page
        .getByRole('button', {
          name: `Mark completed: ${FILING_KIND_NAMES.annual_report}, year ended ${reportPeriod}`,
        })
        .click();
      const complete = page.getByRole('dialog', { name: 'Mark a filing completed' });
      expect(await field(complete, 'Completed on').inputValue()).toBe(formatIrishDate(today));
      await field(complete, 'Audited').selectOption('yes');
      await send(complete, 'Save');
      await see(
        filings.getByRole('row', {
          name: new RegExp(
            `${FILING_KIND_NAMES.annual_report}.*${reportPeriod}.*${dateInWords(today)}.*Yes`,
          ),
        }),
      );

      // The return and the compliance statement, recorded as done today.
      for (const kind of ['annual_scheme_information', 'annual_compliance_statement'] as const) {
        await page.getByRole('button', { name: 'Record a filing' }).click();
        const dialog = page.getByRole('dialog', { name: 'Record a filing' });
        await field(dialog, 'Filing').selectOption(kind);
        expect(await field(dialog, 'Period').inputValue()).toBe(trackedPeriod(kind));
        await typeDate(field(dialog, 'Completed on'), today);
        await send(dialog, 'Record');
        await see(filings.getByRole('row', { name: new RegExp(FILING_KIND_NAMES[kind]) }));
      }

      // Each filing done: the timeline moves on to the next period's, a year later.
      const nextDue = (kind: FilingKind) => filingDueOn(kind, addYears(trackedPeriod(kind), 1));
      for (const kind of FILING_KINDS) {
        await see(
          timeline.getByRole('row', {
            name: new RegExp(
              `${RegExp.escape(dateInWords(nextDue(kind)))}.*${OBLIGATION_NAMES[kind]}`,
            ),
          }),
          `the next ${OBLIGATION_NAMES[kind]}, due by ${dateInWords(nextDue(kind))}`,
        );
      }
      // Why it stands so, and where the rule comes from, one click away.
      const report = await onTimeline(OBLIGATION_NAMES.annual_report);
      await report.locator('summary').click();
      await see(report.getByText(sourceInWords(SCHEME_YEAR_RULES.annualReport), { exact: true }));
      await see(report.getByText(/^Annual report for the year ended .* completed on /));
      await e2e.checkPage(page, 'governance-scheme-year');

      // OK, unless a next filing is already due soon (DUE_SOON_DAYS before its day): in December,
      // this calendar year's compliance statement is, and it cannot be recorded before the year
      // it covers is over.
      const settledStatus = FILING_KINDS.some(
        (kind) => dateStatus(nextDue(kind), today) === 'due_soon',
      )
        ? 'due_soon'
        : 'ok';
      await expect
        .poll(() => standing(page))
        .toBe(`Status: ${OBLIGATION_STATUS_LABELS[settledStatus]}`);
      await e2e.checkPage(page, 'governance-ok');

      // The evidence pack for the Pensions Authority downloads as a ZIP named for scheme and day.
      const [pack] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download evidence pack' }).click(),
      ]);
      expect(pack.suggestedFilename()).toMatch(
        /^evidence-pack-shannon-turbines-dc-scheme-\d{4}-\d{2}-\d{2}\.zip$/,
      );
      const zip = readFileSync(await pack.path());
      expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
      expect(zip.includes('manifest.json')).toBe(true);
    });

    it('an overdue own-risk assessment shows on the dashboard', async () => {
      const schemes = await broker.call<{ items: { id: string; name: string }[] }>(
        'GET',
        `/api/schemes?employerId=${employerId}`,
      );
      const late = schemes.items.find((item) => item.name === lateScheme);
      // Performed on 15 January 2020: the next was due three years on, on 15 January 2023.
      await broker.call('POST', `/api/schemes/${late?.id}/ora-reports`, {
        performedOn: '2020-01-15',
        trigger: 'scheduled',
      });

      const page = (await e2e.openAs(brokerUser, '/')).page;
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Governance' })
        .click();
      await see(page.getByRole('main').getByRole('heading', { name: 'Governance', exact: true }));
      await settled(page);
      await see(page.getByRole('region', { name: 'Overdue: 1' }), 'one scheme overdue');

      const byStatus = page.getByRole('table', {
        name: /^Every scheme by governance status/,
      });
      const lateRow = await see(byStatus.getByRole('row', { name: new RegExp(lateScheme) }));
      expect(await lateRow.textContent()).toMatch(/Overdue/);
      expect(await lateRow.textContent()).toContain('due 15 Jan 2023');

      const upcoming = page.getByRole('table', { name: /^Due dates that have passed/ });
      const due = await see(upcoming.getByRole('row', { name: new RegExp(lateScheme) }));
      expect(await due.textContent()).toContain('15 Jan 2023');
      expect(await due.textContent()).toContain('The own-risk assessment was due on 15 Jan 2023');
      // The first scheme's duties are all done: it is not listed, unless a next date is already
      // due soon (DUE_SOON_DAYS before it, as the reminder e-mails begin), which it then names.
      const today = todayInIreland(new Date());
      const nextDueSoon = FILING_KINDS.some(
        (kind) =>
          dateStatus(
            filingDueOn(kind, addYears(trackedPeriodEnd(kind, DEFAULT_YEAR_END, today), 1)),
            today,
          ) === 'due_soon',
      );
      const doneRows = upcoming.getByRole('row', { name: new RegExp(RegExp.escape(scheme)) });
      if (nextDueSoon) await see(doneRows.first(), 'the done scheme’s next date, due soon');
      else await seeNo(doneRows, 'the done scheme, with nothing due soon');
      await e2e.checkPage(page, 'governance-dashboard');

      // A PRSA is no trust: it has no governance standing on the dashboard, and its governance
      // tab, opened from a link to it, says the registers do not apply.
      expect(await byStatus.getByRole('link', { name: prsa, exact: true }).count()).toBe(0);
      const prsaId = schemes.items.find((item) => item.name === prsa)?.id;
      await page.goto(`/schemes/${prsaId}?tab=governance`);
      await see(page.getByText('The IORP II governance registers do not apply'));
      expect(new URL(page.url()).searchParams.get('tab')).toBe('governance');
    });

    it('the compliance calendar opens with the overdue assessment first, without touching its filters', async () => {
      // The default window runs from today to a year on; the assessment due on 15 January 2023,
      // still outstanding, comes before it and is listed first for its scheme, marked overdue.
      const today = todayInIreland(new Date());
      const page = (await e2e.openAs(brokerUser, '/')).page;
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Compliance calendar' })
        .click();
      await see(
        page.getByRole('main').getByRole('heading', { name: 'Compliance calendar', exact: true }),
      );
      await settled(page);
      expect(await field(page, 'From').inputValue()).toBe(formatIrishDate(today));
      await see(page.getByText('First, every duty still outstanding from before the From date'));
      const calendar = page.getByRole('table', { name: 'Due dates of every scheme' });
      const entry = await see(
        calendar.getByRole('row', { name: new RegExp(RegExp.escape(lateScheme)) }).first(),
      );
      expect(await entry.textContent()).toContain('15 Jan 2023');
      expect(await entry.textContent()).toContain(OBLIGATION_STATUS_LABELS.overdue);
      expect(await entry.textContent()).toContain(employer);
      expect(await entry.textContent()).toContain(
        sourceInWords(GOVERNANCE_RULES.ownRiskAssessment),
      );
      // It holds the first scheme's next compliance statement when that falls within the year.
      const statement = 'annual_compliance_statement';
      const nextStatement = filingDueOn(
        statement,
        addYears(trackedPeriodEnd(statement, DEFAULT_YEAR_END, today), 1),
      );
      if (nextStatement <= addYears(today, 1)) {
        const row = await see(
          calendar.getByRole('row', {
            name: new RegExp(`${RegExp.escape(scheme)}.*${OBLIGATION_NAMES[statement]}`),
          }),
        );
        expect(await row.textContent()).toContain(dateInWords(nextStatement));
      }
      await e2e.checkPage(page, 'compliance-calendar');
    });

    it('a BrokerUser sets a new RAC’s kind and year end; a contract RAC keeps no registers, a trust RAC does', async () => {
      const rac = 'Shannon Turbines Directors’ RAC';
      const page = (await e2e.openAs(brokerUser, `/employers/${employerId}`)).page;
      await page.getByRole('button', { name: 'New scheme' }).click();
      const dialog = page.getByRole('dialog', { name: 'New scheme' });
      await field(dialog, 'Scheme name').fill(rac);
      // The year ends on 31 December unless said otherwise; the kind is asked of an RAC only.
      expect(await field(dialog, 'Day').inputValue()).toBe('31');
      expect(await field(dialog, 'Month').inputValue()).toBe('12');
      expect(await field(dialog, 'Kind of RAC').count()).toBe(0);
      await field(dialog, 'Scheme type').selectOption('RAC');
      await dialog.getByRole('button', { name: 'Create scheme' }).click();
      await see(
        dialog.getByText(
          'Choose whether the RAC is held under trust or is an individual contract',
          { exact: true },
        ),
        'the kind of RAC asked for, in the API’s words',
      );
      await field(dialog, 'Kind of RAC').selectOption('contract');
      // February has no 31st: the day becomes its last; then the year is set to end on 31 March.
      await field(dialog, 'Month').selectOption('02');
      expect(await field(dialog, 'Day').inputValue()).toBe('28');
      await field(dialog, 'Month').selectOption('03');
      await field(dialog, 'Day').selectOption('31');
      await e2e.checkPage(page, 'new-rac');
      await dialog.getByRole('button', { name: 'Create scheme' }).click();
      await seeNo(dialog, 'the new-scheme dialog');

      await see(page.getByRole('heading', { name: rac, level: 2 }));
      // The scheme's details say both, day first.
      await see(page.getByText('31 March', { exact: true }), 'the year end in the details');
      await see(page.getByText(RAC_KIND_NAMES.contract, { exact: true }), 'the kind of RAC');
      await page.getByRole('tab', { name: 'Governance' }).click();
      await see(page.getByText('The IORP II governance registers do not apply'));
      await see(page.getByText(/This RAC is an individual contract with an insurer, not a trust/));

      // Held under trust after all: the registers apply, and the scheme year runs to 31 March.
      await page.getByRole('button', { name: 'Edit scheme' }).click();
      const edit = page.getByRole('dialog', { name: 'Edit scheme' });
      expect(await field(edit, 'Month').inputValue()).toBe('03');
      await field(edit, 'Kind of RAC').selectOption('trust');
      await edit.getByRole('button', { name: 'Save', exact: true }).click();
      await seeNo(edit, 'the edit dialog');
      await see(page.getByText(RAC_KIND_NAMES.trust, { exact: true }), 'the kind, changed');
      const today = todayInIreland(new Date());
      const reportDue = filingDueOn(
        'annual_report',
        trackedPeriodEnd('annual_report', '03-31', today),
      );
      const timeline = page.getByRole('table', {
        name: 'What falls due in the scheme year, soonest first',
      });
      await see(
        timeline.getByRole('row', {
          name: new RegExp(
            `${RegExp.escape(dateInWords(reportDue))}.*${OBLIGATION_NAMES.annual_report}`,
          ),
        }),
        `the annual report of the year ended 31 March, due by ${dateInWords(reportDue)}`,
      );
      await see(page.getByText('The scheme year ends on 31 March.', { exact: false }));
    });

    it('a new member waits for the scheme’s information until a BrokerUser records it on their page', async () => {
      // Joined today, since the scheme was added to the service: the scheme's information is due
      // within NEW_MEMBER_INFORMATION_WITHIN_MONTHS of joining (Pensions Act 1990 s.54).
      const today = todayInIreland(new Date());
      const dueOn = addMonths(today, NEW_MEMBER_INFORMATION_WITHIN_MONTHS);
      const schemes = await broker.call<{ items: { id: string; name: string }[] }>(
        'GET',
        `/api/schemes?employerId=${employerId}`,
      );
      const schemeId = schemes.items.find((item) => item.name === lateScheme)?.id;
      await broker.call('POST', `/api/schemes/${schemeId}/members`, {
        firstName: 'Saoirse',
        lastName: 'Ó Murchú',
        dateOfBirth: '1996-04-12',
        dateJoined: today,
        salaryCents: 3_900_000,
        ppsNumber: newPpsNumber(),
      });

      const page = (await e2e.openAs(brokerUser, '/')).page;
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Schemes' })
        .click();
      await page.getByRole('link', { name: lateScheme, exact: true }).click();
      await page.getByRole('tab', { name: 'Governance' }).click();
      const timeline = page.getByRole('table', {
        name: 'What falls due in the scheme year, soonest first',
      });
      const waiting = await see(
        timeline.getByRole('row', {
          name: new RegExp(
            `${RegExp.escape(dateInWords(dueOn))}.*${OBLIGATION_NAMES.new_member_information}`,
          ),
        }),
        `the new member's information, due by ${dateInWords(dueOn)}`,
      );
      expect(await waiting.textContent()).toContain(OBLIGATION_OWNERS.new_member_information);
      expect(await waiting.textContent()).toContain(
        OBLIGATION_STATUS_LABELS[dateStatus(dueOn, today)],
      );
      await waiting.locator('summary').click();
      await see(waiting.getByText(/^1 member who joined is waiting for the scheme's information/));
      await see(
        waiting.getByText(sourceInWords(SCHEME_YEAR_RULES.newMemberInformation), { exact: true }),
      );

      // On the member's page, reached from the scheme's members.
      await page.getByRole('tab', { name: 'Members' }).click();
      await page.getByRole('link', { name: 'Saoirse Ó Murchú', exact: true }).click();
      await see(page.getByRole('heading', { name: 'Saoirse Ó Murchú', level: 2 }));
      // A value of the member's details: the description beside its term.
      const detail = (term: string) =>
        page.locator(`xpath=//dt[normalize-space()="${term}"]/following-sibling::dd[1]`);
      const given = detail('Scheme information given on');
      expect(await shownText(given)).toContain('Not recorded');
      await page
        .getByRole('button', { name: 'Record that the scheme information was given' })
        .click();
      const dialog = page.getByRole('dialog', { name: 'Scheme information given' });
      expect(await field(dialog, 'Given on').inputValue()).toBe(formatIrishDate(today));
      await e2e.checkPage(page, 'member-scheme-information');
      await send(dialog, 'Save');
      // Shown as the member page shows its other dates (Date joined), day first.
      const joined = await shownText(detail('Date joined'));
      await expect.poll(() => shownText(given)).toContain(joined);
      await see(
        page.getByRole('button', { name: 'Change the day the scheme information was given' }),
      );

      // The scheme's new members have all had it: the duty is done, with no day left to show.
      await page.getByRole('link', { name: lateScheme, exact: true }).click();
      await page.getByRole('tab', { name: 'Governance' }).click();
      const done = obligationRow(page, OBLIGATION_NAMES.new_member_information);
      await expect
        .poll(() => shownText(done))
        .toContain(
          'Every member who joined since the scheme was added has been given its information',
        );
      expect(await shownText(done)).toContain(OBLIGATION_STATUS_LABELS.ok);
      await seeNo(
        timeline.getByRole('row', { name: new RegExp(OBLIGATION_NAMES.new_member_information) }),
        'the new member’s information on the timeline',
      );
    });

    it('a BrokerUser keeps the trustees’ contacts and chair, a conflict of interest, a policy’s approval minute and a holder’s letter', async () => {
      const registers = 'Shannon Turbines Executive DC Scheme';
      await broker.call('POST', '/api/schemes', { employerId, name: registers, type: 'DC' });
      const today = todayInIreland(new Date());
      const page = (await e2e.openAs(brokerUser, '/')).page;
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Schemes' })
        .click();
      await page.getByRole('link', { name: registers, exact: true }).click();
      await page.getByRole('tab', { name: 'Governance' }).click();

      // Trustees with their contact details; the first appointed as chair. A number the rule
      // cannot read is refused under its field, in the contract's words, before anything is sent.
      const trustees = page.getByRole('table', { name: 'Trustees serving today' });
      await page.getByRole('button', { name: 'Appoint a trustee' }).click();
      const first = page.getByRole('dialog', { name: 'Appoint a trustee' });
      await field(first, 'Trustee name').fill('Nóra Brosnan');
      await field(first, 'E-mail address (optional)').fill('nora.brosnan@example.ie');
      await field(first, 'Phone number (optional)').fill('ring reception');
      await first.getByRole('checkbox', { name: 'Chairs the board of trustees' }).check();
      await first.getByRole('button', { name: 'Appoint', exact: true }).click();
      await see(first.getByText(FIELD_MESSAGES.phone, { exact: true }), 'the phone rule');
      await field(first, 'Phone number (optional)').fill('+353 61 555 0101');
      await send(first, 'Appoint');
      const brosnan = trustees.getByRole('row', { name: /Nóra Brosnan/ });
      await expect
        .poll(() => shownText(brosnan))
        .toMatch(/Nóra Brosnan\s?Chair.*nora\.brosnan@example\.ie\s?\+353 61 555 0101/);
      await page.getByRole('button', { name: 'Appoint a trustee' }).click();
      const second = page.getByRole('dialog', { name: 'Appoint a trustee' });
      await field(second, 'Trustee name').fill('Pádraig Whelan');
      await send(second, 'Appoint');
      // Naming the second chair moves the chair: one chair of the board at a time.
      await page.getByRole('button', { name: 'Update Pádraig Whelan', exact: true }).click();
      const update = page.getByRole('dialog', { name: 'Update a trustee' });
      const chair = update.getByRole('checkbox', { name: 'Chairs the board of trustees' });
      await see(update.getByText(GOVERNANCE_RULES.trusteeChair.citation, { exact: true }));
      await chair.check();
      await send(update, 'Save');
      const whelan = trustees.getByRole('row', { name: /Pádraig Whelan/ });
      await expect.poll(() => shownText(whelan)).toMatch(/^Pádraig Whelan\s?Chair/);
      await expect.poll(() => shownText(brosnan)).not.toMatch(/Chair/);
      await e2e.checkPage(page, 'governance-trustee-chair');

      // A conflict of interest, declared by a trustee: recorded, its management recorded, and
      // closed; a closing day before the declaration is refused under the field.
      await page.getByRole('button', { name: 'Record a conflict of interest' }).click();
      const declare = page.getByRole('dialog', { name: 'Record a conflict of interest' });
      await field(declare, 'Declared by a trustee of this scheme').selectOption({
        label: 'Pádraig Whelan',
      });
      expect(await field(declare, 'Name of the person who has the interest').inputValue()).toBe(
        'Pádraig Whelan',
      );
      await field(declare, 'Interest or conflict').fill(
        'Director of the firm that distributes the default fund',
      );
      await e2e.checkPage(page, 'governance-conflict-declared');
      await send(declare, 'Record');
      const conflicts = page.getByRole('table', {
        name: 'Conflicts of interest, latest recorded first',
      });
      const conflict = conflicts.getByRole('row', { name: /Pádraig Whelan/ });
      await expect
        .poll(() => shownText(conflict))
        .toMatch(
          new RegExp(
            `Pádraig Whelan\\s?Trustee of the scheme.*default fund.*${RegExp.escape(dateInWords(today))}.*Not yet recorded.*Open`,
          ),
        );
      const entry = `Pádraig Whelan, declared on ${dateInWords(today)}`;
      await page
        .getByRole('button', { name: `Record how the conflict of ${entry} is managed` })
        .click();
      const manage = page.getByRole('dialog', { name: 'How a conflict of interest is managed' });
      await field(manage, 'How it is managed').fill('Abstains from votes on the fund range');
      await send(manage, 'Save');
      await expect
        .poll(() => shownText(conflict))
        .toContain('Abstains from votes on the fund range');
      await page.getByRole('button', { name: `Close the conflict of ${entry}` }).click();
      const closing = page.getByRole('dialog', { name: 'Close a conflict of interest' });
      await typeDate(field(closing, 'Closed on'), addDays(today, -1));
      await closing.getByRole('button', { name: 'Close conflict', exact: true }).click();
      await see(
        closing.getByText('The day it was closed cannot be before the day it was declared', {
          exact: true,
        }),
        'the closing day refused under its field',
      );
      await typeDate(field(closing, 'Closed on'), today);
      await send(closing, 'Close conflict');
      await expect
        .poll(() => shownText(conflict))
        .toMatch(
          new RegExp(
            `Abstains from votes on the fund range\\s?${RegExp.escape(dateInWords(today))}`,
          ),
        );
      await see(page.getByRole('button', { name: `Reopen the conflict of ${entry}` }));
      await e2e.checkPage(page, 'governance-conflicts');

      // A written policy approved: the meeting or minute of the trustees' decision is asked for,
      // and shown with the approval.
      await page.getByRole('button', { name: 'Draft a policy' }).click();
      const draft = page.getByRole('dialog', { name: 'Draft a policy' });
      await field(draft, 'Kind of policy').selectOption('remuneration');
      await send(draft, 'Save draft');
      const name = `${POLICY_KIND_NAMES.remuneration} 1.0`;
      await page.getByRole('button', { name: `Approve ${name}`, exact: true }).click();
      const approval = page.getByRole('dialog', { name: 'Approve policy' });
      await approval.getByRole('button', { name: 'Approve', exact: true }).click();
      await see(
        approval.getByText(FIELD_MESSAGES.approvalReference, { exact: true }),
        'the meeting or minute asked for',
      );
      const minute = `Board meeting ${dateInWords(today)}, minute 4.2`;
      await field(approval, 'Meeting or minute reference').fill(minute);
      await send(approval, 'Approve');
      const policy = page
        .getByRole('table', { name: 'Written policies' })
        .getByRole('row', { name: new RegExp(POLICY_KIND_NAMES.remuneration) });
      await expect.poll(() => shownText(policy)).toContain(`${dateInWords(today)}${minute}`);

      // A key function holder appointed with their letter of appointment, uploaded in the same
      // dialog and shown on the holder's row.
      await page.getByRole('button', { name: 'Appoint a key function holder' }).click();
      const appoint = page.getByRole('dialog', { name: 'Appoint a key function holder' });
      await field(appoint, 'Key function').selectOption('risk_management');
      await field(appoint, 'Holder’s name').fill('Siún Reddy');
      const letter = 'Appointment letter – Siún Reddy.pdf';
      const chooser = page.waitForEvent('filechooser');
      await appoint.getByRole('button', { name: 'Choose a file' }).click();
      await (await chooser).setFiles({
        name: letter,
        mimeType: 'application/pdf',
        buffer: SAMPLES.pdf,
      });
      await see(appoint.getByText(`Chosen: ${letter}`, { exact: false }));
      await e2e.checkPage(page, 'governance-holder-letter');
      await send(appoint, 'Appoint');
      const holder = page
        .getByRole('table', { name: 'Key function holders serving today' })
        .getByRole('row', { name: /Siún Reddy/ });
      await expect.poll(() => shownText(holder)).toContain(`${letter} (v1)`);
      await see(holder.getByRole('button', { name: `Download ${letter}, version 1` }));
      await see(
        holder.getByRole('button', {
          name: `Change the document of Siún Reddy (${KEY_FUNCTION_NAMES.risk_management})`,
        }),
      );
    });
  },
);
