import { describe, expect, it } from 'vitest';
import { PRODUCT_NAME } from '../../src/contracts/product.js';
import {
  type Credentials,
  DEV_ACCOUNTS,
  invitedAccount,
  latestMailTo,
} from '../helpers/built-server.js';
import { inOneClockMinute } from '../helpers/clients.js';
import {
  arriveSignedOut,
  browserSuiteSkipReason,
  field,
  JOURNEY_TIMEOUT,
  see,
  shownText,
  signInThroughForm,
  useE2e,
} from '../helpers/e2e.js';
import { resetTokenIn } from '../helpers/mail.js';
import { newPpsNumber } from '../helpers/pps.js';

/** Signed-out pages in a real browser against the built server: the generic messages of docs/decisions/0032-web-ui.md. */
describe.skipIf(browserSuiteSkipReason)(
  'signing in, out and back in',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    const e2e = useE2e('auth');

    it('signs a BrokerAdmin in from the root address onto their start page, and out again', async () => {
      const { page } = await e2e.open();
      await arriveSignedOut(page, '/');
      // The product's name above the form, as every e-mail of the service gives it.
      await see(page.getByRole('main').getByText(PRODUCT_NAME, { exact: true }));
      expect(await page.title()).toBe(PRODUCT_NAME);
      await e2e.checkPage(page, 'signin');

      await signInThroughForm(page, DEV_ACCOUNTS.brokerAdmin);
      expect(new URL(page.url()).pathname).toBe('/dashboard');
      // A fresh load: the keyboard's first stop skips the header and navigation to the page.
      await page.reload();
      await see(page.getByRole('button', { name: 'Sign out', exact: true }));
      await page.keyboard.press('Tab');
      const skip = page.getByRole('link', { name: 'Skip to content' });
      const focused = (element: ReturnType<typeof page.locator>) =>
        element.evaluate((node) => node === node.ownerDocument.activeElement);
      await expect.poll(() => focused(skip)).toBe(true);
      await page.keyboard.press('Enter');
      await expect.poll(() => focused(page.locator('#main-content'))).toBe(true);
      const navigation = page.getByRole('navigation', { name: 'Main' });
      for (const item of ['Dashboard', 'Employers', 'Schemes', 'Users', 'Audit log']) {
        await see(navigation.getByRole('link', { name: item }));
      }
      // A BrokerAdmin administers no broker firms: that is the SuperAdmin's navigation.
      expect(await navigation.getByRole('link', { name: 'Brokers' }).count()).toBe(0);

      await page.getByRole('button', { name: 'Sign out', exact: true }).click();
      await page.waitForURL('**/signin');
      // The session is over on the server too: a signed-in page sends the visitor back.
      await arriveSignedOut(page, '/employers');
    });

    it('signs every role in from the root address, and a reload keeps them signed in', async () => {
      const broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      const { id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
        name: 'Glenbeigh Woollen Mills Ltd',
      });
      const { id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
        employerId,
        name: 'Glenbeigh Woollen Mills DC Scheme',
        type: 'DC',
      });
      const { id: memberId } = await broker.call<{ id: string }>(
        'POST',
        `/api/schemes/${schemeId}/members`,
        {
          firstName: 'Síle',
          lastName: 'Ní Shé',
          dateOfBirth: '1984-03-09',
          dateJoined: '2015-06-01',
          salaryCents: 4_100_000,
          ppsNumber: newPpsNumber(),
        },
      );
      const password = 'Kerry-Loom-Heather-6402';
      const account = (email: string): Credentials => ({ email, password });
      const accounts = {
        BrokerUser: account('consultant@dev-brokers.example.ie'),
        EmployerAdmin: account('payroll@glenbeigh-woollens.example.ie'),
        EmployerUser: account('office@glenbeigh-woollens.example.ie'),
        Member: account('sile.nishe@glenbeigh-woollens.example.ie'),
      };
      // BrokerUser accounts are made by the SuperAdmin here (docs/api.md, "The firm's structure").
      const superAdmin = await e2e.api(DEV_ACCOUNTS.superAdmin);
      const { items: brokers } = await superAdmin.call<{
        items: Array<{ id: string; name: string }>;
      }>('GET', '/api/brokers');
      const devBrokers = brokers.find((each) => each.name === 'Development Brokers Ltd');
      await superAdmin.call('POST', `/api/brokers/${devBrokers?.id}/users`, {
        ...accounts.BrokerUser,
        name: 'Dev Consultant',
        role: 'BrokerUser',
      });
      for (const role of ['EmployerAdmin', 'EmployerUser', 'Member'] as const) {
        await invitedAccount(e2e.server, broker, `/api/employers/${employerId}/users`, {
          ...accounts[role],
          name: `Glenbeigh ${role}`,
          role,
          ...(role === 'Member' ? { memberId } : {}),
        });
      }

      const journeys: Array<[string, Credentials, string]> = [
        ['SuperAdmin', DEV_ACCOUNTS.superAdmin, '/brokers'],
        ['BrokerAdmin', DEV_ACCOUNTS.brokerAdmin, '/dashboard'],
        ['BrokerUser', accounts.BrokerUser, '/dashboard'],
        ['EmployerAdmin', accounts.EmployerAdmin, '/home'],
        ['EmployerUser', accounts.EmployerUser, '/home'],
        ['Member', accounts.Member, `/members/${memberId}`],
      ];
      for (const [role, credentials, home] of journeys) {
        // A cold start each time: a new browser context, signed out, at the address they were given.
        const { page } = await e2e.open();
        await signInThroughForm(page, credentials, '/');
        expect(new URL(page.url()).pathname, `${role}'s start page`).toBe(home);
        await page.reload();
        await see(
          page.getByRole('button', { name: 'Sign out', exact: true }),
          `${role} still signed in`,
        );
        expect(new URL(page.url()).pathname, `${role} after a reload`).toBe(home);
      }
    });

    it('takes a person who opened a deep link signed out back to it once signed in', async () => {
      const { page } = await e2e.open();
      await signInThroughForm(page, DEV_ACCOUNTS.brokerAdmin, '/schemes');
      await see(page.getByRole('main').getByRole('heading', { name: 'Schemes' }));
    });

    it('answers a wrong password and an unknown address with the same generic message', async () => {
      const { page } = await e2e.open();
      await arriveSignedOut(page);
      const messages: string[] = [];
      for (const attempt of [
        { email: DEV_ACCOUNTS.superAdmin.email, password: 'not the password at all' },
        { email: 'nobody-here@example.ie', password: 'not the password at all' },
      ]) {
        await field(page, 'E-mail address').fill(attempt.email);
        await field(page, 'Password').fill(attempt.password);
        await page.getByRole('button', { name: 'Sign in' }).click();
        messages.push(await shownText(page.getByRole('alert')));
        expect(new URL(page.url()).pathname).toBe('/signin');
      }
      expect(messages).toEqual(['Invalid email or password', 'Invalid email or password']);
      await e2e.checkPage(page, 'signin-failed');
    });

    it('says clearly that sign-in is rate-limited after five attempts a minute', async () => {
      // One client address for all six attempts: the limit counts per IP.
      const { page } = await e2e.open();
      await arriveSignedOut(page);
      await field(page, 'E-mail address').fill('guessing@example.ie');
      const alerts: string[] = [];
      // Failures count within a clock minute: all six in one, however busy the machine.
      await inOneClockMinute(40_000);
      for (let attempt = 1; attempt <= 6; attempt += 1) {
        await field(page, 'Password').fill(`guess number ${attempt}`);
        const answered = page.waitForResponse((response) =>
          response.url().endsWith('/api/auth/signin'),
        );
        await page.getByRole('button', { name: 'Sign in' }).click();
        await answered;
        alerts.push(await shownText(page.getByRole('alert')));
      }
      expect(alerts.slice(0, 5)).toEqual(Array(5).fill('Invalid email or password'));
      expect(alerts[5]).toBe('Too many sign-in attempts. Please wait a minute and try again.');
      await e2e.checkPage(page, 'signin-rate-limited');
    });

    it('says why a sign-in is slow while it waits, and no more once it is answered', async () => {
      const { page } = await e2e.open();
      await arriveSignedOut(page);
      // The answer held back as the account's slow-down holds it after many attempts.
      await page.route('**/api/auth/signin', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 4_000));
        await route.continue();
      });
      await field(page, 'E-mail address').fill('slowed@example.ie');
      await field(page, 'Password').fill('not the password at all');
      await page.getByRole('button', { name: 'Sign in' }).click();
      const notice = page.getByRole('status').filter({ hasText: 'Still checking.' });
      await see(notice, 'the slow-down explained while the sign-in waits');
      expect(await shownText(page.getByRole('alert'))).toBe('Invalid email or password');
      expect(await notice.count()).toBe(0);
    });

    it('resets a forgotten password from the e-mailed link, then signs in with the new one', async () => {
      const superAdmin = await e2e.api(DEV_ACCOUNTS.superAdmin);
      const { items: brokers } = await superAdmin.call<{
        items: Array<{ id: string; name: string }>;
      }>('GET', '/api/brokers');
      const broker = brokers.find((each) => each.name === 'Development Brokers Ltd');
      const email = 'forgetful.consultant@dev-brokers.example.ie';
      await superAdmin.call('POST', `/api/brokers/${broker?.id}/users`, {
        email,
        name: 'Forgetful Consultant',
        role: 'BrokerUser',
        password: 'the first password of this consultant',
      });

      const { page } = await e2e.open();
      await arriveSignedOut(page);
      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      await see(page.getByRole('heading', { name: 'Reset your password' }));
      await e2e.checkPage(page, 'forgot-password');
      await field(page, 'E-mail address').fill(email);
      await page.getByRole('button', { name: 'Send the link' }).click();
      // The same answer whether or not the address has an account (the last test shows the other).
      expect(await shownText(page.getByRole('status'))).toBe(
        'If an account exists for that e-mail address, a link to reset its password is on its way. Check your inbox.',
      );

      const token = resetTokenIn((await latestMailTo(e2e.server, email)).text);
      await page.goto(`/reset-password#token=${token}`);
      await see(page.getByRole('heading', { name: 'Choose a new password' }));
      await e2e.checkPage(page, 'reset-password');
      await field(page, 'New password').fill('a brand new consultant passphrase');
      await field(page, 'New password again').fill('a brand new consultant passphrase');
      await page.getByRole('button', { name: 'Set password' }).click();
      expect(await shownText(page.getByRole('status'))).toBe(
        'Your password has been reset. Sign in with your new password.',
      );
      // The spent token left the address bar.
      expect(page.url()).not.toContain(token);

      // The same link again, as a person who kept the e-mail opens it: the page says at once that
      // it no longer works, points to a new one, and asks for no password.
      const { page: again } = await e2e.open();
      await again.goto(`/reset-password#token=${token}`);
      await see(again.getByRole('heading', { name: 'Your password-reset link' }));
      await see(again.getByRole('alert').getByText(/^This link no longer works/));
      expect(await again.getByLabel(/password/i).count()).toBe(0);
      expect(
        await again.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href'),
      ).toBe('/forgot-password');
      await e2e.checkPage(again, 'reset-password-used');
      await again.close();

      await signInThroughForm(page, { email, password: 'a brand new consultant passphrase' });
      await see(page.getByRole('button', { name: 'Sign out', exact: true }));
    });

    it('shows the forgot-password answer for an address with no account too', async () => {
      const { page } = await e2e.open();
      await arriveSignedOut(page);
      await page.getByRole('link', { name: 'Forgot your password?' }).click();
      await field(page, 'E-mail address').fill('no-account-at-all@example.ie');
      await page.getByRole('button', { name: 'Send the link' }).click();
      expect(await shownText(page.getByRole('status'))).toBe(
        'If an account exists for that e-mail address, a link to reset its password is on its way. Check your inbox.',
      );
    });
  },
);
