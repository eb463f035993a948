import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import type { PlatformVendorRole } from '../../../contracts/dora-register.js';
import { DEPLOYED_BCRYPT_COST, LOWEST_BCRYPT_COST } from '../../../contracts/passwords.js';
import { DEFAULT_SECOND_FACTOR_ROLES } from '../../../contracts/second-factor.js';
import { type ConnectionBounds, DEFAULT_CONNECTION_BOUNDS } from '../db/connection-bounds.js';
import type { DatabaseSettings } from '../db/database.js';
import { runtimeDatabaseUrl } from '../db/runtime-login.js';
import type { S3StorageSettings } from '../storage/s3-storage.js';
import { isRole, type Role } from '../tenancy/roles.js';

export const APP_ENVS = ['development', 'test', 'staging', 'production'] as const;
export type AppEnv = (typeof APP_ENVS)[number];

/** Thrown when the environment cannot describe a runnable service. The message names variables, never values. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Configuration error: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

const hexKey = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, 'must be exactly 64 hexadecimal characters (256 bits)');
const longSecret = z.string().min(32, 'must be at least 32 characters');

/**
 * The secrets of the README's configuration table. In development and test a missing one is
 * generated once and kept in DATA_DIR; in staging and production a missing one stops start-up.
 */
const secretSchemas = {
  AUTH_SECRET: longSecret,
  PPS_ENCRYPTION_KEY: hexKey,
  AI_KEY_ENCRYPTION_SECRET: hexKey,
  CRON_SECRET: longSecret,
  RAG_INGEST_SECRET: longSecret,
  /** The bearer of GET /api/health/metrics (docs/decisions/0077-metrics.md). */
  METRICS_SECRET: longSecret,
  /** Seals the audit chain (HMAC-SHA256); kept out of the database so its users cannot reseal a rewrite. */
  AUDIT_CHAIN_KEY: hexKey,
  /** Signs the documents' download URLs (HMAC-SHA256; docs/decisions/0062-document-vault.md). */
  DOCUMENT_URL_KEY: hexKey,
} as const;
type SecretName = keyof typeof secretSchemas;
const SECRET_NAMES = Object.keys(secretSchemas) as SecretName[];

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);
const optionalString = z.preprocess(emptyAsUndefined, z.string().optional());
/** A whole number from `min` to `max`, `fallback` when unset or empty. */
const wholeNumber = (min: number, max: number, fallback: number) =>
  z.preprocess(emptyAsUndefined, z.coerce.number().int().min(min).max(max).default(fallback));
const postgresUrl = z.preprocess(
  emptyAsUndefined,
  z
    .string()
    .regex(/^postgres(ql)?:\/\/.+/, 'must be a postgres:// or postgresql:// URL')
    .optional(),
);

/**
 * A DSN as the Sentry SDK writes it back (`dsnToString`): the envelope header the browser sends
 * carries that string, and the tunnel compares it byte for byte, so only this canonical form is
 * accepted. The public key only: a `key:secret@` DSN (the deprecated secret key) is refused, and
 * no path prefix, query or fragment can steer the ingest URL derived from it.
 */
