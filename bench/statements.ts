import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createId } from '@paralleldrive/cuid2';
import pg from 'pg';
import { todayInIreland } from '../src/contracts/irish-dates.js';
import { DEPLOYED_BCRYPT_COST } from '../src/contracts/passwords.js';
import { passwordHasher } from '../src/server/modules/auth/passwords.rules.js';
import { migrate } from '../src/server/platform/db/migrator.js';
import { openPostgres } from '../src/server/platform/db/postgres.js';
import { appEnv } from './foundation.js';
import { type Report, rssMegabytes, sleep, startServer, stopServer } from './lib.js';
import { APP_COMMAND, APP_READY, NODE_FLAGS, START_ENV } from './settings.js';
import { adminQuery, databaseUrl, PASSWORD, signIn } from './tenancy.js';

/**
 * Pension Benefit Statements benchmark (docs/decisions/0141-pension-benefit-statements.md), on
 * PostgreSQL, through the built service as `npm start` runs it: one DC scheme of 10,000 active
 * members (a year of monthly contributions each, invested in one of two funds), seeded in
 * set-based SQL; a statement run queued through the API and made by the service's own worker in
 * the server's process, timed from the request to the run's `ready` (read each second).
 * Meanwhile the readiness probe is asked every 50 ms, its latency set against the same probe with
 * the server at rest just before, and the server's resident memory sampled (and its high-water
 * mark read at the end).
 *
 * Set against a bare pdfkit script (bench/bare-statement-pdf.ts) rendering the same pages (the
 * same words, fonts and page count, untagged, no database) in a process of its own with the same
 * Node.js flags, in the same run, before the run and after it.
 *
 * BENCH_STATEMENTS_MEMBERS sets the scheme's size (10,000), BENCH_STATEMENTS_BARE how many
 * statements the bare script renders before the run and again after it (1,000 each, a rate that is
 * steady by then; the mean of the two is the baseline). PostgreSQL is a throwaway
 * database made at BENCH_DATABASE_URL as in the other suites.
 */
const MEMBERS = Number(process.env.BENCH_STATEMENTS_MEMBERS ?? 10_000);
const BARE_COUNT = Math.min(MEMBERS, Number(process.env.BENCH_STATEMENTS_BARE ?? 1_000));
const PROBE_EVERY_MS = 50;
/** Seconds the probe is asked with the server at rest before the run: its latency baseline. */
const REST_SECONDS = 15;
const EMAIL = 'statements-admin@bench.example';

/** The last day of the month before `day`'s. */
function endOfLastMonth(day: string): string {
  const first = new Date(`${day.slice(0, 7)}-01T00:00:00Z`);
  first.setUTCDate(0);
  return first.toISOString().slice(0, 10);
}

interface Seeded {
  brokerId: string;
  schemeId: string;
  assumptionsId: string;
  informationDate: string;
}

/** A member's id from their number: the same expression wherever the seed needs it. */
const MEMBER_ID = `substr(md5($1 || '/m/' || i), 1, 24)`;

/**
 * The firm, its administrator, the scheme, its two funds priced every day, the members, a year
 * of employee and employer contributions each on the 15th, and the units they bought: written as
 * the owner in set-based SQL with the foreign keys' triggers off (the rows are consistent by
 * construction). Seeding is not what is measured.
 */
