import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAiProvider } from '../../src/server/modules/ai/ai-provider.client.js';
import {
  EMPTY_DENYLIST,
  OutgoingRefusedError,
} from '../../src/server/modules/ai/provider-guard.rules.js';
import type { AiProviderSettings } from '../../src/server/platform/config/config.js';
import { UnavailableError } from '../../src/server/platform/errors.js';
import { type FakeProvider, startFakeProvider } from '../helpers/fake-ai-provider.js';
import { newPpsNumber } from '../helpers/pps.js';

/**
 * The provider layer for both providers: every request passes the guard in the fetch the SDK is
 * given, whichever provider's SDK builds it, and goes where the configuration says.
 */
let fake: FakeProvider;
beforeAll(async () => {
  fake = await startFakeProvider();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.reply = () => ({ text: 'An answer.' });
});

const settings = (name: AiProviderSettings['name']): AiProviderSettings => ({
  name,
  apiKey: 'platform-key-provider-test',
  model: 'fake-model',
  baseUrl: fake.baseUrl,
  timeoutMs: 5_000,
  maxRetries: 0,
  retryBaseMs: 1,
});
const call = (prompt: string) => ({
  apiKey: 'call-key-provider-test',
  system: 'Rules.',
  prompt,
  denylist: EMPTY_DENYLIST,
  maxOutputTokens: 50,
});

describe('the provider layer', () => {
  for (const name of ['openai', 'anthropic'] as const) {
    it(`sends nothing the guard refuses, through ${name}'s SDK`, async () => {
      const refused: string[][] = [];
      const provider = createAiProvider(settings(name), {
        secrets: [],
        onRefused: (reasons) => refused.push(reasons),
        onFailure: () => undefined,
      });
      await expect(provider.generate(call(`PPS ${newPpsNumber()}`))).rejects.toBeInstanceOf(
        OutgoingRefusedError,
      );
      await expect(provider.stream(call('mail me at a.b@example.ie'))).rejects.toBeInstanceOf(
        OutgoingRefusedError,
      );
      expect(fake.requests).toHaveLength(0);
      expect(refused).toEqual([['pps_number'], ['email_address']]);
    });
  }

  it('sends openai requests to Chat Completions with the call’s key', async () => {
    const provider = createAiProvider(settings('openai'), {
      secrets: [],
      onFailure: () => undefined,
    });
    expect((await provider.generate(call('A clean question?'))).text).toBe('An answer.');
    expect(fake.requests[0]?.path).toBe('/chat/completions');
    expect(fake.requests[0]?.headers.authorization).toBe('Bearer call-key-provider-test');
  });

  it('sends anthropic requests to the Messages API of the base URL, and a failure is unavailable', async () => {
    const failures: Array<{ status: number | null }> = [];
    const provider = createAiProvider(settings('anthropic'), {
      secrets: [],
      onFailure: (failure) => failures.push(failure),
    });
    // The fake speaks only Chat Completions: the Messages request reaches it and gets a 404.
    await expect(provider.generate(call('A clean question?'))).rejects.toBeInstanceOf(
      UnavailableError,
    );
    expect(fake.requests[0]?.path).toBe('/messages');
    expect(fake.requests[0]?.headers['x-api-key']).toBe('call-key-provider-test');
  });
});