const SENTRY_DSN_SHAPE =
  /^(https?):\/\/([A-Za-z0-9]+)@([A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::([1-9][0-9]{0,4}))?\/([0-9]+)$/;
const SENTRY_DSN_ERROR = 'must be a DSN of the form https://<publicKey>@<host>[:port]/<projectId>';

export const AI_PROVIDERS = ['anthropic', 'openai', 'none'] as const;
export type AiProviderName = (typeof AI_PROVIDERS)[number];

/** An LEI (ISO 17442): 18 letters or digits and two check digits. */
const lei = z
  .string()
  .regex(/^[A-Z0-9]{18}[0-9]{2}$/, 'must be an LEI: 20 capital letters and digits');
const countryCode = z
  .string()
  .regex(/^[A-Z]{2}$/, 'must be a country as its two capital letters (ISO 3166-1), e.g. IE');

/**
 * The parties of the platform's ICT supply chain as the register of information names them: the
 * operator (the firms' direct ICT provider) and its vendors, subcontractors of it, each by the
 * prefix of its three variables.
 */
const DORA_PARTIES = [
  { role: 'operator', prefix: 'DORA_OPERATOR' },
  { role: 'ai', prefix: 'DORA_AI_VENDOR' },
  { role: 'mail', prefix: 'DORA_MAIL_VENDOR' },
  { role: 'storage', prefix: 'DORA_STORAGE_VENDOR' },
  { role: 'database', prefix: 'DORA_DATABASE_VENDOR' },
  { role: 'errorTracking', prefix: 'DORA_ERROR_TRACKING_VENDOR' },
] as const satisfies readonly { role: 'operator' | PlatformVendorRole; prefix: string }[];

const envSchema = z.object({
  APP_ENV: z.preprocess(emptyAsUndefined, z.enum(APP_ENVS).optional()),
  NODE_ENV: optionalString,
  PORT: wholeNumber(0, 65535, 3000),
  HOST: optionalString,
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('./.data')),
  /**
   * The erasure ledger, outside the database (docs/decisions/0149-retention-and-erasure.md): on
   * storage every instance shares and a restore of the database does not replace.
   */
  ERASURE_LEDGER_FILE: optionalString,
  DATABASE_URL: postgresUrl,
  DATABASE_URL_UNPOOLED: postgresUrl,
  /** The password of the derived runtime login (database section of loadConfig); no default. */
  DATABASE_RUNTIME_PASSWORD: optionalString,
  DATABASE_POOL_SIZE: wholeNumber(1, 200, 10),
  /**
   * Bounds on the runtime pool's connections (PostgreSQL only; docs/decisions/0085): the longest
   * statement, lock wait and idle open transaction, and the longest statement of the one
   * transaction that writes a whole upload. Milliseconds.
   */
  DATABASE_STATEMENT_TIMEOUT_MS: wholeNumber(
    1000,
    600_000,
    DEFAULT_CONNECTION_BOUNDS.statementTimeoutMs,
  ),
  DATABASE_LOCK_TIMEOUT_MS: wholeNumber(100, 600_000, DEFAULT_CONNECTION_BOUNDS.lockTimeoutMs),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: wholeNumber(
    1000,
    3_600_000,
    DEFAULT_CONNECTION_BOUNDS.idleInTransactionTimeoutMs,
  ),
  DATABASE_BULK_STATEMENT_TIMEOUT_MS: wholeNumber(
    1000,
    3_600_000,
    DEFAULT_CONNECTION_BOUNDS.bulkStatementTimeoutMs,
  ),
  /**
   * Imports and payroll uploads one tenant may run at once on one instance, all kinds together
   * (docs/decisions/0086); one more is answered 429.
   */
  UPLOADS_PER_TENANT: wholeNumber(1, 50, 3),
  /**
   * bcrypt's cost for new password hashes (docs/decisions/0151-password-hash-cost-setting.md): at
   * least 12 in staging and production; development and test may go down to bcrypt's lowest, 4,
   * so that a test suite signing in thousands of times does not spend its time hashing.
   */
  PASSWORD_HASH_COST: wholeNumber(LOWEST_BCRYPT_COST, 15, DEPLOYED_BCRYPT_COST),
  REDIS_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^rediss?:\/\/.+/, 'must be a redis:// or rediss:// URL')
      .optional(),
  ),
  APP_BASE_URL: z.preprocess(
    emptyAsUndefined,
    z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  ),
  TRUST_PROXY: z.preprocess(emptyAsUndefined, z.string().optional()),
  TLS_CERT_FILE: optionalString,
  TLS_KEY_FILE: optionalString,
  HTTP_REDIRECT_PORT: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(1).max(65535).optional(),
  ),
  SMTP_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^smtps?:\/\/.+/, 'must be an smtp:// or smtps:// URL')
      .optional(),
  ),
  MAIL_FROM: optionalString,
  BOOTSTRAP_SUPERADMIN_EMAIL: z.preprocess(
    emptyAsUndefined,
    z.email({ error: 'must be an e-mail address' }).optional(),
  ),
  BOOTSTRAP_SUPERADMIN_PASSWORD: optionalString,
  LOG_LEVEL: z.preprocess(
    emptyAsUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  SENTRY_DSN: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(SENTRY_DSN_SHAPE, SENTRY_DSN_ERROR)
      .refine((dsn) => Number(SENTRY_DSN_SHAPE.exec(dsn)?.[4] ?? 1) <= 65535, SENTRY_DSN_ERROR)
      .optional(),
  ),
  /** Set during a key rotation: PPS numbers not yet re-encrypted are still read with it. */
  PPS_ENCRYPTION_KEY_PREVIOUS: z.preprocess(emptyAsUndefined, hexKey.optional()),
  /** Set during a rotation: download URLs signed with it still open until they expire. */
  DOCUMENT_URL_KEY_PREVIOUS: z.preprocess(emptyAsUndefined, hexKey.optional()),
  /** clamd's Unix socket (LocalSocket in clamd.conf). */
  CLAMD_SOCKET: optionalString,
  /** clamd's TCP address (TCPAddr), with CLAMD_PORT (TCPSocket, 3310 by default). */
  CLAMD_HOST: optionalString,
  CLAMD_PORT: wholeNumber(1, 65535, 3310),
  /**
   * Documents in an S3-compatible bucket instead of DATA_DIR/documents:
   * `s3://<bucket>[/<prefix>][?endpoint=<url>&region=<region>&forcePathStyle=true]`.
   */
  STORAGE_URL: optionalString,
  /** The bucket's credentials, both required with STORAGE_URL; no default, no other source. */
  STORAGE_ACCESS_KEY_ID: optionalString,
  STORAGE_SECRET_ACCESS_KEY: optionalString,
  /** `off`: run without a malware scanner, which staging and production refuse unless told so. */
  DOCUMENT_SCAN: z.preprocess(
    emptyAsUndefined,
    z.enum(['off'], { error: 'must be off when set' }).optional(),
  ),
  /** The AI provider (docs/decisions/0066-ai-provider-guard-and-chat.md). */
  AI_PROVIDER: z.preprocess(emptyAsUndefined, z.enum(AI_PROVIDERS).optional()),
  /** The platform's key for the provider; a tenant's own key replaces it for that tenant. */
  AI_API_KEY: optionalString,
  AI_MODEL: optionalString,
  /** For `openai`, an OpenAI-compatible server: requests go to {AI_BASE_URL}/chat/completions. */
  AI_BASE_URL: z.preprocess(
    emptyAsUndefined,
    z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  ),
  AI_TIMEOUT_MS: wholeNumber(1000, 300_000, 60_000),
  AI_MAX_RETRIES: wholeNumber(0, 5, 2),
  /** The first wait before a retry; each further retry waits twice as long. */
  AI_RETRY_BASE_MS: wholeNumber(1, 60_000, 500),
  /** What a tenant may use in a calendar month unless its BrokerAdmin sets other limits. */
  AI_MONTHLY_REQUEST_LIMIT: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(0).default(1000),
  ),
  /**
   * Roles whose accounts must have a second factor (docs/decisions/0112-second-factor-required-roles.md):
   * a comma-separated list of roles, or `none`. By default SuperAdmin, BrokerAdmin and BrokerUser
   * in staging and production, none in development and test.
   */
  MFA_REQUIRED_ROLES: optionalString,
  AI_MONTHLY_TOKEN_LIMIT: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().int().min(0).default(2_000_000),
  ),
  /**
   * Who runs this platform and its vendors, for the register of information of DORA Art. 28(3)
   * (docs/decisions/0139-dora-ict-incidents.md): each party's legal name, LEI and country (ISO
   * 3166-1 alpha-2). No default: the register's export refuses while one it needs is unset.
   */
  ...Object.fromEntries(
    DORA_PARTIES.flatMap(({ prefix }) => [
      [`${prefix}_NAME`, z.preprocess(emptyAsUndefined, z.string().max(200).optional())],
      [`${prefix}_LEI`, z.preprocess(emptyAsUndefined, lei.optional())],
      [`${prefix}_COUNTRY`, z.preprocess(emptyAsUndefined, countryCode.optional())],
    ]),
  ),
  ...Object.fromEntries(
    SECRET_NAMES.map((name) => [name, z.preprocess(emptyAsUndefined, z.string().optional())]),
  ),
});

