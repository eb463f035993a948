import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyFormBody from '@fastify/formbody';
import fastifySwagger from '@fastify/swagger';
import Fastify from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import {
  aiRoutes,
  createAiAccess,
  createAiSettingsService,
  createChatService,
  createDraftsService,
  type Retrieve,
} from './modules/ai/index.js';
import {
  authGate,
  authRoutes,
  createAccountThrottle,
  createAuthService,
  createChallengeTokens,
  createDummyHash,
  createInvitationsService,
  createPasskeysService,
  createPasswordChangeService,
  createPasswordResetService,
  createSecondFactorService,
  createSignIns,
  createTotpSecretBox,
  mustSetUpSecondFactor,
  passwordHasher,
  passwordResetRoutes,
  secondFactorGate,
  secondFactorRoutes,
  sessionCookieName,
  tokenClaims,
} from './modules/auth/index.js';
import { cronRoutes, outboxJob } from './modules/cron/index.js';
import {
  createDocumentsService,
  createGeneratedDocuments,
  documentsRoutes,
  storageSweepJob,
} from './modules/documents/index.js';
import { createIctIncidentReminders, ictIncidentRemindersJob } from './modules/dora/index.js';
import {
  createDataProtectionReminders,
  createErasureService,
  dataProtectionRemindersJob,
  erasureJob,
  erasureRoutes,
} from './modules/gdpr/index.js';
import {
  createComplianceReminders,
  createEvidencePackService,
  evidencePackRoutes,
  remindersJob,
} from './modules/governance/index.js';
import { healthRoutes } from './modules/health/index.js';
import { importSweepJob } from './modules/imports/index.js';
import { investmentsJob } from './modules/investments/index.js';
import { createMetrics, metricsRoutes } from './modules/metrics/index.js';
import { createCorpusIngest, ragRoutes, retrieve as retrieveCorpus } from './modules/rag/index.js';
import { createStatementsModule, statementRunsJob } from './modules/statements/index.js';
import { auditChainKey } from './platform/audit/audit-chain.js';
import { createAuditService } from './platform/audit/audit-log.js';
import type { Config } from './platform/config/config.js';
import { createPpsKeyring } from './platform/crypto/pps-keyring.js';
import { createSealedBox } from './platform/crypto/sealed-box.js';
import type { Database } from './platform/db/database.js';
import { withCorpusReader } from './platform/db/with-actor.js';
import type { MailDelivery } from './platform/email/delivery.js';
import { createMailer } from './platform/email/mailer.js';
import routedPaths from './platform/http/api-paths.js';
import { apiReferenceTransform } from './platform/http/api-reference.js';
import bearerPrefixGates from './platform/http/bearer-gate.js';
import bodyDeadline, {
  BODY_DEADLINE_MS,
  UPLOAD_BODY_DEADLINE_MS,
} from './platform/http/body-deadline.js';
import clientGone from './platform/http/client-gone.js';
import errorHandler from './platform/http/error-handler.js';
import httpsRedirect from './platform/http/https-redirect.js';
import { AccessLogController, deferredChildLogger } from './platform/http/logger.js';
import { answerClientError, answerMalformedRequest } from './platform/http/malformed-request.js';
import {
  createMemoryStore,
  createRedisStore,
  type RateLimitStore,
} from './platform/http/rate-limit-store.js';
import rateLimits from './platform/http/rate-limits.js';
import routeActions from './platform/http/route-actions.js';
import sameOrigin from './platform/http/same-origin.js';
import { logSecurityEvent } from './platform/http/security-events.js';
import securityHeaders from './platform/http/security-headers.js';
import telemetryTunnel from './platform/http/telemetry-tunnel.js';
import { trustedProxies } from './platform/http/trusted-proxies.js';
import utf8JsonBody from './platform/http/utf8-json-body.js';
import webUi from './platform/http/web-ui.js';
import { zodResponseSerializer } from './platform/http/zod-serializer.js';
import { createCronMonitor } from './platform/jobs/cron-monitor.js';
import { createJobRunner, errorSummary } from './platform/jobs/job-runner.js';
import { createJobRuns } from './platform/jobs/job-runs.js';
import { createJobRegistry, type JobRegistry } from './platform/jobs/scheduled-jobs.js';
import { createFileErasureLedger } from './platform/ops/erasure-ledger.js';
import { openDocumentStorage } from './platform/storage/open-storage.js';
import { createUrlSigner } from './platform/storage/signed-urls.js';
import { createSessionTokens } from './platform/tenancy/session-token.js';
import { resources } from './resources.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The mail worker: operators and tests can ask it to send what is due now. */
    mailDelivery: MailDelivery;
    /** The jobs `POST /api/cron/<job>` runs (docs/decisions/0057-scheduled-jobs.md). */
    scheduledJobs: JobRegistry;
  }
}

