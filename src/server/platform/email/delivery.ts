import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { SealedBox } from '../crypto/sealed-box.js';
import { withoutQuerySignal } from '../db/connection-bounds.js';
import { type Database, rowsOf } from '../db/database.js';
import { withMailerRole } from '../db/with-actor.js';
import type { EmailMessage } from './messages.js';
import { outboxSealContext } from './outbox.js';
import type { MailTransport } from './transports.js';

/** A claimed message is someone's for this long; after a crash mid-send it becomes due again. */
const LEASE_MS = 2 * 60_000;
const BATCH_SIZE = 20;
/**
 * Batches one run claims at most: a run ends even while messages keep arriving, and the next poll
 * (or the next scheduled `outbox` job) takes the rest.
 */
const MAX_BATCHES_PER_RUN = 50;
const FIRST_RETRY_MS = 15_000;
const LONGEST_RETRY_MS = 15 * 60_000;

/** Waits after the n-th failed attempt: 15 s, 30 s, 1 min, … doubling up to 15 minutes. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), LONGEST_RETRY_MS);
}

interface ClaimedMessage {
  id: string;
  kind: string;
  sealed_message: string;
  attempts: string | number;
}

interface DeliveryFailure {
  /** An error code such as ECONNECTION or EENVELOPE 550: never the server's text, which can quote addresses. */
  summary: string;
  /** The server refused this message for good (a 5xx on the envelope or message): retrying cannot help. */
  permanent: boolean;
}

function describeFailure(error: unknown): DeliveryFailure {
  const details = (error ?? {}) as { code?: unknown; responseCode?: unknown };
  const code =
    typeof details.code === 'string' && /^[A-Z_]{1,32}$/.test(details.code)
      ? details.code
      : 'EUNKNOWN';
  const responseCode =
    typeof details.responseCode === 'number' && Number.isInteger(details.responseCode)
      ? details.responseCode
      : null;
  const permanent =
    responseCode !== null &&
    responseCode >= 500 &&
    responseCode < 600 &&
    (code === 'EENVELOPE' || code === 'EMESSAGE');
  return { summary: responseCode === null ? code : `${code} ${responseCode}`, permanent };
}

export interface DeliveryRun {
  sent: number;
  retrying: number;
  discarded: number;
}

export interface MailDeliveryDeps {
  database: Database;
  box: SealedBox;
  transport: MailTransport;
  now: () => Date;
  logger: Logger;
  pollIntervalMs: number;
}

/**
 * The mail worker: sends due outbox messages, retries failures with back-off until the message is
 * no longer worth sending, and erases each message once it is settled. Any number of instances
 * may run: a message is claimed with SKIP LOCKED and a lease, so no two send it at once.
 */
