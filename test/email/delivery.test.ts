import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSealedBox, deriveKey } from '../../src/server/platform/crypto/sealed-box.js';
import { emailOutbox } from '../../src/server/platform/db/schema.js';
import { withActor } from '../../src/server/platform/db/with-actor.js';
import { retryDelayMs } from '../../src/server/platform/email/delivery.js';
import { passwordResetMessage } from '../../src/server/platform/email/messages.js';
import { createOutbox } from '../../src/server/platform/email/outbox.js';
import { tenantActor } from '../helpers/actors.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import {
  databaseErrorOf,
  openTestDatabase,
  ownerOf,
  type TestDatabase,
} from '../helpers/database.js';
import { createUser } from '../helpers/factories.js';
import { readOutbox, resetTokenIn, startSmtpServer, unusedPort } from '../helpers/mail.js';

const MINUTE = 60_000;

let clock = Date.parse('2026-11-03T10:00:00Z');
const now = () => new Date(clock);

let shared: TestDatabase;
const opened: Array<{ close(): Promise<void> }> = [];
// One database for the file: each test starts from an empty outbox, which is what these tests
// read, and makes accounts of its own, rather than opening a database of its own.
beforeAll(async () => {
  shared = await openTestDatabase();
});
afterAll(() => shared.dispose());
beforeEach(async () => {
  await ownerOf(shared.database).delete(emailOutbox);
});
afterEach(async () => {
  for (const resource of opened.splice(0).reverse()) await resource.close();
});

async function appSendingTo(smtpUrl: string | undefined): Promise<TestApp> {
  const t = await buildTestApp({ database: shared.database, now, env: { SMTP_URL: smtpUrl } });
  opened.push(t);
  return t;
}
async function smtpServer(options: Parameters<typeof startSmtpServer>[0] = {}) {
  const server = await startSmtpServer(options);
  opened.push(server);
  return server;
}

async function requestReset(t: TestApp, email: string) {
  const answer = await t.app.inject({
    method: 'POST',
    url: '/api/auth/forgot-password',
    payload: { email },
    remoteAddress: uniqueClientAddress(),
  });
  expect(answer.statusCode).toBe(200);
}

const outboxRowsOf = async (t: TestApp, userId: string) =>
  (await readOutbox(t.database, t.config)).filter((row) => row.userId === userId);