export const DEFAULT_WEB_ROOT = fileURLToPath(new URL('../../dist/web', import.meta.url));

/** docs/api.md, "Requests and answers": 1 MiB. Uploads raise their own limit per route. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface AppDependencies {
  config: Config;
  database: Database;
  logger: Logger;
  now: () => Date;
  /** Where the rate limits and throttles count (createRateLimitStore); the app closes it. */
  counters: RateLimitStore;
  /** Waits; sign-in throttling slows attempts with it. */
  pause: (ms: number) => Promise<void>;
  webRoot: string;
  /**
   * Finds the passages a question needs. By default the regulatory corpus's full-text
   * retrieval (modules/rag/retrieval.data.ts); a test may give chat a fixed set of passages instead.
   */
  retrieve?: Retrieve;
}

/** Assembles the service from its parts; listening and shutdown belong to the caller. */
export async function buildApp({
  config,
  database,
  counters,
  logger,
  now,
  pause,
  webRoot,
  retrieve = (question) => withCorpusReader(database, (tx) => retrieveCorpus(tx, question)),
}: AppDependencies) {
  const app = Fastify({
    loggerInstance: logger,
    logController: new AccessLogController(),
    childLoggerFactory: deferredChildLogger,
    trustProxy: trustedProxies(config.trustProxy),
    bodyLimit: BODY_LIMIT_BYTES,
    // Explicit timeouts: slow clients cannot hold sockets open indefinitely. The request timeout
    // admits the slowest upload a route accepts; body-deadline holds every other body to 30 s.
    connectionTimeout: 60_000,
    requestTimeout: UPLOAD_BODY_DEADLINE_MS,
    // Longer than the usual 60 s idle timeout of load balancers, so they close first.
    keepAliveTimeout: 72_000,
    // While shutting down, a request that reaches the instance on a connection already open (a
    // proxy's kept-alive one) is served and the connection closed after it, not refused: nginx
    // does not pass a refused POST to the other instance, so a rolling restart would answer the
    // client 503 (docs/faults.md, "Rolling restart"; docs/decisions/0009-timeouts-shutdown-and-drain.md).
    return503OnClosing: false,
    requestIdHeader: false,
    routerOptions: { maxParamLength: 256 },
    frameworkErrors: answerMalformedRequest,
    clientErrorHandler: answerClientError,
    ...(config.tls
      ? {
          https: {
            cert: readFileSync(config.tls.certFile),
            key: readFileSync(config.tls.keyFile),
            minVersion: 'TLSv1.3' as const,
          },
        }
      : {}),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(zodResponseSerializer);

  const sessionTokens = createSessionTokens({ secret: config.secrets.AUTH_SECRET, now });
  const hashPassword = passwordHasher(config.passwordHashCost);
  const auth = createAuthService({
    database,
    tokens: sessionTokens,
    acceptDevelopmentAccounts: config.isDevelopmentLike,
    dummyHash: createDummyHash(config.passwordHashCost),
    now,
  });
  const requiredSecondFactorRoles = new Set(config.secondFactor.requiredRoles);

  // First: every hook that decides by path reads the one classification it keeps (api-paths.ts).
  await app.register(routedPaths);
  // Before every hook that may reach the database: a request's database work is cancelled when
  // its client goes away (docs/decisions/0085).
  await app.register(clientGone);
  // First, so that its response hook times every request, refused ones included.
  await app.register(metricsRoutes, {
    metrics: createMetrics({ database, logger }),
    secret: config.secrets.METRICS_SECRET,
    store: counters,
  });
  await app.register(securityHeaders);
  if (!config.isDevelopmentLike) {
    await app.register(httpsRedirect, { publicBaseUrl: config.publicBaseUrl });
  }
  const audit = createAuditService({
    now,
    chainKey: auditChainKey(config.secrets.AUDIT_CHAIN_KEY),
  });
  const mailer = createMailer({ config, database, now, logger });
  // Before the session gate and any body: every target under /api/cron/ and /api/rag/, routed or
  // not, answers 401 without its bearer (bearer-gate.ts).
  await app.register(bearerPrefixGates, {
    store: counters,
    secrets: { cron: config.secrets.CRON_SECRET, rag: config.secrets.RAG_INGEST_SECRET },
  });
  app.decorate('mailDelivery', mailer.delivery);
  app.addHook('onReady', async () => mailer.delivery.start());
  app.addHook('onClose', () => mailer.delivery.stop());
  // No parsing hook: only the gate reads a cookie, and it parses the header when there is one.
  await app.register(fastifyCookie, { hook: false });
  // The gate in three steps, in this order: whose token it is (no database), the rate limits
  // (signed-in traffic counted per user, docs/api.md "Rate limits"), then the session checked and
  // admitted.
  await app.register(tokenClaims, {
    verifyToken: (token) => auth.verifyToken(token),
    cookieName: sessionCookieName(!config.isDevelopmentLike),
  });
  await app.register(rateLimits, { store: counters, now });
  await app.register(authGate, {
    confirm: (claims) => auth.confirm(claims),
    admit: (claims) => auth.admit(claims),
    forget: (userId) => auth.forget(userId),
  });
  // Right after the gate: an account that must set up a second factor reaches nothing else.
  await app.register(secondFactorGate, { requiredRoles: requiredSecondFactorRoles });
  await app.register(utf8JsonBody);
  await app.register(fastifyFormBody, { bodyLimit: BODY_LIMIT_BYTES });
  await app.register(bodyDeadline, { defaultMs: BODY_DEADLINE_MS });
  // Before any route: it attaches its check to each state-changing route as the route is added.
  await app.register(sameOrigin, { publicBaseUrl: config.publicBaseUrl });
  await app.register(errorHandler);
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Pension scheme administration API', version: '0.1.0' },
    },
    transform: apiReferenceTransform,
  });

  // Before any route: it refuses a protected route that names no action of the policy table.
  await app.register(routeActions);

  await app.register(healthRoutes, { database });
  const signIns = createSignIns({
    challenges: createChallengeTokens({ secret: config.secrets.AUTH_SECRET, now }),
    database,
    outbox: mailer.outbox,
    now,
    publicBaseUrl: config.publicBaseUrl,
    secureCookies: !config.isDevelopmentLike,
    onEmailQueued: mailer.delivery.nudge,
  });
  await app.register(authRoutes, {
    signIns,
    mustSetUpSecondFactor: (session) => mustSetUpSecondFactor(requiredSecondFactorRoles, session),
    auth,
    invitations: createInvitationsService({ database, audit, counters, now, hashPassword }),
    passwordChange: createPasswordChangeService({
      database,
      audit,
      outbox: mailer.outbox,
      counters,
      now,
      publicBaseUrl: config.publicBaseUrl,
      onEmailQueued: mailer.delivery.nudge,
      hashPassword,
    }),
    throttle: createAccountThrottle(counters, pause),
    secureCookies: !config.isDevelopmentLike,
    now,
  });
  // A second factor at sign-in (docs/decisions/0110-second-factor.md, 0111-passkeys.md).
  await app.register(secondFactorRoutes, {
    auth,
    secondFactor: createSecondFactorService({
      database,
      audit,
      outbox: mailer.outbox,
      counters,
      now,
      publicBaseUrl: config.publicBaseUrl,
      box: createTotpSecretBox({
        current: config.secrets.PPS_ENCRYPTION_KEY,
        previous: config.previousPpsEncryptionKey,
      }),
      requiredRoles: requiredSecondFactorRoles,
      onEmailQueued: mailer.delivery.nudge,
    }),
    passkeys: createPasskeysService({
      database,
      audit,
      outbox: mailer.outbox,
      counters,
      now,
      publicBaseUrl: config.publicBaseUrl,
      onEmailQueued: mailer.delivery.nudge,
    }),
    signIns,
    now,
  });

  await app.register(passwordResetRoutes, {
    passwordReset: createPasswordResetService({
      database,
      audit,
      outbox: mailer.outbox,
      counters,
      now,
      publicBaseUrl: config.publicBaseUrl,
      acceptDevelopmentAccounts: config.isDevelopmentLike,
      onEmailQueued: mailer.delivery.nudge,
      hashPassword,
    }),
    pause,
  });

  // Documents (docs/decisions/0062-document-vault.md): bytes on the local file system under
  // DATA_DIR or in an S3 bucket (STORAGE_URL), scanned by clamd where one is configured, served
  // through signed URLs only.
  // The S3 SDK, the scanner's client and (below) the AI SDK are imported only where configured:
  // an instance that does not use them does not carry them in memory
  // (docs/decisions/0079-lazy-loading-for-idle-memory.md).
  const documentStorage = await openDocumentStorage(config.documents);
  // Pension Benefit Statements (docs/decisions/0141-pension-benefit-statements.md): issued
  // statements are kept as the members' own documents; runs are worked in the background and
  // stopped between statements when the instance closes, to be resumed by the next. Made before
  // the API's modules, as the member page lists a member's statements; its routes come below.
  const statements = createStatementsModule({
    database,
    audit,
    now,
    outbox: mailer.outbox,
    onEmailQueued: mailer.delivery.nudge,
    publicBaseUrl: config.publicBaseUrl,
    documents: createGeneratedDocuments({ audit, storage: documentStorage }),
    onWorkFailed: (error) =>
      app.log.error({ statementRun: errorSummary(error) }, 'statement run stopped by an error'),
  });
  await app.register(resources, {
    database,
    audit,
    ppsKeyring: createPpsKeyring({
      current: config.secrets.PPS_ENCRYPTION_KEY,
      previous: config.previousPpsEncryptionKey,
    }),
    dataDir: config.dataDir,
    outbox: mailer.outbox,
    now,
    publicBaseUrl: config.publicBaseUrl,
    onEmailQueued: mailer.delivery.nudge,
    uploadsPerTenant: config.uploadsPerTenant,
    hashPassword,
    statementRuns: statements.services.runs,
    ictSupplyChain: config.dora,
  });

  // Documents (docs/decisions/0062-document-vault.md): served through signed URLs only; the store
  // itself is opened above, as the statements keep issued statements in it.
  const scanner = config.documents.scanner
    ? (await import('./platform/storage/clamd.js')).createClamdScanner(config.documents.scanner)
    : null;
  const signer = createUrlSigner({
    current: config.documents.urlKey,
    previous: config.documents.previousUrlKey,
    now,
  });
  await app.register(documentsRoutes, {
    documents: createDocumentsService({
      database,
      audit,
      now,
      storage: documentStorage,
      scanner,
      signer,
      publicBaseUrl: config.publicBaseUrl,
    }),
    signer,
  });
  // Erasure (docs/decisions/0149-retention-and-erasure.md): it removes an erased member's
  // documents from the store, and records each erasure in the ledger outside the database.
  const erasureDeps = {
    database,
    audit,
    now,
    storage: documentStorage,
    ledger: createFileErasureLedger(config.erasureLedgerFile),
  };
  await app.register(erasureRoutes, { erasure: createErasureService(erasureDeps) });
  await app.register(statements.routes);
  app.addHook('onClose', () => statements.services.worker.stop());
  await app.register(evidencePackRoutes, {
    evidencePack: createEvidencePackService({
      database,
      audit,
      now,
      storage: documentStorage,
      servesUnscanned: scanner === null,
    }),
  });

  // AI (docs/decisions/0066-ai-provider-guard-and-chat.md): every provider request
  // passes the guard in the provider's fetch; with AI_PROVIDER=none nothing is sent anywhere.
  const aiProvider = config.ai.provider
    ? (await import('./modules/ai/ai-provider.client.js')).createAiProvider(config.ai.provider, {
        secrets: Object.values(config.secrets),
        onFailure: (failure) => app.log.error({ aiProvider: failure }, 'ai provider unavailable'),
      })
    : null;
  const keyBox = createSealedBox(Buffer.from(config.ai.encryptionKey, 'hex'));
  const aiAccess = createAiAccess({
    database,
    now,
    keyBox,
    platformKey: config.ai.provider?.apiKey ?? null,
    defaultLimits: config.ai.defaultLimits,
  });
  const alert = (
    event: 'ai.outgoing_refused' | 'ai.citation_refused',
    details: { userId: string; reason: string },
  ) => logSecurityEvent(app.log, event, details);
  await app.register(aiRoutes, {
    chat: createChatService({
      retrieve,
      provider: aiProvider,
      access: aiAccess,
      secrets: Object.values(config.secrets),
      alert,
      log: app.log,
    }),
    settings: createAiSettingsService({
      database,
      audit,
      now,
      keyBox,
      defaultLimits: config.ai.defaultLimits,
      provider: config.ai.provider?.name ?? 'none',
      fourEyesByDefault: config.appEnv !== 'development',
    }),
    drafts: createDraftsService({
      database,
      fourEyesByDefault: config.appEnv !== 'development',
      audit,
      now,
      provider: aiProvider,
      access: aiAccess,
      alert,
      documents: createGeneratedDocuments({ audit, storage: documentStorage }),
    }),
  });

  // Scheduled jobs: one entry per job (docs/decisions/0057-scheduled-jobs.md).
  const scheduledJobs = createJobRegistry();
  scheduledJobs.add(outboxJob(mailer.delivery));
  scheduledJobs.add(
    remindersJob(
      createComplianceReminders({
        database,
        outbox: mailer.outbox,
        now,
        publicBaseUrl: config.publicBaseUrl,
        onEmailQueued: mailer.delivery.nudge,
      }),
    ),
  );
  scheduledJobs.add(
    dataProtectionRemindersJob(
      createDataProtectionReminders({
        database,
        outbox: mailer.outbox,
        now,
        publicBaseUrl: config.publicBaseUrl,
        onEmailQueued: mailer.delivery.nudge,
      }),
    ),
  );
  scheduledJobs.add(
    ictIncidentRemindersJob(
      createIctIncidentReminders({
        database,
        outbox: mailer.outbox,
        now,
        publicBaseUrl: config.publicBaseUrl,
        onEmailQueued: mailer.delivery.nudge,
      }),
    ),
  );
  scheduledJobs.add(storageSweepJob({ database, storage: documentStorage, scanner, now }));
  scheduledJobs.add(importSweepJob({ database, audit, now }));
  scheduledJobs.add(investmentsJob({ database, audit, now }));
  scheduledJobs.add(erasureJob(erasureDeps));
  scheduledJobs.add(statementRunsJob(statements.services.worker));
  app.decorate('scheduledJobs', scheduledJobs);
  await app.register(cronRoutes, {
    jobs: scheduledJobs,
    runJob: createJobRunner({
      runs: createJobRuns({ database, now }),
      monitor: createCronMonitor({
        telemetry: config.telemetry,
        environment: config.appEnv,
        now,
        logger,
      }),
      logger,
      now,
    }),
    now,
  });

  // The regulatory corpus's ingest (docs/decisions/0069-regulatory-corpus-and-retrieval.md).
  await app.register(ragRoutes, {
    ingest: createCorpusIngest({ database, audit, now }),
  });

  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.register(telemetryTunnel, { telemetry: config.telemetry, store: counters });
  await app.register(webUi, { root: webRoot, telemetryDsn: config.telemetry?.dsn ?? null });

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;

