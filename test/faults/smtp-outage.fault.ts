import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_EMAILS_PER_ACCOUNT_PER_HOUR } from '../../src/server/modules/auth/password-reset.service.js';
import { DEV_ACCOUNTS } from '../helpers/built-server.js';
import { resetTokenIn, startSmtpServer } from '../helpers/mail.js';
import { type Deployment, faultSkipReason, startDeployment } from './processes.js';

/**
 * The mail server down for a while (docs/faults.md, "SMTP down"). E-mails queued while
 * it is down wait in email_outbox with their attempts counted and a back-off before the next
 * (docs/decisions/0021-email-outbox-and-mail-worker.md: 15 s, 30 s, 1 min, …); once it listens again, the two instances'
 * workers deliver each message exactly once between them, and the sealed copy is erased.
 */

if (faultSkipReason) console.warn(faultSkipReason);

interface OutboxRow {
  id: string;
  status: string;
  attempts: string;
  last_error: string | null;
  waits_ms: string;
  sealed: boolean;
}

const OUTBOX = `select id, status, attempts, last_error, sealed_message is not null as sealed,
                       extract(epoch from (next_attempt_at - now())) * 1000 as waits_ms
                  from email_outbox where kind = 'password_reset' order by created_at`;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await sleep(250);
  }
}

describe.skipIf(faultSkipReason)('SMTP down for a while', () => {
  let deployment: Deployment;

  beforeAll(async () => {
    deployment = await startDeployment();
  });

  afterAll(async () => {
    await deployment?.dispose();
  });

  it('keeps e-mails queued with back-off while the mail server is down and delivers each exactly once when it returns', async () => {
    const { port } = deployment.smtp;
    await deployment.smtp.close();

    // Every reset e-mail each development account may be sent in an hour, through nginx, so both
    // instances queue some; each request from a client address of its own.
    const accounts = [DEV_ACCOUNTS.brokerAdmin.email, DEV_ACCOUNTS.superAdmin.email];
    const requests = accounts.flatMap((email) =>
      Array.from({ length: RESET_EMAILS_PER_ACCOUNT_PER_HOUR }, () => email),
    );
    for (const email of requests) {
      const answer = await deployment.request({
        method: 'POST',
        path: '/api/auth/forgot-password',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email }),
      });
      expect(answer.status).toBe(200);
    }

    // Each message was tried, failed on the connection, and now waits out its back-off.
    const failed = await until(
      () => deployment.cluster.query<OutboxRow>(OUTBOX),
      (rows) => rows.length === requests.length && rows.every((row) => Number(row.attempts) >= 1),
      30_000,
    );
    expect(failed).toHaveLength(requests.length);
    for (const row of failed) {
      expect(row.status).toBe('pending');
      expect(row.sealed).toBe(true);
      expect(Number(row.attempts)).toBeGreaterThanOrEqual(1);
      // Only an error code is kept, never the server's words (docs/decisions/0021-email-outbox-and-mail-worker.md).
      expect(row.last_error).toMatch(/^E[A-Z]+/);
      expect(Number(row.waits_ms)).toBeGreaterThan(0);
    }

    // The mail server returns on the same address; the workers' own schedule delivers.
    const smtp = await startSmtpServer({ port });
    deployment.smtp = smtp;
    const settled = await until(
      () => deployment.cluster.query<OutboxRow>(OUTBOX),
      (rows) => rows.every((row) => row.status === 'sent'),
      90_000,
    );
    expect(settled.map((row) => row.status)).toEqual(requests.map(() => 'sent'));
    expect(settled.every((row) => !row.sealed)).toBe(true);
    // A poll or two more: a duplicate would arrive now if any message were sent twice.
    await sleep(6_000);

    expect(smtp.received).toHaveLength(requests.length);
    const tokens = smtp.received.map((mail) => resetTokenIn(mail.email.text ?? ''));
    expect(new Set(tokens).size).toBe(requests.length);
    for (const email of accounts) {
      const to = smtp.received.filter((mail) => mail.envelopeTo.includes(email));
      expect(to).toHaveLength(RESET_EMAILS_PER_ACCOUNT_PER_HOUR);
    }
    console.info(
      `smtp outage: ${requests.length} e-mails, attempts before delivery ${settled.map((row) => row.attempts).join(',')}`,
    );
  });
});
