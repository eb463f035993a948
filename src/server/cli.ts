import path from 'node:path';
import {
  createSuperAdmin,
  passwordHasher,
  resealTotpSecrets,
  resetSuperAdminFactors,
  SYSTEM_ACTOR,
} from './modules/auth/index.js';
import { reapplyErasureLedger } from './modules/gdpr/index.js';
import { DEFAULT_BATCH_SIZE, ppsRotateCommand } from './modules/members/index.js';
import { auditChainKey } from './platform/audit/audit-chain.js';
import {
  chainsAreSound,
  createAuditService,
  sealCutoverOnUpgrade,
  verifyAuditChains,
} from './platform/audit/audit-log.js';
import { type Config, loadConfig } from './platform/config/config.js';
import { openDatabase } from './platform/db/database.js';
import { migrate } from './platform/db/migrator.js';
import { createMailer } from './platform/email/mailer.js';
import { createLogger, loggableMessage, stdoutDestination } from './platform/http/logger.js';
import { type BackupTarget, OpsError, restoreBackup, takeBackup } from './platform/ops/backup.js';
import { createFileErasureLedger } from './platform/ops/erasure-ledger.js';
import { openDocumentStorage } from './platform/storage/open-storage.js';

const USAGE = `Usage: npm run cli -- <command>

Commands:
  migrate                       apply pending database migrations
  audit:verify [--tenant <id>]  check the audit hash chains; exits 1 and names the first broken link
  create-superadmin <email>     add a SuperAdmin; the password is read from standard input
  second-factor:reset <email>   remove a SuperAdmin's second factors when they have lost them and
                                their recovery codes: every session ends, the holder is e-mailed
  pps:rotate [--batch-size N]   re-encrypt PPS numbers still under PPS_ENCRYPTION_KEY_PREVIOUS
                                with PPS_ENCRYPTION_KEY, N rows per transaction (default ${DEFAULT_BATCH_SIZE})
  rag:ingest <folder|manifest>  add public regulatory text to the AI corpus: a manifest.json, a
                                folder holding one, or a folder of .md, .html and .txt files
  backup <folder>               write the database (pg_dump) and the documents, with a manifest of
                                SHA-256 hashes, into a new or empty folder (docs/backups.md)
  restore <folder>              restore a backup into an empty database and document store, check
                                every hash, then verify the audit chains; exits 1 if any fails
`;

async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
}

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help') {
    process.stdout.write(USAGE);
    return command === undefined ? 1 : 0;
  }
  const config = loadConfig(process.env);
  if (command === 'backup' || command === 'restore') return backupOrRestore(command, rest, config);
  const database = await openDatabase(config.database);
  const chainKey = auditChainKey(config.secrets.AUDIT_CHAIN_KEY);
  try {
    switch (command) {
      case 'migrate': {
        const { applied, appliedTags } = await migrate(database);
        // As at start-up: the run that brings in the keyed chain seals the cut-over
        // (docs/decisions/0041-keyed-audit-chain.md).
        await sealCutoverOnUpgrade(database, chainKey, appliedTags);
        process.stdout.write(`Applied ${applied} migration(s); the schema is current.\n`);
        return 0;
      }
      case 'audit:verify': {
        const tenantFlag = rest.indexOf('--tenant');
        const tenantId = tenantFlag === -1 ? undefined : rest[tenantFlag + 1];
        // Read-only: it never writes a checkpoint, so a removed one stays visible here.
        const report = await verifyAuditChains(database, {
          keys: [chainKey],
          ...(tenantId ? { tenantId } : {}),
        });
        process.stdout.write(
          `Checked ${report.records} record(s) in ${report.chains} chain(s); cut-over checkpoint: ${report.checkpoint}.\n`,
        );
        if (report.checkpoint === 'forged') {
          process.stdout.write(
            'BROKEN checkpoint: its seal does not verify under AUDIT_CHAIN_KEY; no plain-hash record is believed\n',
          );
        }
        // The head a tenant's evidence pack names in its manifest (auditChain), to compare.
        if (tenantId) {
          const head = report.heads[tenantId];
          if (head) {
            process.stdout.write(
              `Head of chain ${tenantId}: position ${head.position}, record ${head.recordId}, hash ${head.hash}\n`,
            );
          }
        }
        for (const link of report.broken) {
          process.stdout.write(
            `BROKEN chain ${link.chainKey}: record ${link.recordId} at position ${link.chainIndex} (${link.fault.kind})\n`,
          );
        }
        return chainsAreSound(report) ? 0 : 1;
      }
      case 'create-superadmin': {
        const email = rest[0];
        if (!email) throw new Error('create-superadmin needs the e-mail address');
        const password = await readStandardInput();
        const audit = createAuditService({ now: () => new Date(), chainKey });
        await createSuperAdmin(database, audit, {
          email,
          password,
          onlyIfNone: false,
          hashPassword: passwordHasher(config.passwordHashCost),
        });
        process.stdout.write('SuperAdmin created.\n');
        return 0;
      }
      case 'second-factor:reset': {
        const email = rest[0];
        if (!email) throw new Error('second-factor:reset needs the e-mail address');
        const { outbox } = createMailer({
          config,
          database,
          now: () => new Date(),
          // Only the outbox is used: the running service's mail worker sends the notice.
          logger: createLogger(config.logLevel, stdoutDestination()),
        });
        await resetSuperAdminFactors(
          {
            database,
            audit: createAuditService({ now: () => new Date(), chainKey }),
            outbox,
            now: () => new Date(),
            publicBaseUrl: config.publicBaseUrl,
          },
          SYSTEM_ACTOR,
          email,
        );
        process.stdout.write(
          'Second factors removed and every session ended; the holder is e-mailed and sets one up at the next sign-in.\n',
        );
        return 0;
      }
      case 'pps:rotate': {
        const keys = {
          current: config.secrets.PPS_ENCRYPTION_KEY,
          previous: config.previousPpsEncryptionKey,
        };
        // Authenticator-app secrets are sealed under a key derived from the PPS key
        // (docs/decisions/0110-second-factor.md): they move to the new key with the PPS numbers.
        const totp = await resealTotpSecrets(database, keys);
        process.stdout.write(
          `Re-sealed ${totp.resealed} authenticator-app secret(s) under the current key.\n`,
        );
        if (totp.unopened > 0) {
          process.stderr.write(
            `${totp.unopened} authenticator-app secret(s) open under neither PPS_ENCRYPTION_KEY nor PPS_ENCRYPTION_KEY_PREVIOUS; they were left as they were.\n`,
          );
          return 1;
        }
        const sizeFlag = rest.indexOf('--batch-size');
        // Awaited here so the database stays open until the run ends (the finally below).
        return await ppsRotateCommand(
          database,
          createAuditService({ now: () => new Date(), chainKey }),
          {
            keys,
            actor: SYSTEM_ACTOR,
            batchSize: sizeFlag === -1 ? DEFAULT_BATCH_SIZE : Number(rest[sizeFlag + 1]),
          },
          {
            out: (line) => process.stdout.write(`${line}\n`),
            err: (line) => process.stderr.write(`${line}\n`),
          },
        );
      }
      case 'rag:ingest': {
        const target = rest[0];
        if (!target) throw new Error('rag:ingest needs a folder or a manifest file');
        // Loaded only for this command: the other commands start without the HTML parser.
        const { ragIngestCommand } = await import('./modules/rag/rag.cli.js');
        return await ragIngestCommand(
          database,
          createAuditService({ now: () => new Date(), chainKey }),
          target,
          {
            out: (line) => process.stdout.write(`${line}\n`),
            progress: (text) => process.stderr.write(text),
            interactive: process.stderr.isTTY === true,
          },
        );
      }
      default:
        process.stderr.write(`Unknown command: ${command}\n${USAGE}`);
        return 1;
    }
  } finally {
    await database.close();
  }
}

