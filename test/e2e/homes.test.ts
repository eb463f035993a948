import { describe, expect, it } from 'vitest';
import { type Credentials, DEV_ACCOUNTS, invitedAccount } from '../helpers/built-server.js';
import {
  browserSuiteSkipReason,
  JOURNEY_TIMEOUT,
  see,
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
        if (name === 'broker-user') {
          // The scheme has a member but no fund and nothing paid: it needs attention.
          const row = await see(
            page
              .getByRole('table', { name: 'Schemes that need attention, and why' })
              .getByRole('row', { name: new RegExp(scheme) }),
          );
          expect(await row.textContent()).toContain('No fund to invest in');
          expect(await row.textContent()).toMatch(/contributions not in/);
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
          const everyPage = ['GET /api/auth/session', 'GET /api/me'];
          expect(asked.filter((request) => !everyPage.includes(request))).toEqual([
            'GET /api/overview/dashboard',
          ]);
        }
        if (name === 'employer-admin') {
          await see(
            page.getByRole('link', { name: new RegExp(`^Upload .+ contributions for ${scheme}$`) }),
          );
          await see(page.getByRole('heading', { name: 'Recent uploads' }));
          await see(page.getByRole('heading', { name: 'Members who need attention' }));
        }
        if (name === 'employer-user') {
          // Reading only: no upload button.
          await see(page.getByRole('heading', { name: 'Recent uploads' }));
          expect(await page.getByRole('link', { name: /^Upload / }).count()).toBe(0);
        }
        await e2e.checkPage(page, `${name}-desktop`);
        await page.setViewportSize({ width: 390, height: 844 });
        await e2e.checkPage(page, `${name}-phone`);
        await page.close();
      }
    });
  },
);
