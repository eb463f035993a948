import type { RecordedActor } from '../tenancy/actor.js';
import type { SessionCheck } from '../tenancy/session-token.js';
import type { Database, Transaction } from './database.js';
import { isSessionEnded, SessionEndedError, sessionCheckSql } from './session-check.js';

export type { Transaction };

/**
 * Steps a transaction runs last, after its work and right before COMMIT (the audit chain's
 * append: the chain position is taken as late as possible so the per-chain
 * lock is held only for the instant before commit). Only the openers below create these, so a
 * step cannot be queued on a transaction that would never run it. One object per transaction:
 * on a server the query builder handed to `work` belongs to the pooled connection and is the
 * same object in every transaction that connection serves.
 */
export interface FinalSteps {
  /** Queues `step`; throws once the final steps have begun. */
  add(step: (tx: Transaction) => Promise<void>): void;
}

const openTransactions = new WeakMap<Transaction, FinalSteps>();

export class TransactionNotFinishableError extends Error {
  override name = 'TransactionNotFinishableError';
}

/**
 * The final steps of the transaction `tx` is running now. Throws when `tx` is not inside a
 * transaction opened here (nothing would run the steps), for instance after it committed.
 */
export function finalStepsOf(tx: Transaction): FinalSteps {
  const final = openTransactions.get(tx);
  if (!final) {
    throw new TransactionNotFinishableError(
      'not inside a transaction opened by withActor or its siblings, so nothing would run its final steps',
    );
  }
  return final;
}

/** Every transaction of the service goes through here: work, then the final steps, then COMMIT. */
function transactionWithFinalSteps<T>(
  database: Database,
  prelude: readonly string[],
  work: (tx: Transaction) => Promise<T>,
  onPreludeRan?: () => void,
): Promise<T> {
  return database.transaction(
    prelude,
    async (tx) => {
      const steps: ((tx: Transaction) => Promise<void>)[] = [];
      let running = false;
      openTransactions.set(tx, {
        add(step) {
          if (running)
            throw new TransactionNotFinishableError('this transaction is already committing');
          steps.push(step);
        },
      });
      try {
        const result = await work(tx);
        running = true;
        for (const step of steps) await step(tx);
        return result;
      } finally {
        openTransactions.delete(tx);
      }
    },
    onPreludeRan,
  );
}

/** The statement that drops a transaction to one of the restricted roles. */
type RestrictedRole =
  | 'pension_app'
  | 'pension_platform'
  | 'pension_auth'
  | 'pension_mailer'
  | 'pension_scheduler'
  | 'pension_cron';
const roleStatement = (role: RestrictedRole) => `select set_config('role', '${role}', true)`;

/** A transaction as one restricted role and nothing else: the openers below with no actor. */
function withRole<T>(
  database: Database,
  role: RestrictedRole,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return transactionWithFinalSteps(database, [roleStatement(role)], work);
}

/**
 * The only way services reach tenant data. An actor without a tenant (SuperAdmin, or an anonymous
 * request about a platform account) works as the platform role. One transaction, in which the connection drops to
 * the restricted role and carries the actor's tenant, so row-level security filters every
 * query even when the service forgets to. Both settings are transaction-local: nothing leaks to
 * the next request that gets the same pooled connection.
 *
 * An actor whose request still owes its session check (session-check.ts) has it made by the same
 * statement that sets the role and tenant: `app_session_check` in its FROM clause raises for a
 * session that no longer holds, which aborts the batch before any statement of `work` runs, and
 * the request is answered 401 (docs/decisions/0060-request-path-one-round-trip.md).
 */
export function withActor<T>(
  database: Database,
  actor: RecordedActor,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  const check: SessionCheck | undefined = actor.role === 'Anonymous' ? undefined : actor.session;
  if (check?.state === 'refused') return Promise.reject(new SessionEndedError());
  const pending = check?.state === 'pending' ? check : undefined;
  let prelude: string;
  try {
    const settings =
      actor.tenantId === null
        ? "set_config('role', 'pension_platform', true)"
        : tenantSettings(actor.tenantId);
    prelude = pending
      ? `select ${settings} from ${sessionCheckSql(pending)}`
      : `select ${settings}`;
  } catch (error) {
    return Promise.reject(error);
  }
  if (!pending) return transactionWithFinalSteps(database, [prelude], work);
  return transactionWithFinalSteps(database, [prelude], work, () => {
    pending.state = 'confirmed';
  }).catch((error: unknown) => {
    if (isSessionEnded(error)) {
      pending.state = 'refused';
      throw new SessionEndedError();
    }
    throw error;
  });
}

