import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  CONTRIBUTION_KIND_LABELS,
  CONTRIBUTION_KIND_LABELS_FOR_MEMBER,
} from '../../src/contracts/contributions.js';
import { dateInWords, todayInIreland } from '../../src/contracts/irish-dates.js';
import { type Credentials, DEV_ACCOUNTS, invitedAccount } from '../helpers/built-server.js';
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

/**
 * A member signs in from the root address and finds a pension portal
 * (docs/decisions/0047-member-portal.md): their scheme and employer by name, what has been paid in,
 * contributions in plain words, never a staff note, and their own contact details to keep up to
 * date; on a desktop and on a phone.
 */
describe.skipIf(browserSuiteSkipReason)('the member portal', { timeout: JOURNEY_TIMEOUT }, () => {
  const e2e = useE2e('member-portal');
  const note = 'Keyed twice by payroll, per Deirdre in HR';

  it('shows a member their pension in plain words, and lets them keep their address current', async () => {
    const broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
    const { id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
      name: 'Clonakilty Black Pudding Ltd',
    });
    const { id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
      employerId,
      name: 'Clonakilty Staff DC Scheme',
      type: 'DC',
    });
    const { id: memberId } = await broker.call<{ id: string }>(
      'POST',
      `/api/schemes/${schemeId}/members`,
      {
        firstName: 'Donncha',
        lastName: 'Ó Súilleabháin',
        dateOfBirth: '1979-11-03',
        dateJoined: '2011-05-01',
        salaryCents: 4_400_000,
        ppsNumber: newPpsNumber(),
      },
    );
    const year = new Date().getUTCFullYear();
    const paid = await broker.call<{ id: string }>(
      'POST',
      `/api/members/${memberId}/contributions`,
      {
        period: `${year}-01`,
        kind: 'employee',
        amountCents: 30_000,
      },
    );
    await broker.call('POST', `/api/members/${memberId}/contributions`, {
      period: `${year}-01`,
      kind: 'employer',
      amountCents: 45_000,
    });
    await broker.call('POST', `/api/contributions/${paid.id}/adjustments`, {
      deltaCents: -5_000,
      reason: note,
    });
    const donncha: Credentials = {
      email: 'donncha@clonakilty.example.ie',
      password: 'Inchydoney-Strand-Gull-3390',
    };
    await invitedAccount(e2e.server, broker, `/api/employers/${employerId}/users`, {
      ...donncha,
      name: 'Donncha Ó Súilleabháin',
      role: 'Member',
      memberId,
    });

    const { page } = await e2e.open();
    await signInThroughForm(page, donncha, '/');
    expect(new URL(page.url()).pathname).toBe(`/members/${memberId}`);
    await see(page.getByRole('heading', { name: 'Your pension' }));
    await see(page.getByText('Clonakilty Staff DC Scheme', { exact: true }));
    await see(page.getByText('Clonakilty Black Pudding Ltd', { exact: true }));
    const paidIn = page.getByRole('table', { name: 'What has been paid in, corrections included' });
    const total = await see(paidIn.getByRole('row', { name: /Total paid in/ }));
    expect(await total.textContent()).toContain('€700.00');
    await see(page.getByRole('cell', { name: 'Paid by your employer' }).first());
    expect(await page.getByText(note).count()).toBe(0);
    // The administrator's record of a duty, not yet kept, is theirs: nothing of it for the member.
    await see(page.getByText('Date joined'));
    expect(await page.getByText(/Scheme information given/).count()).toBe(0);

    // The contributions in a member's words: who paid, what it was first recorded as, and when a
    // correction was made; nothing of how staff recorded it.
    const contributions = page.getByRole('table', {
      name: 'Contributions, newest pay period first',
    });
    await see(contributions.getByRole('row').nth(1));
    const headers = (await contributions.getByRole('columnheader').allTextContents()).map((text) =>
      text.trim(),
    );
    expect(headers).toEqual([
      'Pay period',
      'Paid by',
      'Amount',
      'First recorded as',
      'Corrections',
    ]);
    const corrected = await see(
      contributions.getByRole('row').filter({ hasText: 'Paid by you' }).filter({ hasText: '−€' }),
    );
    expect(await shownText(corrected)).toMatch(
      new RegExp(`−€50\\.00 on ${RegExp.escape(dateInWords(todayInIreland(new Date())))}`),
    );
    // The chart's legend and its table name the kinds as the tables beside it do.
    const chart = page.getByRole('figure', { name: 'Paid in each month' });
    for (const words of Object.values(CONTRIBUTION_KIND_LABELS_FOR_MEMBER)) {
      await see(chart.getByText(words, { exact: true }).first(), `“${words}” in the chart`);
    }
    for (const words of Object.values(CONTRIBUTION_KIND_LABELS)) {
      expect(await chart.getByText(words, { exact: true }).count(), words).toBe(0);
    }
    await see(page.getByText('Your details last updated', { exact: true }));
    expect(await page.getByText('Last changed', { exact: true }).count()).toBe(0);
    await e2e.checkPage(page, 'member-desktop');

    await page.getByRole('button', { name: 'Update my contact details' }).click();
    const dialog = page.getByRole('dialog', { name: 'Update my contact details' });
    await field(dialog, 'Postal address').fill('Main Street\nClonakilty\nCo. Cork');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await seeNo(dialog, 'the contact dialog');
    await see(page.getByText('Your contact details are saved.'));
    const record = await broker.call<{ address: string }>('GET', `/api/members/${memberId}`);
    expect(record.address).toBe('Main Street\nClonakilty\nCo. Cork');

    // Their own data, first as a file to read, named by the service: in words, dates and times as
    // the pages show them, what was done with it in the audit log's sentences, never a code.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download my data (spreadsheet)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8');
    expect(csv).toContain('Clonakilty');
    expect(csv).toContain(`Date of birth,${dateInWords('1979-11-03')}`);
    expect(csv).toContain(`Jan ${year},Paid by you,250.00,300.00`);
    expect(csv).toContain('What was done with your data,By,When');
    expect(csv).toContain('Corrected a contribution,Your pension administrator,');
    expect(csv).not.toMatch(
      /\d{4}-\d{2}-\d{2}|contribution\.(?:created|adjusted)|member\.[a-z_]+,/,
    );
    // The same, as a PDF to read: what answers an access request (GDPR Art. 15).
    const [readable] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download my data (PDF)' }).click(),
    ]);
    expect(readable.suggestedFilename()).toBe('my-pension-data.pdf');
    const pdfText = flowing(readPdf(readFileSync(await readable.path())).text);
    expect(pdfText).toContain('Postal address: Main Street Clonakilty Co. Cork');
    expect(pdfText).toContain('Corrected a contribution; By: Your pension administrator');
    // And for a program, to move it elsewhere: JSON, each action in words beside its code.
    const [portable] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download my data for another provider (JSON)' }).click(),
    ]);
    const data = JSON.parse(readFileSync(await portable.path(), 'utf8'));
    expect(data.processing).toContainEqual(
      expect.objectContaining({
        action: 'contribution.adjusted',
        summary: 'Corrected a contribution',
        by: 'Your pension administrator',
      }),
    );

    // The scheme's own page is staff's: opened by its address, it says so and leads back.
    await page.goto(`/schemes/${schemeId}`);
    await see(page.getByRole('heading', { name: 'Not available' }));
    await page.getByRole('link', { name: 'Go to the start page' }).click();
    await see(page.getByRole('heading', { name: 'Your pension' }));

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await see(page.getByRole('heading', { name: 'Your pension' }));
    await e2e.checkPage(page, 'member-phone');
  });
});
