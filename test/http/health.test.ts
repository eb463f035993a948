import { afterAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../src/server/platform/db/postgres.js';
import { buildTestApp } from '../helpers/app.js';
import { onPostgres, openTestDatabase, type TestDatabase } from '../helpers/database.js';
import { startTcpProxy } from '../helpers/tcp-proxy.js';

const UNAVAILABLE = { status: 'unavailable', error: 'Service unavailable' };
const INTERNALS = [
  'ECONNREFUSED',
  'postgres',
  '5432',
  '127.0.0.1',
  'DATABASE_URL',
  'pglite',
  'at ',
  'Error',
];

function expectNothingInternal(body: string) {
  for (const leak of INTERNALS) expect(body).not.toContain(leak);
}

const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
});

describe('health probes (docs/deployment.md, "Production shape")', () => {
  it('answer ok when the database is reachable and migrated', async () => {
    const t = await buildTestApp();
    cleanup.push(() => t.close());
    for (const url of ['/api/health/live', '/api/health/ready', '/api/health/db']) {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok' });
    }
  });

  it('report not ready while migrations are missing, though the database answers', async () => {
    const unmigrated: TestDatabase = await openTestDatabase({ migrated: false });
    cleanup.push(() => unmigrated.dispose());
    const t = await buildTestApp({ database: unmigrated.database });
    cleanup.push(() => t.app.close());
    const ready = await t.app.inject({ url: '/api/health/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual(UNAVAILABLE);
    expect((await t.app.inject({ url: '/api/health/db' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/health/live' })).statusCode).toBe(200);
  });

  it.runIf(onPostgres)(
    'answer 503 with nothing internal while PostgreSQL is unreachable, and recover by themselves',
    async () => {
      const own = await openTestDatabase();
      cleanup.push(() => own.dispose());
      const target = new URL(own.url as string);
      const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
      cleanup.push(() => proxy.stop());
      const viaProxy = new URL(target);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      const database = await openPostgres(viaProxy.toString(), viaProxy.toString(), 2);
      const t = await buildTestApp({ database });
      cleanup.push(async () => {
        await t.app.close();
        await database.close();
      });
      expect((await t.app.inject({ url: '/api/health/ready' })).statusCode).toBe(200);

      await proxy.stop();
      for (const url of ['/api/health/db', '/api/health/ready']) {
        const response = await t.app.inject({ url });
        expect(response.statusCode).toBe(503);
        expect(response.json()).toEqual(UNAVAILABLE);
        expectNothingInternal(response.body);
      }
      expect((await t.app.inject({ url: '/api/health/live' })).statusCode).toBe(200);

      await proxy.start();
      for (const url of ['/api/health/db', '/api/health/ready']) {
        const response = await t.app.inject({ url });
        expect(response.statusCode).toBe(200);
      }
    },
  );

  it.runIf(!onPostgres)(
    'answer 503 with nothing internal once the embedded database is gone',
    async () => {
      const own = await openTestDatabase();
      const t = await buildTestApp({ database: own.database });
      cleanup.push(() => t.app.close());
      await own.dispose();
      for (const url of ['/api/health/db', '/api/health/ready']) {
        const response = await t.app.inject({ url });
        expect(response.statusCode).toBe(503);
        expect(response.json()).toEqual(UNAVAILABLE);
        expectNothingInternal(response.body);
      }
    },
  );
});
