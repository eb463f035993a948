import { beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, totpAt } from '../../src/server/modules/auth/totp.rules.js';
import { DEV_ACCOUNTS, invitedAccount } from '../helpers/built-server.js';
import {
  arriveSignedOut,
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
 * A role that must have a second factor (MFA_REQUIRED_ROLES) and an account of it without one
 * (docs/decisions/0112-second-factor-required-roles.md): the service refuses it everything but
 * setting one up, so whatever page the person opens shows them how, in that page's place. Once a
 * factor is set up they read their recovery codes, go on, and land on the page they opened.
 */
describe.skipIf(browserSuiteSkipReason)(
  'an account that must set up a second factor first',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    const e2e = useE2e('second-factor-required', () => ({ MFA_REQUIRED_ROLES: 'BrokerUser' }));
    const newcomer = {
      email: 'niamh.walsh@murphy-byrne.example.ie',
      password: 'Corrib-Heron-Lamp-8841',
    };

    const colleague = {
      email: 'ciaran.byrne@murphy-byrne.example.ie',
      password: 'Barrow-Kestrel-Oar-3307',
    };

    beforeAll(async () => {
      const broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      await invitedAccount(e2e.server, broker, '/api/users', {
        ...newcomer,
        name: 'Niamh Walsh',
        role: 'BrokerUser',
      });
      await invitedAccount(e2e.server, broker, '/api/users', {
        ...colleague,
        name: 'Ciarán Byrne',
        role: 'BrokerUser',
      });
      // Ciarán set up an authenticator app some time ago.
      const own = await e2e.api(colleague);
      const { secret } = await own.call<{ secret: string }>('POST', '/api/auth/mfa/totp');
      await own.call('POST', '/api/auth/mfa/totp/confirm', {
        code: totpAt(base32Decode(secret), new Date()),
      });
    }, JOURNEY_TIMEOUT);

    it('opens a link to the schemes, is shown how to set up a factor there, and reaches the schemes after', async () => {
      const { page } = await e2e.open();
      await signInThroughForm(page, newcomer, '/schemes');
      await see(page.getByRole('heading', { name: 'Set up a second factor' }));
      await seeNo(page.getByRole('heading', { name: 'Schemes' }));
      const navigation = page.getByRole('navigation', { name: 'Main' }).getByRole('link');
      expect(await navigation.allTextContents()).toEqual(['My account']);
      await e2e.checkPage(page, 'setup-first');

      await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
      const secret = (
        await shownText(page.getByLabel('Secret for your authenticator app'))
      ).replace(/\s/g, '');
      const form = page.getByRole('form', { name: 'Set up an authenticator app' });
      await field(form, 'Code from the app').fill(totpAt(base32Decode(secret), new Date()));
      await form.getByRole('button', { name: 'Confirm the app' }).click();
      // The codes stay on screen, however long the person takes to copy them down.
      const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
      await see(codes.first());
      expect(await codes.count()).toBe(10);
      await see(page.getByText('Your second factor is set up'));
      await seeNo(page.getByRole('heading', { name: 'Schemes' }));
      await page.getByRole('button', { name: 'I have saved these codes' }).click();

      await page.getByRole('button', { name: 'Continue' }).click();
      await see(page.getByRole('heading', { name: 'Schemes' }));
      expect(new URL(page.url()).pathname).toBe('/schemes');
      await see(
        page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Governance' }),
      );
    });

    it('a BrokerAdmin resets the factor of a colleague who lost their phone, who then sets up a new one', async () => {
      const admin = (await e2e.openAs(DEV_ACCOUNTS.brokerAdmin, '/users')).page;
      const row = admin.getByRole('row').filter({ hasText: colleague.email });
      // Niamh set hers up in the journey above, so hers could be reset too; only Ciarán asked.
      const niamh = admin.getByRole('row').filter({ hasText: newcomer.email });
      await see(niamh.getByRole('button', { name: 'Reset the second factor of Niamh Walsh' }));
      await row.getByRole('button', { name: 'Reset the second factor of Ciarán Byrne' }).click();
      const dialog = admin.getByRole('dialog', { name: 'Reset second factor' });
      await see(dialog.getByText('has lost their phone or key'));
      await e2e.checkPage(admin, 'reset-second-factor');
      await dialog.getByRole('button', { name: 'Reset second factor' }).click();
      await seeNo(dialog);
      await see(admin.getByText("Ciarán Byrne's second factors are removed"));
      // Nothing is left to reset, so the reset is no longer offered on his row.
      await seeNo(row.getByRole('button', { name: 'Reset the second factor of Ciarán Byrne' }));
      await see(row.getByRole('button', { name: 'Deactivate Ciarán Byrne' }));
      await see(niamh.getByRole('button', { name: 'Reset the second factor of Niamh Walsh' }));

      // Ciarán's password alone now signs him in, only to set up a factor again.
      const { page } = await e2e.open();
      await arriveSignedOut(page, '/');
      await field(page, 'E-mail address').fill(colleague.email);
      await field(page, 'Password').fill(colleague.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      // No code is asked for: there is none to give. The root stays his address meanwhile.
      await see(page.getByRole('heading', { name: 'Set up a second factor' }));
      await see(page.getByRole('button', { name: 'Set up an authenticator app' }));
    });
  },
);
