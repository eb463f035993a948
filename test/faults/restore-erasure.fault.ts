import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayInIreland } from '../../src/contracts/irish-dates.js';
import { type BuiltServer, DEV_ACCOUNTS, startBuiltServer } from '../helpers/built-server.js';
import { TEST_SECRETS } from '../helpers/config.js';
import {
  auditVerify,
  faultSkipReason,
  type PrivateCluster,
  startPrivateCluster,
} from './processes.js';

/**
 * Erased stays erased (docs/decisions/0149-retention-and-erasure.md; docs/backups.md): a member
 * is erased after yesterday's backup was taken, and the backup is restored. Whether the database
 * comes back through `restore`, or by a restore that knows nothing of the ledger, the member is
 * gone again before the first request is served, and `audit:verify` is clean.
 */

if (faultSkipReason) console.warn(faultSkipReason);

const ERASED_NAME = `Restoreerased${Date.now().toString(36)}`;

describe.skipIf(faultSkipReason)('a backup restored after an erasure', { timeout: 240_000 }, () => {
  let cluster: PrivateCluster;
  let scratch: string;
  const servers: BuiltServer[] = [];

  beforeAll(async () => {
    cluster = await startPrivateCluster();
    scratch = mkdtempSync(path.join(tmpdir(), 'pension-restore-erasure-'));
  });
  afterAll(async () => {
    for (const server of servers) await server.stop();
    await cluster?.dispose();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  /** The service's command line, as an operator runs it against the cluster. */
  const cli = (args: string[], env: Record<string, string>) => {
    const run = spawnSync(process.execPath, [path.resolve('dist/server/cli.js'), ...args], {
      env: { PATH: process.env.PATH, APP_ENV: 'test', LOG_LEVEL: 'error', ...env },
      encoding: 'utf8',
      timeout: 120_000,
    });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr };
  };

  const urlOf = (database: string) => cluster.url.replace(/\/pension_faults$/, `/${database}`);

  async function started(env: Record<string, string>) {
    const server = await startBuiltServer(env);
    servers.push(server);
    const signIn = await fetch(`${server.baseUrl}/api/auth/signin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(DEV_ACCOUNTS.brokerAdmin),
    });
    expect(signIn.status).toBe(200);
    const token = /session=([^;]+)/.exec(signIn.headers.get('set-cookie') ?? '')?.[1];
    const call = async (method: string, url: string, body?: object) => {
      const response = await fetch(`${server.baseUrl}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: response.status, json: (await response.json()) as Record<string, unknown> };
    };
    return { server, call };
  }

  it('serves no erased member after a restore, whichever way it was restored, and the audit chains verify', async () => {
    const ledger = path.join(scratch, 'ledger', 'erasure-ledger.jsonl');
    const env = { ...TEST_SECRETS, DATABASE_URL: cluster.url, ERASURE_LEDGER_FILE: ledger };
    const { server, call } = await started(env);

    const employer = await call('POST', '/api/employers', { name: 'Restore Foods Ltd' });
    expect(employer.status).toBe(201);
    const scheme = await call('POST', '/api/schemes', {
      employerId: employer.json.id,
      name: 'Restore Foods Staff Scheme',
      type: 'DC',
    });
    expect(scheme.status).toBe(201);
    const member = await call('POST', `/api/schemes/${scheme.json.id}/members`, {
      firstName: 'Aoife',
      lastName: ERASED_NAME,
      dateOfBirth: '1985-04-12',
      dateJoined: '2010-09-01',
      salaryCents: 5_500_000,
      ppsNumber: '1234567TW',
    });
    expect(member.status).toBe(201);
    const memberId = member.json.id as string;
    // Refunded in 2015: the schedule keeps none of the record in 2026.
    await cluster.query(
      `update members set status = 'refunded', status_on = '2015-06-30' where id = $1`,
      [memberId],
    );

    // Yesterday's backup, then today's erasure.
    const backup = path.join(scratch, 'backup');
    const backedUp = cli(['backup', backup], { ...env, DATA_DIR: server.dataDir });
    expect(backedUp.status, backedUp.stderr).toBe(0);
    const request = await call('POST', '/api/data-requests', {
      memberId,
      kind: 'erasure',
      receivedOn: todayInIreland(new Date()),
    });
    expect(request.status).toBe(201);
    const erased = await call('POST', `/api/data-requests/${request.json.id}/erase`);
    expect(erased.status).toBe(200);
    expect(erased.json.erased).toBe('member');
    expect((await call('GET', `/api/members/${memberId}`)).status).toBe(404);
    await server.stop();

    // A restore that knows nothing of the ledger brings the member back into the database...
    await cluster.query('create database pension_restored_plain');
    const plainEnv = { ...env, DATABASE_URL: urlOf('pension_restored_plain') };
    const plain = cli(['restore', backup], {
      ...plainEnv,
      DATA_DIR: path.join(scratch, 'plain'),
      ERASURE_LEDGER_FILE: path.join(scratch, 'no-ledger.jsonl'),
    });
    expect(plain.status, plain.stderr).toBe(0);
    expect(plain.stdout).toMatch(/Erasure ledger: 0 entries, 0 applied again\./);
    // ...and the service, started with the ledger, erases it again before its first answer.
    const restarted = await started(plainEnv);
    expect((await restarted.call('GET', `/api/members/${memberId}`)).status).toBe(404);
    const reapplied = /erasures applied again from the erasure ledger/;
    expect(await restarted.server.outputMatching(reapplied)).toMatch(reapplied);
    await restarted.server.stop();
    const verifiedPlain = auditVerify(plainEnv);
    expect(verifiedPlain.status, verifiedPlain.output).toBe(0);

    // `restore` itself applies the ledger before the chains are verified.
    await cluster.query('create database pension_restored');
    const restoredEnv = { ...env, DATABASE_URL: urlOf('pension_restored') };
    const restored = cli(['restore', backup], {
      ...restoredEnv,
      DATA_DIR: path.join(scratch, 'restored'),
    });
    expect(restored.status, restored.stderr).toBe(0);
    expect(restored.stdout).toMatch(/Erasure ledger: 1 entry, 1 applied again\./);
    expect(restored.stdout).toMatch(/Audit chains: .*: sound\./);
    const client = new pg.Client({ connectionString: urlOf('pension_restored') });
    await client.connect();
    try {
      const names = await client.query('select count(*) from members where last_name = $1', [
        ERASED_NAME,
      ]);
      expect(names.rows).toEqual([{ count: '0' }]);
    } finally {
      await client.end();
    }
    const verified = auditVerify(restoredEnv);
    expect(verified.output).not.toMatch(/BROKEN/);
    expect(verified.status, verified.output).toBe(0);
  });
});
