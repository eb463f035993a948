import {
  chainsAreSound,
  createAuditService,
  sealCutoverOnUpgrade,
  verifyAuditChains,
} from './audit/audit.service.js';
import { auditChainKey } from './audit/audit-chain.js';
import { createSuperAdmin, SYSTEM_ACTOR } from './auth/provisioning.js';
import { loadConfig } from './config/config.js';
import { openDatabase } from './db/database.js';
import { migrate } from './db/migrator.js';
import { loggableMessage } from './http/logger.js';
import { DEFAULT_BATCH_SIZE, ppsRotateCommand } from './modules/members/pps-rotation.js';

const USAGE = `Usage: npm run cli -- <command>

Commands:
  migrate                       apply pending database migrations
  audit:verify [--tenant <id>]  check the audit hash chains; exits 1 and names the first broken link
  create-superadmin <email>     add a SuperAdmin; the password is read from standard input
  pps:rotate [--batch-size N]   re-encrypt PPS numbers still under PPS_ENCRYPTION_KEY_PREVIOUS
                                with PPS_ENCRYPTION_KEY, N rows per transaction (default ${DEFAULT_BATCH_SIZE})
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
  const database = await openDatabase(config.database);
  const chainKey = auditChainKey(config.secrets.AUDIT_CHAIN_KEY);
  try {
    switch (command) {
      case 'migrate': {
        const { applied, appliedTags } = await migrate(database);
        // As at start-up: the run that brings in the keyed chain seals the cut-over
        // (decisions.md, "Keyed audit chain").
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
        await createSuperAdmin(database, audit, { email, password, onlyIfNone: false });
        process.stdout.write('SuperAdmin created.\n');
        return 0;
      }
      case 'pps:rotate': {
        const sizeFlag = rest.indexOf('--batch-size');
        // Awaited here so the database stays open until the run ends (the finally below).
        return await ppsRotateCommand(
          database,
          createAuditService({ now: () => new Date(), chainKey }),
          {
            keys: {
              current: config.secrets.PPS_ENCRYPTION_KEY,
              previous: config.previousPpsEncryptionKey,
            },
            actor: SYSTEM_ACTOR,
            batchSize: sizeFlag === -1 ? DEFAULT_BATCH_SIZE : Number(rest[sizeFlag + 1]),
          },
          {
            out: (line) => process.stdout.write(`${line}\n`),
            err: (line) => process.stderr.write(`${line}\n`),
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

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    // Never a database error's own message: it quotes the parameters of the failed statement.
    process.stderr.write(`${error instanceof Error ? loggableMessage(error) : 'unknown error'}\n`);
    process.exit(1);
  },
);
