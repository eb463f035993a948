import { describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS, invitedAccount, latestMailTo } from '../helpers/built-server.js';
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
 * Who invites whom in the browser (docs/decisions/0143-who-invites-whom.md): an employer's
 * administrator, arriving signed out at the root address, invites a payroll colleague from the
 * employer's page, offered only the roles they may give, and a member from the member's own page,
 * where the role is said rather than offered as a choice of one. They send a colleague a new
 * invitation from the accounts table, which offers nothing on a fellow administrator's row.
 */
describe.skipIf(browserSuiteSkipReason)(
  'an EmployerAdmin invites a payroll colleague and a member, and looks after their invitations',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    const e2e = useE2e('invitations');

    it('offers only the roles the inviter may give, resends a colleague’s invitation from the table, and invites a member from their page', async () => {
      const broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      const employer = 'Corrib Joinery Ltd';
      const { id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
        name: employer,
      });
      const { id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
        employerId,
        name: 'Corrib Joinery Pension Scheme',
        type: 'DC',
      });
      const memberEmail = 'padraig.ofloinn@corrib-joinery.example.ie';
      await broker.call('POST', `/api/schemes/${schemeId}/members`, {
        firstName: 'Pádraig',
        lastName: 'Ó Floinn',
        dateOfBirth: '1984-02-11',
        dateJoined: '2019-09-01',
        salaryCents: 4_100_000,
        ppsNumber: newPpsNumber(),
        email: memberEmail,
      });
      const hr = { email: 'hr@corrib-joinery.example.ie', password: 'Lough-Corrib-Oakwood-5172' };
      await invitedAccount(e2e.server, broker, `/api/employers/${employerId}/users`, {
        ...hr,
        name: 'Gráinne Joyce',
        role: 'EmployerAdmin',
      });
      await broker.call('POST', `/api/employers/${employerId}/users`, {
        email: 'director@corrib-joinery.example.ie',
        name: 'Ciarán Joyce',
        role: 'EmployerAdmin',
      });

      const { page } = await e2e.open();
      await signInThroughForm(page, hr, '/');
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'My employer' })
        .click();
      await see(page.getByRole('heading', { name: 'Accounts' }));

      // A payroll colleague: EmployerUser or Member only, never a second administrator.
      await page.getByRole('button', { name: 'New account' }).click();
      const dialog = page.getByRole('dialog', { name: 'New account' });
      await see(dialog.getByRole('radio', { name: 'Employer staff', exact: true }));
      expect(await dialog.getByRole('radio').count()).toBe(2);
      expect(await dialog.getByRole('radio', { name: 'Employer administrator' }).count()).toBe(0);
      await e2e.checkPage(page, 'employer-invite');
      const payrollEmail = 'payroll@corrib-joinery.example.ie';
      await field(dialog, 'Full name').fill('Seán Walsh');
      await field(dialog, 'E-mail address').fill(payrollEmail);
      await dialog.getByRole('radio', { name: 'Employer staff', exact: true }).check();
      await dialog.getByRole('button', { name: 'Send invitation' }).click();
      await seeNo(dialog, 'the new-account dialog');
      const invited = await see(page.getByRole('row', { name: new RegExp(payrollEmail) }));
      expect(await invited.textContent()).toContain('Employer staff');
      const first = await latestMailTo(e2e.server, payrollEmail);
      expect(first.text).toContain(employer);

      // The invitation went unread: a new one from the table, whose link replaces the first.
      // A fellow administrator's account is the broker's to look after, so their row offers nothing.
      await invited.getByRole('button', { name: 'Resend the invitation to Seán Walsh' }).click();
      await see(page.getByText('A new invitation is on its way to Seán Walsh', { exact: false }));
      await expect
        .poll(async () => (await latestMailTo(e2e.server, payrollEmail)).text, { timeout: 15_000 })
        .not.toBe(first.text);
      const fellow = page.getByRole('row', { name: /director@corrib-joinery/ });
      await see(fellow.getByText('Looked after by your broker'));
      expect(await fellow.getByRole('button').count()).toBe(0);

      // A member from their own page: the account is theirs, so the role is said, not chosen.
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Schemes' })
        .click();
      // The employer's page links the scheme too: wait for the schemes list, or the click could
      // land on the page being left, and the list then replace the scheme's page.
      await page.waitForURL((url) => url.pathname === '/schemes');
      await page.getByRole('link', { name: 'Corrib Joinery Pension Scheme' }).click();
      await page.getByRole('link', { name: 'Pádraig Ó Floinn' }).click();
      await page.getByRole('button', { name: 'Invite to the member portal' }).click();
      const portal = page.getByRole('dialog', { name: 'Invite to the member portal' });
      const role = await see(portal.getByRole('group', { name: 'Role' }));
      await see(role.getByText('Member', { exact: true }));
      expect(await portal.getByRole('radio').count()).toBe(0);
      expect(await field(portal, 'Full name').inputValue()).toBe('Pádraig Ó Floinn');
      expect(await field(portal, 'E-mail address').inputValue()).toBe(memberEmail);
      await e2e.checkPage(page, 'member-invite');
      await portal.getByRole('button', { name: 'Send invitation' }).click();
      await seeNo(portal, 'the member invitation dialog');
      await see(page.getByText('Invitation sent to Pádraig Ó Floinn', { exact: false }));
      // The page now says the member is invited, and no longer offers a second invitation, which
      // the service would refuse; a new link is theirs to send, as for a payroll colleague.
      await see(
        page.getByText(
          /^Invited to the member portal; the link works until \d{1,2} \w{3} \d{4}, \d{2}:\d{2}$/,
        ),
      );
      expect(await page.getByRole('button', { name: 'Invite to the member portal' }).count()).toBe(
        0,
      );
      await see(page.getByRole('button', { name: 'Send a new link' }));
      expect((await latestMailTo(e2e.server, memberEmail)).text).toContain(
        'Corrib Joinery Pension Scheme',
      );
    });
  },
);
