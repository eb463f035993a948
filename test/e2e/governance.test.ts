import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  KEY_FUNCTION_NAMES,
  POLICY_KIND_NAMES,
  requiredPolicyKinds,
} from '../../src/contracts/governance-rules.js';
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
  seeNo,
  settled,
  shownText,
  useE2e,
} from '../helpers/e2e.js';

/**
 * The governance browser journeys (docs/decisions/0059-governance-rules.md): a BrokerUser fills a
 * DC scheme's governance registers in the browser and sees its standing turn from Incomplete to OK;
 * the internal-audit rule refuses a second function for its holder under the form; a scheme whose
 * own-risk assessment is overdue shows on the governance dashboard with its due date, and in the
 * compliance calendar. Each journey arrives at the root address, signed out; each page is checked
 * with axe.
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

    it('a BrokerUser fills a DC scheme’s registers and sees it turn from Incomplete to OK', async () => {
      const page = (await e2e.openAs(brokerUser, '/')).page;
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Schemes' })
        .click();
      await page.getByRole('link', { name: scheme, exact: true }).click();
      await page.getByRole('tab', { name: 'Governance' }).click();
      expect(await standing(page)).toBe('Status: Incomplete');
      await see(page.getByRole('cell', { name: /The scheme has no trustee/ }));
      await e2e.checkPage(page, 'governance-incomplete');

      for (const name of ['Órla Ní Bhriain', 'Diarmuid Kavanagh']) {
        await page.getByRole('button', { name: 'Appoint a trustee' }).click();
        const dialog = page.getByRole('dialog', { name: 'Appoint a trustee' });
        await field(dialog, 'Trustee name').fill(name);
        await send(dialog, 'Appoint');
        await see(page.getByRole('table', { name: 'Trustees serving today' }).getByText(name));
      }

      const appoint = async (
        fn: 'risk_management' | 'internal_audit',
        name: string,
        fitness: 'pending' | 'confirmed' = 'confirmed',
      ) => {
        await page.getByRole('button', { name: 'Appoint a key function holder' }).click();
        const dialog = page.getByRole('dialog', { name: 'Appoint a key function holder' });
        await field(dialog, 'Key function').selectOption(fn);
        await field(dialog, 'Holder’s name').fill(name);
        await field(dialog, 'Fitness and probity').selectOption(fitness);
        return dialog;
      };
      // Appointed while the fitness and probity assessment is under way, confirmed once it is done.
      await send(await appoint('risk_management', 'Fionnuala Moran', 'pending'), 'Appoint');
      await see(
        page.getByRole('cell', {
          name: /fitness and probity of the risk management holder is not yet confirmed/,
        }),
      );
      await page
        .getByRole('button', { name: 'Update the standing of Fionnuala Moran (Risk management)' })
        .click();
      const standingDialog = page.getByRole('dialog', { name: 'Update a key function holder' });
      await field(standingDialog, 'Fitness and probity').selectOption('confirmed');
      await send(standingDialog, 'Save');
      await seeNo(
        page.getByRole('cell', { name: /fitness and probity of the risk management holder/ }),
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
      const holders = page.getByRole('table', { name: 'Key function holders serving today' });
      await see(
        holders.getByRole('row', {
          name: new RegExp(`${KEY_FUNCTION_NAMES.internal_audit}.*Colm Tierney`),
        }),
      );

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
        await send(page.getByRole('dialog', { name: 'Approve policy' }), 'Approve');
        await see(
          page.getByRole('button', {
            name: `Draft a new version of ${POLICY_KIND_NAMES[kind]} 1.0`,
          }),
        );
      }

      expect(await standing(page)).not.toBe('Status: OK');
      await page.getByRole('button', { name: 'Record an own-risk assessment' }).click();
      await send(page.getByRole('dialog', { name: 'Record an own-risk assessment' }), 'Record');

      await expect.poll(() => standing(page)).toBe('Status: OK');
      await e2e.checkPage(page, 'governance-ok');

      // The evidence pack for the Pensions Authority downloads as a ZIP named for scheme and day.
      const [pack] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download evidence pack' }).click(),
      ]);
      expect(pack.suggestedFilename()).toMatch(/^evidence-pack-[a-z0-9]+-\d{4}-\d{2}-\d{2}\.zip$/);
      const zip = readFileSync(await pack.path());
      expect(zip.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004');
      expect(zip.includes('manifest.json')).toBe(true);
    });

    it('an overdue own-risk assessment shows on the dashboard, and in the calendar', async () => {
      const schemes = await broker.call<{ items: { id: string; name: string }[] }>(
        'GET',
        `/api/schemes?employerId=${employerId}`,
      );
      const late = schemes.items.find((item) => item.name === lateScheme);
      // Performed on 15/01/2020: the next was due three years on, on 15/01/2023.
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
      expect(await lateRow.textContent()).toContain('due 15/01/2023');

      const upcoming = page.getByRole('table', { name: /^Due dates that have passed/ });
      const due = await see(upcoming.getByRole('row', { name: new RegExp(lateScheme) }));
      expect(await due.textContent()).toContain('15/01/2023');
      expect(await due.textContent()).toContain('The own-risk assessment was due on 15/01/2023');
      await e2e.checkPage(page, 'governance-dashboard');

      // A PRSA is no trust: it has no governance standing on the dashboard, and its governance
      // tab, opened from a link to it, says the registers do not apply.
      expect(await byStatus.getByRole('link', { name: prsa, exact: true }).count()).toBe(0);
      const prsaId = schemes.items.find((item) => item.name === prsa)?.id;
      await page.goto(`/schemes/${prsaId}?tab=governance`);
      await see(page.getByText('The IORP II governance registers do not apply'));
      expect(new URL(page.url()).searchParams.get('tab')).toBe('governance');

      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Compliance calendar' })
        .click();
      await see(
        page.getByRole('main').getByRole('heading', { name: 'Compliance calendar', exact: true }),
      );
      await settled(page);
      // The default window, today to a year on, holds nothing yet: every date is three years off.
      await see(page.getByText('Nothing falls due in this window.'));
      for (const [label, date] of [
        ['From', '01/01/2023'],
        ['To', '31/12/2023'],
      ] as const) {
        const input = field(page, label);
        await input.fill('');
        await input.pressSequentially(date);
        await input.press('Tab');
      }
      await page.getByRole('button', { name: 'Show', exact: true }).click();
      const calendar = page.getByRole('table', { name: 'Due dates of every scheme' });
      const entry = await see(calendar.getByRole('row', { name: new RegExp(lateScheme) }));
      expect(await entry.textContent()).toContain('15/01/2023');
      expect(await entry.textContent()).toContain(employer);
      expect(await entry.textContent()).toContain('Art. 28(1)');
      await e2e.checkPage(page, 'compliance-calendar');
    });
  },
);
