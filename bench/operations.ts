import { mkdtempSync, rmSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createId } from '@paralleldrive/cuid2';
import pg from 'pg';
import { TEST_SECRETS } from '../test/helpers/config.js';
import {
  freePort,
  NGINX_LETS_GO_MS,
  nginxConfigFromShipped,
  nginxSkipReason,
  proxyRequest,
  type RunningNginx,
  setUpstreamDown,
  startNginx,
} from '../test/helpers/deploy.js';
import { newPpsNumber } from '../test/helpers/pps.js';
import { selfSignedCertificate } from '../test/helpers/tls.js';
import { appEnv } from './foundation.js';
import { median, type Report, rssMegabytes, type Started, startServer, stopServer } from './lib.js';
import { mintSessions } from './sessions.js';
import { APP_COMMAND, APP_READY, SECONDS } from './settings.js';
import { adminQuery, databaseUrl, seed } from './tenancy.js';

/**
 * Operations (docs/deployment.md, "The operations benchmark"): two built instances
 * behind nginx configured from deploy/nginx, sharing one throwaway PostgreSQL database and the
 * machine's Redis. (1) the authenticated scheme read, one instance directly against two behind
 * nginx, in the same run; (2) a mixed load of many concurrent clients over the main reads and
 * writes: p50/p99, 5xx, and every write answered 2xx found in the database; (3) a rolling restart
 * under that load: failed requests; (4) a soak: both instances' resident memory over minutes.
 */

/** Concurrent clients of the mixed load (docs/deployment.md: 200). */
const CLIENTS = Number(process.env.BENCH_OPS_CLIENTS ?? 200);
/** Seconds of the mixed load (docs/deployment.md: 60). */
const LOAD_SECONDS = Number(process.env.BENCH_OPS_LOAD_SECONDS ?? 60);
/** Minutes of the soak (docs/deployment.md: 10). */
const SOAK_MINUTES = Number(process.env.BENCH_OPS_SOAK_MINUTES ?? 10);
/** Concurrent clients during the soak: steady traffic, not the peak. */
const SOAK_CLIENTS = 50;
/** The throughput comparison's concurrency, for the direct instance and for nginx alike. */
const READ_CLIENTS = 32;
/**
 * Signed-in traffic is limited to 100 requests a minute per user and 1,000 per client address
 * (src/server/platform/http/rate-limits.ts): the load is spread over this many users of one firm, and
 * each client connects from a loopback address of its own, as clients behind nginx would.
 */
const USERS = 4_000;

interface Target {
  base: URL;
  tls: boolean;
}

interface Outcome {
  method: string;
  status: number;
  body: string;
  ms: number;
}

/**
 * Loopback addresses each client of the throughput comparison takes turns with, one kept-alive
 * connection from each: the per-address limit (1,000 a minute) then stays out of the way of a
 * client sending a hundred requests a second. The mixed load's clients send a few a second and
 * have one address and one connection each, as that many people behind nginx would: eight each
 * there made 1,600 connections, over the shipped nginx's 1,024 a worker, which then cut idle ones.
 */
const THROUGHPUT_ADDRESSES = 8;
/** A second octet of this run's own, so counts a shared Redis kept from a run before do not count. */
const RUN_OCTET = 40 + Math.floor(Math.random() * 150);

/** The `index`th loopback address of this run: 127.<run>.<1-250>.<1-250>, none twice. */
function loopbackAddress(index: number): string {
  return `127.${RUN_OCTET}.${(Math.floor(index / 250) % 250) + 1}.${(index % 250) + 1}`;
}

/** The next loopback address no client of this run has used: no per-address count carries over. */
let addressesTaken = 0;
const freshAddress = () => loopbackAddress(addressesTaken++);

