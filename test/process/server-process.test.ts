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

  it('finishes a request in flight when told to stop, then exits cleanly', async () => {
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    let response = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => {
      response += chunk;
    });
    // Half a body: the request is in flight until the rest arrives.
    socket.write(
      'POST /api/auth/in-flight HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 11\r\nConnection: close\r\n\r\n{"a":',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const exited = once(server, 'exit');
    server.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.exitCode).toBeNull();
    socket.write('12345}');
    await once(socket, 'end');
    expect(response).toMatch(/^HTTP\/1\.1 404/);
    expect(response).toContain('{"error":"Not found"}');
    const [code] = await exited;
    expect(code).toBe(0);
    expect(output).toContain('shut down cleanly');
  });
});
