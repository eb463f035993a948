import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiClient,
  type Credentials,
  DEV_ACCOUNTS,
  invitedAccount,
} from '../helpers/built-server.js';
import { browserSuiteSkipReason, JOURNEY_TIMEOUT, see, settled, useE2e } from '../helpers/e2e.js';
import { newPpsNumber } from '../helpers/pps.js';

interface Seeded {
  employerId: string;
  schemeId: string;
  memberId: string;
}

const PASSWORD = 'Slieve-Bloom-Curragh-6620';

/**
 * Addresses typed by hand: a record of another tenant, of another employer or of
 * another member shows "Not found", exactly as a record that does not exist, and nothing of it.
 */
describe.skipIf(browserSuiteSkipReason)(
  'another tenant’s addresses typed by hand',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    const e2e = useE2e('isolation');
    /** Another broker firm's records, with names that must never show up. */
    const otherTenant = {
      firm: 'Shannon Estuary Brokers Ltd',
      employer: 'Foynes Port Logistics Ltd',
      scheme: 'Foynes Port DC Scheme',
      member: 'Pádraig Culhane',
    };
    let other: Seeded;
    /** In the development firm: two employers, the first with an EmployerAdmin and a Member. */
    let own: Seeded;
    let neighbour: Seeded;
    const employerAdmin: Credentials = {
      email: 'payroll@inch-creameries.example.ie',
      password: PASSWORD,
    };
    const member: Credentials = {
      email: 'eimear.daly@inch-creameries.example.ie',
      password: PASSWORD,
    };

    async function seedEmployer(api: ApiClient, employer: string, scheme: string, person: string) {
      const { id: employerId } = await api.call<{ id: string }>('POST', '/api/employers', {
        name: employer,
      });
      const { id: schemeId } = await api.call<{ id: string }>('POST', '/api/schemes', {
        employerId,
        name: scheme,
        type: 'DC',
      });
      const [firstName = '', lastName = ''] = person.split(' ');
      const { id: memberId } = await api.call<{ id: string }>(
        'POST',
        `/api/schemes/${schemeId}/members`,
        {
          firstName,
          lastName,
          dateOfBirth: '1979-11-02',
          dateJoined: '2010-01-04',
          salaryCents: 5_200_000,
          ppsNumber: newPpsNumber(),
        },
      );
      return { employerId, schemeId, memberId };
    }

    beforeAll(async () => {
      const superAdmin = await e2e.api(DEV_ACCOUNTS.superAdmin);
      const { id: brokerId } = await superAdmin.call<{ id: string }>('POST', '/api/brokers', {
        name: otherTenant.firm,
      });
      const otherAdmin = { email: 'admin@shannon-brokers.example.ie', password: PASSWORD };
      await superAdmin.call('POST', `/api/brokers/${brokerId}/users`, {
        ...otherAdmin,
        name: 'Shannon Admin',
        role: 'BrokerAdmin',
      });
      other = await seedEmployer(
        await e2e.api(otherAdmin),
        otherTenant.employer,
        otherTenant.scheme,
        otherTenant.member,
      );

      const ownAdmin = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      own = await seedEmployer(
        ownAdmin,
        'Inch Creameries Ltd',
        'Inch Creameries DC Scheme',
        'Eimear Daly',
      );
      neighbour = await seedEmployer(
        ownAdmin,
        'Ballyhoura Quarries Ltd',
        'Ballyhoura DC Scheme',
        'Tadhg Lynch',
      );
      await invitedAccount(e2e.server, ownAdmin, `/api/employers/${own.employerId}/users`, {
        ...employerAdmin,
        name: 'Inch Payroll',
        role: 'EmployerAdmin',
      });
      await invitedAccount(e2e.server, ownAdmin, `/api/employers/${own.employerId}/users`, {
        ...member,
        name: 'Eimear Daly',
        role: 'Member',
        memberId: own.memberId,
      });
    });

    /** Typed into the address bar: the page says "Not found" and shows none of these names. */
    async function expectNotFound(page: Page, path: string, hidden: string[]) {
      await page.goto(path);
      await see(page.getByRole('heading', { name: 'Not found' }), `"Not found" at ${path}`);
      await settled(page);
      for (const name of hidden) {
        expect(await page.getByText(name).count(), `${name} on ${path}`).toBe(0);
      }
    }

    it('a BrokerAdmin gets "Not found" for another firm’s member, scheme, employer and import', async () => {
      // Sent a link to another firm's member: after signing in, that link says "Not found".
      const { page } = await e2e.openAs(DEV_ACCOUNTS.brokerAdmin, `/members/${other.memberId}`);
      const names = Object.values(otherTenant);
      await expectNotFound(page, `/members/${other.memberId}`, names);
      await e2e.checkPage(page, 'not-found-member');
      await expectNotFound(page, `/schemes/${other.schemeId}`, names);
      await expectNotFound(page, `/schemes/${other.schemeId}/import`, names);
      await expectNotFound(page, `/employers/${other.employerId}`, names);
      // Its own records open as usual: the "Not found" is about the tenant, not the page.
      await page.goto(`/members/${own.memberId}`);
      await see(page.getByRole('heading', { name: 'Eimear Daly' }));
    });

    it('an EmployerAdmin gets "Not found" for another employer of their own firm', async () => {
      const { page } = await e2e.openAs(employerAdmin);
      const names = ['Ballyhoura Quarries Ltd', 'Ballyhoura DC Scheme', 'Tadhg Lynch'];
      await expectNotFound(page, `/employers/${neighbour.employerId}`, names);
      await expectNotFound(page, `/schemes/${neighbour.schemeId}`, names);
      await expectNotFound(page, `/members/${neighbour.memberId}`, names);
      await page.goto(`/schemes/${own.schemeId}`);
      await see(page.getByRole('heading', { name: 'Inch Creameries DC Scheme' }));
    });

    it('a Member gets "Not found" for any member record but their own', async () => {
      const { page } = await e2e.openAs(member);
      await see(page.getByRole('heading', { name: 'Eimear Daly' }));
      await expectNotFound(page, `/members/${neighbour.memberId}`, ['Tadhg Lynch']);
      await expectNotFound(page, `/members/${other.memberId}`, [otherTenant.member]);
    });

    it('an address that is no page at all says "Not found" too', async () => {
      const { page } = await e2e.openAs(DEV_ACCOUNTS.brokerAdmin);
      await expectNotFound(page, '/no-such-page', []);
      // Inside the signed-in layout: its menu is there to go on from.
      await see(page.getByRole('navigation', { name: 'Main' }), 'the main menu beside "Not found"');
      await e2e.checkPage(page, 'not-found-page');
      await page.getByRole('link', { name: 'Go to the start page' }).click();
      await page.waitForURL('**/dashboard');
    });
  },
);
