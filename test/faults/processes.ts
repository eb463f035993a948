import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { postgresProgram, programOnPath } from '../../src/server/platform/ops/programs.js';
import { type BuiltServer, startBuiltServer } from '../helpers/built-server.js';
import { TEST_SECRETS } from '../helpers/config.js';
import {
  freePort,
  type NginxSetup,
  nginxConfigFromShipped,
  nginxSkipReason,
  type ProxiedAnswer,
  proxyRequest,
  type RunningNginx,
  startNginx,
} from '../helpers/deploy.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/mail.js';
import { selfSignedCertificate } from '../helpers/tls.js';

/**
 * The fault-injection suite's processes (docs/faults.md): a PostgreSQL cluster, a Redis
 * and an SMTP server of the suite's own, so each can be stopped and started again without touching
 * anything else on the machine, and two built instances behind nginx configured from deploy/nginx,
 * as docs/deployment.md runs them.
 */

const INITDB = postgresProgram('initdb');
const PG_CTL = postgresProgram('pg_ctl');
const REDIS_SERVER = programOnPath('redis-server');
/** PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user. */
const RUN_AS_POSTGRES = userInfo().uid === 0;

/** Why the suite cannot run here, or null: a program it starts is missing. */
export const faultSkipReason: string | null = (() => {
  if (nginxSkipReason) return `fault suite skipped: ${nginxSkipReason}`;
  if (!INITDB || !PG_CTL) return 'fault suite skipped: no initdb/pg_ctl (PostgreSQL server)';
  if (!REDIS_SERVER) return 'fault suite skipped: no redis-server on PATH';
  if (RUN_AS_POSTGRES) {
    try {
      execFileSync('id', ['postgres'], { stdio: 'ignore' });
    } catch {
      return 'fault suite skipped: running as root and there is no postgres user for initdb';
    }
  }
  return null;
})();

/**
 * A PostgreSQL program run to its end, without blocking this process: the suite's clients keep
 * sending requests while the server stops and starts.
 */
function asPostgres(program: string, args: string[]): Promise<{ ok: boolean; output: string }> {
  const [command, commandArgs] = RUN_AS_POSTGRES
    ? ['runuser', ['-u', 'postgres', '--', program, ...args]]
    : [program, args];
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    child.once('close', (code) => resolve({ ok: code === 0, output }));
  });
}

export interface PrivateCluster {
  port: number;
  /** The owner's URL of the suite's database (the service derives its runtime login from it). */
  url: string;
  start(): Promise<void>;
  /** `pg_ctl stop -m fast`: open sessions are ended, as when the server is shut down. */
  stop(): Promise<void>;
  /** The owner's query on the suite's database. */
  query<T extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<T[]>;
  dispose(): Promise<void>;
}

/**
 * A PostgreSQL cluster in a temporary directory on a free port, reached over loopback TCP with
 * trust authentication (no password travels), with one database for the suite.
 */
export async function startPrivateCluster(): Promise<PrivateCluster> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pension-faults-pg-'));
  const dataDir = path.join(dir, 'data');
  if (RUN_AS_POSTGRES) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const init = await asPostgres(INITDB as string, [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '--auth=trust',
    '--no-sync',
    '-E',
    'UTF8',
  ]);
  if (!init.ok) throw new Error(`initdb failed:\n${init.output}`);
  const port = await freePort();
  const logFile = path.join(dir, 'server.log');
  // Loopback only, the socket in the cluster's own directory, and fsync off: the faults are
  // about connections, not about power loss.
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c max_connections=60`;
  const start = async () => {
    const started = await asPostgres(PG_CTL as string, [
      '-D',
      dataDir,
      '-l',
      logFile,
      '-o',
      options,
      '-w',
      'start',
    ]);
    if (!started.ok) throw new Error(`pg_ctl start failed:\n${started.output}`);
  };
  const stop = async () => {
    const stopped = await asPostgres(PG_CTL as string, ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
    if (!stopped.ok) throw new Error(`pg_ctl stop failed:\n${stopped.output}`);
  };
  await start();
  const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' });
  await admin.connect();
  await admin.query('create database pension_faults');
  await admin.end();
  const url = `postgres://postgres@127.0.0.1:${port}/pension_faults`;
  return {
    port,
    url,
    start,
    stop,
    async query<T extends pg.QueryResultRow>(text: string, values: unknown[] = []) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        return (await client.query<T>(text, values)).rows;
      } finally {
        await client.end();
      }
    },
    async dispose() {
      await asPostgres(PG_CTL as string, ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PrivateRedis {
  port: number;
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A redis-server on a free loopback port that keeps nothing on disk, stoppable at will. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    const started = spawn(
      REDIS_SERVER as string,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = started;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      started.stdout?.setEncoding('utf8');
      started.stdout?.on('data', (chunk: string) => {
        output += chunk;
        if (/Ready to accept connections/.test(output)) resolve();
      });
      started.once('exit', (code) =>
        reject(new Error(`redis-server exited (${code}):\n${output}`)),
      );
    });
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    start,
    async stop() {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    },
  };
}

