import { describe, expect, it } from 'vitest';
import { OBLIGATION_STATUS_LABELS } from '../../src/contracts/governance-rules.js';
import { todayInIreland } from '../../src/contracts/irish-dates.js';
import { type Credentials, DEV_ACCOUNTS, invitedAccount } from '../helpers/built-server.js';
import {
  browserSuiteSkipReason,
  JOURNEY_TIMEOUT,
  see,
  seeNo,
  settled,
  signInThroughForm,
  useE2e,
} from '../helpers/e2e.js';
import { newPpsNumber } from '../helpers/pps.js';

/**
 * Each role lands on a page that leads to their work, with their broker firm's name in the header
 * (docs/decisions/0045-home-pages-by-role.md); each home is screenshotted and checked with axe on a
 * desktop and on a phone, arriving as people do: at the root address, signed out.
 */
describe.skipIf(browserSuiteSkipReason)(
  'each role’s home page',
  { timeout: JOURNEY_TIMEOUT * 2 },
  () => {
    const e2e = useE2e('homes');
    const firm = 'Development Brokers Ltd';
    const employer = 'Ballinasloe Creamery Ltd';
    const scheme = 'Ballinasloe Creamery DC Scheme';
    /** A scheme whose payroll is kept and which needs no fund, but whose registers are empty. */
    const keptScheme = 'Ballinasloe Creamery DB Scheme';

    it('leads every role to their work, on a desktop and on a phone', async () => {
      const broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      const { id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
        name: employer,
      });
      const { id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
        employerId,
        name: scheme,
        type: 'DC',
      });
      const { id: memberId } = await broker.call<{ id: string }>(
        'POST',
        `/api/schemes/${schemeId}/members`,
        {
          firstName: 'Máire',
          lastName: 'Ní Fhlatharta',
          dateOfBirth: '1981-02-14',
          dateJoined: '2016-03-01',
          salaryCents: 3_900_000,
          ppsNumber: newPpsNumber(),
        },
      );
      const tomasPps = newPpsNumber();
      // The DB scheme has last month's contributions in, for one of its two members: the other
      // has nothing paid, and its governance waits besides.
      const { id: keptId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
        employerId,
        name: keptScheme,
        type: 'DB',
      });
      await broker.call('POST', `/api/schemes/${keptId}/members`, {
        firstName: 'Tomás',
        lastName: 'Ó Fatharta',
        dateOfBirth: '1975-06-30',
        dateJoined: '2010-09-01',
        salaryCents: 5_200_000,
        ppsNumber: tomasPps,
      });
      await broker.call('POST', `/api/schemes/${keptId}/members`, {
        firstName: 'Siobhán',
        lastName: 'Ní Chonghaile',
        dateOfBirth: '1988-11-02',
        dateJoined: '2019-01-07',
        salaryCents: 4_100_000,
        ppsNumber: newPpsNumber(),
      });
      const [year, month] = todayInIreland(new Date()).split('-').map(Number) as [number, number];
      const lastMonth =
        month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`;
      // One row of a payroll file, two contributions: the employee's and the employer's.
      await broker.call(
        'POST',
        `/api/schemes/${keptId}/contributions/import`,
        `PPS No,Pay Period,Employee,Employer\n${tomasPps},${lastMonth},400.00,800.00\n`,
      );
      const password = 'Suck-River-Churn-8142';
      const account = (email: string): Credentials => ({ email, password });
      const accounts = {
        BrokerUser: account('advisor@dev-brokers.example.ie'),
        EmployerAdmin: account('payroll@ballinasloe-creamery.example.ie'),
        EmployerUser: account('accounts@ballinasloe-creamery.example.ie'),
        Member: account('maire@ballinasloe-creamery.example.ie'),
      };
      await invitedAccount(e2e.server, broker, '/api/users', {
        ...accounts.BrokerUser,
        name: 'Dev Advisor',
        role: 'BrokerUser',
      });
      for (const role of ['EmployerAdmin', 'EmployerUser', 'Member'] as const) {
        await invitedAccount(e2e.server, broker, `/api/employers/${employerId}/users`, {
          ...accounts[role],
          name: `Ballinasloe ${role}`,
          role,
          ...(role === 'Member' ? { memberId } : {}),
        });
      }

      const homes: Array<[string, Credentials, string, string]> = [
        ['super-admin', DEV_ACCOUNTS.superAdmin, '/brokers', 'Platform administration'],
        ['broker-admin', DEV_ACCOUNTS.brokerAdmin, '/dashboard', firm],
        ['broker-user', accounts.BrokerUser, '/dashboard', firm],
        ['employer-admin', accounts.EmployerAdmin, '/home', firm],
        ['employer-user', accounts.EmployerUser, '/home', firm],
        ['member', accounts.Member, `/members/${memberId}`, firm],
      ];
      for (const [name, credentials, home, header] of homes) {
        const { page } = await e2e.open();
        await signInThroughForm(page, credentials, '/');
        expect(new URL(page.url()).pathname, `${name} lands on their home`).toBe(home);
        await see(page.getByRole('banner').getByText(header, { exact: true }), `${name}'s header`);
        if (name === 'super-admin') {
          // A firm's records are not the platform's pages: typed by hand, each of them answers
          // "Not available", as the firm's list of employers does, and asks the service for
          // nothing of the record (docs/decisions/0153-firm-records-not-the-platforms-pages.md).
          const asked: string[] = [];
          page.on('request', (request) => {
            const url = new URL(request.url());
            if (url.pathname.startsWith('/api/')) asked.push(url.pathname);
          });
          for (const address of [
            `/employers/${employerId}`,
            '/schemes',
            `/schemes/${schemeId}`,
            `/members/${memberId}`,
          ]) {
            await page.goto(address);
            await see(page.getByRole('heading', { name: 'Not available' }), address);
            await settled(page);
            const shown = (await page.getByRole('main').textContent()) ?? '';
            for (const personal of ['Máire', 'Ní Fhlatharta', '39,000', '14/02/1981', scheme]) {
              expect(shown, `${address} shows ${personal}`).not.toContain(personal);
            }
          }
          expect(asked.filter((path) => /\/api\/(employers|schemes|members)\b/.test(path))).toEqual(
            [],
          );
          // Its own work is where it was.
          await page.goto('/brokers');
          await see(page.getByRole('heading', { name: 'Broker firms' }));
        }
        if (name === 'broker-user') {
          // The scheme has a member but no fund: it needs attention. It was added this month, so
          // last month's contributions are not asked for, as the remittance calendar chases none
          // before the month a scheme was added.
          const row = await see(
            page
              .getByRole('table', { name: 'Schemes that need attention, and why' })
              .getByRole('row', { name: new RegExp(scheme) }),
          );
          expect(await row.textContent()).toContain('No fund to invest in');
          expect(await row.textContent()).not.toMatch(/contributions not in/);
          // The headline and the governance counts agree: the DB scheme's payroll is in, but its
          // registers are empty, so it is listed with the standing the governance line counts.
          const counted = page.getByRole('region', { name: 'Schemes by status' });
          const okCount = await counted
            .getByRole('region', { name: new RegExp(`^${OBLIGATION_STATUS_LABELS.ok}: `) })
            .getAttribute('aria-label');
          expect(okCount).toBe(`${OBLIGATION_STATUS_LABELS.ok}: 0`);
          await seeNo(page.getByText('Every scheme is up to date.'), 'an up-to-date headline');
          const kept = await see(
            page
              .getByRole('table', { name: 'Schemes that need attention, and why' })
              .getByRole('row', { name: new RegExp(keptScheme) }),
          );
          const keptText = await kept.textContent();
          expect(keptText).toMatch(/Governance: (incomplete|overdue|due soon)/);
          expect(keptText).toMatch(/: nothing paid for 1 member/);
          expect(keptText).not.toMatch(/contributions not in|No fund/);
          const standing = /Governance: ([a-z ]+)/.exec(keptText ?? '')?.[1] ?? '';
          await see(
            counted.getByRole('region', {
              name: new RegExp(`^${RegExp.escape(standing)}: [1-9]`, 'i'),
            }),
            'the governance line counting the standing the work list names',
          );
        }
        if (name === 'broker-admin') {
          // A full load of the dashboard asks the service once for all it shows (docs/decisions/0118).
          const asked: string[] = [];
          page.on('request', (request) => {
            const url = new URL(request.url());
            if (url.pathname.startsWith('/api/')) asked.push(`${request.method()} ${url.pathname}`);
          });
          await page.reload();
          await see(page.getByRole('heading', { name: 'Recent activity' }));
          await settled(page);
          // What happened, in the audit log's words, never its codes.
          const activity = page.locator('section[aria-labelledby="dashboard-activity"]');
          await see(
            activity.getByRole('cell', { name: 'Created a user account', exact: true }).first(),
          );
          expect(await activity.getByText(/^[a-z_]+\.[a-z_]+$/).count()).toBe(0);
          const everyPage = ['GET /api/auth/session', 'GET /api/me'];
          expect(asked.filter((request) => !everyPage.includes(request))).toEqual([
            'GET /api/overview/dashboard',
          ]);
        }
        if (name === 'employer-admin') {
          // Added this month, the DC scheme's card asks for nothing before it (remittance rules).
          const addedCard = page.getByRole('article', { name: scheme });
          await see(addedCard.getByText(/^Added in .+: contributions are asked for from .+\.$/));
          await see(
            addedCard.getByRole('link', {
              name: new RegExp(`^Upload contributions for ${scheme}$`),
            }),
          );
          await see(page.getByRole('heading', { name: 'Recent member and contribution files' }));
          await see(page.getByRole('heading', { name: 'Members who need attention' }));
          // The file's one row saved two contributions, and the list says so, not "2 rows".
          const files = page.getByRole('table', { name: 'The latest uploads, newest first' });
          await see(files.getByRole('row', { name: /Saved: 2 contributions/ }));
          // Last month is in for the DB scheme, but not for every member: the card says so.
          const keptCard = page.getByRole('article', { name: keptScheme });
          await see(
            keptCard.getByText(
              /contributions are in for 1 of 2 members; nothing is paid for 1 member\./,
            ),
          );
          await see(page.getByRole('row', { name: /Siobhán Ní Chonghaile.*Nothing paid for/ }));
          // Its button asks for what is missing, and opens the import on contributions.
          await keptCard
            .getByRole('link', { name: new RegExp(`^Upload the missing .+ for ${keptScheme}$`) })
            .click();
          await see(page.getByRole('heading', { name: 'Import a CSV file' }));
          expect(await page.getByRole('radio', { name: 'Contributions' }).isChecked()).toBe(true);
          await page.goBack();
          await see(keptCard);
        }
        // The API reference is for those whose work it scripts: not for a reader or a member.
        const menu = page.getByRole('navigation', { name: 'Main' });
        const scripts = ['super-admin', 'broker-admin', 'broker-user', 'employer-admin'];
        await see(menu.getByRole('link', { name: 'My account' }));
        expect(await menu.getByRole('link', { name: 'API reference' }).count(), name).toBe(
          scripts.includes(name) ? 1 : 0,
        );
        if (name === 'employer-user') {
          // Reading only: no upload button.
          await see(page.getByRole('heading', { name: 'Recent member and contribution files' }));
          expect(await page.getByRole('link', { name: /^Upload / }).count()).toBe(0);
          // Nor the API reference, opened by its address.
          await page.goto('/api-reference');
          await see(page.getByRole('heading', { name: 'Not available' }));
          await page.goBack();
          await see(page.getByRole('heading', { name: 'Recent member and contribution files' }));
        }
        await e2e.checkPage(page, `${name}-desktop`);
        await page.setViewportSize({ width: 390, height: 844 });
        await e2e.checkPage(page, `${name}-phone`);
        await page.close();
      }
    });
  },
);
