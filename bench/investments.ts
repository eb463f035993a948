import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { createId } from '@paralleldrive/cuid2';
import pg from 'pg';
import { chargeDayOf } from '../src/contracts/dc-money-rules.js';
import { todayInIreland } from '../src/contracts/irish-dates.js';
import { createHoldingsService } from '../src/server/modules/investments/holdings.service.js';
import { lastEndedMonth } from '../src/server/modules/investments/ledger.rules.js';
import { auditChainKey } from '../src/server/platform/audit/audit-chain.js';
import { createAuditService } from '../src/server/platform/audit/audit-log.js';
import { type Database, openPglite } from '../src/server/platform/db/database.js';
import { migrate } from '../src/server/platform/db/migrator.js';
import { openPostgres } from '../src/server/platform/db/postgres.js';
import type { TenantActor } from '../src/server/platform/tenancy/actor.js';
import { appEnv } from './foundation.js';
import { median, type Report } from './lib.js';
import { NODE_FLAGS, START_ENV } from './settings.js';
import { adminQuery, databaseUrl } from './tenancy.js';

/**
 * DC money benchmarks (docs/decisions/0127-dc-money.md), on PostgreSQL and on PGlite. One DC
 * scheme of 100,000 members in three funds, each member with a year of contributions invested
 * and charged on the unit ledger and this month's contribution waiting, seeded in set-based SQL.
 * Two measures, each beside bare SQL run in the same run on the same rows:
 *
 * - `valuation`: the trustees' fund assets of the scheme on one day, through the holdings
 *   service, against bare SQL working out the same answer (each member's units in each fund,
 *   summed by fund, and the money), and against a bare sum of units by fund alone;
 * - `month-end`: the investments job (`settleEveryScheme`, the built code in a process of its own
 *   as the server runs it, bench/investments-job.ts), which invests every member's contribution
 *   and takes every member's charge of the month that ended, with that process's peak RSS;
 *   against bare INSERT … SELECT statements writing the same rows (run in a transaction rolled
 *   back, then vacuumed away), whose totals it checks match.
 *
 * BENCH_INVESTMENTS picks the parts (`valuation`, `month-end`; both when unset),
 * BENCH_INVESTMENTS_ENGINES the databases (`postgres`, `pglite`; both when unset),
 * BENCH_INVESTMENTS_MEMBERS and BENCH_INVESTMENTS_MONTHS the size (100,000 and 12). PostgreSQL is
 * the empty database at DATABASE_URL when it is set (left for its maker to drop), otherwise a
 * throwaway one made at BENCH_DATABASE_URL as in the other suites.
 */
const PARTS = ['valuation', 'month-end'] as const;
const ENGINES = ['postgres', 'pglite'] as const;

function chosen<T extends string>(variable: string, all: readonly T[]): T[] {
  const picked = (process.env[variable] ?? all.join(','))
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  for (const part of picked) {
    if (!(all as readonly string[]).includes(part)) {
      throw new Error(`unknown ${variable} part ${part}; choose from ${all.join(', ')}`);
    }
  }
  return picked as T[];
}

const MEMBERS = Number(process.env.BENCH_INVESTMENTS_MEMBERS ?? 100_000);
/** Months of history on each member's ledger before the month the run settles. */
const HISTORY_MONTHS = Number(process.env.BENCH_INVESTMENTS_MONTHS ?? 12);
/** Repeats of the valuation, each the service's read beside the bare ones; the median counts. */
const VALUATION_RUNS = 5;

/**
 * The scheme's three funds: the first is its default fund, which a third of the members are in
 * without a choice of their own; the other two thirds chose the second or the third, wholly.
 */
const FUNDS = [
  { name: 'Global equity', basisPoints: 75, firstPrice: '1.250000' },
  { name: 'Multi-asset', basisPoints: 50, firstPrice: '2.100000' },
  { name: 'Cash', basisPoints: 20, firstPrice: '0.980000' },
] as const;

