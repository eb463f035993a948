import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_SECRETS, testDataDir } from '../../../../test/helpers/config.js';
import { ConfigError, loadConfig } from './config.js';

const productionEnv = (overrides: Record<string, string | undefined> = {}) => ({
  APP_ENV: 'production',
  APP_BASE_URL: 'https://pensions.example.ie',
  SMTP_URL: 'smtps://mailer:mail-password@smtp.example.ie:465',
  MAIL_FROM: 'Pensions <no-reply@pensions.example.ie>',
  // Production scans every upload (docs/decisions/0062-document-vault.md).
  CLAMD_SOCKET: '/run/clamav/clamd.ctl',
  // Production names its AI provider, none included (docs/decisions/0066-ai-provider-guard-and-chat.md).
  AI_PROVIDER: 'none',
  DATA_DIR: testDataDir(),
  ...TEST_SECRETS,
  ...overrides,
});

function configErrorOf(env: Record<string, string | undefined>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected loadConfig to refuse this environment');
}

const badSecrets: Array<[string, string | undefined, string]> = [
  ['AUTH_SECRET', undefined, 'is required'],
  ['AUTH_SECRET', 'short-secret-31-characters-long', 'at least 32 characters'],
  ['PPS_ENCRYPTION_KEY', undefined, 'is required'],
  ['PPS_ENCRYPTION_KEY', 'ab'.repeat(31), '64 hexadecimal'],
  ['PPS_ENCRYPTION_KEY', 'zz'.repeat(32), '64 hexadecimal'],
  ['PPS_ENCRYPTION_KEY', 'ab'.repeat(33), '64 hexadecimal'],
  ['AI_KEY_ENCRYPTION_SECRET', undefined, 'is required'],
  ['AI_KEY_ENCRYPTION_SECRET', 'not-hex-at-all', '64 hexadecimal'],
  ['CRON_SECRET', undefined, 'is required'],
  ['CRON_SECRET', 'tiny', 'at least 32 characters'],
  ['RAG_INGEST_SECRET', undefined, 'is required'],
  ['RAG_INGEST_SECRET', 'tiny', 'at least 32 characters'],
  ['METRICS_SECRET', undefined, 'is required'],
  ['METRICS_SECRET', 'tiny', 'at least 32 characters'],
  ['AUDIT_CHAIN_KEY', undefined, 'is required'],
  ['AUDIT_CHAIN_KEY', 'ab'.repeat(31), '64 hexadecimal'],
];

