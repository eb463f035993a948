import { createId } from '@paralleldrive/cuid2';
import { dataIssueWords } from '../../../contracts/statement-rules.js';
import {
  type RunIssue,
  runMadeNothing,
  type StatementFigures,
} from '../../../contracts/statements.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/database.js';
import { brokers } from '../../platform/db/schema.js';
import {
  type Transaction,
  withPlatformReadOnly,
  withTenantRole,
} from '../../platform/db/with-actor.js';
import { SYSTEM_ACTOR } from '../auth/index.js';
import { findAssumptions } from './assumptions.data.js';
import {
  findMember,
  findRun,
  findStatement,
  firmName,
  insertPendingStatements,
  membersOwedStatements,
  pendingStatements,
  type RunRow,
  runsToResume,
  schemeOf,
  statementCounts,
  updateRun,
  updateStatement,
} from './runs.data.js';
import { type RunContext, statementFor } from './statement-figures.service.js';

/** How long a run is one instance's without word from it: after this, another may resume it. */
export const RUN_LEASE_MS = 2 * 60_000;
/** Statements read at a time from a run's queue. */
const BATCH = 50;
/**
 * Statements made at the same time: while one waits for the database, the other's PDF is drawn
 * (docs/decisions/0141-pension-benefit-statements.md, "Speed"). Two connections of the pool at
 * most; more would only queue for the one core JavaScript runs on.
 */
const AT_ONCE = 2;

export interface StatementWorkerDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
  /** Renders a statement's PDF: the run checks every statement renders before it is ready. */
  render: (figures: StatementFigures) => Promise<Buffer>;
}

/**
 * Makes a run's statements (docs/decisions/0141-pension-benefit-statements.md), in the background
 * after the answer to the request that queued it, as the service itself inside the run's tenant.
 * A run is claimed under a lease; its members are checked and their statements queued once; each
 * statement is made in a transaction of its own, the run's counts with it, so a run stopped at
 * any point (an instance shut down, or gone) is resumed where it stopped and no statement is made
 * twice. Between statements the worker yields, so requests are served meanwhile.
 */
