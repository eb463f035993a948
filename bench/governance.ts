import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createId } from '@paralleldrive/cuid2';
import pg from 'pg';
import { addDays, todayInIreland } from '../src/contracts/irish-dates.js';
import { DEPLOYED_BCRYPT_COST } from '../src/contracts/passwords.js';
import { passwordHasher } from '../src/server/modules/auth/passwords.rules.js';
import { createComplianceReminders } from '../src/server/modules/governance/reminders.job.js';
import { createSealedBox, deriveKey } from '../src/server/platform/crypto/sealed-box.js';
import { migrate } from '../src/server/platform/db/migrator.js';
import { openPostgres } from '../src/server/platform/db/postgres.js';
import { createOutbox } from '../src/server/platform/email/outbox.js';
import { appEnv } from './foundation.js';
import { load, median, type Report, startServer, stopServer } from './lib.js';
import { APP_COMMAND, APP_READY, NODE_FLAGS, RUNS, SECONDS } from './settings.js';
import { adminQuery, databaseUrl, PASSWORD, signIn } from './tenancy.js';

/**
 * Governance benchmarks (docs/decisions/0059-governance-rules.md), on PostgreSQL. The compliance calendar and the dashboard of a
 * tenant with 1,000 schemes, each with its registers, against bare Fastify + pg reading the same
 * rows; and the reminders job over 10,000 schemes, timed and with its statements counted, beside
 * the same job over 1,000 schemes to show the cost per scheme does not grow.
 */
const EMPLOYERS_PER_TENANT = 20;

/**
 * The parts to run, from BENCH_GOVERNANCE (a comma-separated list of `calendar`, `dashboard` and
 * `reminders`; all of them when unset): the reminders job alone takes most of the suite's time.
 */
const PARTS = ['calendar', 'dashboard', 'reminders'] as const;
const chosenParts = (process.env.BENCH_GOVERNANCE ?? PARTS.join(','))
  .split(',')
  .map((part) => part.trim())
  .filter((part) => part !== '');
for (const part of chosenParts) {
  if (!(PARTS as readonly string[]).includes(part)) {
    throw new Error(`unknown governance part ${part}; choose from ${PARTS.join(', ')}`);
  }
}
const runs = (part: (typeof PARTS)[number]) => chosenParts.includes(part);

interface Seeded {
  tenants: Array<{ brokerId: string; emails: string[] }>;
}

/**
 * Signed-in traffic is limited per person (docs/api.md, "Rate limits"), so the load is spread over
 * this many BrokerAdmins of the tenant, as an office of brokers would.
 */
const ADMINS_PER_TENANT = 40;

/**
 * Tenants with `schemes` schemes each, spread over 20 employers, each scheme with two trustees,
 * risk management and internal audit holders (and an actuary for every fifth, a DB scheme), its
 * required policies approved on dates spread over three years, an ORA, and a significant change
 * for one scheme in ten. Written as the owner in set-based SQL: seeding is not what is measured.
 */
