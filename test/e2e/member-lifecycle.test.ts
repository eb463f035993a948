import { readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatIrishDate, todayInIreland } from '../../src/contracts/irish-dates.js';
import {
  LEAVING_OPTION_NAMES,
  STATUS_CHANGE_NAMES,
} from '../../src/contracts/member-lifecycle-rules.js';
import { MEMBER_STATUS_NAMES } from '../../src/contracts/members.js';
import {
  type ApiClient,
  type Credentials,
  DEV_ACCOUNTS,
  invitedAccount,
} from '../helpers/built-server.js';
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
import { flowing, readPdf } from '../helpers/pdf-text.js';
import { newPpsNumber } from '../helpers/pps.js';

const CRON_SECRET = 'member-lifecycle-journey-cron-secret-01';

/** Joined on 1 March 2024: leaving on 31 January 2026 is 1 year and 11 months, on 28 February 2 years. */
const JOINED = '2024-03-01';
const SHORT_LEAVING = '2026-01-31';
const TWO_YEARS_LEAVING = '2026-02-28';

/**
 * A member's lifecycle in the browser (docs/decisions/0135-members-lifecycle.md): the firm's staff
 * sign in from the root address and take each step on a member's page, as guided steps with the
 * options the rules give a leaver and why: leaving with less than 2 years' service and a refund,
 * leaving with 2 years and a transfer out, retiring with the value of the funds on the day, a
 * death with a dependant, a deferred member rejoining and a BrokerAdmin undoing that. A leaver
 * reads their own options, and changes nothing.
 */
