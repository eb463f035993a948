import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { openPglite } from '../../src/server/platform/db/database.js';
import { migrate } from '../../src/server/platform/db/migrator.js';
import { ensureBuilt } from './build.js';
import { uniqueClientAddress } from './clients.js';
import { TEST_PASSWORD_HASH_COST } from './config.js';
import { evidence } from './leak-registry.js';

/** The development accounts of README (APP_ENV test creates them). */
export const DEV_ACCOUNTS = {
  superAdmin: { email: 'superadmin@dev.pension-admin.local', password: 'dev-superadmin-password' },
  brokerAdmin: {
    email: 'brokeradmin@dev.pension-admin.local',
    password: 'dev-brokeradmin-password',
  },
} as const;

export interface Credentials {
  email: string;
  password: string;
}

export interface BuiltServer {
  baseUrl: string;
  dataDir: string;
  /** Everything the server printed so far. */
  output(): string;
  /**
   * Everything printed, once it matches `pattern`. Log lines reach the pipe up to a second after
   * the event they describe (the logger writes in blocks, platform/http/logger.ts), so a test
   * waits for a line rather than reading the output the moment a request is answered.
   */
  outputMatching(pattern: RegExp, withinMs?: number): Promise<string>;
  /**
   * Sends `signal` and waits for the process to end, keeping its data directory: how it exited
   * (a graceful shutdown exits 0 after its in-flight requests, main.ts).
   */
  terminate(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: string | null }>;
  stop(): Promise<void>;
}

const ENTRY = path.resolve('dist/server/main.js');
const READY = /Pension admin is running at (http:\/\/[\w.]+:\d+)/;

/** A loopback port nothing listens on now: taken by the OS, then let go. */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

let migratedDataDir: Promise<string> | undefined;

/**
 * A data directory whose embedded database has every migration applied, made once per test
 * worker: each server starts from a copy of it, as an installation that has run before, rather
 * than creating and migrating a database of its own (five of its six seconds of start-up).
 */
function migratedDataDirTemplate(): Promise<string> {
  migratedDataDir ??= (async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pension-e2e-template-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const database = await openPglite(path.join(dir, 'pglite'));
    await migrate(database);
    await database.close();
    return dir;
  })();
  return migratedDataDir;
}

/**
 * The service as it is deployed: the built `dist/server/main.js` (npm test builds it first; a file
 * run on its own builds what is missing, test/helpers/build.ts) on PGlite in a data directory of
 * its own (a copy of one migrated once per worker), on a free port it knows as its base URL, with APP_ENV test. It trusts 127.0.0.1 as a
 * proxy so that each test can name its client address in X-Forwarded-For and the per-IP rate
 * limits count each journey apart. Its log joins the file's leak scan (PPS numbers).
 */