async function seed(url: string): Promise<Seeded> {
  const database = await openPostgres(url, url, 2);
  await migrate(database);
  await database.close();
  const informationDate = endOfLastMonth(todayInIreland(new Date()));
  const yearStart = `${Number(informationDate.slice(0, 4)) - 1}${informationDate.slice(4, 8)}01`;
  const seeded: Seeded = {
    brokerId: createId(),
    schemeId: createId(),
    assumptionsId: createId(),
    informationDate,
  };
  const { brokerId, schemeId, assumptionsId } = seeded;
  const employerId = createId();
  const fundIds = [createId(), createId()];
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const query = (text: string, params: unknown[] = []) => client.query(text, params);
  try {
    await query('begin');
    await query('set local session_replication_role = replica');
    await query(`insert into brokers (id, name) values ($1, 'Shannon Pensions')`, [brokerId]);
    await query(`insert into employers (id, broker_id, name) values ($1, $2, 'Acme Ltd')`, [
      employerId,
      brokerId,
    ]);
    await query(
      `insert into users (id, email, name, password_hash, role, broker_id)
       values ($1, $2, 'Bench administrator', $3, 'BrokerAdmin', $4)`,
      [createId(), EMAIL, await passwordHasher(DEPLOYED_BCRYPT_COST)(PASSWORD), brokerId],
    );
    await query(
      `insert into schemes (id, broker_id, employer_id, name, type, default_fund_id,
                            normal_retirement_age)
       values ($1, $2, $3, 'Acme Staff Pension Scheme', 'DC', $4, 65)`,
      [schemeId, brokerId, employerId, fundIds[0]],
    );
    await query(
      `insert into funds (id, broker_id, employer_id, scheme_id, name, annual_charge_basis_points)
       select f.id, $1, $2, $3, f.name, f.bp
         from unnest($4::text[], array['Global Equity', 'Cash Fund'], array[75, 25]) f(id, name, bp)`,
      [brokerId, employerId, schemeId, fundIds],
    );
    await query(
      `insert into fund_prices (broker_id, id, employer_id, scheme_id, fund_id, priced_on, price,
                                created_by, created_at)
       select $1, f.id || '/' || d::date, $2, $3, f.id, d::date,
              round(f.start * (1 + 0.0002 * (d::date - $5::date)), 6), 'bench', now()
         from unnest($4::text[], array[1.25, 0.98]::numeric[]) f(id, start)
         cross join generate_series($5::date, $6::date, interval '1 day') d`,
      [brokerId, employerId, schemeId, fundIds, yearStart, informationDate],
    );
    await query(
      `insert into members (id, broker_id, employer_id, scheme_id, first_name, last_name,
                            date_of_birth, date_joined, salary_cents, pps_encrypted, pps_key_id,
                            pps_lookup)
       select ${MEMBER_ID}, $1, $2, $3, 'Member', 'Number ' || i, date '1965-01-01' + i % 12000,
              $4::date - 400, 3000000 + (i % 100) * 50000, 'bench', 'bench',
              md5($1 || '/pps/' || i) || md5($1 || '/pps2/' || i)
         from generate_series(1, $5::int) i`,
      [brokerId, employerId, schemeId, yearStart, MEMBERS],
    );
    await query(
      `insert into contributions (id, broker_id, employer_id, scheme_id, member_id, period, kind,
                                  amount_cents, received_on, created_by, created_at)
       select substr(md5($1 || '/c/' || i || '/' || k || '/' || m), 1, 24), $1, $2, $3,
              ${MEMBER_ID}, to_char(d, 'YYYY-MM'), k, 10000 + (i % 40) * 500,
              (to_char(d, 'YYYY-MM') || '-15')::date, 'bench', now()
         from generate_series(1, $5::int) i
         cross join unnest(array['employee', 'employer']) k
         cross join generate_series(0, 11) m
         cross join lateral (select $4::date + make_interval(months => m) as d) month`,
      [brokerId, employerId, schemeId, yearStart, MEMBERS],
    );
    await query('analyze members, fund_prices, contributions');
    await query(
      `insert into member_transactions (broker_id, id, employer_id, scheme_id, member_id, fund_id,
                                        kind, source, dealt_on, units, price, price_id,
                                        amount_cents, created_at)
       select $1, substr(md5($1 || '/t/' || c.id), 1, 24), $2, $3, c.member_id, p.fund_id,
              'contribution', 'contribution:' || c.id, c.received_on,
              round(c.amount_cents / 100.0 / p.price, 6), p.price, p.id, c.amount_cents, now()
         from contributions c
         join (select ${MEMBER_ID} as member_id, ($4::text[])[1 + i % 2] as fund_id
                 from generate_series(1, $5::int) i) held on held.member_id = c.member_id
         join fund_prices p on p.broker_id = $1 and p.fund_id = held.fund_id
          and p.priced_on = c.received_on
        where c.broker_id = $1 and c.scheme_id = $3`,
      [brokerId, employerId, schemeId, fundIds, MEMBERS],
    );
    await query(
      `insert into statement_assumptions (id, broker_id, name, version, effective_from, source,
                                          best_estimate_return_basis_points,
                                          unfavourable_return_basis_points, inflation_basis_points,
                                          salary_growth_basis_points, annuity_factor_hundredths,
                                          created_by, created_at, updated_at)
       values ($1, $2, 'Pensions Authority guidance', 1, $3, $4, 475, 150, 250, 250, 2500,
               'bench', now(), now())`,
      [
        assumptionsId,
        brokerId,
        yearStart,
        'The Pensions Authority’s guidance on benefit statement projections',
      ],
    );
    await query('commit');
    await query('vacuum analyze');
  } finally {
    await client.end();
  }
  return seeded;
}

