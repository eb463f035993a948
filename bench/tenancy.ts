import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createId } from '@paralleldrive/cuid2';
import pg from 'pg';
import { DEPLOYED_BCRYPT_COST } from '../src/contracts/passwords.js';
import { passwordHasher } from '../src/server/modules/auth/passwords.rules.js';
import { migrate } from '../src/server/platform/db/migrator.js';
import { openPostgres } from '../src/server/platform/db/postgres.js';
import { brokers, employers, schemes, users } from '../src/server/platform/db/schema.js';
import { withActor } from '../src/server/platform/db/with-actor.js';
import { appEnv } from './foundation.js';
import { load, median, type Report, startServer, stopServer } from './lib.js';
import { BENCH_ACTOR } from './sessions.js';
import { APP_COMMAND, APP_READY, NODE_FLAGS, RUNS, SECONDS } from './settings.js';

/**
 * Organisation API benchmarks, on PostgreSQL: an authenticated read against the same
 * SELECT behind bare Fastify and pg, and scheme creation (with its audit record) in one tenant and
 * spread over several, which shows whether per-tenant audit chains hold tenants up.
 */
const TENANTS = 8;
/** Every seeded benchmark account's password. */
export const PASSWORD = 'a benchmark passphrase that is long';
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface Tenant {
  email: string;
  userId: string;
  brokerId: string;
  employerId: string;
  schemeId: string;
  token: string;
}

export async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

