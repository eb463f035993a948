import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { base32Decode, totpAt } from '../../src/server/modules/auth/totp.rules.js';
import { DEV_ACCOUNTS } from '../helpers/built-server.js';
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

/**
 * A second factor in Chromium (docs/decisions/0110-second-factor.md, 0111-passkeys.md): the
 * authenticator app set up from the account page with its QR code and secret, the recovery codes
 * shown once and one of them used at the sign-in's second step; a passkey registered, used alone
 * to sign in and removed, with Chromium's virtual authenticator (the DevTools protocol's WebAuthn
 * domain). Each journey starts signed out at `/`.
 */
describe.skipIf(browserSuiteSkipReason)('a second factor', { timeout: JOURNEY_TIMEOUT }, () => {
  // Browsers refuse passkeys on an IP address: the service answers at localhost, on either
  // loopback address, each trusted to name the page's own client address.
  const e2e = useE2e('second-factor', () => ({ HOST: 'localhost', TRUST_PROXY: '127.0.0.1,::1' }));

  /** A virtual platform authenticator that verifies its user (as a fingerprint would), for this page. */
  async function virtualAuthenticator(page: Page): Promise<void> {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
  }

  /** Signs out from the layout's button and waits for the sign-in page it leads to. */
  async function signOut(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/signin');
    await see(page.getByRole('heading', { name: 'Sign in' }));
  }

  async function toAccount(page: Page): Promise<void> {
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'My account' })
      .click();
    await page.waitForURL((url) => url.pathname === '/account');
    await see(page.getByRole('heading', { name: 'Second factor' }));
  }

  it('sets up an authenticator app with its secret, then signs in with a recovery code', async () => {
    const { page } = await e2e.open();
    await signInThroughForm(page, DEV_ACCOUNTS.superAdmin, '/');
    await toAccount(page);
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await see(page.getByRole('img', { name: 'QR code for your authenticator app' }));
    const secret = (await shownText(page.getByLabel('Secret for your authenticator app'))).replace(
      /\s/g,
      '',
    );
    await e2e.checkPage(page, 'authenticator-setup');
    const form = page.getByRole('form', { name: 'Set up an authenticator app' });
    // Nothing typed: told under the field, and nothing is sent.
    const sent: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/auth/mfa/totp'))
        sent.push(request.url());
    });
    await form.getByRole('button', { name: 'Confirm the app' }).click();
    await see(form.getByText('Fill this in'));
    expect(sent).toEqual([]);
    // A wrong code: told under the field alone, never as a "Validation failed" banner.
    await field(form, 'Code from the app').fill('000000');
    await form.getByRole('button', { name: 'Confirm the app' }).click();
    await see(form.getByText('This is not the code your app shows now'));
    expect(await page.getByRole('alert').filter({ hasText: 'Validation failed' }).count()).toBe(0);
    await field(form, 'Code from the app').fill(totpAt(base32Decode(secret), new Date()));
    await form.getByRole('button', { name: 'Confirm the app' }).click();
    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await see(codes.first());
    expect(await codes.count()).toBe(10);
    const recoveryCode = await shownText(codes.first());
    await e2e.checkPage(page, 'recovery-codes');
    await page.getByRole('button', { name: 'I have saved these codes' }).click();
    await seeNo(page.getByRole('list', { name: 'Recovery codes' }));
    await see(page.getByText('10 of 10 left'));

    await signOut(page);
    await field(page, 'E-mail address').fill(DEV_ACCOUNTS.superAdmin.email);
    await field(page, 'Password').fill(DEV_ACCOUNTS.superAdmin.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const step = page.getByRole('form', { name: 'Second step' });
    await see(field(step, 'Code from your authenticator app'));
    await e2e.checkPage(page, 'second-step');
    await field(step, 'Code from your authenticator app').fill('ABCD-EFGH-JKMN-PQRS');
    await step.getByRole('button', { name: 'Continue' }).click();
    await see(page.getByRole('alert').getByText('That code did not work'));
    await field(step, 'Code from your authenticator app').fill(recoveryCode);
    await step.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((url) => url.pathname !== '/signin' && url.pathname !== '/');
    await see(page.getByRole('button', { name: 'Sign out', exact: true }));
    await toAccount(page);
    await see(page.getByText('9 of 10 left'));
  });

  it('registers a passkey, signs in with it after the password and alone, and after removing it no longer can', async () => {
    const { page } = await e2e.open();
    await virtualAuthenticator(page);
    await signInThroughForm(page, DEV_ACCOUNTS.brokerAdmin, '/');
    await toAccount(page);
    const add = page.getByRole('form', { name: 'Add a passkey' });
    await field(add, 'Passkey name').fill('Office laptop');
    await add.getByRole('button', { name: 'Add a passkey' }).click();
    const passkeys = page.getByRole('table', { name: 'Your passkeys' });
    await see(passkeys.getByRole('cell', { name: 'Office laptop' }));
    // The account's first factor: its recovery codes, shown once.
    await see(page.getByRole('list', { name: 'Recovery codes' }));
    await page.getByRole('button', { name: 'I have saved these codes' }).click();
    await e2e.checkPage(page, 'passkey-added');

    // With a passkey, the password alone no longer signs in: the passkey is the second step.
    await signOut(page);
    await field(page, 'E-mail address').fill(DEV_ACCOUNTS.brokerAdmin.email);
    await field(page, 'Password').fill(DEV_ACCOUNTS.brokerAdmin.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await see(page.getByText('Your password was right. Now confirm it is you.'));
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await see(page.getByRole('button', { name: 'Sign out', exact: true }));

    // And it signs in on its own.
    await signOut(page);
    await page.getByRole('button', { name: 'Use a passkey instead' }).click();
    await page.waitForURL((url) => url.pathname !== '/signin' && url.pathname !== '/');
    await see(page.getByRole('button', { name: 'Sign out', exact: true }));
    await toAccount(page);
    await see(passkeys.getByRole('cell', { name: 'Office laptop' }));
    expect(await passkeys.getByRole('cell', { name: 'Not yet' }).count()).toBe(0);

    await passkeys.getByRole('button', { name: 'Remove Office laptop' }).click();
    await seeNo(page.getByRole('table', { name: 'Your passkeys' }));
    await signOut(page);
    await page.getByRole('button', { name: 'Use a passkey instead' }).click();
    await see(page.getByRole('alert').getByText('That passkey was not accepted'));
    expect(new URL(page.url()).pathname).toBe('/signin');
    // With no factor left, the password alone signs in again.
    await field(page, 'E-mail address').fill(DEV_ACCOUNTS.brokerAdmin.email);
    await field(page, 'Password').fill(DEV_ACCOUNTS.brokerAdmin.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await see(page.getByRole('button', { name: 'Sign out', exact: true }));
  });
});