describe('configuration', () => {
  for (const appEnv of ['staging', 'production']) {
    for (const [name, value, reason] of badSecrets) {
      it(`refuses to start under ${appEnv} when ${name} is ${value === undefined ? 'missing' : 'malformed'}`, () => {
        const error = configErrorOf(productionEnv({ APP_ENV: appEnv, [name]: value }));
        expect(error.message).toContain(name);
        expect(error.message).toContain(reason);
        expect(error.message.split('\n')).toHaveLength(1);
        if (value) expect(error.message).not.toContain(value);
      });
    }
  }

  it('refuses a password hash cost below 12 under staging and production, and lets development and test go down to 4', () => {
    for (const appEnv of ['staging', 'production']) {
      expect(
        configErrorOf(productionEnv({ APP_ENV: appEnv, PASSWORD_HASH_COST: '11' })).message,
      ).toContain(`PASSWORD_HASH_COST must be at least 12 when APP_ENV is ${appEnv}`);
      expect(loadConfig(productionEnv({ APP_ENV: appEnv })).passwordHashCost).toBe(12);
      expect(
        loadConfig(productionEnv({ APP_ENV: appEnv, PASSWORD_HASH_COST: '13' })).passwordHashCost,
      ).toBe(13);
    }
    for (const appEnv of ['development', 'test']) {
      const env = { APP_ENV: appEnv, DATA_DIR: testDataDir() };
      expect(loadConfig(env).passwordHashCost).toBe(12);
      expect(loadConfig({ ...env, PASSWORD_HASH_COST: '4' }).passwordHashCost).toBe(4);
      expect(configErrorOf({ ...env, PASSWORD_HASH_COST: '3' }).message).toContain(
        'PASSWORD_HASH_COST',
      );
    }
  });

  it('treats an empty secret as missing', () => {
    const error = configErrorOf(productionEnv({ AUTH_SECRET: '' }));
    expect(error.message).toContain('AUTH_SECRET is required');
  });

  it('requires APP_BASE_URL outside development and test', () => {
    expect(configErrorOf(productionEnv({ APP_BASE_URL: undefined })).message).toContain(
      'APP_BASE_URL',
    );
  });

  it('requires a mail server and a sender outside development and test', () => {
    const error = configErrorOf(productionEnv({ SMTP_URL: undefined, MAIL_FROM: undefined }));
    expect(error.message).toContain('SMTP_URL is required');
    expect(error.message).toContain('MAIL_FROM is required');
  });

  it('refuses an SMTP_URL that is not smtp:// or smtps://, without echoing it', () => {
    const error = configErrorOf(productionEnv({ SMTP_URL: 'http://mailer:hunter2@mail.example' }));
    expect(error.message).toContain('SMTP_URL');
    expect(error.message).not.toContain('hunter2');
  });

  it('writes e-mail to files under DATA_DIR in development when no SMTP_URL is set', () => {
    const dataDir = testDataDir();
    const config = loadConfig({ APP_ENV: 'development', DATA_DIR: dataDir });
    expect(config.mail.transport).toEqual({ kind: 'files', directory: path.join(dataDir, 'mail') });
    expect(loadConfig(productionEnv()).mail).toEqual({
      from: 'Pensions <no-reply@pensions.example.ie>',
      transport: { kind: 'smtp', url: 'smtps://mailer:mail-password@smtp.example.ie:465' },
    });
  });

  it('refuses a malformed secret in development too, without echoing it', () => {
    const error = configErrorOf({
      APP_ENV: 'development',
      DATA_DIR: testDataDir(),
      PPS_ENCRYPTION_KEY: 'secret-value-123',
    });
    expect(error.message).toContain('PPS_ENCRYPTION_KEY');
    expect(error.message).not.toContain('secret-value-123');
  });

  it('takes a previous PPS key during a rotation, and refuses a malformed or unchanged one', () => {
    const previous = 'c'.repeat(64);
    expect(
      loadConfig(productionEnv({ PPS_ENCRYPTION_KEY_PREVIOUS: previous })).previousPpsEncryptionKey,
    ).toBe(previous);
    expect(loadConfig(productionEnv()).previousPpsEncryptionKey).toBeNull();
    const malformed = configErrorOf(
      productionEnv({ PPS_ENCRYPTION_KEY_PREVIOUS: 'old-key-value' }),
    );
    expect(malformed.message).toContain('PPS_ENCRYPTION_KEY_PREVIOUS');
    expect(malformed.message).not.toContain('old-key-value');
    const unchanged = configErrorOf(
      productionEnv({ PPS_ENCRYPTION_KEY_PREVIOUS: TEST_SECRETS.PPS_ENCRYPTION_KEY.toUpperCase() }),
    );
    expect(unchanged.message).toContain('PPS_ENCRYPTION_KEY_PREVIOUS must differ');
    expect(unchanged.message).not.toContain(TEST_SECRETS.PPS_ENCRYPTION_KEY);
  });

  it('generates missing development secrets once and keeps them in DATA_DIR, readable by the owner only', () => {
    const dataDir = testDataDir();
    const first = loadConfig({ APP_ENV: 'development', DATA_DIR: dataDir });
    const second = loadConfig({ APP_ENV: 'development', DATA_DIR: dataDir });
    expect(second.secrets).toEqual(first.secrets);
    expect(first.secrets.PPS_ENCRYPTION_KEY).toMatch(/^[0-9a-f]{64}$/);
    expect(first.secrets.AUTH_SECRET.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dataDir, 'generated-secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8')).AUTH_SECRET).toBe(first.secrets.AUTH_SECRET);
  });

  it('uses a secret from the environment in preference to a generated one', () => {
    const config = loadConfig({
      APP_ENV: 'test',
      DATA_DIR: testDataDir(),
      CRON_SECRET: TEST_SECRETS.CRON_SECRET,
    });
    expect(config.secrets.CRON_SECRET).toBe(TEST_SECRETS.CRON_SECRET);
  });

  it('defaults APP_ENV to development, and to production when NODE_ENV is production', () => {
    expect(loadConfig({ DATA_DIR: testDataDir() }).appEnv).toBe('development');
    expect(configErrorOf({ NODE_ENV: 'production', DATA_DIR: testDataDir() }).message).toContain(
      'AUTH_SECRET is required',
    );
  });

  it('refuses to run development or test on a HOST the network can reach, in one line naming HOST', () => {
    const reachable = [
      '0.0.0.0',
      '::',
      '192.168.1.20',
      '10.0.0.5',
      '128.0.0.1',
      'pensions.example.ie',
    ];
    const environments = [
      { env: { APP_ENV: 'development' }, mode: 'when APP_ENV is development' },
      { env: { APP_ENV: 'test' }, mode: 'when APP_ENV is test' },
      // No APP_ENV is development: the case the issue found (docs/decisions/0001-one-environment-schema.md).
      { env: {}, mode: 'when APP_ENV is not set (development)' },
    ];
    for (const { env, mode } of environments) {
      for (const host of reachable) {
        const error = configErrorOf({ ...env, HOST: host, DATA_DIR: testDataDir() });
        expect(error.message).toBe(
          `Configuration error: HOST must be a loopback address (127.0.0.0/8, ::1 or localhost) ${mode}`,
        );
      }
    }
  });

  it('runs development and test on any loopback HOST, and on 127.0.0.1 when none is set', () => {
    for (const host of ['127.0.0.1', '127.8.9.10', '::1', '0:0:0:0:0:0:0:1', 'localhost']) {
      expect(loadConfig({ APP_ENV: 'development', HOST: host, DATA_DIR: testDataDir() }).host).toBe(
        host,
      );
    }
    expect(loadConfig({ APP_ENV: 'test', DATA_DIR: testDataDir() }).host).toBe('127.0.0.1');
  });

  it('lets staging and production listen on any HOST, 0.0.0.0 by default', () => {
    expect(loadConfig(productionEnv({ HOST: '10.0.0.5' })).host).toBe('10.0.0.5');
    expect(loadConfig(productionEnv({ APP_ENV: 'staging' })).host).toBe('0.0.0.0');
  });

  it('chooses PGlite under DATA_DIR by default and PostgreSQL when DATABASE_URL is set', () => {
    const dataDir = testDataDir();
    expect(loadConfig({ APP_ENV: 'test', DATA_DIR: dataDir }).database).toEqual({
      kind: 'pglite',
      dataDir: path.join(dataDir, 'pglite'),
    });
    const database = loadConfig({
      APP_ENV: 'test',
      DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://app@db.internal/pensions',
      DATABASE_URL_UNPOOLED: 'postgres://owner@db.internal/pensions',
    }).database;
    expect(database).toMatchObject({
      kind: 'postgres',
      url: 'postgres://app@db.internal/pensions',
      migrationUrl: 'postgres://owner@db.internal/pensions',
    });
  });

  it('with one DATABASE_URL only the migrator logs in as its owner; the pool logs in as pension_runtime', () => {
    const env = {
      APP_ENV: 'test',
      DATA_DIR: testDataDir(),
      DATABASE_URL: 'postgres://owner:owner-pw@db.internal/pensions',
    };
    expect(loadConfig(env).database).toMatchObject({
      url: 'postgres://pension_runtime@db.internal/pensions',
      migrationUrl: 'postgres://owner:owner-pw@db.internal/pensions',
    });
    const withPassword = loadConfig({ ...env, DATABASE_RUNTIME_PASSWORD: 'runtime-pw' }).database;
    expect(withPassword).toMatchObject({
      url: 'postgres://pension_runtime:runtime-pw@db.internal/pensions',
    });
    expect(
      configErrorOf({ ...env, DATABASE_URL: 'postgres:///pensions?host=/run/pg' }).message,
    ).toContain('DATABASE_URL_UNPOOLED');
  });

  it('rejects an unparseable TRUST_PROXY, a lone TLS file and a bad port', () => {
    expect(
      configErrorOf(productionEnv({ TRUST_PROXY: '10.0.0.1, evil.example' })).message,
    ).toContain('TRUST_PROXY');
    expect(configErrorOf(productionEnv({ TLS_CERT_FILE: '/tmp/cert.pem' })).message).toContain(
      'TLS_KEY_FILE',
    );
    expect(configErrorOf(productionEnv({ PORT: '70000' })).message).toContain('PORT');
  });

  it('takes SENTRY_DSN as the telemetry DSN and derives the ingest URL from it alone', () => {
    expect(loadConfig(productionEnv()).telemetry).toBeNull();
    expect(loadConfig(productionEnv({ SENTRY_DSN: '' })).telemetry).toBeNull();
    const hosted = loadConfig(
      productionEnv({
        SENTRY_DSN: 'https://0123456789abcdef0123456789abcdef@o17.ingest.sentry.io/4501',
      }),
    ).telemetry;
    expect(hosted?.dsn).toBe('https://0123456789abcdef0123456789abcdef@o17.ingest.sentry.io/4501');
    expect(hosted?.ingestUrl.href).toBe('https://o17.ingest.sentry.io/api/4501/envelope/');
    const withPort = loadConfig(
      productionEnv({ SENTRY_DSN: 'https://publickey@errors.example.ie:9443/7' }),
    ).telemetry;
    expect(withPort?.ingestUrl.href).toBe('https://errors.example.ie:9443/api/7/envelope/');
    const local = loadConfig({
      APP_ENV: 'development',
      DATA_DIR: testDataDir(),
      SENTRY_DSN: 'http://publickey@127.0.0.1:9000/3',
    }).telemetry;
    expect(local?.ingestUrl.href).toBe('http://127.0.0.1:9000/api/3/envelope/');
  });

  it('reads the ICT supply chain of the register of information, with no default, and refuses a malformed LEI or country', () => {
    const unset = loadConfig(productionEnv());
    expect(unset.dora.operator).toMatchObject({ name: null, lei: null, country: null });
    // SMTP_URL is set: the mail server's vendor is in use; nothing else is.
    expect(
      unset.dora.vendors.filter((vendor) => vendor.inUse).map((vendor) => vendor.role),
    ).toEqual(['mail']);
    const named = loadConfig(
      productionEnv({
        DORA_OPERATOR_NAME: 'Pension Platform Operations Limited',
        DORA_OPERATOR_LEI: '635400OPERATOR000012',
        DORA_OPERATOR_COUNTRY: 'IE',
        DORA_DATABASE_VENDOR_NAME: 'Harbour Databases Limited',
      }),
    );
    expect(named.dora.operator).toMatchObject({
      name: 'Pension Platform Operations Limited',
      lei: '635400OPERATOR000012',
      country: 'IE',
      variables: { lei: 'DORA_OPERATOR_LEI' },
    });
    expect(named.dora.vendors.find((vendor) => vendor.role === 'database')?.inUse).toBe(true);
    expect(configErrorOf(productionEnv({ DORA_OPERATOR_LEI: 'not-an-lei' })).message).toBe(
      'Configuration error: DORA_OPERATOR_LEI must be an LEI: 20 capital letters and digits',
    );
    expect(configErrorOf(productionEnv({ DORA_AI_VENDOR_COUNTRY: 'Ireland' })).message).toContain(
      'DORA_AI_VENDOR_COUNTRY must be a country as its two capital letters',
    );
  });

  it('refuses a malformed SENTRY_DSN in one line naming the variable, never its value', () => {
    const malformed = [
      'not a url',
      'https://errors.example.ie/7',
      'https://publickey:secretkey@errors.example.ie/7',
      'https://publickey@errors.example.ie/7/',
      'https://publickey@errors.example.ie/prefix/7',
      'https://publickey@errors.example.ie/7?redirect=evil.example',
      'https://publickey@errors.example.ie/7#fragment',
      'https://publickey@errors.example.ie:70000/7',
      'https://publickey@errors.example.ie:0/7',
      'https://publickey@errors.example.ie@evil.example/7',
      'https://publickey@/7',
      'ftp://publickey@errors.example.ie/7',
      'HTTPS://publickey@errors.example.ie/7',
      ' https://publickey@errors.example.ie/7',
      'https://publickey@errors.example.ie/7\n',
    ];
    for (const value of malformed) {
      const error = configErrorOf(productionEnv({ SENTRY_DSN: value }));
      expect(error.message, value).toBe(
        'Configuration error: SENTRY_DSN must be a DSN of the form https://<publicKey>@<host>[:port]/<projectId>',
      );
    }
    const plain = configErrorOf(
      productionEnv({ SENTRY_DSN: 'http://publickey@errors.example.ie/7' }),
    );
    expect(plain.message).toBe(
      'Configuration error: SENTRY_DSN must use https when APP_ENV is production',
    );
  });

  it('stops the real start-up with one line on stderr that names the variable and not its value', () => {
    const malformedKey = 'f00d'.repeat(10);
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
      env: { PATH: process.env.PATH, ...productionEnv({ PPS_ENCRYPTION_KEY: malformedKey }) },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^Configuration error: PPS_ENCRYPTION_KEY must be exactly 64 hexadecimal/,
    );
    expect(result.stderr + result.stdout).not.toContain(malformedKey);
  });
});