export async function startBuiltServer(
  /** More environment, for a journey that needs the service configured otherwise (an AI provider). */
  extraEnv: Record<string, string> = {},
): Promise<BuiltServer> {
  await ensureBuilt('web', 'server');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'pension-e2e-'));
  cpSync(await migratedDataDirTemplate(), dataDir, { recursive: true });
  // The service names itself in the links it hands out (signed document URLs, e-mailed links), so
  // it is told the address it will answer at: a port found free a moment before it starts.
  const port = await freeLoopbackPort();
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [ENTRY], {
    env: {
      PATH: process.env.PATH,
      APP_ENV: 'test',
      PASSWORD_HASH_COST: String(TEST_PASSWORD_HASH_COST),
      PORT: String(port),
      // A journey that needs a host name rather than an address (passkeys: browsers refuse
      // WebAuthn on an IP address) names HOST=localhost; the service is told that name.
      APP_BASE_URL: `http://${extraEnv.HOST ?? '127.0.0.1'}:${port}`,
      DATA_DIR: dataDir,
      TRUST_PROXY: '127.0.0.1',
      LOG_LEVEL: 'info',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  evidence.logs.push(() => output);
  child.stdout?.setEncoding('utf8');
  child.stderr?.setEncoding('utf8');
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: string) => {
      output += chunk;
      const match = READY.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited early (${code}):\n${output}`)));
  });
  // 'close' rather than 'exit': it comes once the pipes are drained too, so what the process
  // printed last (pino's flush at exit) is in `output` when the exit is reported.
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal })),
  );
  return {
    baseUrl,
    dataDir,
    output: () => output,
    async outputMatching(pattern, withinMs = 5_000) {
      const until = Date.now() + withinMs;
      while (!pattern.test(output) && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return output;
    },
    async terminate(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        // At the end of a file nothing is in flight: SIGINT stops at once, without SIGTERM's
        // drain for a proxy (main.ts), which `terminate` is there to test.
        child.kill('SIGINT');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    what: string,
  ) {
    super(`${what} answered ${status}: ${JSON.stringify(body)}`);
  }
}

/**
 * The API as a script would use it (README): signed in with the session token as a bearer
 * token, each request from its own client address so that seeding never meets a rate limit.
 * Journeys seed through it whatever they do not themselves create in the browser.
 */
export class ApiClient {
  private constructor(
    readonly baseUrl: string,
    readonly token: string,
    readonly user: { id: string; role: string },
  ) {}

  static async signIn(baseUrl: string, { email, password }: Credentials): Promise<ApiClient> {
    const response = await fetch(`${baseUrl}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': uniqueClientAddress() },
      body: JSON.stringify({ email, password }),
    });
    const body = (await response.json()) as { user: { id: string; role: string } };
    const token = /session=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
    if (!response.ok || !token) throw new ApiError(response.status, body, `sign-in of ${email}`);
    return new ApiClient(baseUrl, token, body.user);
  }

  /** A 2xx answer's body; anything else throws with the status and body. */
  async call<T = unknown>(method: string, url: string, body?: unknown): Promise<T> {
    const response = await this.send(method, url, body);
    if (response.status >= 300)
      throw new ApiError(response.status, response.body, `${method} ${url}`);
    return response.body as T;
  }

  async send(
    method: string,
    url: string,
    body?: unknown,
  ): Promise<{ status: number; body: unknown }> {
    const csv = typeof body === 'string';
    const response = await fetch(`${this.baseUrl}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        'x-forwarded-for': uniqueClientAddress(),
        ...(body === undefined ? {} : { 'content-type': csv ? 'text/csv' : 'application/json' }),
      },
      body: body === undefined ? undefined : csv ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }
}

/**
 * The newest e-mail to `to` in the server's mail folder (APP_ENV test without SMTP_URL writes
 * each message as an .eml file), parsed; waits for the mail worker to write it.
 */
export async function latestMailTo(
  server: BuiltServer,
  to: string,
  timeoutMs = 15_000,
): Promise<{ subject: string; text: string }> {
  const folder = path.join(server.dataDir, 'mail');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = existsSync(folder) ? readdirSync(folder).sort().reverse() : [];
    for (const file of files) {
      const email = await PostalMime.parse(readFileSync(path.join(folder, file)));
      if (email.to?.some((address) => address.address === to)) {
        return { subject: email.subject ?? '', text: email.text ?? '' };
      }
    }
    if (Date.now() > deadline) throw new Error(`no e-mail to ${to} in ${folder}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * An account invited through the API and accepted by its person with `password`, as
 * they would from the e-mailed link: a firm's accounts are never given a password by anyone else.
 */
export async function invitedAccount<T extends { id: string }>(
  server: BuiltServer,
  inviter: ApiClient,
  path: string,
  { password, ...invitation }: { email: string; password: string } & Record<string, unknown>,
): Promise<T> {
  const created = await inviter.call<T>('POST', path, invitation);
  const { text } = await latestMailTo(server, invitation.email);
  const token = /\/accept-invitation#token=([A-Za-z0-9_-]{43})/.exec(text)?.[1];
  const response = await fetch(`${server.baseUrl}/api/auth/accept-invitation`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': uniqueClientAddress() },
    body: JSON.stringify({ token, password }),
  });
  if (!response.ok) {
    throw new ApiError(response.status, await response.json(), `invitation of ${path}`);
  }
  return created;
}