/** Counters shared by every instance in Redis where REDIS_URL is set, else in this process. */
export async function createRateLimitStore(
  config: Config,
  logger: Logger,
): Promise<RateLimitStore> {
  if (!config.redisUrl) return createMemoryStore();
  return createRedisStore(
    await connectRedis(config.redisUrl, logger),
    logger.child({ component: 'rate-limits' }),
  );
}

/** Loaded only when REDIS_URL is set: an instance without Redis carries no client. */
async function connectRedis(url: string, logger: Logger): Promise<Redis> {
  const { Redis } = await import('ioredis');
  // Commands fail at once while disconnected instead of queueing behind an outage. RESP2: the
  // counters' one script needs nothing RESP3 adds, and RESP2 is what every Redis and Redis proxy
  // speaks (ioredis 6 would otherwise refuse servers without HELLO, such as Redis 5).
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    protocol: 2,
  });
  redis.on('error', (error) => logger.warn({ err: error }, 'redis connection error'));
  // Requests served before the connection is up would go uncounted: wait for it, briefly.
  const ready = await Promise.race([
    new Promise<boolean>((resolve) => redis.once('ready', () => resolve(true))),
    new Promise<boolean>((resolve) =>
      setTimeout(() => resolve(false), REDIS_CONNECT_WAIT_MS).unref(),
    ),
  ]);
  if (!ready)
    logger.error(
      'redis not reachable at start-up: each limit is counted by this instance alone until it is',
    );
  return redis;
}

const REDIS_CONNECT_WAIT_MS = 2_000;
