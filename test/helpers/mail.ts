import { once } from 'node:events';
import { createServer } from 'node:net';
import { asc } from 'drizzle-orm';
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import type { Config } from '../../src/server/platform/config/config.js';
import { createSealedBox, deriveKey } from '../../src/server/platform/crypto/sealed-box.js';
import type { Database } from '../../src/server/platform/db/database.js';
import { emailOutbox } from '../../src/server/platform/db/schema.js';
import type { EmailMessage } from '../../src/server/platform/email/messages.js';
import { outboxSealContext } from '../../src/server/platform/email/outbox.js';
import { ownerOf } from './database.js';

export type OutboxRow = typeof emailOutbox.$inferSelect & { message: EmailMessage | null };

/** Every outbox row, oldest first, with its message unsealed the way the mail worker does it. */
export async function readOutbox(database: Database, config: Config): Promise<OutboxRow[]> {
  const box = createSealedBox(deriveKey(config.secrets.AUTH_SECRET, 'email-outbox'));
  const rows = await ownerOf(database)
    .select()
    .from(emailOutbox)
    .orderBy(asc(emailOutbox.createdAt));
  return rows.map((row) => ({
    ...row,
    message: row.sealedMessage
      ? (JSON.parse(box.open(row.sealedMessage, outboxSealContext(row.id))) as EmailMessage)
      : null,
  }));
}

/** The reset token a message's link carries (in the fragment). */
export function resetTokenIn(text: string): string {
  const match = /\/reset-password#token=([A-Za-z0-9_-]{43})/.exec(text);
  if (!match?.[1]) throw new Error('no reset link in this message');
  return match[1];
}

/** The invitation token a message's link carries (in the fragment). */
export function invitationTokenIn(text: string): string {
  const match = /\/accept-invitation#token=([A-Za-z0-9_-]{43})/.exec(text);
  if (!match?.[1]) throw new Error('no invitation link in this message');
  return match[1];
}

/** A loopback port that nothing listens on right now. */
export async function unusedPort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  await once(probe, 'close');
  return port;
}

export interface ReceivedMail {
  envelopeTo: string[];
  email: Email;
}

export interface TestSmtpServer {
  port: number;
  url: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * A real SMTP server (the smtp-server package) on loopback that keeps what it receives. With
 * `refuseRecipients` it answers every RCPT TO with 550, as a server does for a dead mailbox.
 */
export async function startSmtpServer(
  options: { port?: number; refuseRecipients?: boolean } = {},
): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      if (!options.refuseRecipients) return callback();
      const refusal = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
      callback(refusal);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        PostalMime.parse(Buffer.concat(chunks)).then(
          (email) => {
            received.push({
              envelopeTo: session.envelope.rcptTo.map((recipient) => recipient.address),
              email,
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