/** One client: `addresses` loopback addresses of its own, each with its own kept-alive connection. */
function clientOf(target: Target, addresses: number) {
  const connections = Array.from({ length: addresses }, () => ({
    localAddress: freshAddress(),
    agent: target.tls
      ? new HttpsAgent({ keepAlive: true, maxSockets: 1, rejectUnauthorized: false })
      : new HttpAgent({ keepAlive: true, maxSockets: 1 }),
  }));
  let turn = 0;
  const send = (method: string, url: string, token: string, body?: unknown) =>
    new Promise<Outcome>((resolve) => {
      const { localAddress, agent } = connections[turn++ % connections.length] as {
        localAddress: string;
        agent: HttpAgent;
      };
      const started = performance.now();
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const options = {
        host: target.base.hostname,
        port: target.base.port,
        method,
        path: url,
        agent,
        localAddress,
        headers: {
          authorization: `Bearer ${token}`,
          // Believed only from 127.0.0.1 (TRUST_PROXY); nginx replaces it with this same address.
          'x-forwarded-for': localAddress,
          ...(payload === undefined
            ? {}
            : {
                'content-type': 'application/json',
                'content-length': String(Buffer.byteLength(payload)),
              }),
        },
      };
      const onAnswer = (response: import('node:http').IncomingMessage) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({
            method,
            status: response.statusCode ?? 0,
            body: text,
            ms: performance.now() - started,
          }),
        );
        response.on('error', () =>
          resolve({ method, status: 0, body: '', ms: performance.now() - started }),
        );
      };
      const request = target.tls ? httpsRequest(options, onAnswer) : httpRequest(options, onAnswer);
      // Status 0: the connection failed or was cut, an answer the client never got.
      request.on('error', (error: NodeJS.ErrnoException) =>
        resolve({
          method,
          status: 0,
          body: error.code ?? error.message,
          ms: performance.now() - started,
        }),
      );
      request.end(payload);
    });
  return {
    send,
    close: () => {
      for (const { agent } of connections) agent.destroy();
    },
  };
}

interface Tally {
  latencies: number[];
  statuses: Map<number, number>;
  /** Each kind of failure (5xx, or no answer with the socket error's code) by method, and how often. */
  failures: Map<string, number>;
  /** Ids of members and contributions whose creation was answered 2xx. */
  createdMembers: string[];
  createdContributions: string[];
}

const newTally = (): Tally => ({
  latencies: [],
  statuses: new Map(),
  failures: new Map(),
  createdMembers: [],
  createdContributions: [],
});

const countOf = (tally: Tally, test: (status: number) => boolean) =>
  [...tally.statuses].filter(([status]) => test(status)).reduce((sum, [, n]) => sum + n, 0);

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

interface Seeded {
  schemeId: string;
  /** Members that exist before the load, for the reads of one member. */
  memberIds: string[];
  tokens: string[];
}

/**
 * `clients` clients, each sending its next request when the last is answered, until `stop()`
 * resolves. With `mixed`, the main reads and writes: the scheme, its member list, one member,
 * and (one request in five) a new member or a contribution for one this client created; without,
 * the scheme read alone.
 */