async function seed(url: string, tenants: number, schemes: number): Promise<Seeded> {
  const database = await openPostgres(url, url, 2);
  await migrate(database);
  await database.close();
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const passwordHash = await passwordHasher(DEPLOYED_BCRYPT_COST)(PASSWORD);
  const seeded: Seeded = { tenants: [] };
  try {
    for (let n = 0; n < tenants; n += 1) {
      const brokerId = createId();
      const emails = Array.from(
        { length: ADMINS_PER_TENANT },
        (_, a) => `admin-${a}-${n}-${brokerId}@bench.example`,
      );
      await client.query('insert into brokers (id, name) values ($1, $2)', [
        brokerId,
        `Broker ${n}`,
      ]);
      await client.query(
        `insert into employers (id, broker_id, name)
           select $1 || '-e' || g, $1, 'Employer ' || g from generate_series(1, $2) g`,
        [brokerId, EMPLOYERS_PER_TENANT],
      );
      for (const email of emails) {
        await client.query(
          `insert into users (id, email, name, password_hash, role, broker_id)
             values ($1, $2, 'Admin', $3, 'BrokerAdmin', $4)`,
          [createId(), email, passwordHash, brokerId],
        );
      }
      await client.query(
        `insert into users (id, email, name, password_hash, role, broker_id, employer_id)
           select $1 || '-u' || g, 'employer-' || g || '-' || $1 || '@bench.example', 'Employer admin',
                  $2, 'EmployerAdmin', $1, $1 || '-e' || g
             from generate_series(1, $3) g`,
        [brokerId, passwordHash, EMPLOYERS_PER_TENANT],
      );
      await client.query(
        `insert into schemes (id, broker_id, employer_id, name, type)
           select $1 || '-s' || g, $1, $1 || '-e' || (1 + g % $3), 'Scheme ' || g,
                  case when g % 5 = 0 then 'DB' else 'DC' end
             from generate_series(1, $2) g`,
        [brokerId, schemes, EMPLOYERS_PER_TENANT],
      );
      const common = `broker_id, id, employer_id, scheme_id, created_by, created_at, updated_at`;
      await client.query(
        `insert into trustees (${common}, name, kind, appointed_on)
           select s.broker_id, s.id || '-t' || t, s.employer_id, s.id, 'bench', now(), now(),
                  'Trustee ' || t, 'individual', date '2019-01-01'
             from schemes s cross join generate_series(1, 2) t where s.broker_id = $1`,
        [brokerId],
      );
      await client.query(
        `insert into key_function_holders (${common}, function, holder_name, appointed_on,
                                           fitness_and_probity, also_serves_employer)
           select s.broker_id, s.id || '-k-' || f, s.employer_id, s.id, 'bench', now(), now(),
                  f, 'Holder of ' || f, date '2021-01-01', 'confirmed', false
             from schemes s
             cross join unnest(array['risk_management','internal_audit','actuarial']) f
            where s.broker_id = $1 and (f <> 'actuarial' or s.type = 'DB')`,
        [brokerId],
      );
      await client.query(
        `insert into written_policies (${common}, kind, title, version, status, approved_on,
                                       next_review_due)
           select s.broker_id, s.id || '-p-' || k, s.employer_id, s.id, 'bench', now(), now(),
                  k, k || ' policy', '1.0', 'approved', d, (d + interval '3 years')::date
             from schemes s
             cross join unnest(array['risk_management','internal_audit','remuneration','outsourcing','actuarial']) k
             cross join lateral (select (current_date - 1000 + (abs(hashtext(s.id || k)) % 1100))::date d) dates
            where s.broker_id = $1 and (k <> 'actuarial' or s.type = 'DB')`,
        [brokerId],
      );
      await client.query(
        `insert into ora_reports (${common}, performed_on, trigger, next_due)
           select s.broker_id, s.id || '-o', s.employer_id, s.id, 'bench', now(), now(), d,
                  'scheduled', (d + interval '3 years')::date
             from schemes s
             cross join lateral (select (current_date - 1000 + (abs(hashtext(s.id)) % 1100))::date d) dates
            where s.broker_id = $1`,
        [brokerId],
      );
      await client.query(
        `insert into significant_changes (${common}, policy_id, occurred_on, description)
           select s.broker_id, s.id || '-c', s.employer_id, s.id, 'bench', now(), now(), null,
                  current_date - 20, 'Benchmark change'
             from schemes s where s.broker_id = $1 and abs(hashtext(s.id)) % 10 = 0`,
        [brokerId],
      );
      seeded.tenants.push({ brokerId, emails });
    }
    await client.query('analyze');
  } finally {
    await client.end();
  }
  return seeded;
}

async function withDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const name = `pension_bench_${createId()}`;
  await adminQuery(`create database ${name}`);
  try {
    return await work(databaseUrl(name));
  } finally {
    await adminQuery(`drop database if exists ${name} with (force)`);
  }
}

