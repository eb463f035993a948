import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createId } from '@paralleldrive/cuid2';
import type { Transporter } from 'nodemailer';
import type { EmailMessage } from './messages.js';

/**
 * nodemailer is loaded with the first message: an instance that sends no mail (most of the time)
 * does not keep it in memory.
 */
function lazily(make: (mailer: typeof import('nodemailer')['default']) => Transporter) {
  let pending: Promise<Transporter> | null = null;
  const state: { loaded: Transporter | null; get(): Promise<Transporter> } = {
    loaded: null,
    get() {
      pending ??= import('nodemailer').then((mailer) => {
        state.loaded = make(mailer.default);
        return state.loaded;
      });
      return pending;
    },
  };
  return state;
}

/** Hands one message to the next hop; rejects when it was not accepted. */
export interface MailTransport {
  send(message: EmailMessage): Promise<void>;
  close(): void;
}

/**
 * SMTP via nodemailer. SMTP_URL carries host, port, credentials and TLS (smtps:// for implicit
 * TLS; smtp:// upgrades with STARTTLS when the server offers it). No connection is pooled: the
 * outbox sends a few messages at a time and a pool would hold sockets to a server that may be down.
 */
export function createSmtpTransport(url: string, from: string): MailTransport {
  const transporter = lazily(({ createTransport }) =>
    createTransport({
      url,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      logger: false,
      debug: false,
    }),
  );
  return {
    async send(message) {
      await (await transporter.get()).sendMail({ from, ...message });
    },
    close() {
      transporter.loaded?.close();
    },
  };
}

/**
 * Development without a mail server: each message becomes an .eml file in `directory`, which any
 * mail client opens, with the reset link clickable.
 */
export function createFileTransport(directory: string, from: string): MailTransport {
  const composer = lazily(({ createTransport }) =>
    createTransport({ streamTransport: true, buffer: true }),
  );
  return {
    async send(message) {
      const info = await (await composer.get()).sendMail({ from, ...message });
      await mkdir(directory, { recursive: true, mode: 0o700 });
      const name = `${new Date().toISOString().replaceAll(':', '-')}-${createId()}.eml`;
      await writeFile(path.join(directory, name), info.message as Buffer, { mode: 0o600 });
    },
    close() {
      composer.loaded?.close();
    },
  };
}