async function drive(
  target: Target,
  seeded: Seeded,
  clients: number,
  addressesPerClient: number,
  stop: Promise<void>,
  mixed: boolean,
  tally: Tally,
): Promise<void> {
  let stopped = false;
  void stop.then(() => {
    stopped = true;
  });
  let nextToken = 0;
  const token = () => seeded.tokens[nextToken++ % seeded.tokens.length] as string;
  const record = (outcome: Outcome) => {
    if (outcome.status === 0 || outcome.status >= 500) {
      const what = `${outcome.method} ${outcome.status === 0 ? `cut (${outcome.body})` : outcome.status}`;
      tally.failures.set(what, (tally.failures.get(what) ?? 0) + 1);
    }
    tally.latencies.push(outcome.ms);
    tally.statuses.set(outcome.status, (tally.statuses.get(outcome.status) ?? 0) + 1);
  };
  await Promise.all(
    Array.from({ length: clients }, async (_, n) => {
      const client = clientOf(target, addressesPerClient);
      const mine: Array<{ id: string; periods: number }> = [];
      let turn = n;
      try {
        while (!stopped) {
          turn += 1;
          const scheme = `/api/schemes/${seeded.schemeId}`;
          if (!mixed || turn % 10 < 4) {
            record(await client.send('GET', scheme, token()));
          } else if (turn % 10 < 6) {
            record(await client.send('GET', `${scheme}/members?limit=20`, token()));
          } else if (turn % 10 < 8) {
            const id = seeded.memberIds[turn % seeded.memberIds.length] as string;
            record(await client.send('GET', `/api/members/${id}`, token()));
          } else if (turn % 10 === 8 || mine.length === 0) {
            const answer = await client.send('POST', `${scheme}/members`, token(), {
              firstName: 'Bench',
              lastName: `Member ${n}-${turn}`,
              dateOfBirth: '1980-01-01',
              dateJoined: '2020-01-01',
              salaryCents: 5_000_000,
              ppsNumber: newPpsNumber(),
            });
            record(answer);
            if (answer.status === 201) {
              const id = (JSON.parse(answer.body) as { id: string }).id;
              tally.createdMembers.push(id);
              mine.push({ id, periods: 0 });
            }
          } else {
            const member = mine[turn % mine.length] as { id: string; periods: number };
            // A new pay period each time: one contribution per member, period and kind.
            const month = member.periods++;
            const period = `${2000 + Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}`;
            const answer = await client.send(
              'POST',
              `/api/members/${member.id}/contributions`,
              token(),
              { period, kind: 'employee', amountCents: 10_000 },
            );
            record(answer);
            if (answer.status === 201) {
              tally.createdContributions.push((JSON.parse(answer.body) as { id: string }).id);
            }
          }
        }
      } finally {
        client.close();
      }
    }),
  );
}

const after = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How many of `ids` are rows of `table`, counted as the owner (every tenant). */
async function present(url: string, table: 'members' | 'contributions', ids: string[]) {
  if (ids.length === 0) return 0;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      `select count(*) as n from ${table} where id = any($1)`,
      [ids],
    );
    return Number(rows[0]?.n);
  } finally {
    await client.end();
  }
}

/** Members to read, created through the service by its first user before any load. */
async function seedMembers(target: Target, schemeId: string, token: string): Promise<string[]> {
  const client = clientOf(target, 1);
  const ids: string[] = [];
  try {
    for (let n = 0; n < 50; n += 1) {
      const answer = await client.send('POST', `/api/schemes/${schemeId}/members`, token, {
        firstName: 'Seed',
        lastName: `Member ${n}`,
        dateOfBirth: '1975-06-01',
        dateJoined: '2010-01-01',
        salaryCents: 4_000_000,
        ppsNumber: newPpsNumber(),
      });
      if (answer.status !== 201) throw new Error(`seeding a member answered ${answer.status}`);
      ids.push((JSON.parse(answer.body) as { id: string }).id);
    }
  } finally {
    client.close();
  }
  return ids;
}

interface Instance {
  port: number;
  dataDir: string;
  started: Started;
}

async function startInstance(url: string, port: number, dataDir: string): Promise<Instance> {
  const started = await startServer(
    APP_COMMAND,
    {
      ...appEnv(dataDir, 'info'),
      ...TEST_SECRETS,
      PORT: String(port),
      DATABASE_URL: url,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    },
    APP_READY,
  );
  return { port, dataDir, started };
}

/** What one instance holds: the kernel's resident set, and V8's heap as the instance reports it. */
interface InstanceMemory {
  rssMb: number;
  heapUsedMb: number;
  externalMb: number;
}