const percentile = (values: number[], share: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? 0;
};

interface RunFigures {
  seconds: number;
  done: number;
  failed: number;
  issues: number;
  probes: number[];
  /** The five slowest probes, each with the seconds into the run it was sent. */
  slowest: Array<{ ms: number; at: number }>;
  probeFailures: number;
  restMb: number;
  peakMb: number;
}

let clientNumber = 0;

/**
 * The readiness probe every 50 ms, one at a time, until stopped: each one's milliseconds, the
 * answers that were not 200, and the server's peak resident memory sampled with each.
 */
function probe(base: string, pid: number) {
  const probes: number[] = [];
  /** When each probe was sent, in ms from the first. */
  const sentAt: number[] = [];
  const first = performance.now();
  let failures = 0;
  let peakMb = rssMegabytes(pid);
  let running = true;
  const probing = (async () => {
    while (running) {
      const began = performance.now();
      clientNumber += 1;
      // Each probe from its own address, as the kubelet's every ten seconds would be: at 20 a
      // second from one, the per-client limit would answer them 429 without asking anything.
      const answer = await fetch(`${base}/api/health/ready`, {
        headers: {
          'x-forwarded-for': `10.200.${(clientNumber >> 8) & 255}.${clientNumber & 255}`,
        },
      });
      await answer.arrayBuffer();
      probes.push(performance.now() - began);
      sentAt.push(began - first);
      if (answer.status !== 200) failures += 1;
      peakMb = Math.max(peakMb, rssMegabytes(pid));
      await sleep(Math.max(0, PROBE_EVERY_MS - (performance.now() - began)));
    }
  })();
  return {
    async stop() {
      running = false;
      await probing;
      return { probes, sentAt, failures, peakMb };
    },
  };
}

/** The probe with the server at rest, for as long as given: the probe's own latency here. */
async function probeAtRest(base: string, pid: number, seconds: number): Promise<number[]> {
  const probing = probe(base, pid);
  await sleep(seconds * 1000);
  return (await probing.stop()).probes;
}

/** The run queued through the API, its progress read each second, the probe every 50 ms. */
async function timeRun(base: string, pid: number, seeded: Seeded): Promise<RunFigures> {
  const token = await signIn(base, EMAIL, 1);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const membersBy = new Date(`${seeded.informationDate}T00:00:00Z`);
  membersBy.setUTCMonth(membersBy.getUTCMonth() + 6);
  const restMb = rssMegabytes(pid);
  const probing = probe(base, pid);
  const began = performance.now();
  const queued = await fetch(`${base}/api/schemes/${seeded.schemeId}/statement-runs`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      informationDate: seeded.informationDate,
      membersBy: membersBy.toISOString().slice(0, 10),
      assumptionsId: seeded.assumptionsId,
    }),
  });
  const run = (await queued.json()) as { id: string };
  if (queued.status !== 202) throw new Error(`queueing the run answered ${queued.status}`);
  let view: { status: string; done: number; failed: number; issues: unknown[] };
  for (;;) {
    await sleep(1000);
    const read = await fetch(`${base}/api/statement-runs/${run.id}`, { headers });
    view = (await read.json()) as typeof view;
    if (view.status !== 'running' && view.status !== 'queued') break;
  }
  const seconds = (performance.now() - began) / 1000;
  const { probes, sentAt, failures: probeFailures, peakMb } = await probing.stop();
  const slowest = probes
    .map((ms, index) => ({ ms, at: (sentAt[index] ?? 0) / 1000 }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, 5);
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const highWater = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]) / 1024;
  if (view.status !== 'ready') throw new Error(`the run ended ${view.status}`);
  return {
    seconds,
    done: view.done,
    failed: view.failed,
    issues: view.issues.length,
    probes,
    slowest,
    probeFailures,
    restMb,
    peakMb: Math.max(peakMb, highWater),
  };
}