/** A loopback address of its own, so each simulated client has its own rate-limit allowance. */
export const loopbackClient = () =>
  `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

export interface Deployment {
  cluster: PrivateCluster;
  redis: PrivateRedis;
  smtp: TestSmtpServer;
  instances: BuiltServer[];
  nginx: RunningNginx;
  /** nginx's configuration, to take an instance out of its rotation and back (setUpstreamDown). */
  nginxSetup: NginxSetup;
  httpsPort: number;
  /** The environment the instances were started with (a restarted instance gets the same). */
  env: Record<string, string>;
  /** One request through nginx over TLS, from a client address of its own unless one is given. */
  request(options: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    localAddress?: string;
  }): Promise<ProxiedAnswer>;
  /** A session token of a development account, signed in through nginx. */
  signIn(credentials: { email: string; password: string }): Promise<string>;
  dispose(): Promise<void>;
}

/**
 * Everything a fault needs, started in order: the cluster, Redis and SMTP, then the two instances
 * one after the other (the first migrates and creates the development accounts), then nginx.
 */
export async function startDeployment(): Promise<Deployment> {
  const cluster = await startPrivateCluster();
  const redis = await startPrivateRedis();
  const smtp = await startSmtpServer();
  const env = {
    ...TEST_SECRETS,
    DATABASE_URL: cluster.url,
    REDIS_URL: redis.url,
    SMTP_URL: smtp.url,
  };
  const instances: BuiltServer[] = [];
  instances.push(await startBuiltServer(env));
  instances.push(await startBuiltServer(env));
  const httpsPort = await freePort();
  const setup = nginxConfigFromShipped({
    httpPort: await freePort(),
    httpsPort,
    upstreams: instances.map((instance) => new URL(instance.baseUrl).host),
    certificate: selfSignedCertificate(),
    extraServerLines: ['add_header X-Test-Upstream $upstream_addr always;'],
  });
  const nginx = await startNginx(setup, httpsPort);
  const request: Deployment['request'] = (options) =>
    proxyRequest({ port: httpsPort, tls: true, localAddress: loopbackClient(), ...options });
  return {
    cluster,
    redis,
    smtp,
    instances,
    nginx,
    nginxSetup: setup,
    httpsPort,
    env,
    request,
    async signIn(credentials) {
      const answer = await request({
        method: 'POST',
        path: '/api/auth/signin',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(credentials),
      });
      const token = /session=([^;]+)/.exec(String(answer.headers['set-cookie']))?.[1];
      if (answer.status !== 200 || !token) throw new Error(`sign-in answered ${answer.status}`);
      return token;
    },
    async dispose() {
      await nginx.stop();
      await Promise.all(instances.map((instance) => instance.stop()));
      await smtp.close();
      await redis.stop();
      await cluster.dispose();
    },
  };
}

/** `node dist/server/cli.js audit:verify` against the cluster: its exit status and output. */
export function auditVerify(env: Record<string, string>): {
  status: number | null;
  output: string;
} {
  const run = spawnSync(process.execPath, [path.resolve('dist/server/cli.js'), 'audit:verify'], {
    env: { PATH: process.env.PATH, APP_ENV: 'test', ...env },
    encoding: 'utf8',
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}