/** SQL run bare, as the database's owner: no roles, no row-level security, no service code. */
interface Bare {
  query<T>(text: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

interface Opened {
  database: Database;
  bare: Bare;
  close(): Promise<void>;
}

interface Engine {
  name: 'PostgreSQL' | 'PGlite';
  /** The service's connection and a bare one, in this process. */
  open(): Promise<Opened>;
  /** How the service finds the same database, as its environment says it. */
  serviceEnv: Record<string, string>;
  /** The service's DATA_DIR, when the database lives in it (PGlite, in DATA_DIR/pglite). */
  dataDir?: string;
  dispose(): Promise<void>;
}

async function postgresEngine(): Promise<Engine> {
  const given = process.env.DATABASE_URL;
  const name = given ? null : `pension_bench_${createId()}`;
  if (name) await adminQuery(`create database ${name}`);
  const url = given ?? databaseUrl(name as string);
  return {
    name: 'PostgreSQL',
    serviceEnv: { DATABASE_URL: url },
    async open() {
      const database = await openPostgres(url, url, 4);
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      const bare: Bare = {
        query: async <T>(text: string, params: unknown[] = []) =>
          (await client.query(text, params)).rows as T[],
        close: () => client.end(),
      };
      return {
        database,
        bare,
        async close() {
          await bare.close();
          await database.close();
        },
      };
    },
    async dispose() {
      if (name) await adminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}

function pgliteEngine(): Engine {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-investments-'));
  return {
    name: 'PGlite',
    serviceEnv: {},
    dataDir,
    async open() {
      const database = await openPglite(path.join(dataDir, 'pglite'));
      const client = (database.db as unknown as { $client: PGlite }).$client;
      const bare: Bare = {
        query: async <T>(text: string, params: unknown[] = []) =>
          (await client.query<T>(text, params)).rows,
        close: async () => undefined,
      };
      return { database, bare, close: () => database.close() };
    },
    async dispose() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The month `count` months after `month` (before it, when negative). */
function addMonths(month: string, count: number): string {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + count;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

interface Seeded {
  brokerId: string;
  employerId: string;
  schemeId: string;
  fundIds: string[];
  /** The month the run settles: the last that has ended. */
  month: string;
  /** Its last day, on which the valuation is read and the month's charge taken. */
  day: string;
}

/** A member's id from their number: the same expression wherever the seed needs it. */
const MEMBER_ID = `substr(md5($1 || '/m/' || i), 1, 24)`;

/**
 * The scheme, written as the owner in set-based SQL with the foreign keys' triggers off (the
 * rows are made consistent here): seeding is not what is measured. Contributions are received on
 * the 15th and bought at that day's price; each month's charge is taken on its last day on the
 * units bought so far. The month that ended last has its contributions and nothing else.
 */
async function seed(bare: Bare): Promise<Seeded> {
  const today = todayInIreland(new Date());
  const month = lastEndedMonth(today);
  const first = addMonths(month, -HISTORY_MONTHS);
  const months = Array.from({ length: HISTORY_MONTHS + 1 }, (_, n) => addMonths(first, n));
  const seeded: Seeded = {
    brokerId: createId(),
    employerId: createId(),
    schemeId: createId(),
    fundIds: FUNDS.map(() => createId()),
    month,
    day: chargeDayOf(month),
  };
  const { brokerId, employerId, schemeId, fundIds } = seeded;
  const found = await bare.query<{ n: number }>('select count(*)::int as n from brokers');
  if ((found[0]?.n ?? 0) > 0) throw new Error('the benchmark needs an empty database');
  await bare.query('begin');
  await bare.query('set local session_replication_role = replica');
  await bare.query(`insert into brokers (id, name) values ($1, 'Bench DC broker')`, [brokerId]);
  await bare.query(`insert into employers (id, broker_id, name) values ($1, $2, 'Employer')`, [
    employerId,
    brokerId,
  ]);
  await bare.query(
    `insert into schemes (id, broker_id, employer_id, name, type, default_fund_id)
     values ($1, $2, $3, 'Bench DC scheme', 'DC', $4)`,
    [schemeId, brokerId, employerId, fundIds[0]],
  );
  await bare.query(
    `insert into funds (id, broker_id, employer_id, scheme_id, name, annual_charge_basis_points)
     select f.id, $1, $2, $3, f.name, f.bp
       from unnest($4::text[], $5::text[], $6::int[]) f(id, name, bp)`,
    [
      brokerId,
      employerId,
      schemeId,
      fundIds,
      FUNDS.map((fund) => fund.name),
      FUNDS.map((fund) => fund.basisPoints),
    ],
  );
  await bare.query(
    `insert into fund_prices (broker_id, id, employer_id, scheme_id, fund_id, priced_on, price,
                              created_by, created_at)
     select $1, f.id || '/' || d::date, $2, $3, f.id, d::date,
            round(f.start * (1 + 0.0002 * (d::date - $5::date)), 6), 'bench', now()
       from unnest($4::text[], $6::numeric[]) f(id, start)
       cross join generate_series($5::date, $7::date, interval '1 day') d`,
    [
      brokerId,
      employerId,
      schemeId,
      fundIds,
      `${first}-01`,
      FUNDS.map((fund) => fund.firstPrice),
      today,
    ],
  );
  await bare.query(
    `insert into members (id, broker_id, employer_id, scheme_id, first_name, last_name,
                          date_of_birth, date_joined, salary_cents, pps_encrypted, pps_key_id,
                          pps_lookup)
     select ${MEMBER_ID}, $1, $2, $3, 'Member', 'Number ' || i, date '1965-01-01' + i % 12000,
            $4::date, 3000000 + (i % 100) * 50000, 'bench', 'bench',
            md5($1 || '/pps/' || i) || md5($1 || '/pps2/' || i)
       from generate_series(1, $5::int) i`,
    [brokerId, employerId, schemeId, `${first}-01`, MEMBERS],
  );
  await bare.query(
    `insert into fund_allocations (id, broker_id, employer_id, scheme_id, member_id,
                                   effective_from, created_by, created_at)
     select substr(md5($1 || '/a/' || i), 1, 24), $1, $2, $3, ${MEMBER_ID}, $4::date, 'bench', now()
       from generate_series(1, $5::int) i where i % 3 <> 0`,
    [brokerId, employerId, schemeId, `${first}-01`, MEMBERS],
  );
  await bare.query(
    `insert into fund_allocation_lines (allocation_id, broker_id, scheme_id, fund_id, percent)
     select substr(md5($1 || '/a/' || i), 1, 24), $1, $2, ($3::text[])[1 + i % 3], 100
       from generate_series(1, $4::int) i where i % 3 <> 0`,
    [brokerId, schemeId, fundIds, MEMBERS],
  );
  await bare.query(
    `insert into contributions (id, broker_id, employer_id, scheme_id, member_id, period, kind,
                                amount_cents, received_on, created_by, created_at)
     select substr(md5($1 || '/c/' || i || '/' || p), 1, 24), $1, $2, $3, ${MEMBER_ID}, p,
            'employee', 10000 + (i % 40) * 500, (p || '-15')::date, 'bench', now()
       from unnest($4::text[]) p cross join generate_series(1, $5::int) i`,
    [brokerId, employerId, schemeId, months, MEMBERS],
  );
  // The statements below join what was just written: the planner is told how much there is.
  await bare.query('analyze members, fund_prices, fund_allocations, contributions');
  await bare.query(
    `insert into member_transactions (broker_id, id, employer_id, scheme_id, member_id, fund_id,
                                      kind, source, dealt_on, units, price, price_id,
                                      amount_cents, created_at)
     select $1, substr(md5($1 || '/t/' || c.id), 1, 24), $2, $3, c.member_id, p.fund_id,
            'contribution', 'contribution:' || c.id, c.received_on,
            round(c.amount_cents / 100.0 / p.price, 6), p.price, p.id, c.amount_cents, now()
       from contributions c
       join (select ${MEMBER_ID} as member_id, ($4::text[])[1 + i % 3] as fund_id
               from generate_series(1, $5::int) i) held on held.member_id = c.member_id
       join fund_prices p on p.broker_id = $1 and p.fund_id = held.fund_id
        and p.priced_on = c.received_on and p.superseded_at is null
      where c.broker_id = $1 and c.scheme_id = $3 and c.period < $6
      order by c.period`,
    [brokerId, employerId, schemeId, fundIds, MEMBERS, month],
  );
  await bare.query('analyze member_transactions');
  await bare.query(
    `insert into member_transactions (broker_id, id, employer_id, scheme_id, member_id, fund_id,
                                      kind, source, dealt_on, units, price, price_id,
                                      amount_cents, created_at)
     select $1, substr(md5($1 || '/t/' || h.member_id || '/' || h.month), 1, 24), $2, $3,
            h.member_id, h.fund_id, 'charge', 'charge:' || h.month, p.priced_on, -charged.units,
            p.price, p.id, -round(charged.units * p.price * 100)::bigint, now()
       from (
         select t.member_id, t.fund_id, to_char(t.dealt_on, 'YYYY-MM') as month,
                sum(sum(t.units)) over (partition by t.member_id, t.fund_id
                                        order by to_char(t.dealt_on, 'YYYY-MM')) as units
           from member_transactions t
          where t.broker_id = $1 and t.scheme_id = $3 and t.kind = 'contribution'
          group by t.member_id, t.fund_id, to_char(t.dealt_on, 'YYYY-MM')
       ) h
       join funds f on f.broker_id = $1 and f.id = h.fund_id
       cross join lateral (select round(h.units * f.annual_charge_basis_points / 120000, 6) as units) charged
       join fund_prices p on p.broker_id = $1 and p.fund_id = h.fund_id and p.superseded_at is null
        and p.priced_on = ((h.month || '-01')::date + interval '1 month' - interval '1 day')::date
      order by h.month`,
    [brokerId, employerId, schemeId],
  );
  await bare.query('commit');
  await bare.query('vacuum analyze');
  return seeded;
}

/** A firm's administrator, as the holdings service is called for a request of theirs. */
function administrator(brokerId: string): TenantActor {
  return {
    userId: 'bench-administrator',
    email: 'administrator@bench.example',
    role: 'BrokerAdmin',
    tenantId: brokerId,
    employerId: null,
    memberId: null,
    ipAddress: '127.0.0.1',
    userAgent: 'bench',
  };
}

/** Rows of members not deleted, as the service counts them. */
const NOT_DELETED = (alias: string) =>
  `not exists (select 1 from members d where d.broker_id = ${alias}.broker_id
                 and d.id = ${alias}.member_id and d.deleted_at is not null)`;

/**
 * The fund assets' answer worked out bare in one statement, as well as it can be written: each
 * member's units and cents in each fund from one scan of the ledger (members deleted left out),
 * summed by fund and valued at each fund's latest price, with the money received beside it.
 */
const BARE_FUND_ASSETS = `
  with held as (
    select t.fund_id, t.member_id, sum(t.units) as units,
           sum(t.amount_cents) filter (where t.kind = 'contribution') as invested,
           sum(t.amount_cents) filter (where t.kind in ('switch_out', 'switch_in')) as switched
      from member_transactions t
     where t.broker_id = $1 and t.scheme_id = $2 and t.voided_at is null and t.dealt_on <= $3::date
       and ${NOT_DELETED('t')}
     group by t.fund_id, t.member_id
  ), by_fund as (
    select fund_id, sum(units) as units, count(*) filter (where units <> 0) as members,
           coalesce(sum(invested), 0) as invested, coalesce(sum(switched), 0) as switched
      from held group by fund_id
  ), money as (
    select sum(invested) as invested, sum(switched) as switched from by_fund
  ), received as (
    select coalesce((select sum(c.amount_cents) from contributions c
                      where c.broker_id = $1 and c.scheme_id = $2 and c.received_on <= $3::date
                        and ${NOT_DELETED('c')}), 0)
         + coalesce((select sum(a.delta_cents) from contribution_adjustments a
                       join contributions c on c.broker_id = a.broker_id and c.id = a.contribution_id
                      where c.broker_id = $1 and c.scheme_id = $2 and a.received_on <= $3::date
                        and ${NOT_DELETED('c')}), 0) as cents
  )
  select h.fund_id, f.name, h.units::text as units, h.members::int as members,
         p.price::text as price, p.priced_on::text as priced_on,
         round(h.units * p.price * 100)::bigint::text as value_cents,
         money.invested::text as invested, money.switched::text as switched,
         received.cents::text as received
    from by_fund h
    join funds f on f.broker_id = $1 and f.id = h.fund_id
    cross join lateral (
      select price, priced_on from fund_prices
       where broker_id = $1 and fund_id = h.fund_id and superseded_at is null
         and priced_on <= $3::date
       order by priced_on desc limit 1
    ) p
    cross join money cross join received
   where h.units <> 0
   order by h.fund_id`;

/** The barest sum of the same holdings: units by fund at each fund's latest price, nothing else. */
const BARE_HOLDINGS = `
  select h.fund_id, h.units::text as units, round(h.units * p.price * 100)::bigint::text as value_cents
    from (
      select t.fund_id, sum(t.units) as units from member_transactions t
       where t.broker_id = $1 and t.scheme_id = $2 and t.voided_at is null
         and t.dealt_on <= $3::date
       group by t.fund_id
    ) h
    cross join lateral (
      select price from fund_prices
       where broker_id = $1 and fund_id = h.fund_id and superseded_at is null
         and priced_on <= $3::date
       order by priced_on desc limit 1
    ) p
   order by h.fund_id`;

async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  const started = performance.now();
  const result = await work();
  return { ms: performance.now() - started, result };
}

/** The fund assets on the month's last day, through the service and bare, in turn. */
async function valuation(engine: Engine, seeded: Seeded, report: Report): Promise<void> {
  const opened = await engine.open();
  try {
    const holdings = createHoldingsService({
      database: opened.database,
      audit: createAuditService({
        now: () => new Date(),
        chainKey: auditChainKey('ab'.repeat(32)),
      }),
      now: () => new Date(),
    });
    const actor = administrator(seeded.brokerId);
    const params = [seeded.brokerId, seeded.schemeId, seeded.day];
    const service = () => holdings.fundAssets(actor, seeded.schemeId, { on: seeded.day });
    const sameAnswer = () =>
      opened.bare.query<{
        fund_id: string;
        units: string;
        members: number;
        value_cents: string;
        invested: string;
        switched: string;
        received: string;
      }>(BARE_FUND_ASSETS, params);
    const barest = () =>
      opened.bare.query<{ fund_id: string; units: string; value_cents: string }>(
        BARE_HOLDINGS,
        params,
      );

    // The answers agree before anything is timed.
    const answer = await service();
    const bare = await sameAnswer();
    const plain = await barest();
    const bareTotal =
      bare.reduce((total, row) => total + Number(row.value_cents), 0) +
      Number(bare[0]?.received ?? 0) -
      Number(bare[0]?.invested ?? 0) -
      Number(bare[0]?.switched ?? 0);
    const agree =
      answer.totalCents === bareTotal &&
      answer.funds.length === bare.length &&
      answer.funds.every(
        (fund, n) =>
          fund.units === bare[n]?.units &&
          fund.units === plain[n]?.units &&
          fund.members === bare[n]?.members,
      );
    if (!agree) {
      throw new Error(`the answers differ: ${JSON.stringify({ answer, bare, plain })}`);
    }

    const times = { service: [] as number[], same: [] as number[], barest: [] as number[] };
    for (let run = 0; run < VALUATION_RUNS; run += 1) {
      times.same.push((await timed(sameAnswer)).ms);
      times.barest.push((await timed(barest)).ms);
      times.service.push((await timed(service)).ms);
    }
    const serviceMs = median(times.service);
    const sameMs = median(times.same);
    const barestMs = median(times.barest);
    const members = MEMBERS.toLocaleString('en-IE');
    report(
      `${engine.name}: fund assets of ${members} members in 3 funds (ms, median of ${VALUATION_RUNS})`,
      serviceMs.toFixed(0),
      `${sameMs.toFixed(0)} bare SQL giving the same answer`,
      (sameMs / serviceMs).toFixed(2),
      '>= 0.50',
    );
    report(
      '  against a bare sum of units by fund alone (no member counted, no money)',
      '',
      barestMs.toFixed(0),
      (barestMs / serviceMs).toFixed(2),
      '',
    );
  } finally {
    await opened.close();
  }
}

/** Movements written at one moment, by kind: how many, and their units and cents. */
interface Written {
  kind: string;
  rows: number;
  units: string;
  cents: string;
}

const WRITTEN = `
  select kind, count(*)::int as rows, sum(units)::text as units, sum(amount_cents)::text as cents
    from member_transactions where broker_id = $1 and created_at >= $2 and voided_at is null
   group by kind order by kind`;

/**
 * The bare month-end: each contribution not yet invested bought in the fund of the choice in
 * force on its day (or the default fund) at that fund's first price on or after it, then each
 * member's charge of the month on what they hold at its last day, at the latest price on or
 * before it. The seed's choices are each one fund wholly, so a contribution buys with all of it.
 */
const BARE_INVEST = `
  insert into member_transactions (broker_id, id, employer_id, scheme_id, member_id, fund_id, kind,
                                   source, dealt_on, units, price, price_id, amount_cents, created_at)
  select c.broker_id, md5(c.id || '/' || line.fund_id), c.employer_id, c.scheme_id, c.member_id,
         line.fund_id, 'contribution', 'contribution:' || c.id, p.priced_on,
         round(c.amount_cents * line.percent / 100 / 100.0 / p.price, 6), p.price, p.id,
         c.amount_cents * line.percent / 100, $3::timestamptz
    from contributions c
    join members m on m.broker_id = c.broker_id and m.id = c.member_id and m.deleted_at is null
    join schemes s on s.broker_id = c.broker_id and s.id = c.scheme_id
    left join lateral (
      select a.id from fund_allocations a
       where a.broker_id = c.broker_id and a.member_id = c.member_id
         and a.effective_from <= c.received_on
       order by a.effective_from desc, a.created_at desc limit 1
    ) choice on true
    cross join lateral (
      select l.fund_id, l.percent from fund_allocation_lines l
       where l.broker_id = c.broker_id and l.allocation_id = choice.id
      union all
      select s.default_fund_id, 100 where choice.id is null and s.default_fund_id is not null
    ) line
    cross join lateral (
      select id, priced_on, price from fund_prices
       where broker_id = c.broker_id and fund_id = line.fund_id and superseded_at is null
         and priced_on >= c.received_on
       order by priced_on limit 1
    ) p
   where c.broker_id = $1 and c.scheme_id = $2 and c.amount_cents <> 0
     and not exists (
       select 1 from member_transactions t
        where t.broker_id = c.broker_id and t.member_id = c.member_id
          and t.source = 'contribution:' || c.id and t.voided_at is null)
  on conflict (broker_id, member_id, fund_id, kind, source) where voided_at is null do nothing`;

const BARE_CHARGE = `
  insert into member_transactions (broker_id, id, employer_id, scheme_id, member_id, fund_id, kind,
                                   source, dealt_on, units, price, price_id, amount_cents, created_at)
  select h.broker_id, md5(h.member_id || '/' || h.fund_id || '/' || $4), h.employer_id,
         h.scheme_id, h.member_id, h.fund_id, 'charge', 'charge:' || $4, $5::date,
         -charged.units, p.price, p.id, -round(charged.units * p.price * 100)::bigint,
         $3::timestamptz
    from (
      select t.broker_id, t.employer_id, t.scheme_id, t.member_id, t.fund_id,
             sum(t.units) as units
        from member_transactions t
        join members m on m.broker_id = t.broker_id and m.id = t.member_id and m.deleted_at is null
       where t.broker_id = $1 and t.scheme_id = $2 and t.voided_at is null
         and t.dealt_on <= $5::date
       group by t.broker_id, t.employer_id, t.scheme_id, t.member_id, t.fund_id
      having sum(t.units) > 0
    ) h
    join funds f on f.broker_id = h.broker_id and f.id = h.fund_id
     and f.annual_charge_basis_points > 0
    cross join lateral (
      select round(h.units * f.annual_charge_basis_points / 120000, 6) as units
    ) charged
    cross join lateral (
      select id, price from fund_prices
       where broker_id = h.broker_id and fund_id = h.fund_id and superseded_at is null
         and priced_on <= $5::date
       order by priced_on desc limit 1
    ) p
   where charged.units > 0
  on conflict (broker_id, member_id, fund_id, kind, source) where voided_at is null do nothing`;

interface JobRun {
  run: { invested: number; charged: number };
  ms: number;
  restMb: number;
  peakMb: number;
}

/**
 * One run of the investments job in its own process from the built code, as `npm start` runs the
 * service (bench/investments-job.ts), with the environment the server would have.
 */
async function runJob(env: Record<string, string>): Promise<JobRun> {
  const child = spawn(process.execPath, [...NODE_FLAGS, 'bench/investments-job.ts'], {
    env: { PATH: process.env.PATH ?? '', ...START_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  const line = out.trim().split('\n').at(-1) ?? '';
  if (code !== 0 || !line.startsWith('{')) {
    throw new Error(`the job's process exited with ${code}:\n${out}\n${err}`);
  }
  return JSON.parse(line) as JobRun;
}

const sameWrites = (a: Written[], b: Written[]) =>
  a.length === b.length &&
  a.every(
    (row, n) =>
      row.kind === b[n]?.kind &&
      row.rows === b[n]?.rows &&
      row.units === b[n]?.units &&
      row.cents === b[n]?.cents,
  );

/** The month-end run: bare statements (rolled back), then the job in its own process. */
async function monthEnd(engine: Engine, seeded: Seeded, report: Report): Promise<void> {
  const bareAt = new Date();
  let opened = await engine.open();
  let bareMs: number;
  let bareWrote: Written[];
  try {
    const { bare } = opened;
    await bare.query('begin');
    const run = await timed(async () => {
      await bare.query(BARE_INVEST, [seeded.brokerId, seeded.schemeId, bareAt.toISOString()]);
      await bare.query(BARE_CHARGE, [
        seeded.brokerId,
        seeded.schemeId,
        bareAt.toISOString(),
        seeded.month,
        seeded.day,
      ]);
    });
    bareMs = run.ms;
    bareWrote = await bare.query<Written>(WRITTEN, [seeded.brokerId, bareAt.toISOString()]);
    await bare.query('rollback');
    // The rows rolled back leave dead tuples in the ledger and its indexes: gone before the job.
    await bare.query('vacuum analyze member_transactions');
  } finally {
    await opened.close();
  }

  const dataDir = engine.dataDir ?? mkdtempSync(path.join(tmpdir(), 'bench-investments-job-'));
  const jobAt = new Date();
  let job: JobRun;
  try {
    job = await runJob({ ...appEnv(dataDir, 'warn'), ...engine.serviceEnv });
  } finally {
    if (!engine.dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
  if (job.run.invested !== MEMBERS || job.run.charged !== MEMBERS) {
    throw new Error(`the job did not do the month's work: ${JSON.stringify(job.run)}`);
  }

  opened = await engine.open();
  try {
    const jobWrote = await opened.bare.query<Written>(WRITTEN, [
      seeded.brokerId,
      jobAt.toISOString(),
    ]);
    if (!sameWrites(jobWrote, bareWrote)) {
      throw new Error(`the writes differ: ${JSON.stringify({ jobWrote, bareWrote })}`);
    }
  } finally {
    await opened.close();
  }

  const members = MEMBERS.toLocaleString('en-IE');
  report(
    `${engine.name}: month-end job, ${members} contributions invested, ${members} members charged (ms)`,
    job.ms.toFixed(0),
    `${bareMs.toFixed(0)} bare INSERT … SELECT of the same rows`,
    (bareMs / job.ms).toFixed(2),
    '>= 0.30',
  );
  report(
    "  peak RSS of the job's process (MB)",
    job.peakMb.toFixed(0),
    `${job.restMb.toFixed(0)} before the run`,
    '',
    '< 300',
  );
}

export async function runInvestments(report: Report): Promise<void> {
  const parts = chosen('BENCH_INVESTMENTS', PARTS);
  for (const which of chosen('BENCH_INVESTMENTS_ENGINES', ENGINES)) {
    const engine = which === 'postgres' ? await postgresEngine() : pgliteEngine();
    try {
      const opened = await engine.open();
      let seeded: Seeded;
      try {
        await migrate(opened.database);
        const run = await timed(() => seed(opened.bare));
        seeded = run.result;
        const [rows] = await opened.bare.query<{ n: number; version: string }>(
          `select count(*)::int as n, split_part(current_setting('server_version'), ' ', 1) as version
             from member_transactions`,
        );
        report(
          `${engine.name} ${rows?.version}: seeded (ms), ${MEMBERS.toLocaleString('en-IE')} members, ${HISTORY_MONTHS} months`,
          run.ms.toFixed(0),
          `${(rows?.n ?? 0).toLocaleString('en-IE')} movements on the ledger`,
          '',
          '',
        );
      } finally {
        await opened.close();
      }
      if (parts.includes('valuation')) await valuation(engine, seeded, report);
      if (parts.includes('month-end')) await monthEnd(engine, seeded, report);
    } finally {
      await engine.dispose();
    }
  }
}
