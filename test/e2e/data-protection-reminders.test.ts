import { describe, expect, it } from 'vitest';
import { dueOnFor } from '../../src/contracts/data-request-rules.js';
import { addDays, dateInWords, todayInIreland } from '../../src/contracts/irish-dates.js';
import { DEV_ACCOUNTS, latestMailTo } from '../helpers/built-server.js';
import { browserSuiteSkipReason, JOURNEY_TIMEOUT, see, shownText, useE2e } from '../helpers/e2e.js';
import { newPpsNumber } from '../helpers/pps.js';

const CRON_SECRET = 'data-protection-reminders-journey-secret';

/**
 * Data-protection reminders as the firm's admin meets them
 * (docs/decisions/0147-data-protection-reminders.md): a request due within the week and a breach
 * with less than 48 of its 72 hours left are e-mailed once, in words that name neither member nor
 * breach; the admin follows the e-mail's link signed out, signs in, and lands on the register
 * where the request's clock is read.
 */
describe.skipIf(browserSuiteSkipReason)(
  'reminded by e-mail of a request and a breach',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    const e2e = useE2e('data-protection-reminders', () => ({ CRON_SECRET }));

    const runJob = async () => {
      const response = await fetch(`${e2e.server.baseUrl}/api/cron/data-protection-reminders`, {
        method: 'POST',
        headers: { authorization: `Bearer ${CRON_SECRET}` },
      });
      expect(response.status, await response.clone().text()).toBe(200);
      return (await response.json()) as { outcome: string; remindersSent?: number };
    };

    it('e-mails the admin once, without the member, and the link leads to the register', async () => {
      const today = todayInIreland(new Date());
      const broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      const { id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
        name: 'Inagh Weavers Ltd',
      });
      const { id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
        employerId,
        name: 'Inagh Weavers Pension Scheme',
        type: 'DC',
      });
      const { id: memberId } = await broker.call<{ id: string }>(
        'POST',
        `/api/schemes/${schemeId}/members`,
        {
          firstName: 'Sadhbh',
          lastName: 'Ó Loingsigh',
          dateOfBirth: '1983-02-11',
          dateJoined: '2014-09-01',
          salaryCents: 4_100_000,
          ppsNumber: newPpsNumber(),
        },
      );
      // Received 27 days ago: due within the coming week.
      const receivedOn = addDays(today, -27);
      await broker.call('POST', '/api/data-requests', {
        memberId,
        kind: 'rectification',
        receivedOn,
      });
      // Aware 30 hours ago: 42 hours left to tell the Commission.
      const becameAwareAt = new Date(Date.now() - 30 * 60 * 60_000).toISOString();
      await broker.call('POST', '/api/data-breaches', {
        title: 'Sadhbh Ó Loingsigh’s statement sent to a neighbour',
        description: 'A statement went to the wrong house.',
        becameAwareAt,
        categoriesOfData: ['identity', 'financial'],
        approximateMembers: 1,
        riskToPeople: 'risk',
      });

      expect(await runJob()).toMatchObject({ outcome: 'succeeded', remindersSent: 2 });
      // The same hour again is the slot already run; the next hour's slot finds both sent.
      const again = await runJob();
      expect(
        again.outcome === 'already_ran' || again.remindersSent === 0,
        JSON.stringify(again),
      ).toBe(true);

      let mail = await latestMailTo(e2e.server, DEV_ACCOUNTS.brokerAdmin.email);
      const deadline = Date.now() + 15_000;
      while (!mail.subject.startsWith('Data protection') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        mail = await latestMailTo(e2e.server, DEV_ACCOUNTS.brokerAdmin.email);
      }
      expect(mail.subject).toBe('Data protection: 2 deadlines coming due');
      expect(mail.text).toContain(
        `Data-subject request, Correction (Art. 16): due on ${dateInWords(dueOnFor(receivedOn))}`,
      );
      expect(mail.text).toContain('the Data Protection Commission is to be told by');
      expect(mail.text).not.toContain('Sadhbh');
      expect(mail.text).not.toContain('Loingsigh');
      const link = /See (\S+\/data-requests)\b/.exec(mail.text)?.[1];
      expect(link).toBeDefined();

      // The link, followed signed out: sign in, and the register is where it lands.
      const { page } = await e2e.openAs(
        DEV_ACCOUNTS.brokerAdmin,
        new URL(link ?? '/', e2e.baseUrl).pathname,
      );
      await see(page.getByRole('heading', { name: 'Data requests' }));
      const row = page
        .getByRole('table', { name: 'Data-subject requests, the earliest due first' })
        .getByRole('row', { name: /Sadhbh Ó Loingsigh/ });
      await see(row);
      expect(await shownText(row)).toContain('days left');
      await e2e.checkPage(page, 'reminded-register');
    });
  },
);