export function databaseUrl(name: string): string {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function seed(url: string): Promise<Omit<Tenant, 'token'>[]> {
  const database = await openPostgres(url, url, 2);
  await migrate(database);
  const passwordHash = await passwordHasher(DEPLOYED_BCRYPT_COST)(PASSWORD);
  const tenants: Omit<Tenant, 'token'>[] = [];
  await withActor(database, BENCH_ACTOR, async (tx) => {
    for (let n = 0; n < TENANTS; n += 1) {
      const brokerId = createId();
      const employerId = createId();
      const schemeId = createId();
      const email = `admin-${n}@bench.example`;
      await tx.insert(brokers).values({ id: brokerId, name: `Broker ${n}` });
      await tx.insert(employers).values({ id: employerId, brokerId, name: `Employer ${n}` });
      await tx
        .insert(schemes)
        .values({ id: schemeId, brokerId, employerId, name: `Scheme ${n}`, type: 'DC' });
      const userId = createId();
      await tx.insert(users).values({
        id: userId,
        email,
        name: `Admin ${n}`,
        passwordHash,
        role: 'BrokerAdmin',
        brokerId,
      });
      tenants.push({ email, userId, brokerId, employerId, schemeId });
    }
  });
  await database.close();
  return tenants;
}

export async function signIn(base: string, email: string, client: number): Promise<string> {
  const response = await fetch(`${base}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.250.0.${client}` },
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  const cookie = response.headers.get('set-cookie') ?? '';
  const token = /session=([^;]+)/.exec(cookie)?.[1];
  if (!token) throw new Error(`sign-in failed for the benchmark: ${response.status}`);
  return token;
}

export async function runTenancy(report: Report): Promise<void> {
  const name = `pension_bench_${createId()}`;
  await adminQuery(`create database ${name}`);
  const url = databaseUrl(name);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-tenancy-'));
  let app: Awaited<ReturnType<typeof startServer>> | null = null;
  let bare: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    const seeded = await seed(url);
    app = await startServer(
      APP_COMMAND,
      { ...appEnv(dataDir, 'info'), DATABASE_URL: url },
      APP_READY,
    );
    bare = await startServer(
      [...NODE_FLAGS, '--import', 'tsx', 'bench/bare-pg-server.ts'],
      { BENCH_DATABASE_URL: url },
      /listening (\d+)/,
    );
    const appBase = `http://127.0.0.1:${app.port}`;
    const bareBase = `http://127.0.0.1:${bare.port}`;
    const tenants: Tenant[] = [];
    for (const [index, tenant] of seeded.entries()) {
      tenants.push({ ...tenant, token: await signIn(appBase, tenant.email, index + 1) });
    }
    const first = tenants[0] as Tenant;
    const bearer = (tenant: Tenant) => () => ({ authorization: `Bearer ${tenant.token}` });

    const readOptions = { connections: 16, headers: bearer(first) };
    await load(`${appBase}/api/schemes/${first.schemeId}`, 2, readOptions);
    await load(`${bareBase}/api/schemes/${first.schemeId}`, 2, { connections: 16 });
    const securedOptions = {
      connections: 16,
      headers: () => ({ 'x-user-id': first.userId, 'x-tenant-id': first.brokerId }),
    };
    const appRates: number[] = [];
    const bareRates: number[] = [];
    const securedRates: number[] = [];
    let appP99 = 0;
    for (let run = 0; run < RUNS; run += 1) {
      const base = await load(`${bareBase}/api/schemes/${first.schemeId}`, SECONDS, {
        connections: 16,
      });
      const secured = await load(
        `${bareBase}/api/secured/schemes/${first.schemeId}`,
        SECONDS,
        securedOptions,
      );
      const full = await load(`${appBase}/api/schemes/${first.schemeId}`, SECONDS, readOptions);
      if (secured.non2xx || secured.errors) throw new Error('the secured baseline failed');
      securedRates.push(secured.requestsPerSecond);
      if (full.non2xx || full.errors) throw new Error(`reads failed: ${JSON.stringify(full)}`);
      bareRates.push(base.requestsPerSecond);
      appRates.push(full.requestsPerSecond);
      appP99 = Math.max(appP99, full.p99Ms);
    }
    report(
      `GET /api/schemes/:id, session + RLS (req/s, median of ${RUNS})`,
      median(appRates).toFixed(0),
      `${median(bareRates).toFixed(0)} bare Fastify + pg`,
      (median(appRates) / median(bareRates)).toFixed(2),
      '>= 0.60',
    );
    report(
      '  against bare Fastify + pg doing the same security work',
      median(appRates).toFixed(0),
      `${median(securedRates).toFixed(0)} user read + RLS transaction`,
      (median(appRates) / median(securedRates)).toFixed(2),
      '',
    );
    report('  worst p99 of the full stack (ms)', appP99.toFixed(1), '', '', '');

    let next = 0;
    // The load generator asks for the body first, then the headers: the body picks the tenant.
    const creations = (spread: number) => {
      let current = first;
      return {
        connections: 16,
        body: () => {
          current = tenants[next++ % spread] as Tenant;
          return { employerId: current.employerId, name: 'Benchmark scheme', type: 'DC' };
        },
        headers: () => ({ authorization: `Bearer ${current.token}` }),
      };
    };
    const single = await load(`${appBase}/api/schemes`, SECONDS, creations(1));
    const spread = await load(`${appBase}/api/schemes`, SECONDS, creations(TENANTS));
    for (const result of [single, spread]) {
      if (result.non2xx || result.errors)
        throw new Error(`creations failed: ${JSON.stringify(result)}`);
    }
    report(
      `POST /api/schemes + audit, ${TENANTS} tenants (req/s)`,
      spread.requestsPerSecond.toFixed(0),
      `${single.requestsPerSecond.toFixed(0)} all in one tenant`,
      (spread.requestsPerSecond / single.requestsPerSecond).toFixed(2),
      '',
    );
    report(
      '  p99 (ms)',
      spread.p99Ms.toFixed(1),
      `${single.p99Ms.toFixed(1)} all in one tenant`,
      '',
      '',
    );
  } finally {
    if (app) await stopServer(app);
    if (bare) await stopServer(bare);
    rmSync(dataDir, { recursive: true, force: true });
    await adminQuery(`drop database if exists ${name} with (force)`);
  }
}
