import { beforeAll, describe, expect, it } from 'vitest';
import { type Credentials, DEV_ACCOUNTS, invitedAccount } from '../helpers/built-server.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { browserSuiteSkipReason, JOURNEY_TIMEOUT, see, settled, useE2e } from '../helpers/e2e.js';

/**
 * Nobody is signed out by using the product
 * (docs/decisions/0042-signed-in-rate-limits-and-session-handling.md). Every full page load reads
 * the session; were that read counted against the 10-a-minute limit of /api/auth/*, the 11th load
 * in a minute would send a signed-in person to the sign-in page, and a whole office behind one
 * public address would meet that at once. Signed-in traffic is counted per user under an
 * office-sized ceiling per address (docs/api.md, "Rate limits"), and a refusal reads "try again
 * shortly", never "signed out".
 */
describe.skipIf(browserSuiteSkipReason)(
  'a working day in an office behind one address',
  { timeout: JOURNEY_TIMEOUT * 2 },
  () => {
    const e2e = useE2e('office');
    const password = 'Shannon-Ferry-Lantern-5520';
    const staff: Credentials[] = Array.from({ length: 21 }, (_, index) => ({
      email: `staff${index + 1}@moy-valley-meats.example.ie`,
      password,
    }));
    let employerId = '';

    beforeAll(async () => {
      const broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      ({ id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
        name: 'Moy Valley Meats Ltd',
      }));
      for (const [index, person] of staff.entries()) {
        await invitedAccount(e2e.server, broker, `/api/employers/${employerId}/users`, {
          ...person,
          name: `Moy Valley Staff ${index + 1}`,
          role: 'EmployerUser',
        });
      }
    }, JOURNEY_TIMEOUT);

    it('one person loads pages 30 times in a minute and is never sent back to sign in', async () => {
      const { page } = await e2e.openAs(staff[20] as Credentials);
      const home = `/employers/${employerId}`;
      for (let load = 1; load <= 30; load += 1) {
        await page.goto(load % 2 === 0 ? home : '/schemes');
        await see(
          page.getByRole('button', { name: 'Sign out', exact: true }),
          `signed in at load ${load}`,
        );
        expect(new URL(page.url()).pathname, `load ${load}`).not.toBe('/signin');
      }
      await settled(page);
    });

    it('twenty people behind one address work at once, and none is sent back to sign in', async () => {
      const office = uniqueClientAddress();
      // Each signed in earlier in the day (sign-ins have a limit of their own per address:
      // docs/api.md, "Rate limits"; signing in through the form is the auth journey's), so each
      // browser holds its session cookie; then they all work from the office's one public address.
      const pages = [];
      for (const person of staff.slice(0, 20)) {
        const { token } = await e2e.api(person);
        const watched = await e2e.open(office);
        await watched.context.addCookies([
          { name: 'session', value: token, url: e2e.server.baseUrl },
        ]);
        pages.push(watched.page);
      }
      for (let round = 1; round <= 3; round += 1) {
        await Promise.all(
          pages.map(async (page, index) => {
            // Twenty cold browsers load the app at once on a CI machine of two cores: the test is
            // of the gate and the limiter, not of speed, so each load has long enough to finish.
            const loading = { timeout: 120_000 };
            await (round === 1 ? page.goto('/', loading) : page.reload(loading));
            await see(
              page.getByRole('button', { name: 'Sign out', exact: true }),
              `person ${index + 1} signed in, round ${round}`,
            );
            expect(new URL(page.url()).pathname).not.toBe('/signin');
          }),
        );
      }
    }, 600_000);
  },
);
