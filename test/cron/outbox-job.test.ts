import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSealedBox, deriveKey } from '../../src/server/platform/crypto/sealed-box.js';
import { withActor } from '../../src/server/platform/db/with-actor.js';
import { passwordResetMessage } from '../../src/server/platform/email/messages.js';
import { createOutbox } from '../../src/server/platform/email/outbox.js';
import { tenantActor } from '../helpers/actors.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { openTestDatabase, type TestDatabase } from '../helpers/database.js';
import { createUser } from '../helpers/factories.js';
import { readOutbox, startSmtpServer, unusedPort } from '../helpers/mail.js';
import { callJob, runsInDatabase } from './helpers.js';

/**
 * The `outbox` job (docs/deployment.md, "Scheduled jobs"): one delivery run of the mail worker,
 * for deployments whose instances do not stay up to poll.
 */

const MINUTE = 60_000;
let clock = Date.parse('2026-11-03T10:00:10Z');
const now = () => new Date(clock);

let shared: TestDatabase;
const opened: Array<{ close(): Promise<void> }> = [];
beforeEach(async () => {
  clock = Date.parse('2026-11-03T10:00:10Z');
  shared = await openTestDatabase();
  opened.push({ close: () => shared.dispose() });
});
afterEach(async () => {
  for (const resource of opened.splice(0).reverse()) await resource.close();
});

async function appSendingTo(smtpUrl: string): Promise<TestApp> {
  const t = await buildTestApp({ database: shared.database, now, env: { SMTP_URL: smtpUrl } });
  opened.push(t);
  return t;
}

/**
 * Queues a reset e-mail as a service would, but without nudging the in-process worker: its first
 * poll comes seconds after start-up, so the job is what sends it.
 */
async function queueMessage(t: TestApp) {
  const user = await createUser(t.database);
  const brokerId = user.brokerId as string;
  const outbox = createOutbox({
    box: createSealedBox(deriveKey(t.config.secrets.AUTH_SECRET, 'email-outbox')),
    now,
  });
  await withActor(t.database, tenantActor(brokerId), (tx) =>
    outbox.enqueue(tx, {
      brokerId,
      userId: user.id,
      kind: 'password_reset',
      message: passwordResetMessage(user.email, { link: 'https://x.example/r', validMinutes: 60 }),
      discardAfter: new Date(clock + 60 * MINUTE),
    }),
  );
  return user;
}

describe('the outbox job', () => {
  it('delivers a queued message exactly once, however often it runs', async () => {
    const server = await startSmtpServer();
    opened.push(server);
    const t = await appSendingTo(server.url);
    const user = await queueMessage(t);

    const first = await callJob(t, 'outbox');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      job: 'outbox',
      runId: expect.any(String),
      outcome: 'succeeded',
      sent: 1,
      retrying: 0,
      discarded: 0,
    });
    expect((await callJob(t, 'outbox')).json().outcome).toBe('already_ran');
    clock += MINUTE;
    expect((await callJob(t, 'outbox')).json()).toMatchObject({ outcome: 'succeeded', sent: 0 });
    await t.app.mailDelivery.deliverDue();

    expect(server.received.map((mail) => mail.envelopeTo)).toEqual([[user.email]]);
    const [row] = await readOutbox(t.database, t.config);
    expect(row).toMatchObject({ status: 'sent', attempts: 1, sealedMessage: null });
    expect((await runsInDatabase(t)).map((run) => run.counts)).toEqual([
      { sent: 1, retrying: 0, discarded: 0 },
      { sent: 0, retrying: 0, discarded: 0 },
    ]);
  });

  it('counts a message the mail server cannot take yet as retrying, and one it refuses as discarded', async () => {
    const t = await appSendingTo(`smtp://127.0.0.1:${await unusedPort()}`);
    await queueMessage(t);
    expect((await callJob(t, 'outbox')).json()).toMatchObject({
      outcome: 'succeeded',
      sent: 0,
      retrying: 1,
      discarded: 0,
    });

    const refusing = await startSmtpServer({ refuseRecipients: true });
    opened.push(refusing);
    const other = await buildTestApp({
      database: shared.database,
      now,
      env: { SMTP_URL: refusing.url },
    });
    opened.push(other);
    clock += 10 * MINUTE;
    expect((await callJob(other, 'outbox')).json()).toMatchObject({
      outcome: 'succeeded',
      sent: 0,
      retrying: 0,
      discarded: 1,
    });
    expect(t.logs.text() + other.logs.text()).not.toMatch(/@/);
  });
});
