import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiClient,
  type BuiltServer,
  DEV_ACCOUNTS,
  startBuiltServer,
} from '../helpers/built-server.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { TEST_SECRETS } from '../helpers/config.js';
import { documentForm, SAMPLES } from '../helpers/documents.js';
import {
  faultSkipReason,
  type PrivateCluster,
  type PrivateRedis,
  startPrivateCluster,
  startPrivateRedis,
} from './processes.js';

/**
 * DATA_DIR full (docs/faults.md, "Disk full"). The instance's DATA_DIR is a small tmpfs
 * filled to the last byte; an upload is refused with the generic 503 (the document store is
 * unavailable, as an unreachable bucket is), leaves no document row, no audit record and nothing
 * staged; once space is freed, uploads work again without a restart.
 */

/** A tmpfs mount needs root (or CAP_SYS_ADMIN): probed once, the suite says why when it cannot. */
const mountSkipReason: string | null = (() => {
  if (faultSkipReason) return faultSkipReason;
  const probe = mkdtempSync(path.join(tmpdir(), 'pension-faults-mount-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return null;
  } catch {
    return 'disk-full fault skipped: mounting a tmpfs is not permitted here (it needs root)';
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
})();
if (mountSkipReason) console.warn(mountSkipReason);

const UNAVAILABLE = JSON.stringify({ error: 'Service unavailable' });

/** Writes zeros into `file` until the file system refuses: the disk is then full. */
function fillUp(file: string): number {
  const chunk = Buffer.alloc(64 * 1024);
  const descriptor = openSync(file, 'w');
  let written = 0;
  try {
    for (;;) written += writeSync(descriptor, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(descriptor);
  }
  // The last partial block: byte by byte until not one more fits.
  const tail = openSync(file, 'a');
  try {
    for (;;) written += writeSync(tail, Buffer.alloc(1));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(tail);
  }
  return written;
}

describe.skipIf(mountSkipReason)('DATA_DIR disk full', () => {
  let cluster: PrivateCluster;
  let redis: PrivateRedis;
  let instance: BuiltServer;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'pension-faults-data-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0700', 'tmpfs', dataDir]);
    cluster = await startPrivateCluster();
    redis = await startPrivateRedis();
    instance = await startBuiltServer({
      ...TEST_SECRETS,
      DATABASE_URL: cluster.url,
      REDIS_URL: redis.url,
      DATA_DIR: dataDir,
    });
  });

  afterAll(async () => {
    await instance?.stop();
    await redis?.stop();
    await cluster?.dispose();
    if (dataDir) {
      execFileSync('umount', [dataDir]);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  const upload = async (token: string, schemeId: string, filename: string) => {
    const form = documentForm(filename, SAMPLES.pdf);
    const response = await fetch(`${instance.baseUrl}/api/schemes/${schemeId}/documents`, {
      method: 'POST',
      headers: {
        ...form.headers,
        authorization: `Bearer ${token}`,
        'x-forwarded-for': uniqueClientAddress(),
      },
      body: form.payload,
    });
    return { status: response.status, body: await response.text() };
  };

  const count = async (sql: string) =>
    Number((await cluster.query<{ count: string }>(sql))[0]?.count);

  it('refuses an upload to a full disk with the generic 503, keeping no row, audit record or staged file, and accepts uploads again once space is freed', async () => {
    const broker = await ApiClient.signIn(instance.baseUrl, DEV_ACCOUNTS.brokerAdmin);
    const { id: employerId } = await broker.call<{ id: string }>('POST', '/api/employers', {
      name: 'Disk Full Employer',
    });
    const { id: schemeId } = await broker.call<{ id: string }>('POST', '/api/schemes', {
      employerId,
      name: 'Disk Full Scheme',
      type: 'DC',
    });
    const auditBefore = await count('select count(*) from audit_log');

    const filler = path.join(dataDir, 'filler');
    expect(fillUp(filler)).toBeGreaterThan(0);
    const refused = await upload(broker.token, schemeId, 'Refused.pdf');
    expect(refused.status).toBe(503);
    expect(refused.body).toBe(UNAVAILABLE);
    expect(await count('select count(*) from documents')).toBe(0);
    expect(await count('select count(*) from audit_log')).toBe(auditBefore);
    const staging = path.join(dataDir, 'documents', '.staging');
    expect(readdirSync(staging)).toEqual([]);
    expect(await instance.outputMatching(/document storage unavailable/)).toContain(
      'document storage unavailable',
    );

    rmSync(filler);
    const accepted = await upload(broker.token, schemeId, 'Accepted.pdf');
    expect(accepted.status, accepted.body).toBe(201);
    expect(await count('select count(*) from documents')).toBe(1);
    expect(
      await count(
        "select count(*) from audit_log where entity_type = 'document' and action = 'document.uploaded'",
      ),
    ).toBe(1);
    expect(readdirSync(staging)).toEqual([]);
  });
});
