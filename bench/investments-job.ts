import type * as Job from '../src/server/modules/investments/investments.job.js';
import type * as Chain from '../src/server/platform/audit/audit-chain.js';
import type * as Audit from '../src/server/platform/audit/audit-log.js';
import type * as Config from '../src/server/platform/config/config.js';
import type * as Db from '../src/server/platform/db/database.js';

/**
 * The investments job (docs/decisions/0127-dc-money.md) in a process of its own, for the month-end
 * benchmark (bench/investments.ts): the built service's code (dist/, as `npm start` runs it, with
 * the same Node.js flags), its configuration read from the environment as the server reads it,
 * one run of `settleEveryScheme`. Prints one line of JSON: the run's counts, its milliseconds,
 * and the process's resident memory at rest before it and at its peak (the kernel's high-water
 * mark, which covers the whole life of the process).
 *
 * Why not POST /api/cron/investments on the server: a run that takes more than the server's 60 s
 * idle connection timeout has its connection closed, and the job, which runs under the request's
 * signal of its client going away, is cancelled with it (docs/benchmarks.md, "DC money").
 *
 * Run by Node.js itself (its type stripping), not tsx: the code measured is dist/'s.
 */
const built = async <T>(file: string): Promise<T> =>
  (await import(new URL(`../dist/server/${file}`, import.meta.url).href)) as T;

const { loadConfig } = await built<typeof Config>('platform/config/config.js');
const { openDatabase } = await built<typeof Db>('platform/db/database.js');
const { createAuditService } = await built<typeof Audit>('platform/audit/audit-log.js');
const { auditChainKey } = await built<typeof Chain>('platform/audit/audit-chain.js');
const { settleEveryScheme } = await built<typeof Job>('modules/investments/investments.job.js');

const megabytes = () => process.resourceUsage().maxRSS / 1024;
const config = loadConfig(process.env);
const database = await openDatabase(config.database);
try {
  const now = () => new Date();
  const audit = createAuditService({
    now,
    chainKey: auditChainKey(config.secrets.AUDIT_CHAIN_KEY),
  });
  const restMb = megabytes();
  const started = performance.now();
  const run = await settleEveryScheme({ database, audit, now });
  const ms = performance.now() - started;
  process.stdout.write(`${JSON.stringify({ run, ms, restMb, peakMb: megabytes() })}\n`);
} finally {
  await database.close();
}