/**
 * `backup` and `restore` (docs/backups.md). Only for a PostgreSQL server: they run before any
 * database is opened, so that on the embedded database nothing is created or changed.
 */
async function backupOrRestore(
  command: 'backup' | 'restore',
  rest: string[],
  config: Config,
): Promise<number> {
  const folder = rest[0];
  if (!folder) throw new OpsError(`${command} needs the backup folder`);
  if (config.database.kind !== 'postgres') {
    throw new OpsError(
      `${command} is not supported on the embedded database (PGlite, used when DATABASE_URL is unset): it is for development only. Run the service on a PostgreSQL server (DATABASE_URL) for data worth backing up; a development database is recreated with migrate`,
    );
  }
  const target: BackupTarget = {
    ownerUrl: config.database.migrationUrl,
    documents:
      config.documents.storage.kind === 's3'
        ? { kind: 's3' }
        : { kind: 'local', root: config.documents.storageRoot },
  };
  const output = { out: (line: string) => process.stdout.write(`${line}\n`) };
  if (command === 'backup') {
    await takeBackup(target, path.resolve(folder), output);
    return 0;
  }
  await restoreBackup(target, path.resolve(folder), output);
  const database = await openDatabase(config.database);
  try {
    // Erased stays erased (docs/decisions/0149-retention-and-erasure.md): the restored database
    // is brought to this release's schema, as a start-up would, and every erasure in the ledger
    // that the backup predates is applied again before anyone is served.
    await migrate(database);
    const chainKey = auditChainKey(config.secrets.AUDIT_CHAIN_KEY);
    const { entries, reapplied } = await reapplyErasureLedger({
      database,
      audit: createAuditService({ now: () => new Date(), chainKey }),
      now: () => new Date(),
      storage: await openDocumentStorage(config.documents),
      ledger: createFileErasureLedger(config.erasureLedgerFile),
    });
    output.out(
      `Erasure ledger: ${entries} entr${entries === 1 ? 'y' : 'ies'}, ${reapplied} applied again.`,
    );
    // The restored chains, with the records of the erasures applied again, must verify:
    // `audit:verify`'s check.
    const report = await verifyAuditChains(database, {
      keys: [auditChainKey(config.secrets.AUDIT_CHAIN_KEY)],
    });
    const sound = chainsAreSound(report);
    process.stdout.write(
      `Audit chains: ${report.records} record(s) in ${report.chains} chain(s), checkpoint ${report.checkpoint}: ${sound ? 'sound' : `BROKEN (${report.broken.length} link(s)); run audit:verify for details`}.\n`,
    );
    return sound ? 0 : 1;
  } finally {
    await database.close();
  }
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // Never a database error's own message: it quotes the parameters of the failed statement.
    process.stderr.write(`${error instanceof Error ? loggableMessage(error) : 'unknown error'}\n`);
    process.exit(1);
  },
);
