import { readFileSync } from 'node:fs';
import type { Locator } from 'playwright-core';
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
  signInThroughForm,
  useE2e,
} from '../helpers/e2e.js';
import { flowing, readPdf } from '../helpers/pdf-text.js';
import { newPpsNumber } from '../helpers/pps.js';

/** A table row's cells as a person reads them across, a space between each. */
async function cellsOf(row: Locator): Promise<string> {
  const cells = await row.getByRole('cell').allTextContents();
  return cells.map((cell) => cell.replace(/\s+/g, ' ').trim()).join(' ');
}

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
    // This month in Ireland; the member joined in January, within the chart's 24 months.
    const today = todayInIreland(new Date());
    const year = Number(today.slice(0, 4));
    const { id: memberId } = await broker.call<{ id: string }>(
      'POST',
      `/api/schemes/${schemeId}/members`,
      {
        firstName: 'Donncha',
        lastName: 'Ó Súilleabháin',
        dateOfBirth: '1979-11-03',
        dateJoined: `${year}-01-10`,
        salaryCents: 4_400_000,
        ppsNumber: newPpsNumber(),
        // As long as a real one can be: it wraps on a phone rather than widening the page.
        email: 'donncha.o.suilleabhain@clonakiltystaffpensionscheme.example.ie',
      },
    );
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
    // February's payroll recorded in another order: AVC, employer, then the member's own.
    for (const [kind, amountCents] of [
      ['avc', 10_000],
      ['employer', 45_000],
      ['employee', 30_000],
    ] as const) {
      await broker.call('POST', `/api/members/${memberId}/contributions`, {
        period: `${year}-02`,
        kind,
        amountCents,
      });
    }
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
    expect(await total.textContent()).toContain('€1,550.00');
    await see(page.getByRole('cell', { name: 'Paid by your employer' }).first());
    expect(await page.getByText(note).count()).toBe(0);
    // The administrator's record of a duty, not yet kept, is theirs: nothing of it for the member.
    await see(page.getByText('Date joined'));
    expect(await page.getByText(/Scheme information given/).count()).toBe(0);

    // The contributions in a member's words: the month, who paid, the amount; a corrected row
    // says what it was corrected from and when, and no column speaks of corrections.
    const contributions = page.getByRole('table', {
      name: 'Contributions, newest pay period first',
    });
    await see(contributions.getByRole('row').nth(1));
    const headers = (await contributions.getByRole('columnheader').allTextContents()).map((text) =>
      text.trim(),
    );
    expect(headers).toEqual(['Month', 'Paid by', 'Amount']);
    const { employee: you, employer, avc } = CONTRIBUTION_KIND_LABELS_FOR_MEMBER;
    const rows = contributions.getByRole('row');
    const shown: string[] = [];
    for (let index = 1; index < (await rows.count()); index += 1) {
      shown.push(await cellsOf(rows.nth(index)));
    }
    // Every month in the one order, you, your employer, then AVCs, whatever order payroll
    // recorded them in.
    const correctedOn = RegExp.escape(dateInWords(today));
    expect(shown).toHaveLength(5);
    expect(shown[0]).toBe(`Feb ${year} ${you} €300.00`);
    expect(shown[1]).toBe(`Feb ${year} ${employer} €450.00`);
    expect(shown[2]).toBe(`Feb ${year} ${avc} €100.00`);
    expect(shown[3]).toMatch(
      new RegExp(`^Jan ${year} ${you} €250\\.00 ?Corrected from €300\\.00 on ${correctedOn}$`),
    );
    expect(shown[4]).toBe(`Jan ${year} ${employer} €450.00`);
    expect(await contributions.getByText(/Corrected|Correction|First recorded|None/).count()).toBe(
      1,
    );
    // The chart's legend and its table name the kinds as the tables beside it do, in the same
    // order; it starts at the month the member joined, not 24 months back.
    const chart = page.getByRole('figure', { name: 'Paid in each month' });
    for (const words of Object.values(CONTRIBUTION_KIND_LABELS)) {
      expect(await chart.getByText(words, { exact: true }).count(), words).toBe(0);
    }
    const legend = chart.locator('[class*="legendItemName"]');
    await see(legend.first(), 'the chart’s legend');
    expect((await legend.allTextContents()).map((text) => text.trim())).toEqual([
      you,
      employer,
      avc,
    ]);
    const figures = chart.getByRole('table');
    expect(
      (await figures.getByRole('columnheader').allTextContents()).map((text) => text.trim()),
    ).toEqual(['Month', you, employer, avc]);
    expect(await cellsOf(figures.getByRole('row').nth(1))).toBe(
      `Jan ${year} €250.00 €450.00 €0.00`,
    );
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
    // The spreadsheet in the same words and order as the table.
    const table = csv.split('\r\n');
    const heading = table.indexOf('Month,Paid by,Amount (€),Received on,Recorded,Correction');
    expect(heading, csv).toBeGreaterThan(0);
    expect(table.slice(heading + 1, heading + 6).map((row) => row.split(',').slice(0, 3))).toEqual([
      [`Feb ${year}`, you, '300.00'],
      [`Feb ${year}`, employer, '450.00'],
      [`Feb ${year}`, avc, '100.00'],
      [`Jan ${year}`, you, '250.00'],
      [`Jan ${year}`, employer, '450.00'],
    ]);
    expect(table[heading + 4]).toMatch(new RegExp(`,Corrected from €300\\.00 on ${correctedOn}$`));
    expect(csv).not.toContain('First recorded as');
    expect(csv).toContain('What was done with your data\r\nWhat was done,By,When');
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
      page.getByRole('button', { name: 'Download my data for another provider' }).click(),
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
    expect(
      await page.locator('html').evaluate((root) => root.scrollWidth),
      'the page is no wider than the phone',
    ).toBeLessThanOrEqual(390);
    await e2e.checkPage(page, 'member-phone');
  });
});
