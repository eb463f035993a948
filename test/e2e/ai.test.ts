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
 * The AI pages in the browser, on the service as built with no AI provider (AI_PROVIDER none, the
 * test default): answers are extracts from the shipped starter corpus, drafts come from the
 * template. A broker asks a question the corpus answers and opens a source, then one it does not
 * answer. A written policy is drafted as a firm with four eyes on works
 * (docs/decisions/0083-ai-drafts-four-eyes.md): its author generates it and fills in its
 * placeholders, a colleague reviews it, a third person approves and issues it, and each is told
 * before they click why a step is not theirs. A BrokerAdmin sets the firm's own key, sees only
 * that one is set, and switches four eyes. Each journey arrives signed out, at the root address
 * or at a link a colleague sent; each page is checked with axe.
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
    const reviewerUser: Credentials = {
      email: 'aoife.nolan@dev-brokers.example.ie',
      password: 'Meadow-Copper-Violin-8265',
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
      await invitedAccount(e2e.server, broker, '/api/users', {
        ...reviewerUser,
        name: 'Aoife Nolan',
        role: 'BrokerUser',
      });
    }, 60_000);

    it('a broker asks what the texts answer, sees each passage called a summary, opens a source, and is told what they do not answer', async () => {
      const page = (await e2e.openAs(brokerUser, '/')).page;
      await mainNav(page, 'Ask about regulations').click();
      await see(page.getByRole('heading', { name: 'Ask about the regulations' }));
      await e2e.checkPage(page, 'ask');

      await ask(page, 'How often must trustees carry out an own-risk assessment?');
      const answer = page.getByRole('region', { name: 'Answer' });
      await see(answer.getByText('The answer is complete.'), 'the whole answer');
      // No provider: the passages are labelled as extracts, not as an AI answer.
      await see(answer.getByText('Extracts', { exact: true }));
      expect(await answer.getByText('AI-generated').count()).toBe(0);
      // The shipped texts are the service's own summaries: said so over the answer, over each
      // passage and on each source, and nowhere called the law's words.
      await see(
        answer.getByText(
          /^Passages from summaries written for this service in its own words, not the original texts\./,
        ),
      );
      const passageHeadings = answer.getByText(
        /^Summary in this service’s own words, not the original text: /,
      );
      expect(await passageHeadings.count()).toBeGreaterThan(0);
      expect(await answer.getByText(/quoted as written/i).count()).toBe(0);

      // A source opens to its citation, title, what it is and the official text, from the list and
      // from a mark.
      const sources = answer.getByRole('region', { name: 'Sources' });
      const first = sources.getByRole('button').first();
      const label = (await first.textContent()) ?? '';
      expect(label).toMatch(/ \(summary\)$/);
      const citation = label.replace(/^\[\d+\]\s*/, '').replace(/ \(summary\)$/, '');
      expect(citation).toMatch(/Art\. 28|s\.64AL/);
      expect(await sources.getByRole('button').count()).toBe(await passageHeadings.count());
      for (const button of await sources.getByRole('button').all()) {
        expect(await button.textContent()).toMatch(/ \(summary\)$/);
      }
      await first.click();
      expect(await first.getAttribute('aria-expanded')).toBe('true');
      const detail = await see(answer.getByRole('region', { name: `Source: ${citation}` }));
      await see(
        detail.getByText(
          'A summary written for this service in its own words, not the original text. Read the official text before relying on it.',
        ),
      );
      const official = detail.getByRole('link', { name: /Read the official text/ });
      expect(await official.getAttribute('href')).toMatch(/^https:\/\//);
      expect(await official.getAttribute('rel')).toBe('noopener noreferrer');
      const mark = answer.getByRole('button', { name: `Source 1: ${citation}` }).first();
      await mark.click();
      await seeNo(answer.getByRole('region', { name: `Source: ${citation}` }));
      await mark.click();
      await see(answer.getByRole('region', { name: `Source: ${citation}` }));
      await e2e.checkPage(page, 'ask-extracts');

      // A question in a person's words finds the passage that holds its answer in the texts' words.
      await ask(page, 'What is the earnings threshold for auto-enrolment?');
      await see(answer.getByText('The answer is complete.'), 'the whole answer');
      await see(answer.getByText(/at least €20,000 a year/));
      await see(
        sources.getByRole('button', {
          name: /Automatic Enrolment Retirement Savings System Act 2024 s\.50 \(summary\)$/,
        }),
      );

      await ask(page, 'Do I need a licence for my dog?');
      await see(answer.getByText('The regulatory texts we hold don’t answer this.'));
      // Not announced as a complete answer: it is none.
      await see(answer.getByText('No answer was found in the regulatory texts.'));
      expect(await answer.getByText('The answer is complete.').count()).toBe(0);
      expect(await answer.getByRole('region', { name: 'Sources' }).count()).toBe(0);
      await e2e.checkPage(page, 'ask-unanswered');

      // Personal data is refused whatever the texts hold, even with no provider to send it to.
      await ask(page, 'Do I need a licence for my dog? Write to me at cathal.b@example.ie');
      await see(page.getByText(/^Remove personal details such as PPS numbers/));
      expect(await page.getByRole('region', { name: 'Answer' }).count()).toBe(0);
    });

    it('a broker drafts a written policy and fills in its placeholders, a colleague reviews it, a third approves and issues it', async () => {
      const policy = POLICY_KIND_NAMES.risk_management;
      const standing = (page: Page) =>
        shownText(page.getByRole('status', { name: 'Where the draft stands' }));
      const stepButton = (page: Page, name: string) =>
        page.getByRole('button', { name, exact: true });
      /** What the page says, next to the step's button, of why the step is not this person's. */
      const whyNot = async (page: Page, name: string) => {
        const button = stepButton(page, name);
        await see(button);
        expect(await button.isDisabled(), `${name} is not offered to be clicked`).toBe(true);
        const described = await button.getAttribute('aria-describedby');
        return shownText(page.locator(`[id="${described}"]`), `why ${name} is not available`);
      };
      const step = async (page: Page, button: string, next: RegExp) => {
        await stepButton(page, button).click();
        const confirmation = page.getByRole('dialog');
        await confirmation.getByRole('button', { name: button, exact: true }).click();
        await seeNo(confirmation, 'the confirmation, closed once done');
        await expect.poll(() => standing(page)).toMatch(next);
      };
      const placeholdersLeft = (page: Page) =>
        page
          .getByRole('region', { name: 'Placeholders to fill in' })
          .getByRole('list', { name: 'Placeholders left' })
          .getByRole('listitem')
          .allTextContents();
      /** Back to the page a colleague's step changed, as a person reloads it. */
      const freshen = async (page: Page) => {
        await page.reload();
        await see(page.getByRole('heading', { name: `Draft: ${policy}` }));
        await settled(page);
      };

      // The author generates the draft from the scheme's page.
      const author = (await e2e.openAs(brokerUser, '/')).page;
      await mainNav(author, 'Schemes').click();
      await author.getByRole('link', { name: scheme, exact: true }).click();
      await author.getByRole('tab', { name: 'Drafts' }).click();
      await see(author.getByText('No draft yet.'));
      await author.getByRole('button', { name: 'Generate a draft' }).click();
      const dialog = author.getByRole('dialog', { name: 'Generate a draft' });
      await field(dialog, 'Kind of document').selectOption('written_policy');
      await field(dialog, 'Which policy').selectOption('risk_management');
      await dialog.getByRole('button', { name: 'Generate', exact: true }).click();
      await see(author.getByRole('heading', { name: `Draft: ${policy}` }));
      await settled(author);
      expect(await standing(author)).toMatch(/^Read and edit the text/);
      await see(author.getByText('From the template', { exact: true }));
      expect(await stepButton(author, 'Issue').count()).toBe(0);
      // The template fills in what the scheme's record holds (its name), leaves what it cannot
      // know in square brackets, and the page lists them.
      expect(await field(author, 'Text of the draft').inputValue()).toContain(
        `This policy sets out how the trustees of ${scheme} manage`,
      );
      await expect
        .poll(() => placeholdersLeft(author))
        .toEqual([
          '[role and reporting line]',
          '[how the work is done, how often, and what is recorded]',
          '[date]',
        ]);
      // Before any click: whoever generated a draft does not review it.
      expect(await whyNot(author, 'Mark as reviewed')).toBe(
        'You generated or edited this draft. Four eyes: a draft is reviewed by someone who did not generate or edit it. Ask a colleague to review it.',
      );
      await e2e.checkPage(author, 'draft');

      // The author fills in what they know in the editor, and adds a line of their own.
      const text = field(author, 'Text of the draft');
      const generated = await text.inputValue();
      const added = 'The trustees review this policy at least every three years.';
      const filled = generated
        .replace('[role and reporting line]', 'the scheme secretary, who reports each quarter')
        .replace(
          '[how the work is done, how often, and what is recorded]',
          'Risks are logged in the risk register each quarter and reported at trustee meetings.',
        );
      await text.fill(filled.endsWith('\n') ? `${filled}${added}\n` : `${filled}\n${added}`);
      // The list follows the editor, before anything is saved.
      await expect.poll(() => placeholdersLeft(author)).toEqual(['[date]']);
      await show(author, 'Changes from the generated text');
      const changes = author.getByRole('list', { name: 'Changes from the generated text' });
      await see(changes.getByText(added));
      await see(
        author.getByText(/^Changed from the generated text, your unsaved changes included/),
      );
      await show(author, 'Edit the text');
      await author.getByRole('button', { name: 'Save changes' }).click();
      await see(author.getByText('Changes saved.'));
      const link = new URL(author.url()).pathname;
      expect(link).toMatch(/^\/drafts\//);

      // A colleague opens the link they were sent, signs in and lands on the draft: they wrote
      // none of it, so they review it.
      const reviewer = (await e2e.openAs(reviewerUser, link)).page;
      await see(reviewer.getByRole('heading', { name: `Draft: ${policy}` }));
      await settled(reviewer);
      await expect.poll(() => placeholdersLeft(reviewer)).toEqual(['[date]']);
      await step(reviewer, 'Mark as reviewed', /^Reviewed/);
      // Having reviewed it, they do not approve it too.
      expect(await whyNot(reviewer, 'Approve')).toBe(
        'You reviewed this draft. Four eyes: a draft is approved by someone who did not generate, edit or review it. Ask a colleague to approve it.',
      );
      await e2e.checkPage(reviewer, 'draft-reviewed');

      // Nor does its author approve their own draft.
      await freshen(author);
      expect(await standing(author)).toMatch(/^Reviewed/);
      expect(await whyNot(author, 'Approve')).toBe(
        'You generated or edited this draft. Four eyes: a draft is approved by someone who did not generate, edit or review it. Ask a colleague to approve it.',
      );

      // A third person may approve, but not while a placeholder is left in the text.
      const approver = (await e2e.openAs(DEV_ACCOUNTS.brokerAdmin, link)).page;
      await see(approver.getByRole('heading', { name: `Draft: ${policy}` }));
      await settled(approver);
      expect(await whyNot(approver, 'Approve')).toBe(
        'Fill in the placeholders before approving: [date]. Edit the text, then have it reviewed again.',
      );

      // The author fills in the last one; the edit sends the draft back for review.
      await freshen(author);
      const saved = await field(author, 'Text of the draft').inputValue();
      await field(author, 'Text of the draft').fill(
        saved.replace('[date]', 'the date in the minutes of their meeting'),
      );
      await see(
        author.getByText(
          'No placeholders are left: nothing in square brackets is waiting to be filled in.',
        ),
      );
      await author.getByRole('button', { name: 'Save changes' }).click();
      await see(author.getByText('Changes saved.'));
      await expect.poll(() => standing(author)).toMatch(/^Read and edit the text/);

      await freshen(reviewer);
      await step(reviewer, 'Mark as reviewed', /^Reviewed/);

      await freshen(approver);
      await step(approver, 'Approve', /^Approved/);
      // Approved text is fixed, carries no "not approved" banner, and what people changed from
      // the generated text is on record.
      expect(await field(approver, 'Text of the draft').count()).toBe(0);
      const approvedText = await shownText(
        approver.getByRole('region', { name: 'Text of the draft' }),
      );
      expect(approvedText).not.toMatch(/DRAFT FROM TEMPLATE|Not approved/);
      expect(approvedText).toContain('the date in the minutes of their meeting');
      await show(approver, 'Changes from the generated text');
      const recorded = approver.getByRole('list', { name: 'Changes from the generated text' });
      await see(recorded.getByText(added));
      await see(approver.getByText(/^Recorded at approval: \d+ lines? removed, \d+ lines? added/));
      await e2e.checkPage(approver, 'draft-approved');

      await step(approver, 'Issue', /^Issued/);
      // One true thing: issued, and not in use until the trustees approve it in the registers.
      expect(await standing(approver)).toBe(
        'Issued: the approved text is kept as a PDF among the scheme’s documents. The policy is a draft version in the scheme’s governance registers, not in use until the trustees approve it there.',
      );
      // The issued text is a PDF among the scheme's documents, downloaded as an attachment.
      const download = approver.waitForEvent('download');
      await approver.getByRole('button', { name: 'Download the issued PDF' }).click();
      expect((await download).suggestedFilename()).toMatch(
        /^written-policy-risk-management-\d{4}-\d{2}-\d{2}\.pdf$/,
      );
      await approver.getByRole('link', { name: 'scheme’s governance registers' }).click();
      await see(
        approver
          .getByRole('table', { name: 'Written policies' })
          .getByRole('row', { name: new RegExp(`${policy}.*Draft: not yet approved`) }),
      );
    });

    it('a BrokerAdmin sets the firm’s key, afterwards sees only that one is set, and switches four eyes', async () => {
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

      // Four eyes is on, as the platform sets it for a firm that has not chosen. Turning it off
      // is asked for first and said plainly; turning it on again is done at once.
      const fourEyes = () =>
        shownText(page.getByRole('status', { name: 'Four eyes on AI drafts' }));
      expect(await fourEyes()).toBe('Four eyes is on');
      await see(page.getByText(/^Each AI draft is checked by people who did not write it/));
      await page.getByRole('button', { name: 'Turn four eyes off' }).click();
      const turnOff = page.getByRole('dialog', { name: 'Turn four eyes off' });
      await see(turnOff.getByText(/One person could then generate, review and approve a draft/));
      await turnOff.getByRole('button', { name: 'Turn off', exact: true }).click();
      await seeNo(turnOff, 'the confirmation, closed once done');
      await expect.poll(fourEyes).toBe('Four eyes is off');
      await see(page.getByText('Four eyes is off for AI drafts.'));
      await page.getByRole('button', { name: 'Turn four eyes on' }).click();
      await expect.poll(fourEyes).toBe('Four eyes is on');

      // Read again from the service, in a fresh page: still only that a key is set.
      await page.reload();
      await expect.poll(keyState).toBe('A key is set');
      expect(await fourEyes()).toBe('Four eyes is on');
      expect(await page.content()).not.toContain(key);
      await e2e.checkPage(page, 'ai-settings-key-set');
    });
  },
);
