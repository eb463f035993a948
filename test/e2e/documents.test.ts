import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCEPTED_TYPES_MESSAGE,
  MAX_DOCUMENT_BYTES,
  SCAN_STATUS_LABELS,
} from '../../src/contracts/documents.js';
import {
  type ApiClient,
  type Credentials,
  DEV_ACCOUNTS,
  invitedAccount,
} from '../helpers/built-server.js';
import { SAMPLES } from '../helpers/documents.js';
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
 * The document vault's browser journeys (docs/decisions/0062-document-vault.md,
 * docs/decisions/0064-document-links-and-documents-tab.md): a broker uploads a PDF on a scheme's
 * documents tab and watches the upload finish with its scan status in words, uploads a second
 * version, downloads it (the file answers as an attachment, unsniffed, uncached) and links it to a
 * written policy from the governance tab; a member signs in and sees only the member-facing
 * document. Each journey arrives at the root address, signed out, in a fresh browser context; each
 * page is checked with axe.
 */
describe.skipIf(browserSuiteSkipReason)(
  'scheme documents in the browser',
  { timeout: JOURNEY_TIMEOUT * 2 },
  () => {
    const e2e = useE2e('documents');
    const scheme = 'Corrib Marine DC Scheme';
    const policyFile = 'Risk management policy.pdf';
    const bookletFile = 'Member booklet 2026.pdf';
    const member: Credentials = {
      email: 'niamh.burke@corrib-marine.example.ie',
      password: 'Lough-Corrib-Heron-4471',
    };
    let broker: ApiClient;
    let schemeId = '';

    beforeAll(async () => {
      broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      const { id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
        name: 'Corrib Marine Ltd',
      });
      ({ id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
        employerId,
        name: scheme,
        type: 'DC',
      }));
      await broker.call('POST', `/api/schemes/${schemeId}/ora-reports`, {
        performedOn: '2025-03-10',
        trigger: 'scheduled',
      });
      await broker.call('POST', `/api/schemes/${schemeId}/policies`, {
        kind: 'risk_management',
        title: 'Risk management',
        version: '1.0',
      });
      const { id: memberId } = await broker.call<{ id: string }>(
        'POST',
        `/api/schemes/${schemeId}/members`,
        {
          firstName: 'Niamh',
          lastName: 'Burke',
          dateOfBirth: '1985-04-12',
          dateJoined: '2015-09-01',
          salaryCents: 5_200_000,
          ppsNumber: newPpsNumber(),
        },
      );
      await invitedAccount(e2e.server, broker, `/api/employers/${employerId}/users`, {
        ...member,
        name: 'Niamh Burke',
        role: 'Member',
        memberId,
      });
    }, 60_000);

    /** Chooses a file with the form's own file button, as a keyboard or pointer user would. */
    async function choose(
      page: Page,
      name: string,
      content: Buffer,
      within: Page | Locator = page,
      mimeType = 'application/pdf',
    ) {
      const chooser = page.waitForEvent('filechooser');
      await within.getByRole('button', { name: 'Choose a file' }).click();
      // A file past the cap is chosen from disk, as a person's would be: handed over in memory,
      // its 25 MB crossed the browser's protocol within the test's time only on a quiet machine.
      await (await chooser).setFiles(
        content.length > MAX_DOCUMENT_BYTES
          ? await onDisk(name, content)
          : { name, mimeType, buffer: content },
      );
      await see(within.getByText(`Chosen: ${name}`));
    }

    const folders: string[] = [];
    afterAll(() =>
      Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))),
    );

    /** A file of that name and content in a folder of the test's own, for a chooser to pick. */
    async function onDisk(name: string, content: Buffer): Promise<string> {
      const folder = await mkdtemp(path.join(tmpdir(), 'documents-e2e-'));
      folders.push(folder);
      const file = path.join(folder, name);
      await writeFile(file, content);
      return file;
    }

    /** Sends the upload form and waits for its progress bar to reach the end. */
    async function uploadAndFinish(page: Page) {
      await page.getByRole('button', { name: 'Upload', exact: true }).click();
      const progress = page.getByRole('progressbar', { name: 'Upload progress' });
      await expect.poll(() => progress.getAttribute('aria-valuenow')).toBe('100');
      await see(page.getByText('Upload complete'));
    }

    it('a broker is told why a file is refused, uploads a PDF and its second version, downloads it, and links documents from the governance tab', async () => {
      const page = (await e2e.openAs(DEV_ACCOUNTS.brokerAdmin, '/')).page;
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Schemes' })
        .click();
      await page.getByRole('link', { name: scheme, exact: true }).click();
      await page.getByRole('tab', { name: 'Documents' }).click();
      await see(page.getByText('No document has been uploaded.'));
      await e2e.checkPage(page, 'documents-empty');

      // A file of another kind: the API judges its bytes, and its refusal names what is accepted.
      await choose(page, 'notes.txt', SAMPLES.text, page, 'text/plain');
      await field(page, 'Document type').selectOption('other');
      await page.getByRole('button', { name: 'Upload', exact: true }).click();
      await see(page.getByRole('alert').filter({ hasText: ACCEPTED_TYPES_MESSAGE }));
      // Over the 25 MiB cap: refused in the page, before a byte is sent.
      await choose(page, 'Scanned deed.pdf', Buffer.alloc(MAX_DOCUMENT_BYTES + 1));
      await see(page.getByRole('alert').filter({ hasText: 'a document may be at most 25 MB' }));
      expect(await page.getByRole('button', { name: 'Upload', exact: true }).isDisabled()).toBe(
        true,
      );

      // The first version: a written policy, kept from members.
      await choose(page, policyFile, SAMPLES.pdf);
      await field(page, 'Document type').selectOption('written_policy');
      await uploadAndFinish(page);
      const uploaded = page.getByRole('status', { name: 'Uploaded document' });
      expect(await uploaded.textContent()).toContain(`Uploaded ${policyFile}, version 1`);
      // Without a scanner (APP_ENV test) the page says so rather than calling it clean.
      expect(await uploaded.textContent()).toContain(SCAN_STATUS_LABELS.unscanned);

      // The same name again is its second version; the first stays, a click away.
      await choose(page, policyFile, Buffer.concat([SAMPLES.pdf, Buffer.from('% v2\n')]));
      await field(page, 'Document type').selectOption('written_policy');
      await uploadAndFinish(page);
      expect(await uploaded.textContent()).toContain('version 2');
      const table = page.getByRole('table', { name: /^Documents, newest first/ });
      await page.getByRole('button', { name: `Show 1 earlier version of ${policyFile}` }).click();
      await see(table.getByText('Earlier version 1'));

      // A member-facing booklet, for the member's journey.
      await choose(page, bookletFile, SAMPLES.pdf);
      await field(page, 'Document type').selectOption('member_booklet');
      await page.getByRole('switch', { name: 'Members can see and download it' }).check();
      await uploadAndFinish(page);
      await see(table.getByText(bookletFile));
      await e2e.checkPage(page, 'documents-listed');

      // The download: a signed URL outside /api, answered as an attachment.
      const fileResponse = page.waitForResponse((response) =>
        new URL(response.url()).pathname.startsWith('/files/'),
      );
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: `Download ${policyFile}, version 2` }).click();
      const headers = (await fileResponse).headers();
      expect((await download).suggestedFilename()).toBe(policyFile);
      expect(headers['content-disposition']).toMatch(/^attachment;/);
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['cache-control']).toContain('no-store');

      // Linked to the draft risk management policy from the governance tab.
      await page.getByRole('tab', { name: 'Governance' }).click();
      await page
        .getByRole('button', { name: 'Attach the document of Risk management policy 1.0' })
        .click();
      const dialog = page.getByRole('dialog', {
        name: 'The document of Risk management policy 1.0',
      });
      await field(dialog, 'Written policy document').selectOption({
        label: `${policyFile}, version 2`,
      });
      await dialog.getByRole('button', { name: 'Link', exact: true }).click();
      await seeNo(dialog, 'the dialog, closed once linked');
      const policies = page.getByRole('table', { name: 'Written policies' });
      await see(policies.getByText(`${policyFile} (v2)`));
      await see(policies.getByRole('button', { name: `Download ${policyFile}, version 2` }));
      await e2e.checkPage(page, 'documents-linked-policy');

      // An own-risk assessment's report, uploaded in place from its register: uploaded as an ORA
      // report and linked in one go.
      await page
        .getByRole('button', {
          name: 'Attach the document of the own-risk assessment of 10 Mar 2025',
        })
        .click();
      const oraDialog = page.getByRole('dialog', {
        name: 'The document of the own-risk assessment of 10 Mar 2025',
      });
      await see(oraDialog.getByText('Uploaded as: Own-risk assessment report'));
      await choose(page, 'ORA 2025.pdf', SAMPLES.pdf, oraDialog);
      await oraDialog.getByRole('button', { name: 'Upload', exact: true }).click();
      await seeNo(oraDialog, 'the dialog, closed once uploaded and linked');
      const reports = page.getByRole('table', { name: 'Own-risk assessments, latest first' });
      await see(reports.getByText('ORA 2025.pdf (v1)'));
    });

    it('a member sees only their scheme’s member-facing document', async () => {
      const { page } = await e2e.open();
      await signInThroughForm(page, member, '/');
      const section = page.getByRole('region', { name: 'Scheme documents' });
      await see(section.getByRole('cell', { name: bookletFile }));
      expect(await section.getByText(policyFile).count()).toBe(0);
      await see(section.getByRole('button', { name: `Download ${bookletFile}, version 1` }));
      await e2e.checkPage(page, 'documents-member');
    });
  },
);
