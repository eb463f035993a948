import { request as httpRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  type BuiltServer,
  DEV_ACCOUNTS,
  startBuiltServer,
} from '../helpers/built-server.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { TEST_SECRETS } from '../helpers/config.js';
import { memberRow, membersCsv } from '../helpers/imports.js';
import {
  auditVerify,
  faultSkipReason,
  type PrivateCluster,
  type PrivateRedis,
  startPrivateCluster,
  startPrivateRedis,
} from './processes.js';

/**
 * SIGTERM during a member import (docs/faults.md, "SIGTERM during an import"). The
 * signal arrives while the file is still being sent: the instance stops taking connections but
 * finishes the request in flight (main.ts, graceful shutdown), so the import ends whole, every
 * row written in its one transaction, and the process exits 0.
 */

if (faultSkipReason) console.warn(faultSkipReason);

const ROWS = 2_000;

describe.skipIf(faultSkipReason)('SIGTERM during an import', () => {
  let cluster: PrivateCluster;
  let redis: PrivateRedis;
  let instance: BuiltServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    cluster = await startPrivateCluster();
    redis = await startPrivateRedis();
    env = { ...TEST_SECRETS, DATABASE_URL: cluster.url, REDIS_URL: redis.url };
    instance = await startBuiltServer(env);
  });

  afterAll(async () => {
    await instance?.stop();
    await redis?.stop();
    await cluster?.dispose();
  });

  /**
   * A member import of ROWS rows begun on `server` with half its file sent: answers once the
   * import's row is committed as running, with what is needed to send the rest.
   */
  async function halfSentImport(server: BuiltServer, label: string) {
    const broker = await ApiClient.signIn(server.baseUrl, DEV_ACCOUNTS.brokerAdmin);
    const { id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
      name: `${label} Employer`,
    });
    const { id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
      employerId,
      name: `${label} Scheme`,
      type: 'DC',
    });
    const file = Buffer.from(membersCsv(Array.from({ length: ROWS }, () => memberRow())));
    const half = Math.floor(file.length / 2);
    const url = new URL(
      `/api/schemes/${schemeId}/members/import?fileName=members.csv`,
      server.baseUrl,
    );
    const sending = httpRequest(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${broker.token}`,
        'content-type': 'text/csv',
        'content-length': String(file.length),
        'x-forwarded-for': uniqueClientAddress(),
      },
    });
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      sending.on('response', (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          body += chunk;
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      });
      sending.on('error', reject);
    });
    sending.write(file.subarray(0, half));

    // The import is under way: its row is committed as running before the file is read.
    const deadline = Date.now() + 20_000;
    let running: Array<{ id: string }> = [];
    while (running.length === 0 && Date.now() < deadline) {
      running = await cluster.query(
        "select id from imports where scheme_id = $1 and status = 'running'",
        [schemeId],
      );
      if (running.length === 0) await sleep(50);
    }
    expect(running).toHaveLength(1);
    return {
      schemeId,
      importId: running[0]?.id,
      answered,
      sendTheRest: () => sending.end(file.subarray(half)),
      abandon: () => sending.destroy(),
    };
  }

  const membersOf = async (schemeId: string) =>
    Number(
      (
        await cluster.query<{ count: string }>(
          'select count(*) from members where scheme_id = $1',
          [schemeId],
        )
      )[0]?.count,
    );

  it('finishes an import in flight when SIGTERM arrives mid-file, writing all its rows, and exits 0', async () => {
    const { schemeId, importId, answered, sendTheRest } = await halfSentImport(
      instance,
      'Shutdown',
    );
    const exited = instance.terminate('SIGTERM');
    // The process is shutting down, yet still waits for the rest of the file.
    await sleep(500);
    sendTheRest();
    const answer = await answered;
    expect(answer.status, answer.body).toBe(201);
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(instance.output()).toContain('shut down cleanly');

    const [settled] = await cluster.query<{ status: string; rows_written: string }>(
      'select status, rows_written from imports where id = $1',
      [importId],
    );
    expect(settled?.status).toBe('succeeded');
    expect(Number(settled?.rows_written)).toBe(ROWS);
    expect(await membersOf(schemeId)).toBe(ROWS);
    const verified = auditVerify({ ...TEST_SECRETS, DATABASE_URL: cluster.url });
    expect(verified.status, verified.output).toBe(0);
  });

  it('writes none of an import whose file is still arriving when the shutdown grace ends', async () => {
    // The first test's instance has exited; its data directory goes with it.
    await instance.stop();
    instance = await startBuiltServer(env);
    const { schemeId, importId, answered, abandon } = await halfSentImport(instance, 'Stalled');
    const refused = answered.catch(() => null);
    // The rest never comes: the grace period (10 s, main.ts) ends with the request open.
    const exited = await instance.terminate('SIGTERM');
    abandon();
    expect(await refused).toBeNull();
    expect(exited).toEqual({ code: 1, signal: null });
    expect(instance.output()).toContain('shutdown grace period over');
    expect(await membersOf(schemeId)).toBe(0);
    const [left] = await cluster.query<{ status: string; rows_written: string }>(
      'select status, rows_written from imports where id = $1',
      [importId],
    );
    // Not succeeded and nothing written. The row stays `running`: nothing marks an import that
    // a process abandoned as failed (docs/faults.md, "SIGTERM during an import").
    expect(left?.status).not.toBe('succeeded');
    expect(Number(left?.rows_written)).toBe(0);
    const verified = auditVerify({ ...TEST_SECRETS, DATABASE_URL: cluster.url });
    expect(verified.status, verified.output).toBe(0);
  });
});
