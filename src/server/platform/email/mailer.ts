import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import { createSealedBox, deriveKey } from '../crypto/sealed-box.js';
import type { Database } from '../db/database.js';
import { createMailDelivery } from './delivery.js';
import { createOutbox } from './outbox.js';
import { createFileTransport, createSmtpTransport } from './transports.js';

/** Due messages are looked for this often; a message is also sent at once after its commit. */
export const MAIL_POLL_INTERVAL_MS = 5_000;

export interface MailerDeps {
  config: Pick<Config, 'mail' | 'secrets'>;
  database: Database;
  now: () => Date;
  logger: Logger;
}

/**
 * The outbox services write to and the worker that empties it, sharing one sealing key derived
 * from AUTH_SECRET (a pending message holds a live reset link, so it is never stored readable).
 */
export function createMailer({ config, database, now, logger }: MailerDeps) {
  const box = createSealedBox(deriveKey(config.secrets.AUTH_SECRET, 'email-outbox'));
  const { transport: target, from } = config.mail;
  const transport =
    target.kind === 'smtp'
      ? createSmtpTransport(target.url, from)
      : createFileTransport(target.directory, from);
  return {
    outbox: createOutbox({ box, now }),
    delivery: createMailDelivery({
      database,
      box,
      transport,
      now,
      logger,
      pollIntervalMs: MAIL_POLL_INTERVAL_MS,
    }),
  };
}