/**
 * Every variable the service reads, by name: what a deployment may set (the deployment files'
 * tests hold deploy/ to this list, so a misspelt or retired variable there is caught).
 */
export const ENVIRONMENT_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

export type Secrets = Record<SecretName, string>;

export interface Config {
  appEnv: AppEnv;
  /** development and test: development accounts, generated secrets, cookies without Secure. */
  isDevelopmentLike: boolean;
  port: number;
  host: string;
  dataDir: string;
  /** The erasure ledger's file: ERASURE_LEDGER_FILE, or DATA_DIR/erasure-ledger.jsonl. */
  erasureLedgerFile: string;
  database: DatabaseSettings;
  /** Imports and payroll uploads one tenant may run at once on this instance. */
  uploadsPerTenant: number;
  /** bcrypt's cost for new password hashes: PASSWORD_HASH_COST. */
  passwordHashCost: number;
  /** Accounts of these roles are signed in only to set up a second factor until they have one. */
  secondFactor: { requiredRoles: Role[] };
  redisUrl: string | null;
  publicBaseUrl: URL;
  trustProxy: string[];
  tls: { certFile: string; keyFile: string; httpRedirectPort: number | null } | null;
  logLevel: string;
  /** Where e-mail goes: SMTP when SMTP_URL is set, else (development and test only) .eml files. */
  mail: {
    from: string;
    transport: { kind: 'smtp'; url: string } | { kind: 'files'; directory: string };
  };
  secrets: Secrets;
  /** The key PPS numbers were encrypted with before PPS_ENCRYPTION_KEY, while a rotation runs. */
  previousPpsEncryptionKey: string | null;
  /** Creates the first SuperAdmin at start-up when none exists. */
  bootstrapSuperAdmin: { email: string; password: string } | null;
  /**
   * Browser error telemetry (SENTRY_DSN): the DSN the page is given and the only envelopes
   * /monitoring forwards, and the one URL it forwards them to, derived here and never from a
   * request. Null: /monitoring accepts and drops.
   */
  telemetry: { dsn: string; ingestUrl: URL } | null;
  /**
   * Documents: where their bytes are kept (DATA_DIR/documents), the malware scanner (clamd) or
   * none, and the keys their download URLs are signed with.
   */
  documents: {
    /** DATA_DIR/documents: the local back end's files, and every back end's staging area. */
    storageRoot: string;
    /** Where committed bytes live: the local file system (the default) or an S3 bucket. */
    storage: { kind: 'local' } | ({ kind: 's3' } & S3StorageSettings);
    scanner: { socketPath: string } | { host: string; port: number } | null;
    urlKey: string;
    previousUrlKey: string | null;
  };
  /**
   * The AI provider, or `none`: chat then answers with extracts and drafting with templates, and
   * nothing is sent anywhere. The per-tenant monthly limits apply unless a tenant sets its own.
   */
  /**
   * The platform's ICT supply chain for the firms' register of information (DORA Art. 28(3)):
   * the operator, and each vendor with whether this instance uses it. A field unset is null, and
   * `variables` names the settings that give it.
   */
  dora: {
    operator: IctParty;
    vendors: Array<{ role: PlatformVendorRole; inUse: boolean; party: IctParty }>;
  };
  ai: {
    provider: AiProviderSettings | null;
    encryptionKey: string;
    defaultLimits: { monthlyRequests: number; monthlyTokens: number };
  };
}

