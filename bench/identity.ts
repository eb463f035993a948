import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { createId } from '@paralleldrive/cuid2';
import { DEPLOYED_BCRYPT_COST } from '../src/contracts/passwords.js';
import { passwordHasher, verifyPassword } from '../src/server/modules/auth/passwords.rules.js';
import { openPglite } from '../src/server/platform/db/database.js';
import { migrate } from '../src/server/platform/db/migrator.js';
import { brokers, users } from '../src/server/platform/db/schema.js';
import { withActor } from '../src/server/platform/db/with-actor.js';
import { appEnv } from './foundation.js';
import {
  closedLoop,
  cpuMicroseconds,
  load,
  median,
  type Report,
  startServer,
  stopServer,
  timedPost,
} from './lib.js';
import { BENCH_ACTOR } from './sessions.js';
import { APP_COMMAND, APP_READY, RUNS, SECONDS } from './settings.js';

/**
 * Identity benchmarks: sign-ins per second against what bcrypt allows on this machine,
 * probe latency while sign-ins saturate the CPU, and whether the time of a failed sign-in tells
 * an unknown address from a wrong password.
 */
const PASSWORD = 'a benchmark passphrase that is long';
/** Accounts for the load runs: enough that none is attempted more than the throttle allows. */
const LOAD_ACCOUNTS = 800;
const TIMING_PAIRS = 40;

const loadEmail = (n: number) => `load-${n % LOAD_ACCOUNTS}@bench.example`;
const timingEmail = (n: number) => `timing-${n}@bench.example`;
const forgotEmail = (n: number) => `forgot-${n}@bench.example`;

/** A database with one broker and its accounts, all with one password hash (hashing each would take minutes). */
async function seed(dataDir: string, passwordHash: string): Promise<void> {
  const database = await openPglite(path.join(dataDir, 'pglite'));
  await migrate(database);
  const brokerId = createId();
  const emails = [
    ...Array.from({ length: LOAD_ACCOUNTS }, (_, n) => loadEmail(n)),
    ...Array.from({ length: TIMING_PAIRS }, (_, n) => timingEmail(n)),
    ...Array.from({ length: TIMING_PAIRS }, (_, n) => forgotEmail(n)),
  ];
  await withActor(database, BENCH_ACTOR, async (tx) => {
    await tx.insert(brokers).values({ id: brokerId, name: 'Benchmark Brokers' });
    for (let start = 0; start < emails.length; start += 200) {
      await tx.insert(users).values(
        emails.slice(start, start + 200).map((email) => ({
          id: createId(),
          email,
          name: 'Benchmark user',
          passwordHash,
          role: 'BrokerUser',
          brokerId,
        })),
      );
    }
  });
  await database.close();
}

async function bcryptCompareMs(passwordHash: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 12; i += 1) {
    const started = performance.now();
    await verifyPassword(PASSWORD, passwordHash);
    times.push(performance.now() - started);
  }
  return median(times.slice(2));
}

export async function runIdentity(report: Report): Promise<void> {
  const passwordHash = await passwordHasher(DEPLOYED_BCRYPT_COST)(PASSWORD);
  const compareMs = await bcryptCompareMs(passwordHash);
  const cores = availableParallelism();
  const limit = cores / (compareMs / 1000);

  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-identity-'));
  await seed(dataDir, passwordHash);
  const app = await startServer(APP_COMMAND, appEnv(dataDir, 'info'), APP_READY);
  const base = `http://127.0.0.1:${app.port}`;
  let next = 0;
  const signInBody = () => ({ email: loadEmail(next++), password: PASSWORD });
  const signInLoad = { connections: cores * 2, body: signInBody };
  const probeLoad = { connections: 1, overallRate: 20 };
  try {
    await load(`${base}/api/auth/signin`, 2, signInLoad);

    const rates: number[] = [];
    const cpuPerSignIn: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const cpuBefore = cpuMicroseconds(app.child.pid as number);
      const result = await closedLoop(`${base}/api/auth/signin`, SECONDS, cores * 2, signInBody);
      if (result.statuses.size !== 1 || !result.statuses.has(200)) {
        throw new Error(`sign-ins failed under load: ${JSON.stringify([...result.statuses])}`);
      }
      rates.push(result.rate);
      cpuPerSignIn.push(
        (cpuMicroseconds(app.child.pid as number) - cpuBefore) / 1000 / result.completed,
      );
    }
    report(
      `Sign-ins per second at bcrypt cost 12 (median of ${RUNS})`,
      median(rates).toFixed(2),
      `${limit.toFixed(2)} = ${cores} cores / ${compareMs.toFixed(0)} ms per compare`,
      (median(rates) / limit).toFixed(2),
      '>= 0.90',
    );
    report(
      '  server CPU per sign-in (ms)',
      median(cpuPerSignIn).toFixed(1),
      `${compareMs.toFixed(1)} one bcrypt compare`,
      (compareMs / median(cpuPerSignIn)).toFixed(2),
      '',
    );

    const idleProbe = await load(`${base}/api/health/live`, SECONDS, probeLoad);
    const [, busyProbe] = await Promise.all([
      load(`${base}/api/auth/signin`, SECONDS, signInLoad),
      load(`${base}/api/health/live`, SECONDS, probeLoad),
    ]);
    report(
      'GET /api/health/live p99 while sign-ins saturate the CPU (ms)',
      busyProbe.p99Ms.toFixed(1),
      `${idleProbe.p99Ms.toFixed(1)} on an idle server`,
      '',
      '< 50',
    );

    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let n = 0; n < TIMING_PAIRS; n += 1) {
      const stranger = await timedPost(`${base}/api/auth/signin`, {
        email: `nobody-${createId()}@bench.example`,
        password: PASSWORD,
      });
      const mistaken = await timedPost(`${base}/api/auth/signin`, {
        email: timingEmail(n),
        password: 'not the password at all',
      });
      if (stranger.status !== 401 || mistaken.status !== 401) {
        throw new Error('a failed sign-in did not answer 401');
      }
      unknown.push(stranger.ms);
      wrong.push(mistaken.ms);
    }
    report(
      'Failed sign-in, unknown e-mail: median (ms)',
      median(unknown).toFixed(1),
      `${median(wrong).toFixed(1)} wrong password`,
      (median(unknown) / median(wrong)).toFixed(3),
      '0.90 to 1.10',
    );

    const forgotUnknown: number[] = [];
    const forgotKnown: number[] = [];
    for (let n = 0; n < TIMING_PAIRS; n += 1) {
      const stranger = await timedPost(`${base}/api/auth/forgot-password`, {
        email: `nobody-${createId()}@bench.example`,
      });
      const known = await timedPost(`${base}/api/auth/forgot-password`, { email: forgotEmail(n) });
      if (stranger.status !== 200 || known.status !== 200) {
        throw new Error('forgot-password did not answer 200');
      }
      forgotUnknown.push(stranger.ms);
      forgotKnown.push(known.ms);
    }
    report(
      'Forgot-password, unknown e-mail: median (ms)',
      median(forgotUnknown).toFixed(1),
      `${median(forgotKnown).toFixed(1)} known (token + e-mail queued)`,
      (median(forgotUnknown) / median(forgotKnown)).toFixed(3),
      '',
    );
  } finally {
    await stopServer(app);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