describe.skipIf(browserSuiteSkipReason)(
  'a member’s lifecycle, step by step',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    const e2e = useE2e('member-lifecycle', () => ({ CRON_SECRET }));
    const scheme = 'Clonakilty Crafts DC Scheme';
    let broker: ApiClient;
    let employerId: string;
    let schemeId: string;

    const newMember = async (
      firstName: string,
      lastName: string,
      { dateJoined = JOINED, dateOfBirth = '1980-05-14' } = {},
    ) =>
      (
        await broker.call<{ id: string }>('POST', `/api/schemes/${schemeId}/members`, {
          firstName,
          lastName,
          dateOfBirth,
          dateJoined,
          salaryCents: 4_100_000,
          ppsNumber: newPpsNumber(),
        })
      ).id;

    beforeAll(async () => {
      broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      ({ id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
        name: 'Clonakilty Crafts Ltd',
      }));
      ({ id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
        employerId,
        name: scheme,
        type: 'DC',
      }));
    }, 60_000);

    /** The membership panel of the member page open in `page`. */
    const membership = (page: Page) =>
      page.getByRole('region', { name: 'Membership', exact: true });
    const statusOf = (page: Page) => shownText(membership(page).getByTestId('membership-status'));
    const dialogOf = (page: Page, title: string) => page.getByRole('dialog', { name: title });
    /** A date typed day first; leaving the field closes its calendar, as a person's Tab does. */
    const typeDate = async (where: Locator, label: string, isoDate: string) => {
      await field(where, label).fill(formatIrishDate(isoDate));
      await field(where, label).press('Tab');
    };

    it('staff sign in, a leaver of 1 year and 11 months is offered a refund and no preserved benefit and takes it; a leaver of 2 years transfers out', async () => {
      const shortName = ['Caoimhe', 'Ó Donnabháin'] as const;
      const short = await newMember(...shortName);
      const longer = await newMember('Tadhg', 'Ó Súilleabháin');

      // From the root address, signed out, to the member through the scheme's list.
      const { page } = await e2e.open();
      await signInThroughForm(page, DEV_ACCOUNTS.brokerAdmin, '/');
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Schemes' })
        .click();
      await page.getByRole('link', { name: scheme }).click();
      const members = page.getByRole('table', { name: new RegExp(`^Members of ${scheme}`) });
      await members.getByRole('link', { name: shortName.join(' ') }).click();
      await page.waitForURL((url) => url.pathname === `/members/${short}`);
      expect(await statusOf(page)).toContain(MEMBER_STATUS_NAMES.active);
      expect(await statusOf(page)).toContain('since joining on 1 Mar 2024');
      // The edit form no longer changes a status: the steps do.
      await page.getByRole('button', { name: 'Edit member' }).click();
      const edit = dialogOf(page, 'Edit member');
      await see(field(edit, 'First name'));
      expect(await field(edit, 'Status').count()).toBe(0);
      await edit.getByRole('button', { name: 'Cancel' }).click();
      await seeNo(edit, 'the edit dialog');

      // Leaving: the day, then the options with their reasons, then the choice.
      await membership(page).getByRole('button', { name: 'Leave service' }).click();
      const leave = dialogOf(page, 'Leave service');
      await typeDate(leave, 'Left service on', SHORT_LEAVING);
      await leave.getByRole('button', { name: 'Record leaving' }).click();
      const options = await see(leave.getByRole('list', { name: 'Options' }));
      const offered = await shownText(options);
      expect(offered).toContain(LEAVING_OPTION_NAMES.refund);
      expect(offered).toContain(LEAVING_OPTION_NAMES.transfer);
      expect(offered).not.toContain(LEAVING_OPTION_NAMES.preserved);
      expect(await shownText(leave.getByRole('region', { name: 'Options on leaving' }))).toContain(
        'With less than 2 years of qualifying service, the member is not entitled to a preserved benefit.',
      );
      expect(await shownText(leave.getByRole('list', { name: /rules come from/ }))).toContain(
        'Law: Taxes Consolidation Act 1997 s.780',
      );
      await e2e.checkPage(page, 'leaving-options');

      // The statement to give the leaver, as a PDF.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        leave.getByRole('button', { name: 'Download the leaving statement (PDF)' }).click(),
      ]);
      const statement = flowing(readPdf(readFileSync(await download.path())).text);
      expect(statement).toContain('Leaving service statement');
      expect(statement).toContain(LEAVING_OPTION_NAMES.refund);
      expect(statement).not.toContain(LEAVING_OPTION_NAMES.preserved);

      await leave.getByRole('button', { name: 'Record the choice' }).click();
      await leave.getByRole('radio', { name: LEAVING_OPTION_NAMES.refund }).check();
      expect(await leave.getByRole('radio', { name: LEAVING_OPTION_NAMES.preserved }).count()).toBe(
        0,
      );
      // The form asks for the day before anything is sent.
      await leave.getByRole('button', { name: 'Record the choice' }).click();
      await see(leave.getByText('This is required'));
      await typeDate(leave, 'Refund from', '2026-02-10');
      await leave.getByRole('button', { name: 'Record the choice' }).click();
      await seeNo(leave, 'the leaving dialog');
      await see(page.getByText('The refund is recorded.'));
      await expect.poll(() => statusOf(page)).toContain(MEMBER_STATUS_NAMES.refunded);
      const history = membership(page).getByRole('table', { name: /^Changes of status/ });
      await see(history.getByRole('row', { name: new RegExp(STATUS_CHANGE_NAMES.refunded) }));
      await see(history.getByRole('row', { name: new RegExp(STATUS_CHANGE_NAMES.left) }));
      const payouts = membership(page).getByRole('table', { name: 'Payouts' });
      await see(payouts.getByRole('row', { name: /Refund of contributions/ }));
      // Paid out: nothing more to do but undo it, which is a BrokerAdmin's.
      expect(await membership(page).getByRole('button', { name: 'Leave service' }).count()).toBe(0);
      await see(membership(page).getByRole('button', { name: 'Undo the latest change' }));

      // Two years: a preserved benefit or a transfer, and the transfer is taken.
      await page.goto(`/members/${longer}`);
      await membership(page).getByRole('button', { name: 'Leave service' }).click();
      const leaving = dialogOf(page, 'Leave service');
      await typeDate(leaving, 'Left service on', TWO_YEARS_LEAVING);
      await leaving.getByRole('button', { name: 'Record leaving' }).click();
      const choices = await shownText(await see(leaving.getByRole('list', { name: 'Options' })));
      expect(choices).toContain(LEAVING_OPTION_NAMES.preserved);
      expect(choices).toContain(LEAVING_OPTION_NAMES.transfer);
      expect(choices).not.toContain(LEAVING_OPTION_NAMES.refund);
      await leaving.getByRole('button', { name: 'Record the choice' }).click();
      await leaving.getByRole('radio', { name: LEAVING_OPTION_NAMES.transfer }).check();
      await typeDate(leaving, 'Transferred on', '2026-03-16');
      await field(leaving, 'Receiving scheme or arrangement').fill('Bantry Bay PRSA');
      // A DC scheme pays the value of the units: no amount is asked for.
      expect(await field(leaving, 'Transfer value (€)').count()).toBe(0);
      await leaving.getByRole('button', { name: 'Record the choice' }).click();
      await seeNo(leaving, 'the leaving dialog');
      await expect.poll(() => statusOf(page)).toContain(MEMBER_STATUS_NAMES.transferred_out);
      const transferred = membership(page).getByRole('table', { name: /^Changes of status/ });
      expect(
        await shownText(
          transferred.getByRole('row', { name: new RegExp(STATUS_CHANGE_NAMES.transferred_out) }),
        ),
      ).toContain('To Bantry Bay PRSA');
      await e2e.checkPage(page, 'transferred-out');
    });

    it('staff record a retirement with the value of the funds on the day, and a death with a dependant', async () => {
      // A member whose contribution is invested: 500 units at €2.
      const { id: fund } = await broker.call<{ id: string }>(
        'POST',
        `/api/schemes/${schemeId}/funds`,
        { name: 'Clonakilty Growth Fund', annualChargeBasisPoints: 80 },
      );
      const retiring = await newMember('Nóra', 'Ní Chonaill', {
        dateJoined: '1999-09-01',
        dateOfBirth: '1960-02-11',
      });
      await broker.call('PUT', `/api/members/${retiring}/fund-choices`, {
        allocations: [{ fundId: fund, percent: 100 }],
      });
      const today = todayInIreland(new Date());
      await broker.call('POST', `/api/members/${retiring}/contributions`, {
        period: today.slice(0, 7),
        kind: 'employee',
        amountCents: 100_000,
      });
      await broker.call('POST', `/api/funds/${fund}/prices`, {
        prices: [{ on: today, price: '2.000000' }],
      });
      const invested = await fetch(`${e2e.server.baseUrl}/api/cron/investments`, {
        method: 'POST',
        headers: { authorization: `Bearer ${CRON_SECRET}` },
      });
      expect(invested.status, await invested.clone().text()).toBe(200);
      const dying = await newMember('Donncha', 'Mac Cárthaigh');

      const { page } = await e2e.openAs(DEV_ACCOUNTS.brokerAdmin, `/members/${retiring}`);
      await membership(page).getByRole('button', { name: 'Retire' }).click();
      const retire = dialogOf(page, 'Retire');
      await typeDate(retire, 'Retired on', today);
      await retire.getByRole('button', { name: 'Record retirement' }).click();
      expect(await shownText(retire.getByTestId('payout-value'))).toBe('€1,000.00');
      await e2e.checkPage(page, 'retired-value');
      await retire.getByRole('button', { name: 'Done' }).click();
      await seeNo(retire, 'the retirement dialog');
      await expect.poll(() => statusOf(page)).toContain(MEMBER_STATUS_NAMES.retired);
      await see(
        membership(page)
          .getByRole('table', { name: 'Payouts' })
          .getByRole('row', { name: /Retirement benefit/ }),
      );

      await page.goto(`/members/${dying}`);
      await membership(page).getByRole('button', { name: 'Record a death' }).click();
      const death = dialogOf(page, 'Record a death');
      await typeDate(death, 'Died on', '2026-04-02');
      await death.getByRole('button', { name: 'Add a dependant' }).click();
      const dependant = death.getByRole('group', { name: 'Dependant 1' });
      await field(dependant, 'Name').fill('Siobhán Mhic Cárthaigh');
      // A dependant without their relationship is refused under the field, and nothing is sent.
      await death.getByRole('button', { name: 'Record the death' }).click();
      await see(dependant.getByText('Say how they were related to the member'));
      await field(dependant, 'Relationship').fill('Spouse');
      await field(dependant, 'Phone').fill('+353 21 433 1234');
      await field(dependant, 'E-mail address').fill('siobhan@example.ie');
      await death.getByRole('button', { name: 'Record the death' }).click();
      await seeNo(death, 'the death dialog');
      await expect.poll(() => statusOf(page)).toContain(MEMBER_STATUS_NAMES.deceased);
      const contacts = membership(page).getByRole('table', { name: /^Dependants to contact/ });
      expect(await shownText(contacts.getByRole('row', { name: /Siobhán/ }))).toContain('Spouse');
    });

    it('a deferred member rejoins, a BrokerAdmin undoes it with a reason, and a leaver reads their own options', async () => {
      const returning = await newMember('Eibhlín', 'Ní Laoghaire');
      await broker.call('POST', `/api/members/${returning}/leave`, { leftOn: SHORT_LEAVING });
      const leaver = await newMember('Fionnuala', 'Ní Bhriain');
      await broker.call('POST', `/api/members/${leaver}/leave`, { leftOn: TWO_YEARS_LEAVING });

      const { page } = await e2e.openAs(DEV_ACCOUNTS.brokerAdmin, `/members/${returning}`);
      expect(await statusOf(page)).toContain(MEMBER_STATUS_NAMES.deferred);
      await membership(page).getByRole('button', { name: 'Rejoin' }).click();
      const rejoin = dialogOf(page, 'Rejoin');
      // A day before the member left: the service's refusal is shown beside the field.
      await typeDate(rejoin, 'Rejoined on', '2025-12-01');
      await rejoin.getByRole('button', { name: 'Record rejoining' }).click();
      await see(
        rejoin.getByText('Enter a day on or after 31 Jan 2026, the member’s latest change'),
      );
      expect(await field(rejoin, 'Rejoined on').getAttribute('aria-invalid')).toBe('true');
      await typeDate(rejoin, 'Rejoined on', '2026-09-01');
      await rejoin.getByRole('button', { name: 'Record rejoining' }).click();
      await seeNo(rejoin, 'the rejoining dialog');
      await expect.poll(() => statusOf(page)).toContain(MEMBER_STATUS_NAMES.active);

      await membership(page).getByRole('button', { name: 'Undo the latest change' }).click();
      const undo = dialogOf(page, 'Undo the latest change');
      expect(await shownText(undo)).toContain(`This undoes “${STATUS_CHANGE_NAMES.rejoined}”`);
      await undo.getByRole('button', { name: 'Undo the change' }).click();
      await see(undo.getByText('Say why the change is being undone'));
      await field(undo, 'Reason').fill('Recorded against the wrong member');
      await undo.getByRole('button', { name: 'Undo the change' }).click();
      await seeNo(undo, 'the undo dialog');
      await expect.poll(() => statusOf(page)).toContain(MEMBER_STATUS_NAMES.deferred);
      const history = membership(page).getByRole('table', { name: /^Changes of status/ });
      // The change undone is kept, marked, beside the correction that names it.
      const undone = await shownText(history.getByRole('row').filter({ hasText: 'Undone' }));
      expect(undone).toContain(`1 Sep 2026${STATUS_CHANGE_NAMES.rejoined}`);
      expect(
        await shownText(
          history.getByRole('row', { name: new RegExp(STATUS_CHANGE_NAMES.corrected) }),
        ),
      ).toContain('Recorded against the wrong member');
      await e2e.checkPage(page, 'change-undone');

      // The leaver signs in and reads their own membership: status, service, options, statement.
      const fionnuala: Credentials = {
        email: 'fionnuala@clonakilty.example.ie',
        password: 'Inchydoney-Strand-Gull-4417',
      };
      await invitedAccount(e2e.server, broker, `/api/employers/${employerId}/users`, {
        ...fionnuala,
        name: 'Fionnuala Ní Bhriain',
        role: 'Member',
        memberId: leaver,
      });
      const own = (await e2e.open()).page;
      await signInThroughForm(own, fionnuala, '/');
      const mine = own.getByRole('region', { name: 'Your membership', exact: true });
      expect(await shownText(mine.getByTestId('membership-status'))).toContain(
        MEMBER_STATUS_NAMES.deferred,
      );
      expect(await shownText(mine.getByTestId('qualifying-service'))).toBe('2 years');
      const yours = await shownText(mine.getByRole('list', { name: 'Options' }));
      expect(yours).toContain(LEAVING_OPTION_NAMES.preserved);
      const [statement] = await Promise.all([
        own.waitForEvent('download'),
        mine.getByRole('button', { name: 'Download the leaving statement (PDF)' }).click(),
      ]);
      const theirs = flowing(readPdf(readFileSync(await statement.path())).text);
      expect(theirs).toContain('For Fionnuala Ní Bhriain.');
      expect(theirs).toContain(LEAVING_OPTION_NAMES.preserved);
      // Read only: no step, no history of the firm's records.
      expect(
        await mine.getByRole('button', { name: /Leave|Record|Rejoin|Undo|Retire/ }).count(),
      ).toBe(0);
      expect(await mine.getByRole('table').count()).toBe(0);
      await e2e.checkPage(own, 'own-membership');
    });
  },
);
