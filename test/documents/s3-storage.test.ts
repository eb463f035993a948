import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, utimes } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  ListObjectsV2Command,
  type S3Client,
} from '@aws-sdk/client-s3';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, documents } from '../../src/server/platform/db/schema.js';
import { createS3Storage, s3ClientOf } from '../../src/server/platform/storage/s3-storage.js';
import { createUrlSigner } from '../../src/server/platform/storage/signed-urls.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { TEST_SECRETS } from '../helpers/config.js';
import { ownerOf } from '../helpers/database.js';
import { documentForm, EICAR, SAMPLES, startFakeClamd } from '../helpers/documents.js';
import {
  createBroker,
  createEmployer,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';
import { startS3 } from '../helpers/s3.js';

/**
 * Documents on the S3-compatible back end (docs/decisions/0063-documents-s3-back-end.md),
 * against s3rver on loopback with a stand-in clamd: uploads land under their key in the bucket and
 * nowhere else, versions sit side by side, the signed URL streams the bytes with the headers the
 * spec requires, deleted and quarantined documents are refused, and a crash on either side of the
 * row's commit leaves nothing reachable until the storage sweep settles it.
 */
let clock = new Date();
let t: TestApp;
let s3: Awaited<ReturnType<typeof startS3>>;
let clamd: Awaited<ReturnType<typeof startFakeClamd>>;
let bucket: S3Client;
let staff: UserRow;
let schemeId: string;
let baseUrl: string;

beforeAll(async () => {
  s3 = await startS3();
  clamd = await startFakeClamd();
  t = await buildTestApp({
    counters: uncountedStore(),
    now: () => clock,
    env: { ...s3.env, CLAMD_HOST: '127.0.0.1', CLAMD_PORT: String(clamd.port) },
  });
  const storage = t.config.documents.storage;
  if (storage.kind !== 's3') throw new Error('the S3 back end was not chosen');
  bucket = s3ClientOf(storage);
  const brokerId = await createBroker(t.database);
  const employerId = await createEmployer(t.database, brokerId);
  schemeId = await createScheme(t.database, { id: employerId, brokerId });
  staff = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t.close();
  bucket.destroy();
  await clamd.close();
  await s3.close();
});

async function keys(under = ''): Promise<string[]> {
  const page = await bucket.send(
    new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${s3.prefix}${under}` }),
  );
  return (page.Contents ?? []).map((object) => object.Key as string);
}

async function uploaded(filename: string, content: Buffer) {
  const form = documentForm(filename, content);
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/schemes/${schemeId}/documents`,
    remoteAddress: uniqueClientAddress(),
    headers: { ...form.headers, authorization: `Bearer ${await t.tokenFor(staff)}` },
    payload: form.payload,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; version: number; scanStatus: string };
}

async function storageKeyOf(id: string): Promise<string> {
  const [row] = await ownerOf(t.database)
    .select({ storageKey: documents.storageKey })
    .from(documents)
    .where(eq(documents.id, id));
  return `${s3.prefix}${row?.storageKey as string}`;
}

async function signedUrl(id: string): Promise<string> {
  const response = await t.requestAs(staff, 'GET', `/api/documents/${id}/url`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().url;
}

/** What the browser's download does with the URL: a plain GET, redirects not followed. */
function download(url: string) {
  return fetch(new URL(new URL(url).pathname, baseUrl), { redirect: 'manual' });
}

async function sweep() {
  return t.app.scheduledJobs.get('storage-sweep')?.run({ scheduledFor: clock, runId: 'test' });
}

describe('the S3 back end', () => {
  it('stores an upload under its key in the bucket, scanned, leaving nothing staged', async () => {
    const document = await uploaded('Trust deed.pdf', SAMPLES.pdf);
    expect(document.scanStatus).toBe('clean');
    expect(await keys()).toContain(await storageKeyOf(document.id));
    // Keyed by ids only: the file's name never reaches the bucket's listings or logs.
    expect(await storageKeyOf(document.id)).toBe(
      `${s3.prefix}${staff.brokerId}/${schemeId}/${document.id}`,
    );
    expect(await keys('.staging/')).toEqual([]);
    // Only the staging area is ever written on local disk, and it is empty again.
    const root = t.config.documents.storageRoot;
    expect(await readdir(root)).toEqual(['.staging']);
    expect(await readdir(path.join(root, '.staging'))).toEqual([]);
  });

  it('keeps versions side by side, each downloaded as its own bytes', async () => {
    const first = await uploaded('Statement.pdf', SAMPLES.pdf);
    const second = await uploaded('Statement.pdf', SAMPLES.png);
    expect(second.version).toBe(2);
    expect(await storageKeyOf(second.id)).not.toBe(await storageKeyOf(first.id));
    const one = await download(await signedUrl(first.id));
    const two = await download(await signedUrl(second.id));
    expect(Buffer.from(await one.arrayBuffer()).equals(SAMPLES.pdf)).toBe(true);
    expect(Buffer.from(await two.arrayBuffer()).equals(SAMPLES.png)).toBe(true);
  });

  it('keeps no uploaded file name, which may name a member or hold a PPS number, in any key of the bucket', async () => {
    await uploaded('Statement Seán Ó Briain 1234567TA.pdf', SAMPLES.pdf);
    const listed = (await keys()).join('\n');
    expect(listed).not.toMatch(/Seán|Briain|1234567TA|Statement/);
  });

  it('still serves, and the sweep still settles, objects stored under keys of the earlier layout (with the file name)', async () => {
    const document = await uploaded('Older deed.pdf', SAMPLES.docx);
    const key = await storageKeyOf(document.id);
    // As an upload before ids-only keys stored it: tenant/scheme/type/filename/v<version>.
    const oldKey = `${staff.brokerId}/${schemeId}/trust_deed/Older deed.pdf/v1`;
    await bucket.send(
      new CopyObjectCommand({
        Bucket: s3.bucket,
        Key: `${s3.prefix}${oldKey}`,
        CopySource: `${s3.bucket}/${key.split('/').map(encodeURIComponent).join('/')}`,
      }),
    );
    await bucket.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: key }));
    await ownerOf(t.database)
      .update(documents)
      .set({ storageKey: oldKey })
      .where(eq(documents.id, document.id));
    const file = await download(await signedUrl(document.id));
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(SAMPLES.docx)).toBe(true);

    // A crash after the row committed, before the copy: the sweep copies under the row's own key.
    await bucket.send(
      new CopyObjectCommand({
        Bucket: s3.bucket,
        Key: `${s3.prefix}.staging/${document.id}`,
        CopySource: `${s3.bucket}/${`${s3.prefix}${oldKey}`.split('/').map(encodeURIComponent).join('/')}`,
      }),
    );
    await bucket.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: `${s3.prefix}${oldKey}` }));
    const issuedAt = clock;
    clock = new Date(clock.getTime() + 2 * 60 * 60 * 1000);
    try {
      expect(await sweep()).toMatchObject({ committed: 1 });
    } finally {
      clock = issuedAt;
    }
    expect(await keys()).toContain(`${s3.prefix}${oldKey}`);
    expect((await download(await signedUrl(document.id))).status).toBe(200);
  });

  it('streams the download through the signed URL as an attachment, nosniff and uncached, audited', async () => {
    const document = await uploaded('Benefit statement.pdf', SAMPLES.pdf);
    const file = await download(await signedUrl(document.id));
    // Streamed, not redirected: no second URL, the headers are ours (docs/decisions/0063-documents-s3-back-end.md).
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect(file.headers.get('content-length')).toBe(String(SAMPLES.pdf.length));
    expect(file.headers.get('content-disposition')).toMatch(
      /^attachment; filename="Benefit statement\.pdf"/,
    );
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(file.headers.get('cache-control')).toBe('private, no-store');
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(
      createHash('sha256').update(SAMPLES.pdf).digest('hex'),
    );
    const audited = await ownerOf(t.database)
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(and(eq(auditLog.entityId, document.id), eq(auditLog.action, 'document.downloaded')));
    expect(audited).toHaveLength(1);
  });

  it('refuses a deleted document’s URL and never issues one for a quarantined document', async () => {
    const document = await uploaded('Deleted.pdf', SAMPLES.pdf);
    const url = await signedUrl(document.id);
    expect((await t.requestAs(staff, 'DELETE', `/api/documents/${document.id}`)).statusCode).toBe(
      204,
    );
    expect((await download(url)).status).toBe(404);

    const infected = await uploaded('Infected.pdf', Buffer.concat([SAMPLES.pdf, EICAR]));
    expect(infected.scanStatus).toBe('quarantined');
    const refused = await t.requestAs(staff, 'GET', `/api/documents/${infected.id}/url`);
    expect(refused.statusCode).toBe(409);
    // Its bytes are kept, the record of what was refused, but never served.
    expect(await keys()).toContain(await storageKeyOf(infected.id));
  });

  it('leaves nothing reachable after a crash between the put and the row’s commit, and the sweep removes it', async () => {
    const storage = t.config.documents.storage;
    if (storage.kind !== 's3') throw new Error('the S3 back end was not chosen');
    // The upload was staged and put to the bucket; the process died before the row committed.
    const orphanId = 'zzorphan00000000000000000';
    const staged = await createS3Storage(storage, t.config.documents.storageRoot).stage(orphanId);
    await staged.write(SAMPLES.pdf);
    await staged.close();
    expect(await keys('.staging/')).toEqual([`${s3.prefix}.staging/${orphanId}`]);
    // A URL for it, even one correctly signed, finds no document.
    const signer = createUrlSigner({
      current: TEST_SECRETS.DOCUMENT_URL_KEY,
      previous: null,
      now: () => clock,
    });
    const { token } = signer.sign({
      documentId: orphanId,
      version: 1,
      tenantId: staff.brokerId as string,
      userId: staff.id,
      sessionEpoch: staff.sessionEpoch,
    });
    expect((await fetch(`${baseUrl}/files/${orphanId}/${token}`)).status).toBe(404);

    // Within the grace period an upload may still be under way: the sweep leaves it.
    expect(await sweep()).toMatchObject({ removed: 0 });
    expect(await keys('.staging/')).toHaveLength(1);
    const later = new Date(clock.getTime() + 2 * 60 * 60 * 1000);
    const local = path.join(t.config.documents.storageRoot, '.staging', orphanId);
    await utimes(local, clock, clock);
    const issuedAt = clock;
    clock = later;
    try {
      expect(await sweep()).toMatchObject({ removed: 1, committed: 0 });
    } finally {
      clock = issuedAt;
    }
    expect(await keys('.staging/')).toEqual([]);
    expect(existsSync(local)).toBe(false);
  });

  it('finishes an upload whose row committed before the copy under its key, once the sweep runs', async () => {
    const document = await uploaded('Crash after commit.pdf', SAMPLES.pdf);
    const key = await storageKeyOf(document.id);
    // The process died after the row committed, before the object was copied under its key.
    const stagedKey = `${s3.prefix}.staging/${document.id}`;
    await bucket.send(
      new CopyObjectCommand({
        Bucket: s3.bucket,
        Key: stagedKey,
        CopySource: `${s3.bucket}/${key.split('/').map(encodeURIComponent).join('/')}`,
      }),
    );
    await bucket.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: key }));
    const url = await signedUrl(document.id);
    expect((await download(url)).status).toBe(404);

    const issuedAt = clock;
    clock = new Date(clock.getTime() + 2 * 60 * 60 * 1000);
    try {
      expect(await sweep()).toMatchObject({ committed: 1, removed: 0 });
    } finally {
      clock = issuedAt;
    }
    expect(await keys('.staging/')).toEqual([]);
    const file = await download(url);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(SAMPLES.pdf)).toBe(true);
  });

  it('refuses an upload when the bucket cannot be reached, committing no row and leaving nothing staged', async () => {
    const closed = await startS3();
    await closed.close();
    const unreachable = await buildTestApp({
      counters: uncountedStore(),
      database: t.database,
      now: () => clock,
      env: { ...closed.env },
    });
    try {
      const before = await ownerOf(t.database)
        .select({ id: documents.id })
        .from(documents)
        .where(eq(documents.schemeId, schemeId));
      const form = documentForm('Unreachable.pdf', SAMPLES.pdf);
      const response = await unreachable.app.inject({
        method: 'POST',
        url: `/api/schemes/${schemeId}/documents`,
        remoteAddress: uniqueClientAddress(),
        headers: { ...form.headers, authorization: `Bearer ${await unreachable.tokenFor(staff)}` },
        payload: form.payload,
      });
      expect(response.statusCode).toBe(503);
      expect(response.body).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|S3RVER|Unreachable/);
      const logged = unreachable.logs.entries().map((entry) => entry.message);
      expect(logged).toContain('document storage unavailable');
      expect(logged).not.toContain('database unavailable');
      const after = await ownerOf(t.database)
        .select({ id: documents.id })
        .from(documents)
        .where(eq(documents.schemeId, schemeId));
      expect(after).toHaveLength(before.length);
      const staging = path.join(unreachable.config.documents.storageRoot, '.staging');
      expect(await readdir(staging)).toEqual([]);
    } finally {
      await unreachable.close();
    }
  });

  it('commits an upload a second time without harm, as the sweep may after a crash mid-commit', async () => {
    const storage = t.config.documents.storage;
    if (storage.kind !== 's3') throw new Error('the S3 back end was not chosen');
    const backEnd = createS3Storage(storage, t.config.documents.storageRoot);
    const id = 'zztwice000000000000000000';
    const staged = await backEnd.stage(id);
    await staged.write(SAMPLES.png);
    await staged.close();
    const key = 'tenant/scheme/other/Twice.png/v1';
    await backEnd.commit({ id }, key);
    await expect(backEnd.commit({ id }, key)).resolves.toBeUndefined();
    // Nothing staged, never committed anywhere: that is an error, not a silent success.
    await expect(
      backEnd.commit({ id: 'zznever000000000000000000' }, 'tenant/scheme/other/Never.png/v1'),
    ).rejects.toThrow();
    const stored = await backEnd.open(key);
    const chunks: Buffer[] = [];
    for await (const chunk of stored?.stream ?? []) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(SAMPLES.png)).toBe(true);
    expect(await keys('.staging/')).toEqual([]);
    expect(await backEnd.open('tenant/scheme/other/Never.png/v1')).toBeNull();
  });

  it('leaves an upload pending while the scanner is down, and the sweep scans it from the bucket later', async () => {
    const down = await startFakeClamd();
    await down.close();
    const withoutScanner = await buildTestApp({
      counters: uncountedStore(),
      database: t.database,
      now: () => clock,
      env: { ...s3.env, CLAMD_HOST: '127.0.0.1', CLAMD_PORT: String(down.port) },
    });
    let id: string;
    try {
      const form = documentForm('Pending.pdf', Buffer.concat([SAMPLES.pdf, EICAR]));
      const response = await withoutScanner.app.inject({
        method: 'POST',
        url: `/api/schemes/${schemeId}/documents`,
        remoteAddress: uniqueClientAddress(),
        headers: {
          ...form.headers,
          authorization: `Bearer ${await withoutScanner.tokenFor(staff)}`,
        },
        payload: form.payload,
      });
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().scanStatus).toBe('pending');
      id = response.json().id;
    } finally {
      await withoutScanner.close();
    }
    expect((await t.requestAs(staff, 'GET', `/api/documents/${id}/url`)).statusCode).toBe(409);
    const issuedAt = clock;
    clock = new Date(clock.getTime() + 10 * 60 * 1000);
    try {
      expect(await sweep()).toMatchObject({ scanned: 1, quarantined: 1 });
    } finally {
      clock = issuedAt;
    }
    const [row] = await ownerOf(t.database)
      .select({ scanStatus: documents.scanStatus })
      .from(documents)
      .where(eq(documents.id, id));
    expect(row?.scanStatus).toBe('quarantined');
  });
});