/** The bare script's rate, in a process of its own run as the server is. */
async function bareRate(): Promise<{ perSecond: number; pages: number; peakMb: number }> {
  const child = spawn(
    process.execPath,
    [...NODE_FLAGS, '--import', 'tsx', 'bench/bare-statement-pdf.ts', String(BARE_COUNT)],
    { env: { PATH: process.env.PATH ?? '', ...START_ENV }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8');
  });
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`the bare script exited with ${code}`);
  return JSON.parse(out) as { perSecond: number; pages: number; peakMb: number };
}

export async function runStatements(report: Report): Promise<void> {
  const name = `pension_bench_${createId()}`;
  await adminQuery(`create database ${name}`);
  const url = databaseUrl(name);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-statements-'));
  let app: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    const seeded = await seed(url);
    const before = await bareRate();
    app = await startServer(
      APP_COMMAND,
      { ...appEnv(dataDir, 'warn'), DATABASE_URL: url },
      APP_READY,
    );
    const base = `http://127.0.0.1:${app.port}`;
    const atRest = await probeAtRest(base, app.child.pid as number, REST_SECONDS);
    const figures = await timeRun(base, app.child.pid as number, seeded);
    await stopServer(app);
    app = null;
    // Before and after the run, the mean of the two: the shared machine's load drifts over minutes.
    const after = await bareRate();
    const bare = {
      perSecond: (before.perSecond + after.perSecond) / 2,
      pages: before.pages,
      peakMb: Math.max(before.peakMb, after.peakMb),
      range: `${Math.min(before.perSecond, after.perSecond).toFixed(1)} to ${Math.max(before.perSecond, after.perSecond).toFixed(1)}`,
    };
    const perSecond = figures.done / figures.seconds;
    report(
      `statements a second (${figures.done} made, ${figures.failed} failed, ${figures.issues} with issues)`,
      perSecond.toFixed(1),
      `${bare.perSecond.toFixed(1)} (bare pdfkit, ${bare.pages} pages each; before and after ${bare.range})`,
      (perSecond / bare.perSecond).toFixed(2),
      '>= 0.5',
    );
    report(
      `ms a statement (whole run, ${figures.seconds.toFixed(0)} s)`,
      ((figures.seconds * 1000) / figures.done).toFixed(1),
      (1000 / bare.perSecond).toFixed(1),
      ((figures.seconds * 1000) / figures.done / (1000 / bare.perSecond)).toFixed(2),
      '',
    );
    report(
      `server peak RSS, MB (at rest before the run ${figures.restMb.toFixed(0)})`,
      figures.peakMb.toFixed(0),
      `${bare.peakMb.toFixed(0)} (bare script)`,
      '',
      '< 300',
    );
    report(
      `readiness probe p99, ms (${figures.probes.length} probes, ${figures.probeFailures} not 200)`,
      `${percentile(figures.probes, 0.99).toFixed(1)} (p50 ${percentile(figures.probes, 0.5).toFixed(1)}, max ${Math.max(...figures.probes).toFixed(0)})`,
      `${percentile(atRest, 0.99).toFixed(1)} (at rest, p50 ${percentile(atRest, 0.5).toFixed(1)}, ${atRest.length} probes)`,
      (percentile(figures.probes, 0.99) / percentile(atRest, 0.99)).toFixed(2),
      '< 100',
    );
    report(
      '↳ slowest probes during the run, ms (at s into the run)',
      figures.slowest.map((slow) => `${slow.ms.toFixed(0)} (${slow.at.toFixed(0)})`).join(', '),
      `max ${Math.max(...atRest).toFixed(0)} at rest`,
      '',
      '',
    );
  } finally {
    if (app) await stopServer(app);
    rmSync(dataDir, { recursive: true, force: true });
    await adminQuery(`drop database if exists ${name} with (force)`);
  }
}
