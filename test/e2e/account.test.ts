import { describe, expect, it } from 'vitest';
import { PASSWORD_RULE_TEXT } from '../../src/contracts/passwords.js';
import { FIELD_MESSAGES } from '../../src/contracts/plain-english.js';
import { type Credentials, DEV_ACCOUNTS, invitedAccount } from '../helpers/built-server.js';
import {
  browserSuiteSkipReason,
  field,
  JOURNEY_TIMEOUT,
  see,
  seeNo,
  signInThroughForm,
  useE2e,
} from '../helpers/e2e.js';
import { newPpsNumber } from '../helpers/pps.js';

/**
 * A member's portal lets them change their own password from their account page
 * (docs/decisions/0049-changing-ones-own-password.md), offers no API reference, and works on a
 * phone, where Escape closes the menu.
 */
describe.skipIf(browserSuiteSkipReason)('my account', { timeout: JOURNEY_TIMEOUT }, () => {
  const e2e = useE2e('account');

  it('lets a member change their password, sign out, and sign in with the new one', async () => {
    const broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
    const { id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
      name: 'Dingle Crab Company Ltd',
    });
    const { id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
      employerId,
      name: 'Dingle Crab Staff Pension',
      type: 'DC',
    });
    const { id: memberId } = await broker.call<{ id: string }>(
      'POST',
      `/api/schemes/${schemeId}/members`,
      {
        firstName: 'Máire',
        lastName: 'Ní Shé',
        dateOfBirth: '1988-02-14',
        dateJoined: '2019-03-01',
        salaryCents: 3_900_000,
        ppsNumber: newPpsNumber(),
      },
    );
    const maire: Credentials = {
      email: 'maire@dinglecrab.example.ie',
      password: 'Conor-Pass-Fog-Over-Brandon-71',
    };
    await invitedAccount(e2e.server, broker, `/api/employers/${employerId}/users`, {
      ...maire,
      name: 'Máire Ní Shé',
      role: 'Member',
      memberId,
    });
    const newPassword = 'Slea-Head-Seals-And-Sunsets-42';

    const { page } = await e2e.open();
    await signInThroughForm(page, maire, '/');
    expect(new URL(page.url()).pathname).toBe(`/members/${memberId}`);
    const navigation = page.getByRole('navigation', { name: 'Main' });
    await see(navigation.getByRole('link', { name: 'My pension' }));
    expect(await navigation.getByRole('link', { name: 'API reference' }).count()).toBe(0);

    await navigation.getByRole('link', { name: 'My account' }).click();
    await page.waitForURL((url) => url.pathname === '/account');
    await see(page.getByRole('heading', { name: 'My account' }));
    await see(page.getByRole('cell', { name: maire.email }));
    const form = page.getByRole('form', { name: 'Change password' });
    await see(form.getByText(PASSWORD_RULE_TEXT));
    await e2e.checkPage(page, 'account');

    // The service's rule runs in the page as the password is typed (src/contracts/passwords.ts):
    // a keyboard run of twelve is told at once, and submitting it asks nothing of the service.
    await field(form, 'Current password').fill(maire.password);
    await field(form, 'New password').fill('qwertyuiopas');
    await see(form.getByText(FIELD_MESSAGES.passwordTooGuessable));
    await field(form, 'New password again').fill('qwertyuiopas');
    await form.getByRole('button', { name: 'Change password' }).click();
    await see(form.getByText(FIELD_MESSAGES.passwordTooGuessable));
    await seeNo(page.getByText('Your password has been changed.'));

    // Mistakes are told under the field they concern, in words, and change nothing.
    await field(form, 'Current password').fill('not my password at all');
    await field(form, 'New password').fill(newPassword);
    await field(form, 'New password again').fill(`${newPassword}!`);
    await form.getByRole('button', { name: 'Change password' }).click();
    await see(form.getByText('This does not match the new password'));
    await field(form, 'New password again').fill(newPassword);
    await form.getByRole('button', { name: 'Change password' }).click();
    await see(form.getByText('This is not your current password'));
    await e2e.checkPage(page, 'account-refused');

    await field(form, 'Current password').fill(maire.password);
    await form.getByRole('button', { name: 'Change password' }).click();
    await see(page.getByText('Your password has been changed.'));
    await seeNo(form.getByText('This is not your current password'));
    expect(await field(form, 'Current password').inputValue()).toBe('');
    // Still signed in here: the browser holds the new session cookie.
    await page.reload();
    await see(page.getByRole('heading', { name: 'My account' }));

    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/signin');
    await field(page, 'E-mail address').fill(maire.email);
    await field(page, 'Password').fill(maire.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await see(page.getByRole('alert').getByText('Invalid email or password'));
    await field(page, 'Password').fill(newPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL((url) => url.pathname === `/members/${memberId}`);
    await see(page.getByRole('heading', { name: 'Your pension' }));

    // The page is not offered, and typed by hand it says so.
    await page.goto('/api-reference');
    await see(page.getByRole('heading', { name: 'Not available' }));

    // Signed in on a second computer too: signing out from the account page ends both.
    const { page: elsewhere } = await e2e.open();
    await signInThroughForm(elsewhere, { ...maire, password: newPassword }, '/');
    await see(elsewhere.getByRole('heading', { name: 'Your pension' }));
    await page.goto('/account');
    await see(page.getByText('Signing out ends every session of your account', { exact: false }));
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    // Asked first: cancelling leaves every session as it was.
    const asked = page.getByRole('dialog', { name: 'Sign out everywhere' });
    await see(asked.getByText('every other computer, phone or browser', { exact: false }));
    await asked.getByRole('button', { name: 'Cancel' }).click();
    await seeNo(asked);
    await elsewhere.reload();
    await see(elsewhere.getByRole('heading', { name: 'Your pension' }));
    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await asked.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.waitForURL((url) => url.pathname === '/signin');
    await elsewhere.reload();
    await elsewhere.waitForURL((url) => url.pathname === '/signin');
  });

  it('on a phone, opens the menu from its button and closes it with Escape, the focus back on the button', async () => {
    const { page } = await e2e.openAs(DEV_ACCOUNTS.brokerAdmin);
    await page.setViewportSize({ width: 390, height: 844 });
    const menu = page.getByRole('button', { name: 'Menu' });
    const navigation = page.locator('nav[aria-label="Main"]');
    /** On screen: a collapsed navbar is moved off the left edge. */
    const onScreen = async () => {
      const box = await navigation.boundingBox();
      return box !== null && box.x + box.width > 0;
    };
    await expect.poll(onScreen).toBe(false);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    // Closed, its links are out of the keyboard's way: the Tab after the header leads past them.
    await page.getByRole('button', { name: 'Sign out', exact: true }).focus();
    await page.keyboard.press('Tab');
    const focusInMenu = () =>
      navigation.evaluate((nav) => nav.contains(nav.ownerDocument.activeElement));
    expect(await focusInMenu()).toBe(false);

    await menu.click();
    await expect.poll(onScreen).toBe(true);
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    await see(navigation.getByRole('link', { name: 'My account' }));
    await e2e.checkPage(page, 'menu-phone');

    await page.keyboard.press('Escape');
    await expect.poll(onScreen).toBe(false);
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    await expect
      .poll(() => menu.evaluate((node) => node === node.ownerDocument.activeElement))
      .toBe(true);

    // From within the menu too: a person tabs into it, then changes their mind.
    await menu.click();
    await expect.poll(onScreen).toBe(true);
    await navigation.getByRole('link', { name: 'My account' }).focus();
    await page.keyboard.press('Escape');
    await expect.poll(onScreen).toBe(false);
    await expect
      .poll(() => menu.evaluate((node) => node === node.ownerDocument.activeElement))
      .toBe(true);

    // The account page on a phone.
    await menu.click();
    await navigation.getByRole('link', { name: 'My account' }).click();
    await page.waitForURL((url) => url.pathname === '/account');
    await expect.poll(onScreen).toBe(false);
    await e2e.checkPage(page, 'account-phone');
  });
});