/** The tenant role and its tenant, as the settings of a prelude's SELECT. */
function tenantSettings(tenantId: string): string {
  return `set_config('role', 'pension_app', true), set_config('app.tenant_id', ${tenantLiteral(tenantId)}, true)`;
}

/**
 * The tenant id as an SQL literal for the prelude, which travels without parameters. Tenant ids
 * come from verified sessions and our own rows, and are plain identifiers; anything else is
 * refused rather than escaped.
 */
function tenantLiteral(tenantId: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(tenantId)) throw new Error('malformed tenant id');
  return `'${tenantId}'`;
}

/**
 * The service's own work inside one tenant, with no person acting (the import sweep settling an
 * abandoned payroll upload, docs/decisions/0058-abandoned-imports-swept.md): the tenant role's grants, and
 * row-level security holds every statement to that tenant, as for a request of its users.
 */
export function withTenantRole<T>(
  database: Database,
  tenantId: string,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  let prelude: string;
  try {
    prelude = `select ${tenantSettings(tenantId)}`;
  } catch (error) {
    return Promise.reject(error);
  }
  return transactionWithFinalSteps(database, [prelude], work);
}

/**
 * Read-only operations tooling (the audit chain verifier) that must see every tenant. Runs as the
 * platform role, never as the connecting user, so it obeys the same grants as SuperAdmin work.
 */
export function withPlatformReadOnly<T>(
  database: Database,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return transactionWithFinalSteps(
    database,
    ['set transaction read only', roleStatement('pension_platform')],
    work,
  );
}

/**
 * Reads of the public regulatory corpus (docs/decisions/0069-regulatory-corpus-and-retrieval.md):
 * the same for every tenant, so no tenant is set. The tenants' role reads the corpus through its
 * own policies, and with no tenant in the transaction every tenant table's row-level security
 * yields nothing: retrieval can reach the corpus and only the corpus, read-only.
 */
export function withCorpusReader<T>(
  database: Database,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return transactionWithFinalSteps(
    database,
    ['set transaction read only', roleStatement('pension_app')],
    work,
  );
}

/**
 * Pre-authentication work that needs more than the user lookup functions (a reset token found by
 * its hash). The role may read users and reset tokens and nothing else, so this path cannot reach
 * tenant data.
 */
export function withAuthenticationRole<T>(
  database: Database,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return withRole(database, 'pension_auth', work);
}

/**
 * The mail worker: it reads and settles the outbox of every tenant, and its role can reach no
 * other table.
 */
export function withMailerRole<T>(
  database: Database,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return withRole(database, 'pension_mailer', work);
}

/**
 * Platform-wide maintenance the service does for itself, with no person acting (sealing the
 * audit chain's cut-over checkpoint at start-up): the platform role's grants, nothing more.
 */
export function withPlatformRole<T>(
  database: Database,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return withRole(database, 'pension_platform', work);
}

/**
 * The compliance reminders job: it reads every tenant's governance registers and the accounts it
 * reminds, records each reminder and queues its e-mail, and its role can do nothing else.
 */
export function withSchedulerRole<T>(
  database: Database,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return withRole(database, 'pension_scheduler', work);
}

/**
 * The scheduled jobs' bookkeeping (POST /api/cron/<job>): claiming and settling runs in job_runs,
 * the one table its role reaches (docs/decisions/0057-scheduled-jobs.md). A job's own work goes
 * through the opener its data needs, never this one.
 */
export function withCronRole<T>(
  database: Database,
  work: (tx: Transaction) => Promise<T>,
): Promise<T> {
  return withRole(database, 'pension_cron', work);
}
