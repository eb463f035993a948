import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createId } from '@paralleldrive/cuid2';
import { appEnv } from './foundation.js';
import {
  cpuPerRequest,
  type Load,
  load,
  median,
  type Report,
  type Started,
  startServer,
  stopServer,
} from './lib.js';
import { mintSessions } from './sessions.js';
import { APP_COMMAND, APP_READY, NODE_FLAGS, RUNS, SECONDS } from './settings.js';
import { adminQuery, databaseUrl, seed } from './tenancy.js';

/**
 * The request-path benchmark (docs/decisions/0060-request-path-one-round-trip.md): "read one scheme
 * of my tenant" with 16 connections, the service beside three bare Fastify + pg servers in the same
 * run: the SELECT alone; the service's security work (verify the token, check the user's current
 * state, run the SELECT as pension_app with the tenant set) in four round trips; the same work in
 * one. Then the same with 1 ms added to every database round trip by a delaying proxy on loopback
 * (bench/delay-proxy.ts), where the service's p50 latency is the figure.
 */
const CONNECTIONS = 16;
/**
 * Signed-in traffic is limited per user (docs/api.md, "Rate limits"), so the load is spread over
 * this many users of one firm, each token used in turn.
 */
const USERS = 3_000;

/** Signs the service's tokens and lets the secured baselines verify them. */
const AUTH_SECRET = 'request-path-benchmark-secret-of-more-than-32-chars';

interface Servers {
  app: Started;
  bare: Started;
}

async function startServers(url: string, dataDir: string): Promise<Servers> {
  const app = await startServer(
    APP_COMMAND,
    { ...appEnv(dataDir, 'info'), DATABASE_URL: url, AUTH_SECRET },
    APP_READY,
  );
  const bare = await startServer(
    [...NODE_FLAGS, '--import', 'tsx', 'bench/bare-pg-server.ts'],
    { BENCH_DATABASE_URL: url, BENCH_AUTH_SECRET: AUTH_SECRET },
    /listening (\d+)/,
  );
  return { app, bare };
}

interface Figures {
  bare: Load[];
  secured4: Load[];
  secured1: Load[];
  service: Load[];
  /** Server CPU per request under the load (µs), per run. */
  cpu: Record<Name, number[]>;
  /** Median of one request at a time, nothing else in flight (ms, sub-millisecond). */
  unloadedP50: Record<Name, number>;
}

type Name = 'bare' | 'secured4' | 'secured1' | 'service';
const NAMES: readonly Name[] = ['bare', 'secured4', 'secured1', 'service'];