/** Reads the instance's own figures from its metrics endpoint (prom-client's default metrics). */
async function memoryOf(instance: Instance): Promise<InstanceMemory> {
  const rssMb = rssMegabytes(instance.started.child.pid as number);
  const response = await fetch(`http://127.0.0.1:${instance.port}/api/health/metrics`, {
    headers: { authorization: `Bearer ${TEST_SECRETS.METRICS_SECRET}` },
  });
  const text = await response.text();
  const gauge = (name: string) =>
    Number(new RegExp(`^pension_${name} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN) / 2 ** 20;
  return {
    rssMb,
    heapUsedMb: gauge('nodejs_heap_size_used_bytes'),
    externalMb: gauge('nodejs_external_memory_bytes'),
  };
}

/**
 * Both instances were just restarted (3): their first minutes are warm-up, not growth (code
 * compiled, pools and caches filled, and V8's heap grown to what the load needs: a 20-minute soak
 * measured RSS rising for two to three minutes and then flat to the megabyte for seventeen). The
 * first quarter of the soak is left out as warm-up; the start is the first tenth of what follows
 * and the end the last tenth. RSS is averaged over each tenth. The heap is the lowest reading in each tenth: a
 * sample lands anywhere between two collections, and the lowest is nearest the live size, which
 * is what grows when something is kept per request.
 */
function reportSoak(
  report: Report,
  samples: Array<{ at: number; memory: InstanceMemory[] }>,
): void {
  const warmUpSeconds = Math.max(60, (SOAK_MINUTES * 60) / 4);
  const settled = samples.filter((sample) => sample.at >= warmUpSeconds);
  const measured = settled.length >= 2 ? settled : samples;
  const first = measured.slice(0, Math.max(1, Math.ceil(measured.length / 10)));
  const last = measured.slice(-first.length);
  const from =
    measured === settled
      ? `after ${(warmUpSeconds / 60).toFixed(1)} min of warm-up`
      : 'at the start';
  for (const index of [0, 1]) {
    const of = (rows: typeof samples, pick: (memory: InstanceMemory) => number) =>
      rows.map((row) => pick(row.memory[index] as InstanceMemory));
    const mean = (values: number[]) =>
      values.reduce((sum, value) => sum + value, 0) / values.length;
    const rssStart = mean(of(first, (m) => m.rssMb));
    const rssEnd = mean(of(last, (m) => m.rssMb));
    report(
      `soak, ${SOAK_MINUTES} min at ${SOAK_CLIENTS} clients: instance ${index + 1} RSS at the end (MB)`,
      rssEnd.toFixed(0),
      `${rssStart.toFixed(0)} ${from}; peak ${Math.max(...of(samples, (m) => m.rssMb)).toFixed(0)}`,
      (rssEnd / rssStart).toFixed(2),
      'flat',
    );
    const heapStart = Math.min(...of(first, (m) => m.heapUsedMb));
    const heapEnd = Math.min(...of(last, (m) => m.heapUsedMb));
    report(
      `  instance ${index + 1} V8 heap used, lowest in the last tenth (MB)`,
      heapEnd.toFixed(1),
      `${heapStart.toFixed(1)} ${from}; external ${mean(of(first, (m) => m.externalMb)).toFixed(1)} → ${mean(of(last, (m) => m.externalMb)).toFixed(1)}`,
      (heapEnd / heapStart).toFixed(2),
      'flat',
    );
  }
  // Each instance's curve, one line a minute, so a plateau can be told from a slope.
  for (const sample of samples.filter((_, n) => n % 6 === 0)) {
    report(
      `  minute ${(sample.at / 60).toFixed(0)}: RSS / heap used (MB)`,
      sample.memory.map((m) => `${m.rssMb.toFixed(0)} / ${m.heapUsedMb.toFixed(0)}`).join(' · '),
      '',
      '',
      '',
    );
  }
}

export async function runOperations(report: Report): Promise<void> {
  if (nginxSkipReason) {
    report('operations: skipped', nginxSkipReason, '', '', '');
    return;
  }
  const name = `pension_bench_${createId()}`;
  await adminQuery(`create database ${name}`);
  const url = databaseUrl(name);
  const instances: Instance[] = [];
  let nginx: RunningNginx | null = null;
  try {
    const [tenant] = await seed(url);
    if (!tenant) throw new Error('nothing seeded');
    const tokens = await mintSessions(url, {
      brokerId: tenant.brokerId,
      count: USERS,
      role: 'BrokerAdmin',
      label: 'ops',
      secret: TEST_SECRETS.AUTH_SECRET,
    });
    for (let n = 0; n < 2; n += 1) {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-operations-'));
      instances.push(await startInstance(url, await freePort(), dataDir));
    }
    const httpsPort = await freePort();
    const setup = nginxConfigFromShipped({
      httpPort: await freePort(),
      httpsPort,
      upstreams: instances.map((instance) => `127.0.0.1:${instance.port}`),
      certificate: selfSignedCertificate(),
      // Which instance answered: the benchmark's own diagnostic, not part of the shipped file.
      extraServerLines: ['add_header X-Bench-Upstream $upstream_addr always;'],
    });
    nginx = await startNginx(setup, httpsPort);
    const direct: Target = { base: new URL(`http://127.0.0.1:${instances[0]?.port}`), tls: false };
    const proxied: Target = { base: new URL(`https://127.0.0.1:${httpsPort}`), tls: true };
    const seeded: Seeded = {
      schemeId: tenant.schemeId,
      memberIds: await seedMembers(direct, tenant.schemeId, tokens[0] as string),
      tokens: tokens.slice(1),
    };

    // (1) The authenticated scheme read, alternating direct and proxied so drift hits both.
    const rates = { direct: [] as number[], proxied: [] as number[] };
    for (let run = 0; run < 2; run += 1) {
      for (const [label, target] of [
        ['direct', direct],
        ['proxied', proxied],
      ] as const) {
        const tally = newTally();
        const began = performance.now();
        await drive(
          target,
          seeded,
          READ_CLIENTS,
          THROUGHPUT_ADDRESSES,
          after(SECONDS * 1000),
          false,
          tally,
        );
        if (countOf(tally, (status) => status !== 200) > 0) {
          throw new Error(`${label} scheme reads answered ${JSON.stringify([...tally.statuses])}`);
        }
        rates[label].push(tally.latencies.length / ((performance.now() - began) / 1000));
      }
    }
    const directRate = median(rates.direct);
    const proxiedRate = median(rates.proxied);
    report(
      `GET /api/schemes/:id signed in, ${READ_CLIENTS} clients: two instances behind nginx (TLS) vs one direct (req/s)`,
      proxiedRate.toFixed(0),
      directRate.toFixed(0),
      (proxiedRate / directRate).toFixed(2),
      '',
    );

    // (2) The mixed load through nginx.
    const load = newTally();
    await drive(proxied, seeded, CLIENTS, 1, after(LOAD_SECONDS * 1000), true, load);
    reportLoad(report, `mixed load, ${CLIENTS} clients, ${LOAD_SECONDS} s`, load);
    const membersFound = await present(url, 'members', load.createdMembers);
    const contributionsFound = await present(url, 'contributions', load.createdContributions);
    report(
      '  writes answered 2xx found in the database (members + contributions)',
      `${membersFound + contributionsFound}`,
      `${load.createdMembers.length + load.createdContributions.length} answered`,
      '',
      'all (no lost write)',
    );

    // (3) A rolling restart under load, as docs/deployment.md ("Rolling restart") has an
    // operator do it behind nginx: each instance in turn is taken out of nginx's rotation (marked
    // `down`, nginx reloaded), sent SIGTERM once nginx's old workers have let go of it, started
    // again on its port and put back.
    const rolling = newTally();
    let restarted: () => void = () => undefined;
    const restartDone = new Promise<void>((resolve) => {
      restarted = resolve;
    });
    const loadDuringRestart = drive(proxied, seeded, CLIENTS, 1, restartDone, true, rolling);
    const restartMs: number[] = [];
    await after(2_000);
    for (const [index, instance] of instances.entries()) {
      const began = performance.now();
      const address = `127.0.0.1:${instance.port}`;
      setUpstreamDown(setup, address, true);
      await after(NGINX_LETS_GO_MS);
      await stopServer(instance.started);
      instances[index] = await startInstance(url, instance.port, instance.dataDir);
      setUpstreamDown(setup, address, false);
      // nginx took the stopped instance out after its failures (max_fails=3 fail_timeout=10s in
      // deploy/nginx/pension-admin.conf) and sends it nothing until fail_timeout has passed:
      // stopping the other before then would leave nginx no instance at all (502 for everyone).
      await servedThroughNginx(httpsPort, instance.port);
      restartMs.push(performance.now() - began);
    }
    restarted();
    await loadDuringRestart;
    const failed = countOf(rolling, (status) => status === 0 || status >= 500);
    report(
      `rolling restart under ${CLIENTS} clients: failed requests (5xx or cut) of ${rolling.latencies.length}`,
      String(failed),
      `each instance back in nginx's rotation after ${restartMs.map((ms) => (ms / 1000).toFixed(1)).join(' s, ')} s; ${statusesOf(rolling)}`,
      '',
      '0',
    );
    // nginx's own account of each failure: why it gave up on the request (its error log).
    const reasons = new Map<string, number>();
    for (const line of nginx.errorLog().split('\n')) {
      const reason = /\[error\] [^:]*: \*\d+ ([^,]+)/.exec(line)?.[1]?.replace(/\d+: /, '').trim();
      if (reason) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
    if (failed > 0 || reasons.size > 0) {
      report(
        '  nginx error log during the restart',
        String([...reasons.values()].reduce((sum, n) => sum + n, 0)),
        [...reasons].map(([reason, n]) => `${reason} ×${n}`).join('; '),
        '',
        '',
      );
    }
    const otherDuringRestart = countOf(rolling, (status) => status >= 300 && status < 500);
    if (otherDuringRestart > 0) {
      report(
        '  other non-2xx during the restart',
        String(otherDuringRestart),
        statusesOf(rolling),
        '',
        '',
      );
    }
    const restartWrites =
      (await present(url, 'members', rolling.createdMembers)) +
      (await present(url, 'contributions', rolling.createdContributions));
    report(
      '  writes answered 2xx during the restart found in the database',
      String(restartWrites),
      `${rolling.createdMembers.length + rolling.createdContributions.length} answered`,
      '',
      'all',
    );

    // (4) The soak: steady mixed traffic, both instances' RSS and V8 heap sampled every 10 s.
    const samples: Array<{ at: number; memory: InstanceMemory[] }> = [];
    const soak = newTally();
    const soakEnds = after(SOAK_MINUTES * 60_000);
    const sampling = (async () => {
      const began = performance.now();
      let ended = false;
      void soakEnds.then(() => {
        ended = true;
      });
      while (!ended) {
        const at = (performance.now() - began) / 1000;
        samples.push({ at, memory: await Promise.all(instances.map(memoryOf)) });
        await Promise.race([after(10_000), soakEnds]);
      }
    })();
    await Promise.all([drive(proxied, seeded, SOAK_CLIENTS, 1, soakEnds, true, soak), sampling]);
    reportSoak(report, samples);
    reportLoad(report, `  soak traffic`, soak);
  } finally {
    await nginx?.stop();
    for (const instance of instances) {
      if (instance.started.child.exitCode === null) await stopServer(instance.started);
      rmSync(instance.dataDir, { recursive: true, force: true });
    }
    await adminQuery(`drop database if exists ${name} with (force)`);
  }
}

/**
 * Resolves once nginx has passed a request to the instance on `port` again: the point at which
 * a rolling restart may take the next instance down (docs/deployment.md, "Rolling restart").
 */
async function servedThroughNginx(httpsPort: number, port: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const answer = await proxyRequest({
      port: httpsPort,
      tls: true,
      path: '/api/health/live',
      localAddress: freshAddress(),
    }).catch(() => null);
    if (String(answer?.headers['x-bench-upstream'] ?? '').endsWith(`127.0.0.1:${port}`)) return;
    await after(200);
  }
  throw new Error(`nginx sent nothing to the restarted instance on ${port} within a minute`);
}

function statusesOf(tally: Tally): string {
  const answered = [...tally.statuses]
    .filter(([status]) => status !== 0 && status < 500)
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status}×${n}`);
  const failed = [...tally.failures].map(([what, n]) => `${what}×${n}`);
  return [...answered, ...failed].join(' ');
}

function reportLoad(report: Report, label: string, tally: Tally): void {
  report(
    `${label}: p50 / p99 (ms), requests`,
    `${percentile(tally.latencies, 0.5).toFixed(1)} / ${percentile(tally.latencies, 0.99).toFixed(1)}`,
    `${tally.latencies.length} requests`,
    '',
    '',
  );
  report(
    `${label}: 5xx or cut`,
    String(countOf(tally, (status) => status === 0 || status >= 500)),
    statusesOf(tally),
    '',
    '0',
  );
}