/** A party of the platform's ICT supply chain as configured, and the variables that name it. */
export interface IctParty {
  name: string | null;
  lei: string | null;
  country: string | null;
  variables: { name: string; lei: string; country: string };
}

export interface AiProviderSettings {
  name: Exclude<AiProviderName, 'none'>;
  apiKey: string;
  model: string;
  baseUrl: string | null;
  timeoutMs: number;
  maxRetries: number;
  retryBaseMs: number;
}

const DEVELOPMENT_MAIL_FROM = 'Pension Administration <no-reply@pension-admin.local>';

const IP_OR_CIDR = /^[0-9a-fA-F:.]+(\/\d{1,3})?$/;

/** Reads the environment once. Nothing else in the service reads process.env. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${String(issue.path[0])} ${issue.message}`),
    );
  }
  const values = parsed.data as z.infer<typeof envSchema> & Record<SecretName, string | undefined>;
  const appEnv: AppEnv =
    values.APP_ENV ?? (values.NODE_ENV === 'production' ? 'production' : 'development');
  const isDevelopmentLike = appEnv === 'development' || appEnv === 'test';
  const problems: string[] = [];

  const dataDir = path.resolve(values.DATA_DIR);
  const secrets = resolveSecrets(values, isDevelopmentLike, dataDir, problems);

  if (!isDevelopmentLike && !values.APP_BASE_URL) {
    problems.push(`APP_BASE_URL is required when APP_ENV is ${appEnv}`);
  }
  const trustProxy = (values.TRUST_PROXY ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (trustProxy.some((entry) => !IP_OR_CIDR.test(entry))) {
    problems.push('TRUST_PROXY must be a comma-separated list of IP addresses or CIDR ranges');
  }
  if (isDevelopmentLike && values.HOST !== undefined && !isLoopback(values.HOST)) {
    const mode = values.APP_ENV ? `APP_ENV is ${appEnv}` : 'APP_ENV is not set (development)';
    problems.push(`HOST must be a loopback address (127.0.0.0/8, ::1 or localhost) when ${mode}`);
  }
  const database = databaseSettings(values, dataDir, problems);
  if (Boolean(values.TLS_CERT_FILE) !== Boolean(values.TLS_KEY_FILE)) {
    problems.push('TLS_CERT_FILE and TLS_KEY_FILE must be set together');
  }
  if (values.HTTP_REDIRECT_PORT && !values.TLS_CERT_FILE) {
    problems.push('HTTP_REDIRECT_PORT needs TLS_CERT_FILE and TLS_KEY_FILE');
  }
  if (
    Boolean(values.BOOTSTRAP_SUPERADMIN_EMAIL) !== Boolean(values.BOOTSTRAP_SUPERADMIN_PASSWORD)
  ) {
    problems.push(
      'BOOTSTRAP_SUPERADMIN_EMAIL and BOOTSTRAP_SUPERADMIN_PASSWORD must be set together',
    );
  }
  if (!isDevelopmentLike && !values.SMTP_URL) {
    problems.push(`SMTP_URL is required when APP_ENV is ${appEnv}`);
  }
  if (!isDevelopmentLike && !values.MAIL_FROM) {
    problems.push(`MAIL_FROM is required when APP_ENV is ${appEnv}`);
  }
  if (
    values.PPS_ENCRYPTION_KEY_PREVIOUS !== undefined &&
    secrets.PPS_ENCRYPTION_KEY !== undefined &&
    values.PPS_ENCRYPTION_KEY_PREVIOUS.toLowerCase() === secrets.PPS_ENCRYPTION_KEY.toLowerCase()
  ) {
    problems.push('PPS_ENCRYPTION_KEY_PREVIOUS must differ from PPS_ENCRYPTION_KEY');
  }
  if (!isDevelopmentLike && values.SENTRY_DSN?.startsWith('http:')) {
    problems.push(`SENTRY_DSN must use https when APP_ENV is ${appEnv}`);
  }
  const scanner = scannerSettings(values, appEnv, isDevelopmentLike, problems);
  const storage = storageSettings(values, appEnv, isDevelopmentLike, problems);
  if (
    values.DOCUMENT_URL_KEY_PREVIOUS !== undefined &&
    secrets.DOCUMENT_URL_KEY !== undefined &&
    values.DOCUMENT_URL_KEY_PREVIOUS.toLowerCase() === secrets.DOCUMENT_URL_KEY.toLowerCase()
  ) {
    problems.push('DOCUMENT_URL_KEY_PREVIOUS must differ from DOCUMENT_URL_KEY');
  }
  const aiProvider = aiSettings(values, appEnv, isDevelopmentLike, problems);
  const secondFactorRoles = requiredRolesOf(values.MFA_REQUIRED_ROLES, isDevelopmentLike, problems);
  if (!isDevelopmentLike && values.PASSWORD_HASH_COST < DEPLOYED_BCRYPT_COST) {
    problems.push(
      `PASSWORD_HASH_COST must be at least ${DEPLOYED_BCRYPT_COST} when APP_ENV is ${appEnv}`,
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const port = values.PORT;
  return {
    appEnv,
    isDevelopmentLike,
    port,
    host: values.HOST ?? (isDevelopmentLike ? '127.0.0.1' : '0.0.0.0'),
    dataDir,
    erasureLedgerFile: path.resolve(
      values.ERASURE_LEDGER_FILE ?? path.join(dataDir, 'erasure-ledger.jsonl'),
    ),
    database,
    uploadsPerTenant: values.UPLOADS_PER_TENANT,
    passwordHashCost: values.PASSWORD_HASH_COST,
    secondFactor: { requiredRoles: secondFactorRoles },
    redisUrl: values.REDIS_URL ?? null,
    publicBaseUrl: new URL(values.APP_BASE_URL ?? `http://localhost:${port}`),
    trustProxy,
    tls:
      values.TLS_CERT_FILE && values.TLS_KEY_FILE
        ? {
            certFile: values.TLS_CERT_FILE,
            keyFile: values.TLS_KEY_FILE,
            httpRedirectPort: values.HTTP_REDIRECT_PORT ?? null,
          }
        : null,
    logLevel: values.LOG_LEVEL,
    mail: {
      from: values.MAIL_FROM ?? DEVELOPMENT_MAIL_FROM,
      transport: values.SMTP_URL
        ? { kind: 'smtp', url: values.SMTP_URL }
        : { kind: 'files', directory: path.join(dataDir, 'mail') },
    },
    secrets: secrets as Secrets,
    previousPpsEncryptionKey: values.PPS_ENCRYPTION_KEY_PREVIOUS ?? null,
    bootstrapSuperAdmin:
      values.BOOTSTRAP_SUPERADMIN_EMAIL && values.BOOTSTRAP_SUPERADMIN_PASSWORD
        ? {
            email: values.BOOTSTRAP_SUPERADMIN_EMAIL,
            password: values.BOOTSTRAP_SUPERADMIN_PASSWORD,
          }
        : null,
    telemetry: values.SENTRY_DSN ? telemetryOf(values.SENTRY_DSN) : null,
    documents: {
      storageRoot: path.join(dataDir, 'documents'),
      storage,
      scanner,
      urlKey: (secrets as Secrets).DOCUMENT_URL_KEY,
      previousUrlKey: values.DOCUMENT_URL_KEY_PREVIOUS ?? null,
    },
    dora: doraSettings(values as unknown as Record<string, string | undefined>, {
      ai: aiProvider !== null,
      mail: values.SMTP_URL !== undefined,
      storage: storage.kind === 's3',
      errorTracking: values.SENTRY_DSN !== undefined,
    }),
    ai: {
      provider: aiProvider,
      encryptionKey: (secrets as Secrets).AI_KEY_ENCRYPTION_SECRET,
      defaultLimits: {
        monthlyRequests: values.AI_MONTHLY_REQUEST_LIMIT,
        monthlyTokens: values.AI_MONTHLY_TOKEN_LIMIT,
      },
    },
  };
}

/**
 * The ICT supply chain (docs/decisions/0139-dora-ict-incidents.md): a vendor is in use when this
 * instance is configured to send to it; the database host only when described, as the operator
 * may run the database itself.
 */
