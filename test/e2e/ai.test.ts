import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { POLICY_KIND_NAMES } from '../../src/contracts/governance-rules.js';
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
  settled,
  shownText,
  useE2e,
} from '../helpers/e2e.js';

/**
 * Issue 17's browser journeys, on the service as built with no AI provider (AI_PROVIDER none, the
 * test default): answers are extracts from the shipped starter corpus, drafts come from the
 * template. A broker asks a question the corpus answers and opens a source, then one it does not
 * answer; drafts a written policy for a scheme, edits, reviews, approves and issues it; a
 * BrokerAdmin sets the firm's own key and sees only that one is set. Each journey arrives at the
 * root address, signed out; each page is checked with axe.
 */
describe.skipIf(browserSuiteSkipReason)(
  'AI: questions on the regulations, drafts and the firm’s settings in the browser',
  { timeout: JOURNEY_TIMEOUT * 2 },
  () => {
    const e2e = useE2e('ai');
    const scheme = 'Liffey Foods DC Scheme';
    const brokerUser: Credentials = {
      email: 'cathal.brennan@dev-brokers.example.ie',
      password: 'Harbour-Lantern-Quartz-4471',
    };
    let broker: ApiClient;

    const mainNav = (page: Page, name: string) =>
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name });

    /** Picks a view of the draft: the switch's radios sit under their labels, which take the click. */
    const show = (page: Page, view: string) =>
      page.locator('label', { hasText: view }).first().click();

    async function ask(page: Page, question: string): Promise<void> {
      await field(page, 'Your question').fill(question);
      await page.getByRole('button', { name: 'Ask', exact: true }).click();
    }

    beforeAll(async () => {
      broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      const { id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
        name: 'Liffey Foods Ltd',
      });
      await broker.call('POST', '/api/schemes', { employerId, name: scheme, type: 'DC' });
      await invitedAccount(e2e.server, broker, '/api/users', {
        ...brokerUser,
        name: 'Cathal Brennan',
        role: 'BrokerUser',
      });
    }, 60_000);

    it('a broker asks what the texts answer, opens a source, and is told what they do not answer', async () => {
      const page = (await e2e.openAs(brokerUser, '/')).page;
      await mainNav(page, 'Ask about regulations').click();
      await see(page.getByRole('heading', { name: 'Ask about the regulations' }));
      await e2e.checkPage(page, 'ask');

      await ask(page, 'How often must trustees carry out an own-risk assessment?');
      const answer = page.getByRole('region', { name: 'Answer' });
      await see(answer.getByText('The answer is complete.'), 'the whole answer');
      // No provider: the passages are quoted, and labelled as extracts, not as an AI answer.
      await see(answer.getByText('Extracts', { exact: true }));
      expect(await answer.getByText('AI-generated').count()).toBe(0);

      // A source opens to its citation, title and official text, from the list and from a mark.
      const sources = answer.getByRole('region', { name: 'Sources' });
      const first = sources.getByRole('button').first();
      const citation = (await first.textContent())?.replace(/^\[\d+\]\s*/, '') ?? '';
      expect(citation).toMatch(/Art\. 28|s\.64AL/);
      await first.click();
      expect(await first.getAttribute('aria-expanded')).toBe('true');
      const detail = await see(answer.getByRole('region', { name: `Source: ${citation}` }));
      const official = detail.getByRole('link', { name: /Read the official text/ });
      expect(await official.getAttribute('href')).toMatch(/^https:\/\//);
      expect(await official.getAttribute('rel')).toBe('noopener noreferrer');
      const mark = answer.getByRole('button', { name: `Source 1: ${citation}` }).first();
      await mark.click();
      await seeNo(answer.getByRole('region', { name: `Source: ${citation}` }));
      await mark.click();
      await see(answer.getByRole('region', { name: `Source: ${citation}` }));
      await e2e.checkPage(page, 'ask-extracts');

      await ask(page, 'Do I need a licence for my dog?');
      await see(answer.getByText('The regulatory texts we hold don’t answer this.'));
      expect(await answer.getByRole('region', { name: 'Sources' }).count()).toBe(0);
      await e2e.checkPage(page, 'ask-unanswered');

      // Personal data is refused whatever the texts hold, even with no provider to send it to.
      await ask(page, 'Do I need a licence for my dog? Write to me at cathal.b@example.ie');
      await see(page.getByText(/^Remove personal details such as PPS numbers/));
      expect(await page.getByRole('region', { name: 'Answer' }).count()).toBe(0);
    });

    it('a broker drafts a written policy from the template, edits, reviews, approves and issues it', async () => {
      const page = (await e2e.openAs(brokerUser, '/')).page;
      await mainNav(page, 'Schemes').click();
      await page.getByRole('link', { name: scheme, exact: true }).click();
      await page.getByRole('tab', { name: 'Drafts' }).click();
      await see(page.getByText('No draft yet.'));

      await page.getByRole('button', { name: 'Generate a draft' }).click();
      const dialog = page.getByRole('dialog', { name: 'Generate a draft' });
      await field(dialog, 'Kind of document').selectOption('written_policy');
      await field(dialog, 'Which policy').selectOption('risk_management');
      await dialog.getByRole('button', { name: 'Generate', exact: true }).click();

      const policy = POLICY_KIND_NAMES.risk_management;
      await see(page.getByRole('heading', { name: `Draft: ${policy}` }));
      await settled(page);
      const standing = () =>
        shownText(page.getByRole('status', { name: 'Where the draft stands' }));
      expect(await standing()).toMatch(/^Read and edit the text/);
      await see(page.getByText('From the template', { exact: true }));
      // Not approved: nothing to issue yet.
      expect(await page.getByRole('button', { name: 'Issue', exact: true }).count()).toBe(0);
      await e2e.checkPage(page, 'draft');

      const text = field(page, 'Text of the draft');
      const generated = await text.inputValue();
      expect(generated.length).toBeGreaterThan(100);
      const added = 'The trustees review this policy at least every three years.';
      // One line added at the end, whether or not the generated text ends with a line break.
      await text.fill(
        generated.endsWith('\n') ? `${generated}${added}\n` : `${generated}\n${added}`,
      );
      await show(page, 'Changes from the generated text');
      const changes = page.getByRole('list', { name: 'Changes from the generated text' });
      await see(changes.getByText(added));
      expect(await changes.locator('ins').count()).toBe(1);
      await see(page.getByText(/your unsaved changes included: 0 lines removed and 1 line added/));
      await show(page, 'Edit the text');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await see(page.getByText('Changes saved.'));
      // Saved, not yet approved: still compared with the generated text, not with the saved one.
      await show(page, 'Changes from the generated text');
      await see(changes.getByText(added));
      await see(
        page.getByText(/^Changed from the generated text: 0 lines removed and 1 line added/),
      );
      await show(page, 'Edit the text');

      const step = async (button: string, confirm: string, next: RegExp) => {
        await page.getByRole('button', { name: button, exact: true }).click();
        const confirmation = page.getByRole('dialog');
        await confirmation.getByRole('button', { name: confirm, exact: true }).click();
        await seeNo(confirmation, 'the confirmation, closed once done');
        await expect.poll(standing).toMatch(next);
      };
      await step('Mark as reviewed', 'Mark as reviewed', /^Reviewed/);
      await step('Approve', 'Approve', /^Approved/);
      // Approved text is fixed, and what people changed from the generated text is on record.
      expect(await field(page, 'Text of the draft').count()).toBe(0);
      await show(page, 'Changes from the generated text');
      const recorded = page.getByRole('list', { name: 'Changes from the generated text' });
      await see(recorded.getByText(added));
      await see(page.getByText(/Recorded at approval: 0 lines removed, 1 line added/));
      await e2e.checkPage(page, 'draft-approved');

      await step('Issue', 'Issue', /^Issued/);
      // The issued text is a PDF among the scheme's documents, downloaded as an attachment.
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download the issued PDF' }).click();
      expect((await download).suggestedFilename()).toMatch(
        /^written-policy-risk-management-\d{4}-\d{2}-\d{2}\.pdf$/,
      );
      await page.getByRole('link', { name: 'scheme’s governance registers' }).click();
      await see(
        page
          .getByRole('table', { name: 'Written policies' })
          .getByRole('row', { name: new RegExp(`${policy}.*Draft: not yet approved`) }),
      );
    });

    it('a BrokerAdmin sets the firm’s key and afterwards sees only that one is set', async () => {
      const key = 'sk-e2e-firm-key-0123456789abcdef';
      const { page } = await e2e.openAs(DEV_ACCOUNTS.brokerAdmin, '/');
      await mainNav(page, 'AI settings').click();
      await see(page.getByRole('heading', { name: 'AI settings', exact: true }));
      await settled(page);
      const keyState = () => shownText(page.getByRole('status', { name: 'Your firm’s key' }));
      expect(await keyState()).toBe('No key is set');
      await see(page.getByRole('table', { name: 'Usage this month' }));
      await e2e.checkPage(page, 'ai-settings');

      await field(page, 'API key').fill(key);
      await page.getByRole('button', { name: 'Save the key' }).click();
      await expect.poll(keyState).toBe('A key is set');
      expect(await field(page, 'Replacement key').inputValue()).toBe('');
      expect(await page.content()).not.toContain(key);

      await field(page, 'Requests per month').fill('500');
      await page.getByRole('button', { name: 'Save the limits' }).click();
      await see(page.getByText('The monthly limits are saved.'));
      const requests = page
        .getByRole('table', { name: 'Usage this month' })
        .getByRole('row', { name: /^Requests/ });
      expect(await requests.getByRole('cell').nth(1).textContent()).toBe('500');

      // Read again from the service, in a fresh page: still only that a key is set.
      await page.reload();
      await expect.poll(keyState).toBe('A key is set');
      expect(await page.content()).not.toContain(key);
      await e2e.checkPage(page, 'ai-settings-key-set');
    });
  },
);
