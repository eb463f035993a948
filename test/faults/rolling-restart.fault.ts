import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESET_EMAILS_PER_ACCOUNT_PER_HOUR } from '../../src/server/modules/auth/password-reset.service.js';
import { passwordResetMessage } from '../../src/server/platform/email/messages.js';
import { DEV_ACCOUNTS, startBuiltServer } from '../helpers/built-server.js';
import { deployFile, NGINX_LETS_GO_MS, setUpstreamDown } from '../helpers/deploy.js';
import { resetTokenIn } from '../helpers/mail.js';
import { type Deployment, faultSkipReason, startDeployment } from './processes.js';

/**
 * A rolling restart under load (docs/faults.md, "Rolling restart"; docs/deployment.md).
 * One instance at a time is sent SIGTERM and started again on its address while clients keep
 * writing through nginx and asking for e-mails. The instance finishes what it holds and exits 0;
 * nginx sends new requests to the other one; no request is refused, none is lost, and every
 * e-mail is delivered exactly once.
 */

if (faultSkipReason) console.warn(faultSkipReason);

/** Two lanes, one request each per pause: under the 100-a-minute allowance of one user. */
const LANES = 2;
const PAUSE_MS = 900;
/** `fail_timeout` of the shipped upstream servers, as deploy/nginx/pension-admin.conf sets it. */
const NGINX_FAIL_TIMEOUT_MS =
  Number(/fail_timeout=(\d+)s;/.exec(deployFile('nginx/pension-admin.conf'))?.[1] ?? NaN) * 1000;

describe.skipIf(faultSkipReason)('rolling restart under load', () => {
  let deployment: Deployment;

  beforeAll(async () => {
    deployment = await startDeployment();
  });

  afterAll(async () => {
    await deployment?.dispose();
  });

  it('restarts each instance in turn without refusing or losing a request or an e-mail', async () => {
    expect(NGINX_FAIL_TIMEOUT_MS).toBeGreaterThan(0);
    const token = await deployment.signIn(DEV_ACCOUNTS.brokerAdmin);
    const answers: Array<{ name: string; status: number; body: string; upstream: string }> = [];
    let writing = true;
    const lane = async (laneNumber: number) => {
      for (let sequence = 0; writing; sequence += 1) {
        const name = `Rolling Employer ${laneNumber}-${sequence}`;
        const answer = await deployment.request({
          method: 'POST',
          path: '/api/employers',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name }),
        });
        answers.push({
          name,
          status: answer.status,
          body: answer.body,
          upstream: String(answer.headers['x-test-upstream']),
        });
        await sleep(PAUSE_MS);
      }
    };
    const accounts = [DEV_ACCOUNTS.brokerAdmin.email, DEV_ACCOUNTS.superAdmin.email];
    const resets = accounts.flatMap((email) =>
      Array.from({ length: RESET_EMAILS_PER_ACCOUNT_PER_HOUR }, () => email),
    );
    const resetStatuses: number[] = [];
    const mailer = async () => {
      for (const email of resets) {
        const answer = await deployment.request({
          method: 'POST',
          path: '/api/auth/forgot-password',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email }),
        });
        resetStatuses.push(answer.status);
        await sleep(1_000);
      }
    };
    const lanes = [...Array.from({ length: LANES }, (_, index) => lane(index)), mailer()];

    await sleep(1_500);
    const exits = [];
    for (let index = 0; index < deployment.instances.length; index++) {
      const old = deployment.instances[index];
      if (!old) throw new Error('no instance');
      const { host, port } = new URL(old.baseUrl);
      // Proxy first (docs/deployment.md, "Rolling restart"): nginx stops sending to the instance
      // before it stops listening, so no connection nginx has just opened is reset under a POST.
      setUpstreamDown(deployment.nginxSetup, host, true);
      await sleep(NGINX_LETS_GO_MS);
      exits.push(await old.terminate('SIGTERM'));
      await old.stop();
      deployment.instances[index] = await startBuiltServer({
        ...deployment.env,
        PORT: port,
        APP_BASE_URL: `http://127.0.0.1:${port}`,
      });
      setUpstreamDown(deployment.nginxSetup, host, false);
      // nginx counts the refused connections of a stopped instance against it (max_fails=3) and
      // sends it nothing for fail_timeout (10 s) after: stopping the next one sooner leaves no
      // instance nginx believes in, and it answers 502 (docs/deployment.md, rolling restarts).
      await sleep(NGINX_FAIL_TIMEOUT_MS + 1_000);
    }
    await lanes[LANES];
    writing = false;
    await Promise.all(lanes);

    expect(exits).toEqual([
      { code: 0, signal: null },
      { code: 0, signal: null },
    ]);
    // Nothing refused: every write and every reset request was answered as if nothing happened.
    expect(answers.filter((answer) => answer.status !== 201)).toEqual([]);
    expect(resetStatuses).toEqual(resets.map(() => 200));
    const stored = await deployment.cluster.query<{ name: string }>(
      "select name from employers where name like 'Rolling Employer %'",
    );
    expect(stored.map((row) => row.name).sort()).toEqual(
      answers.map((answer) => answer.name).sort(),
    );

    // Every e-mail delivered once: the outbox settles, and the server saw each token once.
    const deadline = Date.now() + 60_000;
    let pending = resets.length;
    while (pending > 0 && Date.now() < deadline) {
      const [row] = await deployment.cluster.query<{ count: string }>(
        "select count(*) from email_outbox where kind = 'password_reset' and status <> 'sent'",
      );
      pending = Number(row?.count);
      if (pending > 0) await sleep(250);
    }
    expect(pending).toBe(0);
    await sleep(6_000);
    // The reset e-mails only: the test's own sign-in, from a browser the account has not used
    // before, is told to the account holder too (docs/decisions/0110-second-factor.md).
    const resetSubject = passwordResetMessage('', { link: '', validMinutes: 0 }).subject;
    const tokens = deployment.smtp.received
      .filter((mail) => mail.email.subject === resetSubject)
      .map((mail) => resetTokenIn(mail.email.text ?? ''));
    expect(tokens).toHaveLength(resets.length);
    expect(new Set(tokens).size).toBe(resets.length);
    console.info(`rolling restart: ${answers.length} writes, ${tokens.length} e-mails`);
  });
});