describe('e-mail delivery over SMTP', () => {
  it('delivers the reset e-mail, in plain text and HTML with a working link, then erases it from the outbox', async () => {
    const server = await smtpServer();
    const t = await appSendingTo(server.url);
    const user = await createUser(t.database);
    await requestReset(t, user.email);
    await t.app.mailDelivery.deliverDue();

    expect(server.received).toHaveLength(1);
    const [{ envelopeTo, email } = { envelopeTo: [], email: null }] = server.received;
    expect(envelopeTo).toEqual([user.email]);
    expect(email?.from?.address).toBe('no-reply@pensions.example.ie');
    expect(email?.subject).toMatch(/reset/i);
    const token = resetTokenIn(email?.text ?? '');
    expect(email?.html).toContain(`https://pensions.example.ie/reset-password#token=${token}`);

    const [row] = await outboxRowsOf(t, user.id);
    expect(row).toMatchObject({ status: 'sent', sealedMessage: null, attempts: 1, sentAt: now() });
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'the passphrase from my inbox' },
      remoteAddress: uniqueClientAddress(),
    });
    expect(reset.statusCode).toBe(200);
  });

  it('keeps a message while the server is down and delivers it, once, when it comes back', async () => {
    const port = await unusedPort();
    const t = await appSendingTo(`smtp://127.0.0.1:${port}`);
    const user = await createUser(t.database);
    await requestReset(t, user.email);

    await t.app.mailDelivery.deliverDue();
    let [row] = await outboxRowsOf(t, user.id);
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    // Connection refused: the code only, never the server's words.
    expect(row?.lastError).toMatch(/^E[A-Z]+$/);
    expect(row?.nextAttemptAt.getTime()).toBe(clock + retryDelayMs(1));
    expect(row?.message?.to).toBe(user.email);

    // Not due yet: nothing is tried before the back-off has passed.
    await t.app.mailDelivery.deliverDue();
    [row] = await outboxRowsOf(t, user.id);
    expect(row?.attempts).toBe(1);
    clock += retryDelayMs(1);
    await t.app.mailDelivery.deliverDue();
    [row] = await outboxRowsOf(t, user.id);
    expect(row).toMatchObject({ status: 'pending', attempts: 2 });
    expect(row?.nextAttemptAt.getTime()).toBe(clock + retryDelayMs(2));

    const server = await smtpServer({ port });
    clock += retryDelayMs(2);
    await t.app.mailDelivery.deliverDue();
    clock += retryDelayMs(3);
    await t.app.mailDelivery.deliverDue();
    expect(server.received.map((mail) => mail.envelopeTo)).toEqual([[user.email]]);
    [row] = await outboxRowsOf(t, user.id);
    expect(row).toMatchObject({ status: 'sent', attempts: 3, sealedMessage: null });
  });

  it('goes out by itself right after the request commits', async () => {
    const server = await smtpServer();
    const t = await appSendingTo(server.url);
    const user = await createUser(t.database);
    await requestReset(t, user.email);
    await expect.poll(() => server.received.length, { timeout: 5_000 }).toBe(1);
  });

  it('drops a reset e-mail still undelivered when its link expires, and never sends it', async () => {
    const port = await unusedPort();
    const t = await appSendingTo(`smtp://127.0.0.1:${port}`);
    const user = await createUser(t.database);
    await requestReset(t, user.email);
    await t.app.mailDelivery.deliverDue();
    const server = await smtpServer({ port });
    clock += 60 * MINUTE;
    await t.app.mailDelivery.deliverDue();
    expect(server.received).toHaveLength(0);
    const [row] = await outboxRowsOf(t, user.id);
    expect(row).toMatchObject({ status: 'discarded', sealedMessage: null, lastError: 'expired' });
  });

  it('stops retrying a message the server refuses for good (550), recording only the code', async () => {
    const server = await smtpServer({ refuseRecipients: true });
    const t = await appSendingTo(server.url);
    const user = await createUser(t.database);
    await requestReset(t, user.email);
    await t.app.mailDelivery.deliverDue();
    const [row] = await outboxRowsOf(t, user.id);
    expect(row).toMatchObject({
      status: 'discarded',
      lastError: 'EENVELOPE 550',
      sealedMessage: null,
    });
  });

  it('is shared safely by two instances: each message is sent exactly once', async () => {
    const server = await smtpServer();
    const first = await appSendingTo(server.url);
    const second = await appSendingTo(server.url);
    const people = await Promise.all([1, 2, 3, 4, 5, 6].map(() => createUser(shared.database)));
    for (const person of people) await requestReset(first, person.email);
    await Promise.all([first.app.mailDelivery.deliverDue(), second.app.mailDelivery.deliverDue()]);
    const recipients = server.received.flatMap((mail) => mail.envelopeTo).sort();
    expect(recipients).toEqual(people.map((person) => person.email).sort());
  });

  it('never writes an e-mail address into the log, even when delivery fails', async () => {
    const port = await unusedPort();
    const t = await appSendingTo(`smtp://127.0.0.1:${port}`);
    const user = await createUser(t.database);
    await requestReset(t, user.email);
    await t.app.mailDelivery.deliverDue();
    const refusing = await smtpServer({ refuseRecipients: true });
    const t2 = await appSendingTo(refusing.url);
    const other = await createUser(t.database);
    await requestReset(t2, other.email);
    await t2.app.mailDelivery.deliverDue();
    const logs = t.logs.text() + t2.logs.text();
    expect(logs).toContain('email delivery failed');
    expect(logs).toContain('email refused by the mail server');
    expect(logs).not.toContain(user.email);
    expect(logs).not.toContain(other.email);
    expect(logs).not.toContain('@');
  });
});

describe('the outbox', () => {
  it('holds a message only when the transaction that wrote it commits', async () => {
    const t = await appSendingTo(undefined);
    const user = await createUser(t.database);
    const brokerId = user.brokerId as string;
    const outbox = createOutbox({
      box: createSealedBox(deriveKey(t.config.secrets.AUTH_SECRET, 'email-outbox')),
      now,
    });
    const message = passwordResetMessage(user.email, {
      link: 'https://x.example/r',
      validMinutes: 60,
    });
    await expect(
      withActor(t.database, tenantActor(brokerId), async (tx) => {
        await outbox.enqueue(tx, {
          brokerId,
          userId: user.id,
          kind: 'password_reset',
          message,
          discardAfter: new Date(clock + MINUTE),
        });
        throw new Error('the change failed after its e-mail was queued');
      }),
    ).rejects.toThrow('the change failed');
    expect(
      await ownerOf(t.database).select().from(emailOutbox).where(eq(emailOutbox.userId, user.id)),
    ).toEqual([]);
  });

  it('cannot be read by the service role of a tenant, only written', async () => {
    const t = await appSendingTo(undefined);
    const user = await createUser(t.database);
    const refusal = await databaseErrorOf(
      withActor(t.database, tenantActor(user.brokerId as string), (tx) =>
        tx.select().from(emailOutbox),
      ),
    );
    expect(refusal).toMatch(/permission denied/);
  });
});

describe('e-mail in development without SMTP', () => {
  it('is written as .eml files under DATA_DIR/mail', async () => {
    const t = await appSendingTo(undefined);
    const user = await createUser(t.database);
    await requestReset(t, user.email);
    await t.app.mailDelivery.deliverDue();
    const directory = path.join(t.config.dataDir, 'mail');
    const files = readdirSync(directory).filter((name) => name.endsWith('.eml'));
    expect(files).toHaveLength(1);
    const raw = readFileSync(path.join(directory, files[0] as string), 'utf8');
    expect(raw).toContain(`To: ${user.email}`);
    expect(raw).toMatch(/Subject: Reset your/);
    expect(raw).toContain('multipart/alternative');
  });
});
