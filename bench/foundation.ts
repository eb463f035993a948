import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  CLIENT_POOL,
  cpuPerRequest,
  load,
  median,
  type Report,
  rssMegabytes,
  type Started,
  sleep,
  startServer,
  stopServer,
} from './lib.js';
import { APP_COMMAND, APP_READY, BARE_COMMAND, RUNS, SECONDS } from './settings.js';

/** Foundation benchmarks: the plugin stack against bare Fastify, start-up, memory. */
const BARE_READY = /listening (\d+)/;

/**
 * Behind a trusted proxy (the load generator) that names the client of each request from a pool
 * of many, as clients behind a load balancer look: the rate limiter counts, nobody hits a limit.
 */
export function appEnv(dataDir: string, logLevel: string): Record<string, string> {
  return {
    APP_ENV: 'development',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: logLevel,
    TRUST_PROXY: '127.0.0.1',
  };
}

/** The same request against both servers, alternating so drift on the machine hits both alike. */
async function compare(
  report: Report,
  label: string,
  route: string,
  expectedStatus: number,
  bare: Started,
  app: Started,
  clients = CLIENT_POOL,
) {
  const runs = {
    bareRate: [] as number[],
    appRate: [] as number[],
    bareCpu: [] as number[],
    appCpu: [] as number[],
  };
  let appP99 = 0;
  for (let run = 0; run < RUNS; run += 1) {
    const base = await cpuPerRequest(
      bare.child.pid as number,
      `http://127.0.0.1:${bare.port}${route}`,
      SECONDS,
      { clients },
    );
    const full = await cpuPerRequest(
      app.child.pid as number,
      `http://127.0.0.1:${app.port}${route}`,
      SECONDS,
      { clients },
    );
    if (full.load.errors || (expectedStatus === 200 && full.load.non2xx)) {
      throw new Error(`full stack answered unexpectedly: ${JSON.stringify(full.load)}`);
    }
    runs.bareRate.push(base.load.requestsPerSecond);
    runs.appRate.push(full.load.requestsPerSecond);
    runs.bareCpu.push(base.microseconds);
    runs.appCpu.push(full.microseconds);
    appP99 = Math.max(appP99, full.load.p99Ms);
  }
  const [bareRate, appRate] = [median(runs.bareRate), median(runs.appRate)];
  report(
    `${label} (req/s, median of ${RUNS})`,
    appRate.toFixed(0),
    `${bareRate.toFixed(0)} bare Fastify`,
    (appRate / bareRate).toFixed(2),
    expectedStatus === 200 && clients === CLIENT_POOL ? '>= 0.80' : '',
  );
  // Server CPU per request: steadier than req/s when the load generator shares the two cores.
  const [bareCpu, appCpu] = [median(runs.bareCpu), median(runs.appCpu)];
  report(
    '  server CPU per request (µs)',
    appCpu.toFixed(1),
    `${bareCpu.toFixed(1)} bare Fastify`,
    (bareCpu / appCpu).toFixed(2),
    '',
  );
  report('  worst p99 latency of the full stack (ms)', appP99.toFixed(1), '', '', '');
}

async function throughput(report: Report) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-app-'));
  const bare = await startServer(BARE_COMMAND, {}, BARE_READY);
  const app = await startServer(APP_COMMAND, appEnv(dataDir, 'info'), APP_READY);
  try {
    for (const server of [bare, app])
      await load(`http://127.0.0.1:${server.port}/api/health/live`, 2);
    await compare(
      report,
      'GET /api/health/live, whole plugin stack',
      '/api/health/live',
      200,
      bare,
      app,
    );
    // The rate limiter's worst case: a client it has never seen on every request, so it keeps
    // hundreds of thousands of windows at once.
    await compare(
      report,
      'GET /api/health/live, a new client address every request',
      '/api/health/live',
      200,
      bare,
      app,
      2 ** 24,
    );
    await compare(
      report,
      'GET unknown /api/auth route: 404, access-logged',
      '/api/auth/none',
      404,
      bare,
      app,
    );
  } finally {
    await stopServer(app);
    await stopServer(bare);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function coldStartAndMemory(report: Report) {
  const firstStarts: number[] = [];
  const restarts: number[] = [];
  const idleRss: number[] = [];
  const bareRss: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-cold-'));
    const first = await startServer(APP_COMMAND, appEnv(dataDir, 'warn'), APP_READY);
    firstStarts.push(first.startMs);
    await stopServer(first);
    const again = await startServer(APP_COMMAND, appEnv(dataDir, 'warn'), APP_READY);
    restarts.push(again.startMs);
    await sleep(3_000);
    idleRss.push(rssMegabytes(again.child.pid as number));
    await stopServer(again);
    rmSync(dataDir, { recursive: true, force: true });

    const bare = await startServer(BARE_COMMAND, {}, BARE_READY);
    await sleep(3_000);
    bareRss.push(rssMegabytes(bare.child.pid as number));
    await stopServer(bare);
  }
  report(
    'Cold start to ready on PGlite, existing data (ms)',
    median(restarts).toFixed(0),
    '',
    '',
    '< 2000',
  );
  report('Very first start: initdb + migrations (ms)', median(firstStarts).toFixed(0), '', '', '');
  report(
    'Idle RSS on PGlite (MB)',
    median(idleRss).toFixed(0),
    `${median(bareRss).toFixed(0)} bare Fastify (tsx)`,
    '',
    '< 150',
  );
}

export async function runFoundation(report: Report): Promise<void> {
  await throughput(report);
  await coldStartAndMemory(report);
}
