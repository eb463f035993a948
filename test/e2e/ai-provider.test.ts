import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Credentials, DEV_ACCOUNTS, invitedAccount } from '../helpers/built-server.js';
import { browserSuiteSkipReason, field, JOURNEY_TIMEOUT, see, useE2e } from '../helpers/e2e.js';
import { type FakeProvider, messageText, startFakeProvider } from '../helpers/fake-ai-provider.js';

/**
 * The Ask page (docs/decisions/0066-ai-provider-guard-and-chat.md) with an AI provider configured
 * (an OpenAI-compatible stand-in on loopback): the answer streams in labelled as AI-generated with
 * a caution, its marks open their sources; a question holding an e-mail address is refused before
 * anything is sent, with the advice to remove it; the provider failing reads as plain English.
 * Arrives at the root address, signed out.
 */
describe.skipIf(browserSuiteSkipReason)(
  'AI: the Ask page with a provider, in the browser',
  { timeout: JOURNEY_TIMEOUT },
  () => {
    let fake: FakeProvider | undefined;
    // Before the server starts: its AI_BASE_URL is the stand-in's address.
    beforeAll(async () => {
      fake = await startFakeProvider();
    });
    afterAll(async () => {
      await fake?.close();
    });
    const provider = () => {
      if (!fake) throw new Error('the stand-in provider is not started');
      return fake;
    };
    const e2e = useE2e('ai-provider', () => ({
      AI_PROVIDER: 'openai',
      AI_API_KEY: 'sk-platform-e2e-0123456789',
      AI_MODEL: 'fake-model',
      AI_BASE_URL: provider().baseUrl,
      AI_MAX_RETRIES: '0',
      AI_TIMEOUT_MS: '5000',
    }));
    const brokerUser: Credentials = {
      email: 'grainne.walsh@dev-brokers.example.ie',
      password: 'Curragh-Meadow-Signal-5830',
    };

    beforeAll(async () => {
      const broker = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      await invitedAccount(e2e.server, broker, '/api/users', {
        ...brokerUser,
        name: 'Gráinne Walsh',
        role: 'BrokerUser',
      });
    }, 60_000);

    async function ask(page: Page, question: string): Promise<void> {
      await field(page, 'Your question').fill(question);
      await page.getByRole('button', { name: 'Ask', exact: true }).click();
    }

    it('an AI answer is labelled with a caution and cites its sources; personal data, a failing provider and a used-up allowance are refused in plain English', async () => {
      // The stand-in answers from the first source it was given, citing it as the rules ask.
      provider().reply = (request) => {
        const id = /"id":"([A-Za-z0-9_-]+)"/.exec(messageText(request, 'user'))?.[1];
        return {
          text: `Trustees carry out the assessment at least every three years [[chunk:${id}]].`,
        };
      };
      const page = (await e2e.openAs(brokerUser, '/')).page;
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Ask about regulations' })
        .click();

      await ask(page, 'How often must trustees carry out an own-risk assessment?');
      const answer = page.getByRole('region', { name: 'Answer' });
      await see(answer.getByText('The answer is complete.'), 'the whole answer');
      await see(answer.getByText('AI-generated', { exact: true }));
      await see(answer.getByText(/It can be wrong: check each point against its source/));
      await see(answer.getByText(/at least every three years/));
      // Streamed: the service asked the provider for a stream.
      expect(provider().requests.at(-1)?.json.stream).toBe(true);
      const mark = answer.getByRole('button', { name: /^Source 1: / });
      const citation = ((await mark.getAttribute('aria-label')) ?? '').replace(/^Source 1: /, '');
      await mark.click();
      await see(answer.getByRole('region', { name: `Source: ${citation}` }));
      await e2e.checkPage(page, 'ask-ai');

      // The guard stops the question before it leaves: the provider hears nothing of it.
      const sent = provider().requests.length;
      // A question the sources answer, so that it would go to the provider but for the address
      // (retrieval reads a question's first twelve words, which here hold no part of it).
      await ask(
        page,
        'How often must trustees carry out an own-risk assessment of the scheme, asks ab@example.ie?',
      );
      await see(
        page.getByText(/^Remove personal details such as PPS numbers or e-mail addresses/),
        'the advice to remove personal details',
      );
      expect(provider().requests.length).toBe(sent);
      await e2e.checkPage(page, 'ask-personal-data');

      provider().reply = () => ({ status: 500 });
      await ask(page, 'How often must trustees carry out an own-risk assessment?');
      await see(page.getByRole('alert').getByText(/The AI service is not answering just now/));
      await e2e.checkPage(page, 'ask-provider-down');

      // The firm's monthly allowance used up (a BrokerAdmin set it to none): said as such.
      const admin = await e2e.api(DEV_ACCOUNTS.brokerAdmin);
      await admin.call('PUT', '/api/tenant/ai-settings', { monthlyRequestLimit: 0 });
      await ask(page, 'How often must trustees carry out an own-risk assessment?');
      await see(page.getByRole('alert').getByText(/used this month’s AI allowance/));
    });
  },
);
