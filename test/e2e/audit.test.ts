import { readFileSync } from 'node:fs';
import type { Locator } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../helpers/built-server.js';
import {
  browserSuiteSkipReason,
  field,
  JOURNEY_TIMEOUT,
  see,
  settled,
  shownText,
  useE2e,
} from '../helpers/e2e.js';
import { registerName } from '../helpers/leak-registry.js';
import { newPpsNumber } from '../helpers/pps.js';

/**
 * A BrokerAdmin reviews their firm's audit log as a reviewer would read it
 * (docs/decisions/0051-readable-audit-log.md): what happened in words, who by name, the record by
 * name (a trustee, a written policy), what changed as lines, no "Forwarded for" that says
 * nothing; picks a person, follows one record's history, reads the days as Irish dates, and
 * exports what they see as CSV. axe on every view, the phone's included.
 */
describe.skipIf(browserSuiteSkipReason)(
  'the audit log a reviewer can read',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    const e2e = useE2e('audit');
    const employer = 'Corrib Oysters Ltd';
    const scheme = {
      id: '',
      first: 'Corrib Oysters Pension Scheme',
      now: 'Corrib Oysters Staff Pension',
    };
    const who = 'Development BrokerAdmin';
    const trustee = 'Gráinne Ní Chonaill';
    const assumptions = 'Corrib Oysters projections';

    beforeAll(async () => {
      const api = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      const created = await api.call<{ id: string }>('POST', '/api/employers', { name: employer });
      scheme.id = (
        await api.call<{ id: string }>('POST', '/api/schemes', {
          employerId: created.id,
          name: scheme.first,
          type: 'DC',
        })
      ).id;
      await api.call('PATCH', `/api/schemes/${scheme.id}`, { name: scheme.now });
      await api.call('POST', `/api/schemes/${scheme.id}/trustees`, {
        name: trustee,
        kind: 'individual',
        appointedOn: '2024-05-01',
        fitnessAndProbity: 'confirmed',
      });
      await api.call('POST', `/api/schemes/${scheme.id}/policies`, {
        kind: 'remuneration',
        title: 'Trustee pay',
        version: '1.0',
      });
      const member = await api.call<{ id: string }>('POST', `/api/schemes/${scheme.id}/members`, {
        firstName: registerName('Máire'),
        lastName: registerName('Ó Flaithearta'),
        dateOfBirth: '1988-06-14',
        dateJoined: '2020-03-01',
        salaryCents: 4_200_000,
        ppsNumber: newPpsNumber(),
      });
      await api.call('POST', '/api/statement-assumptions', {
        name: assumptions,
        effectiveFrom: '2026-01-01',
        source: 'The Pensions Authority’s guidance on benefit statement projections',
        bestEstimateReturnPct: 4.75,
        unfavourableReturnPct: 1.5,
        inflationPct: 2.5,
        salaryGrowthPct: 2.5,
        annuityFactor: 25,
      });
      await api.call('POST', `/api/members/${member.id}/contributions`, {
        period: '2026-10',
        kind: 'employer',
        amountCents: 21_000,
      });
    });

    it('reads in words and names, filters by person, record and day, and exports CSV', async () => {
      const { page } = await e2e.openAs(DEV_ACCOUNTS.brokerAdmin);
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Audit log' })
        .click();
      await see(page.getByRole('heading', { name: 'Audit log' }));
      await settled(page);
      const records = page.getByRole('table', { name: 'Audit records, newest first' });
      const created = await see(
        records.getByRole('row').filter({ hasText: 'Created a scheme' }),
        'the scheme’s creation in words',
      );
      const createdText = await shownText(created);
      // Who by name, their role in words beneath, the record by its name as it is now, the
      // address the server trusted.
      expect(createdText).toContain(who);
      await see(
        created.getByRole('cell').nth(2).getByText('Broker administrator', { exact: true }),
        'the role in words under the name',
      );
      expect(createdText).toContain(scheme.now);
      // The server trusts its local proxy here, so the client is the address the API client gave;
      // the header it forwarded says the same, so no "Forwarded for" repeats it.
      expect(await shownText(created.getByRole('cell').nth(4))).toMatch(
        /^100\.\d{1,3}\.\d{1,3}\.\d{1,3}$/,
      );
      // A trustee by name and a written policy by its kind and version, resolved as the log is read.
      await see(
        records.getByRole('row').filter({ hasText: 'Appointed a trustee' }).getByText(trustee),
      );
      await see(
        records
          .getByRole('row')
          .filter({ hasText: 'Drafted a written policy' })
          .getByText('Remuneration policy, version 1.0'),
      );
      // A projection assumption set by its name, not its id.
      await see(
        records
          .getByRole('row')
          .filter({ hasText: 'Added a projection assumption set' })
          .getByText(assumptions),
      );
      expect(await shownText(records)).not.toMatch(/[a-z_]+\.[a-z_]+ed\b/);
      // What changed, as a line a person reads, not the record's JSON.
      const renamed = records.getByRole('row').filter({ hasText: 'Changed a scheme’s details' });
      await renamed.getByRole('button', { name: /^Show details/ }).click();
      const changes = await see(page.getByText('What changed').locator('..'));
      expect(await shownText(changes)).toContain(`Name: ${scheme.first} → ${scheme.now}`);
      expect(await shownText(changes)).not.toContain('{');
      await renamed.getByRole('button', { name: /^Hide details/ }).click();
      // A contribution's details: its kind and pay period in words, the member's id as it is.
      const paid = records.getByRole('row').filter({ hasText: 'Recorded a contribution' });
      await paid.getByRole('button', { name: /^Show details/ }).click();
      const recorded = await shownText(await see(page.getByText('Recorded with it').locator('..')));
      expect(recorded).toContain('Period: Oct 2026');
      expect(recorded).toContain('Kind: Employer');
      expect(recorded).toContain('Amount: €210.00');
      expect(recorded).not.toContain('2026-10');
      // The ids and the code an auditor looks up are set apart, each labelled in words.
      const technical = await shownText(
        await see(page.getByRole('region', { name: 'Technical details' })),
      );
      expect(recorded).not.toMatch(/Member id/);
      expect(technical).toMatch(/Member id: [\w-]+/);
      expect(technical).toContain('Action code: contribution.created');
      expect(technical).toMatch(/Browser: \S+/);
      expect(technical).not.toMatch(/Tenant|Who \(id\)/);
      await paid.getByRole('button', { name: /^Hide details/ }).click();
      await e2e.checkPage(page, 'audit-log');

      // A person, picked by name.
      await field(page, 'Person').click();
      await page.getByRole('option', { name: `${who} · Broker administrator` }).click();
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL((url) => url.searchParams.has('actorId'));
      await settled(page);
      const byPerson = await records.getByRole('row').allTextContents();
      expect(byPerson.length).toBeGreaterThan(1);
      for (const row of byPerson.slice(1)) expect(row).toContain(who);

      // A record, by clicking its name in a row: its whole history, under its present name.
      await created.getByRole('link', { name: scheme.now, exact: true }).click();
      await page.waitForURL((url) => url.searchParams.get('entityId') === scheme.id);
      await settled(page);
      expect(await shownText(page.getByText('The history of'))).toContain(scheme.now);
      const history = await records.getByRole('row').allTextContents();
      expect(
        history.slice(1).map((row) => /Created a scheme|Changed a scheme’s details/.test(row)),
      ).toEqual([true, true]);
      await e2e.checkPage(page, 'audit-record-history');
      // The record's own page is one click away.
      await records
        .getByRole('link', { name: `Open ${scheme.now}` })
        .first()
        .click();
      await page.waitForURL((url) => url.pathname === `/schemes/${scheme.id}`);
      await page.goBack();
      await page.waitForURL((url) => url.pathname === '/audit');
      await settled(page);

      // Days are read day first, as in Ireland.
      const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Europe/Dublin' });
      const [year, month, day] = today.split('-');
      await page.goto(`/audit?from=${today}&to=${today}`);
      await settled(page);
      expect(await shownText(field(page, 'From'))).toBe(`${day}/${month}/${year}`);
      await see(records.getByRole('row').filter({ hasText: 'Changed a scheme’s details' }));

      // The CSV holds what the table shows, and saying so is itself recorded.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export CSV' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = readFileSync(await download.path(), 'utf8');
      expect(csv.startsWith('\uFEFFTime (UTC),Time (Ireland),Who,Role,')).toBe(true);
      expect(csv).toContain(`${who},BrokerAdmin,`);
      expect(csv).toContain(`Created a scheme,scheme.created,Scheme,${scheme.now},${scheme.id}`);
      await page.reload();
      await settled(page);
      await see(records.getByRole('row').filter({ hasText: 'Exported the audit log as CSV' }));

      // On a phone the table scrolls sideways inside its own region; the page itself does not.
      await page.setViewportSize({ width: 390, height: 844 });
      await settled(page);
      const region = page.getByRole('region', { name: 'Audit records (scrolls sideways)' });
      const widths = await region.evaluate((element) => ({
        scroll: element.scrollWidth,
        client: element.clientWidth,
        page: element.ownerDocument.documentElement.scrollWidth,
      }));
      expect(widths.scroll).toBeGreaterThan(widths.client);
      expect(widths.page).toBeLessThanOrEqual(390);
      // What happened is the second column, with its Show details under it: both read before
      // anything is scrolled, and nothing covers the summary.
      const exported = records
        .getByRole('row')
        .filter({ hasText: 'Exported the audit log as CSV' });
      const inView = async (locator: Locator) => {
        const box = await locator.boundingBox();
        return box !== null && box.x >= 0 && box.x + box.width <= 390;
      };
      await expect
        .poll(() => inView(exported.getByText('Exported the audit log as CSV')))
        .toBe(true);
      const show = exported.getByRole('button', { name: /^Show details of/ });
      await expect.poll(() => inView(show)).toBe(true);
      // Every summary in view wraps within the screen, however long.
      const pastTheEdge = await records.evaluate((table) =>
        [...table.querySelectorAll('tbody tr td:nth-child(2)')]
          .map((cell) => cell.firstElementChild?.getBoundingClientRect().right ?? 0)
          .filter((right) => right > (table.ownerDocument.defaultView?.innerWidth ?? 0)),
      );
      expect(pastTheEdge).toEqual([]);
      const summaryBox = await exported.getByText('Exported the audit log as CSV').boundingBox();
      const showBox = await show.boundingBox();
      expect(showBox?.y ?? 0).toBeGreaterThanOrEqual(
        (summaryBox?.y ?? 0) + (summaryBox?.height ?? 0),
      );
      await show.click();
      await expect.poll(() => inView(page.getByText('Technical details').first())).toBe(true);
      await e2e.checkPage(page, 'audit-phone');
    });
  },
);
