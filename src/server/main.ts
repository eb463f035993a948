import { once } from 'node:events';
import type { Server } from 'node:http';
import { buildApp, createRateLimitStore, DEFAULT_WEB_ROOT } from './app.js';
import {
  createSuperAdmin,
  ensureDevelopmentAccounts,
  passwordHasher,
} from './modules/auth/index.js';
import { reapplyErasureLedger } from './modules/gdpr/index.js';
import { createCorpusIngest, ingestShippedCorpus } from './modules/rag/index.js';
import { auditChainKey } from './platform/audit/audit-chain.js';
import { createAuditService, sealCutoverOnUpgrade } from './platform/audit/audit-log.js';
import { ConfigError, loadConfig } from './platform/config/config.js';
import { openDatabase } from './platform/db/database.js';
import { migrate } from './platform/db/migrator.js';
import { assertDatabaseSafety, UnsafeDatabaseError } from './platform/db/safety-checks.js';
import { createLogger, stdoutDestination } from './platform/http/logger.js';
import { createHttpsRedirectServer } from './platform/http/redirect-server.js';
import { SHUTDOWN_DRAIN_MS, SHUTDOWN_GRACE_MS } from './platform/http/shutdown.js';
import { createFileErasureLedger } from './platform/ops/erasure-ledger.js';
import { openDocumentStorage } from './platform/storage/open-storage.js';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const logger = createLogger(config.logLevel, stdoutDestination());
  const database = await openDatabase(config.database);
  const { applied, appliedTags } = await migrate(database);
  if (applied > 0) logger.info({ applied }, 'database migrations applied');
  try {
    await assertDatabaseSafety(database);
  } catch (error) {
    if (error instanceof UnsafeDatabaseError) {
      process.stderr.write(`${error.message}\n`);
      await database.close();
      process.exit(1);
    }
    throw error;
  }

  const chainKey = auditChainKey(config.secrets.AUDIT_CHAIN_KEY);
  // Before any record is written, and only in the start-up that brought in the keyed chain: seals
  // the chains' plain-hash prefixes (docs/decisions/0041-keyed-audit-chain.md).
  if ((await sealCutoverOnUpgrade(database, chainKey, appliedTags)) === 'refused') {
    logger.error(
      'audit chain checkpoint is missing although keyed records exist: run audit:verify',
    );
  }
  const now = () => new Date();
  const audit = createAuditService({ now, chainKey });
  const hashPassword = passwordHasher(config.passwordHashCost);
  if (config.isDevelopmentLike) await ensureDevelopmentAccounts(database, audit, hashPassword);
  if (config.bootstrapSuperAdmin) {
    const outcome = await createSuperAdmin(database, audit, {
      ...config.bootstrapSuperAdmin,
      onlyIfNone: true,
      hashPassword,
    });
    if (outcome === 'created') logger.info('bootstrap SuperAdmin created');
  }
  await ingestShippedCorpus(createCorpusIngest({ database, audit, now }), logger);
  // Erased stays erased: every erasure in the ledger that this database lacks (it was restored
  // from a backup taken before it) is applied again before the port opens
  // (docs/decisions/0149-retention-and-erasure.md). A ledger that cannot be read stops start-up.
  const { reapplied } = await reapplyErasureLedger({
    database,
    audit,
    now,
    storage: await openDocumentStorage(config.documents),
    ledger: createFileErasureLedger(config.erasureLedgerFile),
  });
  if (reapplied > 0) logger.warn({ reapplied }, 'erasures applied again from the erasure ledger');

  const app = await buildApp({
    config,
    database,
    counters: await createRateLimitStore(config, logger),
    logger,
    now,
    pause: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    webRoot: DEFAULT_WEB_ROOT,
  });
  await app.listen({ port: config.port, host: config.host });

  let redirectServer: Server | null = null;
  if (config.tls?.httpRedirectPort) {
    redirectServer = createHttpsRedirectServer(config.publicBaseUrl);
    redirectServer.listen(config.tls.httpRedirectPort, config.host);
    await once(redirectServer, 'listening');
  }

  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `${config.tls ? 'https' : 'http'}://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${port}`;
  logger.info({ url, appEnv: config.appEnv, database: database.kind }, 'ready');
  if (config.isDevelopmentLike) process.stdout.write(`Pension admin is running at ${url}\n`);

  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: no new connections, finishing in-flight requests');
    const forceExit = setTimeout(() => {
      logger.error('shutdown grace period over: exiting with requests still open');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    forceExit.unref();
    if (signal === 'SIGTERM') {
      // A proxy's kept-alive connection closed by this side while idle can cross a request the
      // proxy is just sending on it, and nginx does not retry a POST it has sent. So each
      // connection is closed after an answer that says so first, and one that carries no request
      // during the drain is closed by nginx itself, whose idle timeout is shorter; the proxy then
      // opens new ones, and once this instance stops listening those are refused before anything
      // is sent, which nginx does retry on the other instance. Ctrl-C (SIGINT) stops at once.
      app.server.on('request', (_request, response) => response.setHeader('connection', 'close'));
      await new Promise((resolve) => setTimeout(resolve, SHUTDOWN_DRAIN_MS));
    }
    redirectServer?.close();
    await app.close();
    await database.close();
    logger.info('shut down cleanly');
    logger.flush(() => process.exit(0));
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}

main().catch((error: unknown) => {
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
  process.stderr.write(`Start-up failed: ${reason}\n`);
  process.exit(1);
});
