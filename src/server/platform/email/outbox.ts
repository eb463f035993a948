import { createId } from '@paralleldrive/cuid2';
import type { SealedBox } from '../crypto/sealed-box.js';
import { emailOutbox } from '../db/schema.js';
import type { Transaction } from '../db/with-actor.js';
import type { EmailKind, EmailMessage } from './messages.js';

export interface OutboxEntry {
  /** The tenant of the recipient's account; null for a platform account. */
  brokerId: string | null;
  /** The recipient's account; null for someone the firm holds a contact address of (a trustee). */
  userId: string | null;
  kind: EmailKind;
  message: EmailMessage;
  /** When the message stops being worth sending, e.g. when its link expires. */
  discardAfter: Date;
}

/** The sealing context binds a sealed message to its outbox row. */
export const outboxSealContext = (id: string) => `email_outbox:${id}`;

export interface OutboxDeps {
  box: SealedBox;
  now: () => Date;
}

/**
 * Adds messages to the outbox inside the caller's transaction: the message exists exactly when
 * the change that caused it commits. Delivery is the mail worker's.
 */
export function createOutbox({ box, now }: OutboxDeps) {
  return {
    async enqueue(tx: Transaction, entry: OutboxEntry): Promise<string> {
      const id = createId();
      const at = now();
      await tx.insert(emailOutbox).values({
        id,
        brokerId: entry.brokerId,
        userId: entry.userId,
        kind: entry.kind,
        sealedMessage: box.seal(JSON.stringify(entry.message), outboxSealContext(id)),
        status: 'pending',
        nextAttemptAt: at,
        discardAfter: entry.discardAfter,
        createdAt: at,
      });
      return id;
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