function doraSettings(
  values: Record<string, string | undefined>,
  used: Record<Exclude<PlatformVendorRole, 'database'>, boolean>,
): Config['dora'] {
  const partyOf = (prefix: string): IctParty => {
    const variables = {
      name: `${prefix}_NAME`,
      lei: `${prefix}_LEI`,
      country: `${prefix}_COUNTRY`,
    };
    return {
      name: values[variables.name] ?? null,
      lei: values[variables.lei] ?? null,
      country: values[variables.country] ?? null,
      variables,
    };
  };
  const [operator, ...vendors] = DORA_PARTIES;
  return {
    operator: partyOf(operator.prefix),
    vendors: vendors.map(({ role, prefix }) => {
      const party = partyOf(prefix);
      return { role, inUse: role === 'database' ? party.name !== null : used[role], party };
    }),
  };
}

/**
 * MFA_REQUIRED_ROLES: role names separated by commas, or `none`. Unset, staging and production
 * require a second factor of the roles that see PPS numbers and run the platform; development
 * and test of none, so the development accounts sign in with their password alone.
 */
function requiredRolesOf(
  value: string | undefined,
  isDevelopmentLike: boolean,
  problems: string[],
): Role[] {
  if (value === undefined) return isDevelopmentLike ? [] : [...DEFAULT_SECOND_FACTOR_ROLES];
  if (value.trim().toLowerCase() === 'none') return [];
  const named = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const roles = named.filter(isRole);
  if (named.length === 0 || roles.length !== named.length) {
    problems.push(
      'MFA_REQUIRED_ROLES must be none or a comma-separated list of SuperAdmin, BrokerAdmin, BrokerUser, EmployerAdmin, EmployerUser, Member',
    );
  }
  return [...new Set(roles)];
}