/** The calendar and the dashboard of one tenant of 1,000 schemes, beside the same rows read bare. */
async function calendarAndDashboard(report: Report): Promise<void> {
  await withDatabase(async (url) => {
    const { tenants } = await seed(url, 1, 1000);
    const tenant = tenants[0] as Seeded['tenants'][number];
    const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-governance-'));
    let app: Awaited<ReturnType<typeof startServer>> | null = null;
    let bare: Awaited<ReturnType<typeof startServer>> | null = null;
    try {
      app = await startServer(
        APP_COMMAND,
        { ...appEnv(dataDir, 'info'), DATABASE_URL: url },
        APP_READY,
      );
      bare = await startServer(
        [...NODE_FLAGS, '--import', 'tsx', 'bench/bare-governance-server.ts'],
        { BENCH_DATABASE_URL: url },
        /listening (\d+)/,
      );
      const appBase = `http://127.0.0.1:${app.port}`;
      const tokens: string[] = [];
      for (const [index, email] of tenant.emails.entries()) {
        tokens.push(await signIn(appBase, email, index + 1));
      }
      let turn = 0;
      const appOptions = {
        connections: 8,
        headers: () => ({ authorization: `Bearer ${tokens[turn++ % tokens.length]}` }),
      };
      const bareOptions = { connections: 8, headers: () => ({ 'x-tenant-id': tenant.brokerId }) };
      const today = todayInIreland(new Date());
      const routes = Object.fromEntries(
        Object.entries({
          calendar: `/api/compliance/calendar?from=${today}&to=${addDays(today, 365)}&limit=100`,
          dashboard: '/api/compliance/dashboard',
        }).filter(([label]) => runs(label as 'calendar' | 'dashboard')),
      );
      const bareUrl = `http://127.0.0.1:${bare.port}/api/governance-rows`;
      for (const [label, route] of Object.entries(routes)) {
        await load(`${appBase}${route}`, 2, appOptions);
        await load(bareUrl, 2, bareOptions);
        const appRates: number[] = [];
        const bareRates: number[] = [];
        let appP99 = 0;
        let bareP99 = 0;
        for (let run = 0; run < RUNS; run += 1) {
          const base = await load(bareUrl, SECONDS, bareOptions);
          const full = await load(`${appBase}${route}`, SECONDS, appOptions);
          if (full.non2xx || full.errors || base.non2xx || base.errors) {
            throw new Error(`${label} failed: ${JSON.stringify({ full, base })}`);
          }
          appRates.push(full.requestsPerSecond);
          bareRates.push(base.requestsPerSecond);
          appP99 = Math.max(appP99, full.p99Ms);
          bareP99 = Math.max(bareP99, base.p99Ms);
        }
        report(
          `GET ${label}, 1,000 schemes (req/s, median of ${RUNS})`,
          median(appRates).toFixed(1),
          `${median(bareRates).toFixed(1)} bare SELECT of the same rows`,
          (median(appRates) / median(bareRates)).toFixed(2),
          '>= 0.50',
        );
        report(`  worst p99 (ms)`, appP99.toFixed(0), `${bareP99.toFixed(0)} bare`, '', '');
      }
    } finally {
      if (app) await stopServer(app);
      if (bare) await stopServer(bare);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}

/** Statements sent to PostgreSQL by this process while `work` runs. */
async function countingStatements<T>(
  work: () => Promise<T>,
): Promise<{ result: T; statements: number }> {
  const prototype = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = prototype.query;
  let statements = 0;
  prototype.query = function counted(this: unknown, ...args: unknown[]) {
    statements += 1;
    return original.apply(this, args);
  };
  try {
    return { result: await work(), statements };
  } finally {
    prototype.query = original;
  }
}

/** The reminders job over `tenants` × 1,000 schemes: time and statements per scheme. */
async function reminders(
  report: Report,
  tenants: number,
  baseline?: { msPerScheme: number; statementsPerScheme: number },
) {
  return withDatabase(async (url) => {
    await seed(url, tenants, 1000);
    const database = await openPostgres(url, url, 4);
    try {
      const job = createComplianceReminders({
        database,
        outbox: createOutbox({
          box: createSealedBox(deriveKey('a benchmark secret that is long enough', 'email-outbox')),
          now: () => new Date(),
        }),
        now: () => new Date(),
        publicBaseUrl: new URL('https://pensions.example.ie'),
        onEmailQueued: () => undefined,
      });
      const began = performance.now();
      const { result, statements } = await countingStatements(() => job.run());
      const ms = performance.now() - began;
      const again = performance.now();
      const repeat = await countingStatements(() => job.run());
      const repeatMs = performance.now() - again;
      const figures = {
        msPerScheme: ms / result.schemes,
        statementsPerScheme: statements / result.schemes,
      };
      const schemes = result.schemes.toLocaleString('en-IE');
      report(
        `reminders job, ${schemes} schemes: ms per scheme`,
        figures.msPerScheme.toFixed(3),
        baseline
          ? `${baseline.msPerScheme.toFixed(3)} over 1,000 schemes`
          : `${(ms / 1000).toFixed(1)} s in all`,
        baseline ? (figures.msPerScheme / baseline.msPerScheme).toFixed(2) : '',
        baseline ? 'constant' : '',
      );
      report(
        '  statements per scheme',
        figures.statementsPerScheme.toFixed(4),
        baseline
          ? `${baseline.statementsPerScheme.toFixed(4)} over 1,000 schemes`
          : `${statements} in all`,
        baseline ? (figures.statementsPerScheme / baseline.statementsPerScheme).toFixed(2) : '',
        '',
      );
      report(
        '  reminders sent; a second run the same day',
        `${result.remindersSent} (${result.emails} e-mails)`,
        `${repeat.result.remindersSent} sent in ${(repeatMs / 1000).toFixed(1)} s, ${repeat.statements} statements`,
        '',
        '',
      );
      return figures;
    } finally {
      await database.close();
    }
  });
}

export async function runGovernance(report: Report): Promise<void> {
  if (runs('calendar') || runs('dashboard')) await calendarAndDashboard(report);
  if (!runs('reminders')) return;
  const small = await reminders(report, 1);
  await reminders(report, 10, small);
}