export function createStatementWorker({ database, audit, now, render }: StatementWorkerDeps) {
  let stopping = false;
  const working = new Set<Promise<void>>();

  /** Takes the run if it is queued or its lease has run out; null when it is not this one's. */
  async function claim(brokerId: string, runId: string): Promise<RunRow | null> {
    return withTenantRole(database, brokerId, async (tx) => {
      const run = await findRun(tx, runId, { forUpdate: true });
      if (run === undefined) return null;
      const at = now();
      const free =
        run.status === 'queued' ||
        (run.status === 'running' && (run.leaseUntil === null || run.leaseUntil <= at));
      if (!free) return null;
      return updateRun(tx, run, {
        status: 'running',
        leaseUntil: new Date(at.getTime() + RUN_LEASE_MS),
        updatedAt: at,
      });
    });
  }

  async function contextOf(tx: Transaction, run: RunRow): Promise<RunContext> {
    const scheme = await schemeOf(tx, { brokerId: run.brokerId, id: run.schemeId });
    const assumptions = await findAssumptions(tx, run.assumptionsId);
    if (scheme === undefined || assumptions === undefined) {
      throw new Error('a run names a scheme or assumption set it cannot read');
    }
    return {
      brokerId: run.brokerId,
      firm: await firmName(tx, run.brokerId),
      scheme: {
        id: scheme.id,
        name: scheme.name,
        type: scheme.type as RunContext['scheme']['type'],
        normalRetirementAge: scheme.normalRetirementAge,
        accrualRate: scheme.accrualRate,
        fundingLevelBasisPoints: scheme.fundingLevelBasisPoints,
        defaultFundId: scheme.defaultFundId,
      },
      informationDate: run.informationDate,
      assumptions,
    };
  }

  /**
   * The run's members checked and their statements queued, once: a run that has its queue (a
   * resumed one) keeps it. A member whose data fails a check is listed with what failed and gets
   * no statement in this run.
   */
  async function prepare(run: RunRow): Promise<void> {
    await withTenantRole(database, run.brokerId, async (tx) => {
      const counts = await statementCounts(tx, run);
      if (Object.keys(counts).length > 0 || run.issues.length > 0) return;
      const context = await contextOf(tx, run);
      const issues: RunIssue[] = [];
      const owed: string[] = [];
      for (const member of await membersOwedStatements(tx, {
        brokerId: run.brokerId,
        id: run.schemeId,
      })) {
        const outcome = await statementFor(tx, context, member);
        if (outcome.kind === 'issues') {
          issues.push({
            memberId: member.id,
            issues: outcome.issues,
            words: outcome.issues.map((issue) => dataIssueWords(issue, run.informationDate)),
          });
        } else owed.push(member.id);
      }
      const at = now();
      await insertPendingStatements(
        tx,
        owed.map((memberId) => ({
          brokerId: run.brokerId,
          id: createId(),
          runId: run.id,
          employerId: run.employerId,
          schemeId: run.schemeId,
          memberId,
          informationDate: run.informationDate,
          status: 'pending',
          createdAt: at,
          updatedAt: at,
        })),
      );
      await updateRun(tx, run, { total: owed.length, issues, updatedAt: at });
      await audit.record(tx, SYSTEM_ACTOR, {
        action: 'statement_run.checked',
        entityType: 'statement_run',
        entityId: run.id,
        tenantId: run.brokerId,
        previousState: null,
        newState: { id: run.id, total: owed.length, membersWithIssues: issues.length },
      });
    });
  }

  /** Makes one statement, if it is still pending: its figures, its PDF checked, the run's count. */
  async function make(run: RunRow, context: RunContext, statementId: string): Promise<void> {
    await withTenantRole(database, run.brokerId, async (tx) => {
      const statement = await findStatement(tx, statementId, { forUpdate: true });
      if (statement === undefined || statement.status !== 'pending') return;
      const member = await findMember(tx, { brokerId: run.brokerId, id: statement.memberId });
      const outcome = member ? await statementFor(tx, context, member) : null;
      const at = now();
      const lease = new Date(at.getTime() + RUN_LEASE_MS);
      // The run's row is locked only to count, at the end: the statements made at the same time
      // wait for each other only for that instant, and none's count is lost.
      const counted = () => findRun(tx, run.id, { forUpdate: true }) as Promise<RunRow>;
      if (outcome === null || outcome.kind === 'issues') {
        await updateStatement(tx, statement, { status: 'failed', updatedAt: at });
        const current = await counted();
        await updateRun(tx, run, { failed: current.failed + 1, leaseUntil: lease, updatedAt: at });
        return;
      }
      const pdf = await render(outcome.figures);
      await updateStatement(tx, statement, {
        status: 'made',
        figures: outcome.figures,
        pdfBytes: pdf.length,
        updatedAt: at,
      });
      const current = await counted();
      await updateRun(tx, run, { done: current.done + 1, leaseUntil: lease, updatedAt: at });
    });
  }

  /** Marks the run ready once nothing is pending. */
  async function finish(run: RunRow): Promise<void> {
    await withTenantRole(database, run.brokerId, async (tx) => {
      const current = await findRun(tx, run.id, { forUpdate: true });
      if (current === undefined || current.status !== 'running') return;
      const at = now();
      const ready = await updateRun(tx, current, {
        status: 'ready',
        leaseUntil: null,
        updatedAt: at,
      });
      // A run that made no statement has nothing for the trustees (runMadeNothing): it is
      // recorded as what it is, not as ready for them.
      await audit.record(tx, SYSTEM_ACTOR, {
        action: runMadeNothing({ status: 'ready', done: ready.done })
          ? 'statement_run.none_made'
          : 'statement_run.ready',
        entityType: 'statement_run',
        entityId: run.id,
        tenantId: run.brokerId,
        previousState: null,
        newState: { id: run.id, total: ready.total, done: ready.done, failed: ready.failed },
      });
    });
  }

  /** Gives the run back when stopping: the next worker need not wait for the lease to run out. */
  async function release(run: RunRow): Promise<void> {
    await withTenantRole(database, run.brokerId, (tx) =>
      updateRun(tx, run, { leaseUntil: null, updatedAt: now() }),
    );
  }

  async function work(brokerId: string, runId: string): Promise<void> {
    const run = await claim(brokerId, runId);
    if (run === null) return;
    await prepare(run);
    const context = await withTenantRole(database, brokerId, (tx) => contextOf(tx, run));
    for (;;) {
      if (stopping) {
        await release(run);
        return;
      }
      const batch = await withTenantRole(database, brokerId, (tx) =>
        pendingStatements(tx, run, BATCH),
      );
      if (batch.length === 0) break;
      const queue = batch.map((statement) => statement.id);
      await Promise.all(
        Array.from({ length: AT_ONCE }, async () => {
          for (let id = queue.shift(); id !== undefined && !stopping; id = queue.shift()) {
            await make(run, context, id);
            // Yields to the requests waiting: the run is long, they are short.
            await new Promise((resolve) => setImmediate(resolve));
          }
        }),
      );
    }
    await finish(run);
  }

  return {
    /** Works on a run until it is ready, it is another's, or the worker is stopped. */
    process(brokerId: string, runId: string): Promise<void> {
      if (stopping) return Promise.resolve();
      const running = work(brokerId, runId).finally(() => working.delete(running));
      working.add(running);
      return running;
    },

    /** Every run that is queued or whose instance stopped, in every tenant (the resume job). */
    async resumeAll(): Promise<number> {
      const tenants = await withPlatformReadOnly(database, (tx) =>
        tx.select({ id: brokers.id }).from(brokers).orderBy(brokers.id),
      );
      let resumed = 0;
      for (const tenant of tenants) {
        const runs = await withTenantRole(database, tenant.id, (tx) => runsToResume(tx, now()));
        for (const run of runs) {
          resumed += 1;
          await this.process(tenant.id, run.id);
        }
      }
      return resumed;
    },

    /** Stops between statements and gives each run back; resolves once every run has stopped. */
    async stop(): Promise<void> {
      stopping = true;
      await Promise.allSettled([...working]);
    },
  };
}
export type StatementWorker = ReturnType<typeof createStatementWorker>;
