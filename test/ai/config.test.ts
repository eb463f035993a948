import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/server/platform/config/config.js';
import { testConfig } from '../helpers/config.js';

/** The AI provider in the one environment schema (docs/decisions/0066-ai-provider-guard-and-chat.md). */
function problemsOf(env: Record<string, string | undefined>): string {
  try {
    testConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected the configuration to be refused');
}

const openai = {
  AI_PROVIDER: 'openai',
  AI_API_KEY: 'sk-config-test-key-000000001',
  AI_MODEL: 'gpt-test',
};

describe('the AI configuration', () => {
  it('sends nothing anywhere by default in development and test', () => {
    expect(testConfig().ai.provider).toBeNull();
    expect(testConfig({ APP_ENV: 'development' }).ai.provider).toBeNull();
  });

  it('makes staging and production name the provider, none included', () => {
    for (const APP_ENV of ['staging', 'production']) {
      expect(problemsOf({ APP_ENV, AI_PROVIDER: undefined })).toContain(
        `AI_PROVIDER is required when APP_ENV is ${APP_ENV}`,
      );
      expect(testConfig({ APP_ENV, AI_PROVIDER: 'none' }).ai.provider).toBeNull();
    }
  });

  it('refuses a provider without its key or model, and a key or model without a provider, naming no value', () => {
    const missing = problemsOf({ AI_PROVIDER: 'anthropic' });
    expect(missing).toContain('AI_API_KEY is required when AI_PROVIDER is anthropic');
    expect(missing).toContain('AI_MODEL is required when AI_PROVIDER is anthropic');
    const stray = problemsOf({ AI_PROVIDER: 'none', AI_API_KEY: openai.AI_API_KEY });
    expect(stray).toContain('AI_API_KEY must not be set when AI_PROVIDER is none');
    expect(stray).not.toContain(openai.AI_API_KEY);
  });

  it('wants https for an OpenAI-compatible server outside development', () => {
    expect(
      problemsOf({ ...openai, APP_ENV: 'production', AI_BASE_URL: 'http://llm.internal/v1' }),
    ).toContain('AI_BASE_URL must use https when APP_ENV is production');
    expect(
      testConfig({ ...openai, APP_ENV: 'production', AI_BASE_URL: 'https://llm.example/v1/' }).ai
        .provider,
    ).toMatchObject({ name: 'openai', model: 'gpt-test', baseUrl: 'https://llm.example/v1' });
  });

  it('sets each firm’s monthly allowance by default, and takes other figures', () => {
    expect(testConfig().ai.defaultLimits).toEqual({
      monthlyRequests: 1000,
      monthlyTokens: 2_000_000,
    });
    expect(
      testConfig({ AI_MONTHLY_REQUEST_LIMIT: '50', AI_MONTHLY_TOKEN_LIMIT: '9000' }).ai
        .defaultLimits,
    ).toEqual({ monthlyRequests: 50, monthlyTokens: 9000 });
    expect(problemsOf({ AI_MONTHLY_REQUEST_LIMIT: '-1' })).toContain('AI_MONTHLY_REQUEST_LIMIT');
  });
});