/**
 * The AI provider. Development and test default to `none`, so nothing leaves the
 * machine unless asked; staging and production must name the provider, `none` included, so no
 * deployment sends data to one, or goes without, by omission. A named provider needs its key and
 * model (no default secret), and outside development a base URL must be https: the questions and
 * the scheme facts travel in it.
 */
function aiSettings(
  values: z.infer<typeof envSchema>,
  appEnv: AppEnv,
  isDevelopmentLike: boolean,
  problems: string[],
): AiProviderSettings | null {
  const name = values.AI_PROVIDER ?? (isDevelopmentLike ? 'none' : undefined);
  if (name === undefined) {
    problems.push(`AI_PROVIDER is required when APP_ENV is ${appEnv} (anthropic, openai or none)`);
    return null;
  }
  if (name === 'none') {
    for (const variable of ['AI_API_KEY', 'AI_MODEL', 'AI_BASE_URL'] as const) {
      if (values[variable] !== undefined) {
        problems.push(`${variable} must not be set when AI_PROVIDER is none`);
      }
    }
    return null;
  }
  if (values.AI_API_KEY === undefined)
    problems.push(`AI_API_KEY is required when AI_PROVIDER is ${name}`);
  if (values.AI_MODEL === undefined)
    problems.push(`AI_MODEL is required when AI_PROVIDER is ${name}`);
  if (!isDevelopmentLike && values.AI_BASE_URL?.startsWith('http:')) {
    problems.push(`AI_BASE_URL must use https when APP_ENV is ${appEnv}`);
  }
  return {
    name,
    apiKey: values.AI_API_KEY ?? '',
    model: values.AI_MODEL ?? '',
    baseUrl: values.AI_BASE_URL?.replace(/\/+$/, '') ?? null,
    timeoutMs: values.AI_TIMEOUT_MS,
    maxRetries: values.AI_MAX_RETRIES,
    retryBaseMs: values.AI_RETRY_BASE_MS,
  };
}

const STORAGE_URL_SHAPE =
  's3://<bucket>[/<prefix>][?endpoint=<url>&region=<region>&forcePathStyle=true]';
/** S3's bucket naming rules: 3 to 63 lower-case letters, digits, dots and hyphens. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;
const REGION = /^[a-z0-9-]{1,32}$/;

/**
 * Where documents' bytes live (docs/decisions/0063-documents-s3-back-end.md): DATA_DIR unless
 * STORAGE_URL names a bucket, with its credentials in STORAGE_ACCESS_KEY_ID and
 * STORAGE_SECRET_ACCESS_KEY (never in the URL, which is logged in errors and shown in docs). The
 * region defaults to eu-west-1 (Ireland), where the firms are. Outside development and test an
 * endpoint must be https: the bytes and the request signatures cross it.
 */