export function createMailDelivery({
  database,
  box,
  transport,
  now,
  logger,
  pollIntervalMs,
}: MailDeliveryDeps) {
  const log = logger.child({ component: 'mail' });
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<DeliveryRun> | null = null;
  let queued: Promise<DeliveryRun> | null = null;

  const settle = (id: string, change: ReturnType<typeof sql>) =>
    withMailerRole(database, (tx) =>
      tx.execute(sql`update email_outbox set ${change} where id = ${id}`),
    );

  async function discardExpired(at: Date): Promise<number> {
    const result = await withMailerRole(database, (tx) =>
      tx.execute(sql`
        update email_outbox
           set status = 'discarded', sealed_message = null, last_error = 'expired'
         where status = 'pending' and discard_after <= ${at.toISOString()}
        returning id`),
    );
    const expired = rowsOf<{ id: string }>(result);
    for (const { id } of expired) log.warn({ emailId: id }, 'email discarded unsent: expired');
    return expired.length;
  }

  async function claimBatch(at: Date): Promise<ClaimedMessage[]> {
    const leaseUntil = new Date(at.getTime() + LEASE_MS).toISOString();
    const result = await withMailerRole(database, (tx) =>
      tx.execute(sql`
        update email_outbox
           set attempts = attempts + 1, next_attempt_at = ${leaseUntil}
         where id in (
           select id from email_outbox
            where status = 'pending'
              and next_attempt_at <= ${at.toISOString()}
              and discard_after > ${at.toISOString()}
            order by next_attempt_at
            limit ${BATCH_SIZE}
            for update skip locked)
        returning id, kind, sealed_message, attempts`),
    );
    return rowsOf<ClaimedMessage>(result);
  }

  async function deliver(claimed: ClaimedMessage): Promise<keyof DeliveryRun> {
    const attempts = Number(claimed.attempts);
    const context = { emailId: claimed.id, kind: claimed.kind, attempts };
    let message: EmailMessage;
    try {
      message = JSON.parse(box.open(claimed.sealed_message, outboxSealContext(claimed.id)));
    } catch {
      log.error(context, 'email discarded: sealed message cannot be opened');
      await settle(
        claimed.id,
        sql`status = 'discarded', sealed_message = null, last_error = 'EUNREADABLE'`,
      );
      return 'discarded';
    }
    try {
      await transport.send(message);
    } catch (error) {
      const failure = describeFailure(error);
      if (failure.permanent) {
        log.error({ ...context, error: failure.summary }, 'email refused by the mail server');
        await settle(
          claimed.id,
          sql`status = 'discarded', sealed_message = null, last_error = ${failure.summary}`,
        );
        return 'discarded';
      }
      const retryAt = new Date(now().getTime() + retryDelayMs(attempts));
      log.warn(
        { ...context, error: failure.summary, retryAt: retryAt.toISOString() },
        'email delivery failed; will retry',
      );
      await settle(
        claimed.id,
        sql`next_attempt_at = ${retryAt.toISOString()}, last_error = ${failure.summary}`,
      );
      return 'retrying';
    }
    await settle(
      claimed.id,
      sql`status = 'sent', sealed_message = null, sent_at = ${now().toISOString()}, last_error = null`,
    );
    log.info(context, 'email delivered');
    return 'sent';
  }

  async function run(): Promise<DeliveryRun> {
    const outcome: DeliveryRun = { sent: 0, retrying: 0, discarded: 0 };
    outcome.discarded += await discardExpired(now());
    for (let batches = 0; batches < MAX_BATCHES_PER_RUN; batches += 1) {
      const batch = await claimBatch(now());
      for (const claimed of batch) outcome[await deliver(claimed)] += 1;
      if (batch.length < BATCH_SIZE) break;
    }
    return outcome;
  }

  /**
   * Sends everything due now. A call during a run gets the run that starts after it, so a message
   * committed just before the call is never missed by a claim made just before the commit.
   */
  function deliverDue(): Promise<DeliveryRun> {
    if (!running) {
      running = run().finally(() => {
        running = null;
      });
      return running;
    }
    queued ??= running
      .catch(() => undefined)
      .then(() => {
        queued = null;
        return deliverDue();
      });
    return queued;
  }

  /**
   * A run in the background belongs to no request, though a request's commit may be what nudged
   * it: it runs under no request's signal, or the client's leaving would cancel the run's queries
   * (docs/decisions/0084-work-after-the-answer.md).
   */
  function runInBackground() {
    withoutQuerySignal(deliverDue).catch((error) =>
      log.error({ err: error }, 'email delivery run failed'),
    );
  }

  return {
    deliverDue,
    /** Starts polling; messages also go out at once when `nudge` is called after a commit. */
    start() {
      if (timer) return;
      timer = setInterval(runInBackground, pollIntervalMs);
      timer.unref();
    },
    /** A message was just committed: send it now rather than at the next poll. */
    nudge() {
      if (timer) setImmediate(runInBackground);
    },
    /** Stops polling, waits for a run in progress and closes the transport. */
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running?.catch(() => undefined);
      transport.close();
    },
  };
}

export type MailDelivery = ReturnType<typeof createMailDelivery>;
