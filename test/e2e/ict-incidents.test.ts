import { describe, expect, it } from 'vitest';
import { REPORT_KIND_LABELS } from '../../src/contracts/dora-rules.js';
import { formatIrishDate, momentInWords, todayInIreland } from '../../src/contracts/irish-dates.js';
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

/** The day (DD/MM/YYYY) and the time (HH:MM) a clock in Dublin reads at `at`, to the minute. */
function typedInIreland(at: Date): { day: string; time: string } {
  const time = momentInWords(at.toISOString()).split(', ')[1] ?? '';
  return { day: formatIrishDate(todayInIreland(at)), time };
}

/**
 * The register of ICT incidents in the browser (docs/decisions/0139-dora-ict-incidents.md): a
 * BrokerAdmin arrives signed out at the root address, signs in, opens ICT incidents from the
 * navigation, records an incident detected two hours ago, classifies it major in the guided form,
 * reads the deadlines counting down in words, previews the initial notification pre-filled, and
 * records the initial, intermediate and final reports. The register of information is downloaded
 * from the page of ICT providers (test/e2e/ict-providers.test.ts).
 * The instants are counted back from now and the deadlines read in words, so the journey reads
 * the same on any day, a weekend included.
 */
describe.skipIf(browserSuiteSkipReason)(
  'the firm’s register of ICT incidents',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    const e2e = useE2e('ict-incidents');

    it('records an incident, classifies it major, shows its deadlines, records its three reports', async () => {
      const title = 'Member portal down after a certificate expired';
      const detected = typedInIreland(new Date(Date.now() - 2 * 60 * 60_000));

      const { page } = await e2e.open();
      await signInThroughForm(page, DEV_ACCOUNTS.brokerAdmin, '/');
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'ICT incidents' })
        .click();
      await see(page.getByRole('heading', { name: 'ICT incidents' }));

      await page.getByRole('button', { name: 'Record an incident' }).click();
      const dialog = page.getByRole('dialog', { name: 'Record an incident' });
      await field(dialog, 'Title').fill(title);
      await field(dialog, 'What happened').fill('Members could not sign in to see their benefits.');
      await field(dialog, 'Detected: day').fill(detected.day);
      await field(dialog, 'Detected: time').fill(detected.time);
      await field(dialog, 'Became aware: day').fill(detected.day);
      await field(dialog, 'Became aware: time').fill(detected.time);
      await field(dialog, 'Services affected').focus();
      await page.keyboard.press('ArrowDown');
      await dialog.getByRole('option', { name: 'Members’ online access' }).click();
      await dialog.getByRole('button', { name: 'Record incident' }).click();
      await seeNo(dialog, 'the incident dialog');

      const register = page.getByRole('table', {
        name: 'ICT incidents, the latest recorded first',
      });
      const row = await see(register.getByRole('row', { name: new RegExp(title) }));
      expect(await shownText(row)).toContain('Not classified yet');

      await row.getByRole('button', { name: `Classify: ${title}` }).click();
      const classify = page.getByRole('dialog', { name: 'Classify an incident' });
      await field(classify, 'Critical services are affected').check();
      await field(classify, 'Members affected').fill('900');
      await field(classify, 'Members using the services affected').fill('1200');
      await field(classify, 'How long the incident lasted, in hours').fill('30');
      await expect
        .poll(() => shownText(classify.getByRole('status', { name: 'The classification' })))
        .toContain('Major: critical services are affected and two or more thresholds are met');
      await e2e.checkPage(page, 'classification');
      await classify.getByRole('button', { name: 'Classify as major' }).click();
      await seeNo(classify, 'the classification dialog');
      await expect.poll(() => shownText(row)).toContain('Initial notification:');
      expect(await shownText(row)).toMatch(/Initial notification: [^.]* left/);
      expect(await shownText(row)).toContain(
        'Intermediate report: due once the previous report is made',
      );
      await e2e.checkPage(page, 'deadlines');

      await row.getByRole('button', { name: `Preview a report: ${title}` }).click();
      const preview = page.getByRole('dialog', { name: 'Report preview' });
      await see(preview.getByRole('table', { name: 'Content of the initial notification' }));
      expect(await shownText(preview)).toContain('Members could not sign in');
      await page.keyboard.press('Escape');
      await seeNo(preview, 'the preview');

      for (const kind of ['initial', 'intermediate', 'final'] as const) {
        const sent = typedInIreland(new Date());
        await row.getByRole('button', { name: `Record a report: ${title}` }).click();
        const report = page.getByRole('dialog', { name: 'Record a report sent' });
        await field(report, 'Report').selectOption({ label: REPORT_KIND_LABELS[kind] });
        await field(report, 'Sent: day').fill(sent.day);
        await field(report, 'Sent: time').fill(sent.time);
        await report.getByRole('button', { name: 'Record report' }).click();
        await seeNo(report, `the ${kind} report dialog`);
        await expect
          .poll(() => shownText(row))
          .toContain(`${REPORT_KIND_LABELS[kind]}: made on time`);
      }
      expect(await shownText(row)).not.toContain('left');
      await e2e.checkPage(page, 'reported');
    });
  },
);