function storageSettings(
  values: z.infer<typeof envSchema>,
  appEnv: AppEnv,
  isDevelopmentLike: boolean,
  problems: string[],
): Config['documents']['storage'] {
  const accessKeyId = values.STORAGE_ACCESS_KEY_ID;
  const secretAccessKey = values.STORAGE_SECRET_ACCESS_KEY;
  if (!values.STORAGE_URL) {
    if (accessKeyId || secretAccessKey) {
      problems.push('STORAGE_ACCESS_KEY_ID and STORAGE_SECRET_ACCESS_KEY need STORAGE_URL');
    }
    return { kind: 'local' };
  }
  let url: URL;
  try {
    url = new URL(values.STORAGE_URL);
  } catch {
    problems.push(`STORAGE_URL must be ${STORAGE_URL_SHAPE}`);
    return { kind: 'local' };
  }
  // The prefix as written, before URL parsing folds `..` and `.` away: what the operator meant.
  const writtenPath =
    values.STORAGE_URL.replace(/^[a-z0-9]+:\/\/[^/?#]*/i, '').split(/[?#]/)[0] ?? '';
  const segments = writtenPath.split('/').filter(Boolean);
  const known = new Set(['endpoint', 'region', 'forcePathStyle']);
  const endpoint = url.searchParams.get('endpoint');
  const region = url.searchParams.get('region') ?? 'eu-west-1';
  const forcePathStyle = url.searchParams.get('forcePathStyle') ?? 'false';
  let endpointUrl: URL | null = null;
  try {
    endpointUrl = endpoint === null ? null : new URL(endpoint);
  } catch {
    endpointUrl = null;
  }
  if (
    url.protocol !== 's3:' ||
    url.username !== '' ||
    url.password !== '' ||
    url.port !== '' ||
    url.hash !== '' ||
    !BUCKET_NAME.test(url.hostname) ||
    !segments.every((segment) => PREFIX_SEGMENT.test(segment)) ||
    [...url.searchParams.keys()].some((key) => !known.has(key)) ||
    (endpoint !== null &&
      (endpointUrl === null ||
        !['http:', 'https:'].includes(endpointUrl.protocol) ||
        endpointUrl.username !== '' ||
        endpointUrl.password !== '')) ||
    !REGION.test(region) ||
    !['true', 'false'].includes(forcePathStyle)
  ) {
    problems.push(`STORAGE_URL must be ${STORAGE_URL_SHAPE}`);
    return { kind: 'local' };
  }
  if (!isDevelopmentLike && endpointUrl?.protocol === 'http:') {
    problems.push(`STORAGE_URL's endpoint must use https when APP_ENV is ${appEnv}`);
  }
  if (!accessKeyId || !secretAccessKey) {
    problems.push(
      'STORAGE_ACCESS_KEY_ID and STORAGE_SECRET_ACCESS_KEY are required with STORAGE_URL',
    );
    return { kind: 'local' };
  }
  return {
    kind: 's3',
    bucket: url.hostname,
    prefix: segments.map((segment) => `${segment}/`).join(''),
    region,
    endpoint: endpointUrl === null ? null : endpointUrl.toString(),
    forcePathStyle: forcePathStyle === 'true',
    accessKeyId,
    secretAccessKey,
  };
}

/**
 * The malware scanner (docs/decisions/0062-document-vault.md): clamd by its socket or its TCP address. Without one, uploads are
 * marked `unscanned`; that is allowed in development and test, and in staging and production only
 * when DOCUMENT_SCAN=off says so explicitly, so no deployment goes without a scanner by omission.
 */
function scannerSettings(
  values: z.infer<typeof envSchema>,
  appEnv: AppEnv,
  isDevelopmentLike: boolean,
  problems: string[],
): Config['documents']['scanner'] {
  if (values.CLAMD_SOCKET && values.CLAMD_HOST) {
    problems.push('CLAMD_SOCKET and CLAMD_HOST must not both be set');
    return null;
  }
  const scanner = values.CLAMD_SOCKET
    ? { socketPath: values.CLAMD_SOCKET }
    : values.CLAMD_HOST
      ? { host: values.CLAMD_HOST, port: values.CLAMD_PORT }
      : null;
  if (scanner && values.DOCUMENT_SCAN === 'off') {
    problems.push('DOCUMENT_SCAN=off must not be set together with CLAMD_SOCKET or CLAMD_HOST');
  }
  if (!scanner && !isDevelopmentLike && values.DOCUMENT_SCAN !== 'off') {
    problems.push(
      `CLAMD_SOCKET or CLAMD_HOST is required when APP_ENV is ${appEnv} (or DOCUMENT_SCAN=off to run without a malware scanner)`,
    );
  }
  return scanner;
}

/**
 * Development and test publish their accounts and send cookies without Secure, and with no
 * APP_ENV the service runs as development: such an instance must not be reachable from the
 * network (docs/decisions/0001-one-environment-schema.md). Only names that always mean this machine: `localhost`,
 * 127.0.0.0/8 and ::1 in any spelling.
 */
function isLoopback(host: string): boolean {
  if (host.toLowerCase() === 'localhost') return true;
  switch (isIP(host)) {
    case 4:
      return host.startsWith('127.');
    case 6:
      // Canonical form; an address with a zone (`%eth0`) does not parse and is refused.
      return URL.parse(`http://[${host}]/`)?.hostname === '[::1]';
    default:
      return false;
  }
}

/**
 * The migrator alone logs in as the owner: DATABASE_URL_UNPOOLED, or DATABASE_URL when only one
 * URL is given. The pool logs in as the runtime role, which owns nothing (docs/decisions/0040-runtime-database-login.md):
 * DATABASE_URL when it names another user, else that URL with the login
 * swapped for the runtime role (runtimeDatabaseUrl).
 */
function databaseSettings(
  values: z.infer<typeof envSchema>,
  dataDir: string,
  problems: string[],
): Config['database'] {
  if (!values.DATABASE_URL) return { kind: 'pglite', dataDir: path.join(dataDir, 'pglite') };
  const migrationUrl = values.DATABASE_URL_UNPOOLED ?? values.DATABASE_URL;
  let url = values.DATABASE_URL;
  try {
    url = runtimeDatabaseUrl(values.DATABASE_URL, migrationUrl, values.DATABASE_RUNTIME_PASSWORD);
  } catch (error) {
    problems.push((error as Error).message);
  }
  const bounds: ConnectionBounds = {
    statementTimeoutMs: values.DATABASE_STATEMENT_TIMEOUT_MS,
    lockTimeoutMs: values.DATABASE_LOCK_TIMEOUT_MS,
    idleInTransactionTimeoutMs: values.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    bulkStatementTimeoutMs: values.DATABASE_BULK_STATEMENT_TIMEOUT_MS,
  };
  if (bounds.bulkStatementTimeoutMs < bounds.statementTimeoutMs) {
    problems.push(
      'DATABASE_BULK_STATEMENT_TIMEOUT_MS must not be below DATABASE_STATEMENT_TIMEOUT_MS',
    );
  }
  if (bounds.lockTimeoutMs >= bounds.statementTimeoutMs) {
    problems.push('DATABASE_LOCK_TIMEOUT_MS must be below DATABASE_STATEMENT_TIMEOUT_MS');
  }
  if (values.UPLOADS_PER_TENANT >= values.DATABASE_POOL_SIZE) {
    problems.push('UPLOADS_PER_TENANT must be below DATABASE_POOL_SIZE');
  }
  return { kind: 'postgres', url, migrationUrl, poolSize: values.DATABASE_POOL_SIZE, bounds };
}

/** The ingest endpoint of a DSN already checked against SENTRY_DSN_SHAPE. */
function telemetryOf(dsn: string): { dsn: string; ingestUrl: URL } {
  const [, protocol, , host, port, projectId] = SENTRY_DSN_SHAPE.exec(dsn) as RegExpExecArray;
  const origin = `${protocol}://${host}${port ? `:${port}` : ''}`;
  return { dsn, ingestUrl: new URL(`/api/${projectId}/envelope/`, origin) };
}

const GENERATED_SECRETS_FILE = 'generated-secrets.json';

function resolveSecrets(
  values: Record<SecretName, string | undefined>,
  isDevelopmentLike: boolean,
  dataDir: string,
  problems: string[],
): Partial<Secrets> {
  const missing = SECRET_NAMES.filter((name) => values[name] === undefined);
  const generated = isDevelopmentLike && missing.length > 0 ? loadOrGenerate(dataDir, missing) : {};
  const secrets: Partial<Secrets> = {};
  for (const name of SECRET_NAMES) {
    const value = values[name] ?? generated[name];
    if (value === undefined) {
      problems.push(`${name} is required when APP_ENV is staging or production`);
      continue;
    }
    const check = secretSchemas[name].safeParse(value);
    if (!check.success) {
      problems.push(`${name} ${check.error.issues[0]?.message ?? 'is malformed'}`);
      continue;
    }
    secrets[name] = value;
  }
  return secrets;
}

/** Development secrets live in DATA_DIR (git-ignored) so sessions and encrypted data survive restarts. */
function loadOrGenerate(dataDir: string, missing: SecretName[]): Partial<Secrets> {
  const file = path.join(dataDir, GENERATED_SECRETS_FILE);
  const stored: Partial<Secrets> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  let changed = false;
  for (const name of missing) {
    if (stored[name] === undefined) {
      stored[name] = randomBytes(32).toString('hex');
      changed = true;
    }
  }
  if (changed) {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  }
  return stored;
}
