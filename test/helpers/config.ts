import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LOWEST_BCRYPT_COST } from '../../src/contracts/passwords.js';
import { type Config, loadConfig } from '../../src/server/platform/config/config.js';

/** Secrets of the right shape, fixed so tests can mint tokens and check ciphertexts. */
export const TEST_SECRETS = {
  AUTH_SECRET: 'test-auth-secret-that-is-long-enough-0001',
  PPS_ENCRYPTION_KEY: 'a'.repeat(64),
  AI_KEY_ENCRYPTION_SECRET: 'b'.repeat(64),
  CRON_SECRET: 'test-cron-secret-that-is-long-enough-0001',
  METRICS_SECRET: 'test-metrics-secret-that-is-long-enough-01',
  RAG_INGEST_SECRET: 'test-rag-secret-that-is-long-enough-00001',
  AUDIT_CHAIN_KEY: 'c'.repeat(64),
  DOCUMENT_URL_KEY: 'd'.repeat(64),
} as const;

/**
 * bcrypt's cost for the tests' own apps and servers: the lowest, as development and test may choose
 * (docs/decisions/0151-password-hash-cost-setting.md). Staging and production configs keep the
 * deployed cost; the cost itself is tested in passwords.rules.test.ts.
 */
export const TEST_PASSWORD_HASH_COST = LOWEST_BCRYPT_COST;

export function testDataDir(): string {
  return mkdtempSync(path.join(tmpdir(), 'pension-test-'));
}

/** Staging and production need a mail server; unless a test names one, nothing listens here. */
export const UNREACHABLE_SMTP_URL = 'smtp://127.0.0.1:9';
/**
 * For suites that read what was queued: with no server to take it, every message stays in the
 * outbox, sealed, instead of racing the mail worker that would deliver and clear it.
 */
export const HOLD_MAIL = { SMTP_URL: UNREACHABLE_SMTP_URL } as const;

/**
 * The platform's operator named for the register of information (DORA Art. 28(3)), which the
 * export refuses without: for suites that ask for it.
 */
export const NAMED_OPERATOR = {
  DORA_OPERATOR_NAME: 'Pension Platform Operations Limited',
  DORA_OPERATOR_LEI: '635400OPERATOR000012',
  DORA_OPERATOR_COUNTRY: 'IE',
} as const;

/** A config as the service would load it, for APP_ENV test unless the overrides say otherwise. */
export function testConfig(overrides: Record<string, string | undefined> = {}): Config {
  const appEnv = overrides.APP_ENV ?? 'test';
  return loadConfig({
    APP_ENV: appEnv,
    DATA_DIR: testDataDir(),
    LOG_LEVEL: 'info',
    APP_BASE_URL: 'https://pensions.example.ie',
    MAIL_FROM: 'Pension Administration <no-reply@pensions.example.ie>',
    // Staging and production need a mail server, a malware scanner (or scanning explicitly off)
    // and an AI provider named (none here).
    ...(appEnv === 'staging' || appEnv === 'production'
      ? { SMTP_URL: UNREACHABLE_SMTP_URL, DOCUMENT_SCAN: 'off', AI_PROVIDER: 'none' }
      : { PASSWORD_HASH_COST: String(TEST_PASSWORD_HASH_COST) }),
    ...TEST_SECRETS,
    ...overrides,
  });
}