/** One request at a time, `count` of them: the median time to the last byte of the answer. */
async function unloadedP50(url: string, headers: () => Record<string, string>, count = 1_000) {
  const times: number[] = [];
  for (let n = 0; n < count; n += 1) {
    const started = performance.now();
    const response = await fetch(url, {
      headers: { ...headers(), 'x-forwarded-for': `10.9.${n >> 8}.${n & 255}` },
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
    times.push(performance.now() - started);
  }
  return median(times);
}

async function measure(servers: Servers, schemeId: string, tokens: string[]): Promise<Figures> {
  const appBase = `http://127.0.0.1:${servers.app.port}`;
  const bareBase = `http://127.0.0.1:${servers.bare.port}`;
  let next = 0;
  const secured = {
    connections: CONNECTIONS,
    headers: () => ({ authorization: `Bearer ${tokens[next++ % tokens.length]}` }),
  };
  const urls = {
    bare: `${bareBase}/api/schemes/${schemeId}`,
    secured4: `${bareBase}/api/secured4/schemes/${schemeId}`,
    secured1: `${bareBase}/api/secured1/schemes/${schemeId}`,
    service: `${appBase}/api/schemes/${schemeId}`,
  };
  // Warm-up: JIT, pools, and the service's first (reading) check of this session.
  for (const url of Object.values(urls)) await load(url, 3, secured);
  const figures: Figures = {
    bare: [],
    secured4: [],
    secured1: [],
    service: [],
    cpu: { bare: [], secured4: [], secured1: [], service: [] },
    unloadedP50: { bare: 0, secured4: 0, secured1: 0, service: 0 },
  };
  const pidOf = (name: Name) =>
    (name === 'service' ? servers.app : servers.bare).child.pid as number;
  for (let run = 0; run < RUNS; run += 1) {
    // Alternating, so drift on the machine hits every server alike.
    for (const name of NAMES) {
      const { load: result, microseconds } = await cpuPerRequest(
        pidOf(name),
        urls[name],
        SECONDS,
        name === 'bare' ? { connections: CONNECTIONS } : secured,
      );
      if (result.non2xx || result.errors)
        throw new Error(`${name} failed: ${JSON.stringify(result)}`);
      figures[name].push(result);
      figures.cpu[name].push(microseconds);
    }
  }
  for (const name of NAMES)
    figures.unloadedP50[name] = await unloadedP50(urls[name], secured.headers);
  return figures;
}

const rate = (loads: Load[]) => median(loads.map((l) => l.requestsPerSecond));
const p50 = (loads: Load[]) => median(loads.map((l) => l.p50Ms));
const spread = (loads: Load[]) => {
  const rates = loads.map((l) => l.requestsPerSecond);
  return `${Math.min(...rates).toFixed(0)}–${Math.max(...rates).toFixed(0)}`;
};

function reportFigures(report: Report, label: string, figures: Figures): void {
  const service = rate(figures.service);
  report(
    `${label}: GET /api/schemes/:id, service (req/s, median of ${RUNS}; range ${spread(figures.service)})`,
    service.toFixed(0),
    `${rate(figures.secured1).toFixed(0)} security work in one round trip (${spread(figures.secured1)})`,
    (service / rate(figures.secured1)).toFixed(2),
    '>= 0.70',
  );
  report(
    '  against the same work in four round trips',
    service.toFixed(0),
    `${rate(figures.secured4).toFixed(0)} four round trips (${spread(figures.secured4)})`,
    (service / rate(figures.secured4)).toFixed(2),
    '',
  );
  report(
    '  against the bare SELECT',
    service.toFixed(0),
    `${rate(figures.bare).toFixed(0)} bare Fastify + pg (${spread(figures.bare)})`,
    (service / rate(figures.bare)).toFixed(2),
    '',
  );
  report(
    '  baselines against the bare SELECT: one round trip, four',
    (rate(figures.secured1) / rate(figures.bare)).toFixed(2),
    (rate(figures.secured4) / rate(figures.bare)).toFixed(2),
    '',
    '',
  );
  report(
    '  server CPU per request (µs, median): service, one round trip, four, bare',
    median(figures.cpu.service).toFixed(0),
    NAMES.slice(0, 3)
      .reverse()
      .map((name) => median(figures.cpu[name]).toFixed(0))
      .join(', '),
    (median(figures.cpu.secured1) / median(figures.cpu.service)).toFixed(2),
    '',
  );
  report(
    `  p50 latency under the load (ms, 1 ms resolution): service, one round trip, four, bare`,
    p50(figures.service).toFixed(0),
    `${p50(figures.secured1).toFixed(0)}, ${p50(figures.secured4).toFixed(0)}, ${p50(figures.bare).toFixed(0)}`,
    '',
    '',
  );
  const unloaded = figures.unloadedP50;
  report(
    '  p50 latency, one request at a time (ms): service, one round trip, four, bare',
    unloaded.service.toFixed(2),
    `${unloaded.secured1.toFixed(2)}, ${unloaded.secured4.toFixed(2)}, ${unloaded.bare.toFixed(2)}`,
    '',
    label.includes('1 ms') ? 'service < 2.5' : '',
  );
}

export async function runRequestPath(report: Report): Promise<void> {
  const name = `pension_bench_${createId()}`;
  await adminQuery(`create database ${name}`);
  const url = databaseUrl(name);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-request-path-'));
  const running: Started[] = [];
  try {
    const [tenant] = await seed(url);
    if (!tenant) throw new Error('nothing seeded');
    const direct = await startServers(url, dataDir);
    running.push(direct.app, direct.bare);
    const tokens = await mintSessions(url, {
      brokerId: tenant.brokerId,
      count: USERS,
      role: 'BrokerUser',
      label: 'user',
      secret: AUTH_SECRET,
    });
    reportFigures(report, 'loopback', await measure(direct, tenant.schemeId, tokens));

    const proxy = await startServer(
      [...NODE_FLAGS, '--import', 'tsx', 'bench/delay-proxy.ts'],
      { BENCH_TARGET_URL: url, BENCH_DELAY_MS: '1' },
      /listening (\d+)/,
    );
    running.push(proxy);
    const proxied = new URL(url);
    proxied.port = String(proxy.port);
    const delayed = await startServers(proxied.toString(), dataDir);
    running.push(delayed.app, delayed.bare);
    reportFigures(report, '1 ms per round trip', await measure(delayed, tenant.schemeId, tokens));
  } finally {
    for (const server of running.reverse()) await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
    await adminQuery(`drop database if exists ${name} with (force)`);
  }
}
