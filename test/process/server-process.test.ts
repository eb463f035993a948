import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDataDir } from '../helpers/config.js';
import { onPostgres, openTestDatabase, type TestDatabase } from '../helpers/database.js';

let server: ChildProcessWithoutNullStreams;
let port: number;
let output = '';
let ownDatabase: TestDatabase | null = null;

beforeAll(async () => {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    APP_ENV: 'development',
    PORT: '0',
    DATA_DIR: testDataDir(),
    BOOTSTRAP_SUPERADMIN_EMAIL: 'first-admin@platform.example',
    BOOTSTRAP_SUPERADMIN_PASSWORD: 'the first administrator password',
  };
  if (onPostgres) {
    ownDatabase = await openTestDatabase({ migrated: false });
    env.DATABASE_URL = ownDatabase.url ?? undefined;
  }
  server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { env });
  server.stdout.setEncoding('utf8');
  server.stderr.setEncoding('utf8');
  server.stderr.on('data', (chunk) => {
    output += chunk;
  });
  port = await new Promise<number>((resolve, reject) => {
    server.stdout.on('data', (chunk: string) => {
      output += chunk;
      const match = /Pension admin is running at http:\/\/[\w.]+:(\d+)/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    server.on('exit', () => reject(new Error(`server exited early:\n${output}`)));
  });
}, 60_000);

afterAll(async () => {
  if (server.exitCode === null) server.kill('SIGKILL');
  await ownDatabase?.dispose();
});

describe('the server process', () => {
  it('migrates, serves the API and the page, and prints its URL', async () => {
    const health = await fetch(`http://127.0.0.1:${port}/api/health/ready`);
    expect(health.status).toBe(200);
    const page = await fetch(`http://127.0.0.1:${port}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
  });

  it('creates the bootstrap SuperAdmin and the development accounts at start-up', async () => {
    const signIn = (email: string, password: string) =>
      fetch(`http://127.0.0.1:${port}/api/auth/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
    const first = await signIn('first-admin@platform.example', 'the first administrator password');
    expect(first.status).toBe(200);
    expect(((await first.json()) as { user: { role: string } }).user.role).toBe('SuperAdmin');
    expect(
      (await signIn('brokeradmin@dev.pension-admin.local', 'dev-brokeradmin-password')).status,
    ).toBe(200);
    expect(output).not.toContain('first-admin@platform.example');
  });

  it('finishes a request in flight when told to stop, drains (new connections served, each closed after its answer), serves one more on its open connection and closes it, then exits cleanly', async () => {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    let response = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      response += chunk;
    });
    // Half a body on a kept-alive connection, as a proxy holds them: the request is in flight
    // until the rest arrives.
    socket.write(
      'POST /api/auth/in-flight HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{"a":',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const exited = once(server, 'exit');
    server.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.exitCode).toBeNull();
    // Draining: a new connection is still served, and closed after its answer.
    const late = connect(port, '127.0.0.1');
    await once(late, 'connect');
    let lateAnswer = '';
    late.setEncoding('utf8');
    late.on('data', (chunk) => {
      lateAnswer += chunk;
    });
    late.write('GET /api/health/live HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await once(late, 'end');
    expect(lateAnswer).toMatch(/^HTTP\/1\.1 200/);
    expect(lateAnswer).toMatch(/\r\nconnection: close\r\n/i);
    socket.write('12345}');
    while (!response.includes('{"error":"Not found"}')) await once(socket, 'data');
    expect(response).toMatch(/^HTTP\/1\.1 404/);
    // The next request on that connection, as nginx sends it during a rolling restart: served
    // as any other (a POST refused here would reach the client, nginx does not retry it), and
    // the connection is closed after it so the proxy's next request goes elsewhere.
    const first = response.length;
    socket.write(
      'POST /api/auth/after-stop HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
    );
    await once(socket, 'end');
    const second = response.slice(first);
    expect(second).toMatch(/^HTTP\/1\.1 404/);
    expect(second).toMatch(/\r\nconnection: close\r\n/i);
    expect(second).toContain('{"error":"Not found"}');
    const [code] = await exited;
    expect(code).toBe(0);
    expect(output).toContain('shut down cleanly');
  });
});
