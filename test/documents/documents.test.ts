import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, stat, utimes, writeFile } from 'node:fs/promises';
import { type AddressInfo, connect } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, documents } from '../../src/server/platform/db/schema.js';
import { withActor } from '../../src/server/platform/db/with-actor.js';
import { createUrlSigner } from '../../src/server/platform/storage/signed-urls.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { TEST_SECRETS } from '../helpers/config.js';
import { ownerOf } from '../helpers/database.js';
import { documentForm, multipart, SAMPLES } from '../helpers/documents.js';
import {
  createBroker,
  createEmployer,
  createMember,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';

/**
 * Documents (docs/decisions/0062-document-vault.md): upload with its content and
 * filename checks, versions, signed URLs and what they refuse, members' reach, soft delete, the
 * storage sweep and row-level security. Scanning: scanning.test.ts.
 */
let clock = new Date('2026-03-02T10:00:00Z');
let t: TestApp;
let staff: UserRow;
let memberUser: UserRow;
let ownMemberId: string;
let otherTenantStaff: UserRow;
let place: { brokerId: string; employerId: string; schemeId: string };
let otherPlace: { brokerId: string; employerId: string; schemeId: string };

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore(), now: () => clock });
  const brokerId = await createBroker(t.database);
  const employerId = await createEmployer(t.database, brokerId);
  const schemeId = await createScheme(t.database, { id: employerId, brokerId });
  place = { brokerId, employerId, schemeId };
  staff = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  const member = await createMember(t.database, place);
  ownMemberId = member.id;
  memberUser = await createUser(t.database, {
    brokerId,
    employerId,
    role: 'Member',
    memberId: member.id,
  });
  const otherBroker = await createBroker(t.database, 'Other Brokers');
  const otherEmployer = await createEmployer(t.database, otherBroker);
  otherPlace = {
    brokerId: otherBroker,
    employerId: otherEmployer,
    schemeId: await createScheme(t.database, { id: otherEmployer, brokerId: otherBroker }),
  };
  otherTenantStaff = await createUser(t.database, { brokerId: otherBroker, role: 'BrokerAdmin' });
});
afterAll(() => t.close());

async function upload(
  user: UserRow,
  form: { payload: Buffer | Readable; headers: Record<string, string> },
  schemeId = place.schemeId,
) {
  return t.app.inject({
    method: 'POST',
    url: `/api/schemes/${schemeId}/documents`,
    remoteAddress: uniqueClientAddress(),
    headers: { ...form.headers, authorization: `Bearer ${await t.tokenFor(user)}` },
    payload: form.payload,
  });
}

async function uploaded(filename: string, content: Buffer, fields?: Record<string, string>) {
  const response = await upload(staff, documentForm(filename, content, fields));
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; version: number; filename: string; sha256: string };
}

async function urlOf(user: UserRow, id: string) {
  return t.requestAs(user, 'GET', `/api/documents/${id}/url`);
}

function fetchFile(url: string) {
  const { pathname } = new URL(url);
  return t.app.inject({ method: 'GET', url: pathname, remoteAddress: uniqueClientAddress() });
}

describe('uploading a document', () => {
  it('answers 201 with the record, its SHA-256 and, with no scanner, unscanned', async () => {
    const response = await upload(
      staff,
      documentForm('Trust deed 2024.pdf', SAMPLES.pdf, {
        documentType: 'trust_deed',
        title: 'Trust deed',
        memberFacing: 'false',
      }),
    );
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body).toMatchObject({
      schemeId: place.schemeId,
      documentType: 'trust_deed',
      filename: 'Trust deed 2024.pdf',
      contentType: 'application/pdf',
      size: SAMPLES.pdf.length,
      sha256: createHash('sha256').update(SAMPLES.pdf).digest('hex'),
      version: 1,
      scanStatus: 'unscanned',
      title: 'Trust deed',
      memberFacing: false,
    });
    // Stored at tenant/scheme/document id: the file's name is no part of where it is kept.
    const stored = path.join(
      t.config.documents.storageRoot,
      place.brokerId,
      place.schemeId,
      body.id,
    );
    expect(existsSync(stored)).toBe(true);
  });

  it('audits the upload with ids, type, size and hash, never the filename or title', async () => {
    const document = await uploaded('Benefit statement Seán Kelly.pdf', SAMPLES.pdf, {
      documentType: 'benefit_statement',
      title: 'Statement for Seán Kelly',
      memberId: ownMemberId,
    });
    const [record] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, document.id), eq(auditLog.action, 'document.uploaded')));
    expect(record?.newState).toMatchObject({ id: document.id, sha256: document.sha256 });
    expect(JSON.stringify(record)).not.toMatch(/Kelly|Seán|Benefit statement/);
  });

  it('accepts PDF, DOCX, PNG and JPEG by their content', async () => {
    for (const [name, content, type] of [
      ['a.pdf', SAMPLES.pdf, 'application/pdf'],
      [
        'b.docx',
        SAMPLES.docx,
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      ],
      ['c.png', SAMPLES.png, 'image/png'],
      ['d.jpg', SAMPLES.jpeg, 'image/jpeg'],
    ] as const) {
      const response = await upload(staff, documentForm(name, content, { documentType: 'other' }));
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json().contentType).toBe(type);
    }
  });

  it('judges a file whose extension lies by its content', async () => {
    const png = await upload(staff, documentForm('scan.pdf', SAMPLES.png));
    expect(png.statusCode).toBe(201);
    expect(png.json().contentType).toBe('image/png');
    for (const [name, content] of [
      ['notes.pdf', SAMPLES.text],
      ['sheet.docx', SAMPLES.xlsx],
      ['script.png', Buffer.from('#!/bin/sh\necho hello\n')],
    ] as const) {
      const refused = await upload(staff, documentForm(name, content));
      expect(refused.statusCode, name).toBe(400);
      expect(refused.json().issues[0]).toMatchObject({
        path: 'file',
        code: 'unsupported_type',
        message: 'The file must be a PDF, a Word document (DOCX), a PNG or a JPEG',
      });
    }
  });

  it('makes filenames safe and keeps the original as metadata', async () => {
    const long = `${'a'.repeat(1000)}.pdf`;
    const cases: Array<[string, (safe: string) => void]> = [
      ['../../../etc/passwd.pdf', (safe) => expect(safe).toBe('passwd.pdf')],
      ['..\\..\\windows\\win.pdf', (safe) => expect(safe).toBe('win.pdf')],
      ['quote%22name.pdf', (safe) => expect(safe).toBe('quote_name.pdf')],
      ['evil\u0000name.pdf', (safe) => expect(safe).toBe('evilname.pdf')],
      ['..／..／fullwidth.pdf', (safe) => expect(safe).toBe('fullwidth.pdf')],
      ['a∕b⁄c.pdf', (safe) => expect(safe).toBe('c.pdf')],
      ['\u202Egnp.pdf', (safe) => expect(safe).toBe('gnp.pdf')],
      ['．．．hidden.pdf', (safe) => expect(safe).toBe('hidden.pdf')],
      ['..', (safe) => expect(safe).toBe('document')],
      [
        long,
        (safe) => {
          expect([...safe].length).toBeLessThanOrEqual(200);
          expect(safe.endsWith('.pdf')).toBe(true);
        },
      ],
    ];
    for (const [original, check] of cases) {
      const response = await upload(staff, documentForm(original, SAMPLES.pdf));
      expect(response.statusCode, `${original}: ${response.body}`).toBe(201);
      const body = response.json();
      check(body.filename);
      expect(body.filename).not.toMatch(/[/\\\0]|^\.|\.\./);
      if (original === long) expect(body.originalFilename).toBe(long);
    }
    // Nothing was written outside the storage root or its staging area.
    const root = t.config.documents.storageRoot;
    expect((await readdir(root)).sort()).toEqual(['.staging', place.brokerId].sort());
  });

  it('refuses a form without a file, with an unknown type, or not multipart', async () => {
    const noFile = await upload(staff, multipart([{ name: 'documentType', value: 'other' }]));
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().issues[0].path).toBe('file');
    const badType = await upload(
      staff,
      documentForm('a.pdf', SAMPLES.pdf, { documentType: 'passport' }),
    );
    expect(badType.statusCode).toBe(400);
    expect(badType.json().issues[0].path).toBe('documentType');
    const controlTitle = await upload(
      staff,
      documentForm('a.pdf', SAMPLES.pdf, { documentType: 'other', title: 'a\u0007b' }),
    );
    expect(controlTitle.statusCode).toBe(400);
    const json = await t.app.inject({
      method: 'POST',
      url: `/api/schemes/${place.schemeId}/documents`,
      remoteAddress: uniqueClientAddress(),
      headers: { authorization: `Bearer ${await t.tokenFor(staff)}` },
      payload: { documentType: 'other' },
    });
    expect(json.statusCode).toBe(415);
    const twoFiles = await upload(
      staff,
      multipart([
        { name: 'documentType', value: 'other' },
        { name: 'file', filename: 'a.pdf', content: SAMPLES.pdf },
        { name: 'file', filename: 'b.pdf', content: SAMPLES.pdf },
      ]),
    );
    expect(twoFiles.statusCode).toBe(400);
  });

  it('refuses a declared 26 MiB upload with 413 before reading the body', async () => {
    let pulled = 0;
    const body = new Readable({
      read() {
        pulled += 1;
        this.push(Buffer.alloc(64 * 1024));
      },
    });
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/schemes/${place.schemeId}/documents`,
      remoteAddress: uniqueClientAddress(),
      headers: {
        ...documentForm('big.pdf', SAMPLES.pdf).headers,
        'content-length': String(26 * 1024 * 1024),
        authorization: `Bearer ${await t.tokenFor(staff)}`,
      },
      payload: body,
    });
    expect(response.statusCode).toBe(413);
    expect(response.headers.connection).toBe('close');
    // At most what the stream buffered ahead on its own: the service read none of it.
    expect(pulled * 64 * 1024).toBeLessThan(2 * 1024 * 1024);
    body.destroy();
  });

  it('refuses an undeclared upload with 413 as soon as it passes 25 MiB, reading no further and keeping nothing', async () => {
    const before = await ownerOf(t.database).select({ id: documents.id }).from(documents);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const boundary = 'bigBoundary';
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    await once(socket, 'connect');
    let answer = '';
    socket.on('data', (data) => {
      answer += data.toString();
    });
    socket.write(
      `POST /api/schemes/${place.schemeId}/documents HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${await t.tokenFor(staff)}\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const send = (data: Buffer) => {
      socket.write(`${data.length.toString(16)}\r\n`);
      socket.write(data);
      return socket.write('\r\n');
    };
    send(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="documentType"\r\n\r\nother\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n\r\n%PDF-1.4\n`,
      ),
    );
    const chunk = Buffer.alloc(256 * 1024, 0x20);
    // Offered without end (up to 64 MiB): the server must answer once it is past 25 MiB, not
    // read on. Loopback socket buffers take a few MiB more than the server reads.
    const total = 64 * 1024 * 1024;
    let sent = 0;
    while (sent < total && answer === '' && !socket.destroyed) {
      sent += chunk.length;
      if (!send(chunk)) {
        // Whichever comes first; the listeners of the others are removed with the signal.
        const settled = new AbortController();
        const { signal } = settled;
        await Promise.race(
          ['drain', 'data', 'close'].map((event) =>
            once(socket, event, { signal }).catch(() => undefined),
          ),
        );
        settled.abort();
      }
    }
    for (let waited = 0; answer === '' && waited < 100; waited += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('{"error":"Payload too large"}');
    // The answer came as the limit was passed: the server read no further.
    expect(sent).toBeGreaterThan(25 * 1024 * 1024);
    expect(sent).toBeLessThan(34 * 1024 * 1024);
    const after = await ownerOf(t.database).select({ id: documents.id }).from(documents);
    expect(after.length).toBe(before.length);
    for (let waited = 0; waited < 40; waited += 1) {
      if ((await readdir(path.join(t.config.documents.storageRoot, '.staging'))).length === 0)
        break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await readdir(path.join(t.config.documents.storageRoot, '.staging'))).toEqual([]);
  });

  it('refuses members, other employers and other tenants as the policy says', async () => {
    expect((await upload(memberUser, documentForm('m.pdf', SAMPLES.pdf))).statusCode).toBe(403);
    expect((await upload(otherTenantStaff, documentForm('x.pdf', SAMPLES.pdf))).statusCode).toBe(
      403,
    );
  });
});

describe('versions', () => {
  it('numbers a second upload of a name as version 2, and the first stays readable', async () => {
    const first = await uploaded('Scheme booklet.pdf', SAMPLES.pdf, {
      documentType: 'member_booklet',
    });
    const secondBytes = Buffer.concat([SAMPLES.pdf, Buffer.from('% revised\n')]);
    const second = await uploaded('Scheme booklet.pdf', secondBytes, {
      documentType: 'member_booklet',
    });
    expect([first.version, second.version]).toEqual([1, 2]);
    const latest = await t.requestAs(staff, 'GET', `/api/schemes/${place.schemeId}/documents`);
    const names = latest
      .json()
      .items.filter((item: { filename: string }) => item.filename === 'Scheme booklet.pdf');
    expect(names.map((item: { version: number }) => item.version)).toEqual([2]);
    const all = await t.requestAs(
      staff,
      'GET',
      `/api/schemes/${place.schemeId}/documents?allVersions=true`,
    );
    const versions = all
      .json()
      .items.filter((item: { filename: string }) => item.filename === 'Scheme booklet.pdf')
      .map((item: { version: number }) => item.version)
      .sort();
    expect(versions).toEqual([1, 2]);
    const oldUrl = (await urlOf(staff, first.id)).json().url;
    const old = await fetchFile(oldUrl);
    expect(old.statusCode).toBe(200);
    expect(old.rawPayload.equals(SAMPLES.pdf)).toBe(true);
    // Deleting the latest shows the one before it again.
    expect((await t.requestAs(staff, 'DELETE', `/api/documents/${second.id}`)).statusCode).toBe(
      204,
    );
    const again = await t.requestAs(staff, 'GET', `/api/schemes/${place.schemeId}/documents`);
    expect(
      again
        .json()
        .items.filter((item: { filename: string }) => item.filename === 'Scheme booklet.pdf')
        .map((item: { version: number }) => item.version),
    ).toEqual([1]);
    // A number is never reused.
    const third = await uploaded('Scheme booklet.pdf', SAMPLES.pdf, {
      documentType: 'member_booklet',
    });
    expect(third.version).toBe(3);
  });

  it('pages the list with a cursor', async () => {
    const first = await t.requestAs(
      staff,
      'GET',
      `/api/schemes/${place.schemeId}/documents?limit=2&allVersions=true`,
    );
    const page = first.json();
    expect(page.items).toHaveLength(2);
    expect(page.nextCursor).not.toBeNull();
    const next = await t.requestAs(
      staff,
      'GET',
      `/api/schemes/${place.schemeId}/documents?limit=2&allVersions=true&cursor=${page.nextCursor}`,
    );
    const ids = next.json().items.map((item: { id: string }) => item.id);
    expect(
      ids.some((id: string) => page.items.some((item: { id: string }) => item.id === id)),
    ).toBe(false);
  });
});

describe('signed URLs', () => {
  it('serve the file as an attachment, not cached, not sniffed, and audit issue and download', async () => {
    const document = await uploaded('Relatório – año.pdf', SAMPLES.pdf);
    const issued = await urlOf(staff, document.id);
    expect(issued.statusCode).toBe(200);
    const { url, expiresAt } = issued.json();
    expect(new URL(url).pathname.startsWith('/files/')).toBe(true);
    expect(Date.parse(expiresAt) - clock.getTime()).toBe(5 * 60 * 1000);
    const file = await fetchFile(url);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(SAMPLES.pdf)).toBe(true);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="Relat_rio _ a_o.pdf"; filename*=UTF-8''${encodeURIComponent('Relatório – año.pdf')}`,
    );
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['cache-control']).toBe('private, no-store');
    const actions = (
      await ownerOf(t.database)
        .select({ action: auditLog.action, actorId: auditLog.actorId })
        .from(auditLog)
        .where(eq(auditLog.entityId, document.id))
    ).map((record) => `${record.action}:${record.actorId}`);
    expect(actions).toEqual(
      expect.arrayContaining([
        `document.url_issued:${staff.id}`,
        `document.downloaded:${staff.id}`,
      ]),
    );
  });

  it('refuse an expired URL', async () => {
    const document = await uploaded('expiring.pdf', SAMPLES.pdf);
    const { url } = (await urlOf(staff, document.id)).json();
    const issuedAt = clock;
    clock = new Date(issuedAt.getTime() + 5 * 60 * 1000 + 1000);
    try {
      expect((await fetchFile(url)).statusCode).toBe(403);
    } finally {
      clock = issuedAt;
    }
    expect((await fetchFile(url)).statusCode).toBe(200);
  });

  it('refuse a tampered signature or payload, and a URL replayed for another document', async () => {
    const a = await uploaded('a-tamper.pdf', SAMPLES.pdf);
    const b = await uploaded('b-tamper.pdf', SAMPLES.pdf);
    const { url } = (await urlOf(staff, a.id)).json();
    const { pathname } = new URL(url);
    const token = pathname.split('/')[3] as string;
    const [format, keyId, payload, mac] = token.split('.') as [string, string, string, string];
    const flipped = `${mac.slice(0, -2)}${mac.at(-2) === 'A' ? 'B' : 'A'}${mac.at(-1)}`;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const otherPayload = Buffer.from(JSON.stringify({ ...claims, e: claims.e + 3600 })).toString(
      'base64url',
    );
    for (const bad of [
      `/files/${a.id}/${format}.${keyId}.${payload}.${flipped}`,
      `/files/${a.id}/${format}.${keyId}.${otherPayload}.${mac}`,
      `/files/${a.id}/${format}.0000000000000000.${payload}.${mac}`,
      `/files/${a.id}/not-a-token`,
      `/files/${b.id}/${token}`,
    ]) {
      const response = await t.app.inject({
        method: 'GET',
        url: bad,
        remoteAddress: uniqueClientAddress(),
      });
      expect(response.statusCode, bad).toBe(403);
      expect(response.json()).toEqual({ error: 'Forbidden' });
    }
  });

  it('refuse a correctly signed grant for another tenant’s document (404)', async () => {
    const theirs = await upload(
      otherTenantStaff,
      documentForm('theirs.pdf', SAMPLES.pdf),
      otherPlace.schemeId,
    );
    expect(theirs.statusCode).toBe(201);
    const signer = createUrlSigner({
      current: TEST_SECRETS.DOCUMENT_URL_KEY,
      previous: null,
      now: () => clock,
    });
    const { token } = signer.sign({
      documentId: theirs.json().id,
      version: 1,
      tenantId: place.brokerId,
      userId: staff.id,
      sessionEpoch: staff.sessionEpoch,
    });
    const response = await t.app.inject({
      method: 'GET',
      url: `/files/${theirs.json().id}/${token}`,
      remoteAddress: uniqueClientAddress(),
    });
    expect(response.statusCode).toBe(404);
    // And the API will not issue one across tenants either.
    expect((await urlOf(staff, theirs.json().id)).statusCode).toBe(404);
  });

  it('refuse a URL of a deleted document', async () => {
    const document = await uploaded('to-delete.pdf', SAMPLES.pdf);
    const { url } = (await urlOf(staff, document.id)).json();
    const deleted = await t.requestAs(staff, 'DELETE', `/api/documents/${document.id}`);
    expect(deleted.statusCode).toBe(204);
    expect((await fetchFile(url)).statusCode).toBe(404);
    expect((await t.requestAs(staff, 'GET', `/api/documents/${document.id}`)).statusCode).toBe(404);
    const [row] = await ownerOf(t.database)
      .select({ deletedAt: documents.deletedAt })
      .from(documents)
      .where(eq(documents.id, document.id));
    expect(row?.deletedAt).not.toBeNull();
    const [record] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, document.id), eq(auditLog.action, 'document.deleted')));
    expect(record?.previousState).toMatchObject({ id: document.id });
  });

  it('open with the previous key during a rotation, and not after it', async () => {
    const document = await uploaded('rotated.pdf', SAMPLES.pdf);
    const oldKey = 'e'.repeat(64);
    const oldSigner = createUrlSigner({ current: oldKey, previous: null, now: () => clock });
    const { token } = oldSigner.sign({
      documentId: document.id,
      version: 1,
      tenantId: place.brokerId,
      userId: staff.id,
      sessionEpoch: staff.sessionEpoch,
    });
    const refused = await t.app.inject({
      method: 'GET',
      url: `/files/${document.id}/${token}`,
      remoteAddress: uniqueClientAddress(),
    });
    expect(refused.statusCode).toBe(403);
    const rotating = await buildTestApp({
      counters: uncountedStore(),
      database: t.database,
      now: () => clock,
      env: {
        DOCUMENT_URL_KEY_PREVIOUS: oldKey,
        DATA_DIR: path.dirname(t.config.documents.storageRoot),
      },
    });
    try {
      const accepted = await rotating.app.inject({
        method: 'GET',
        url: `/files/${document.id}/${token}`,
        remoteAddress: uniqueClientAddress(),
      });
      expect(accepted.statusCode).toBe(200);
    } finally {
      await rotating.close();
    }
  });

  it('need no session, and are counted by a limit of their own', async () => {
    const limited = await buildTestApp({ database: t.database, now: () => clock });
    try {
      const answers: number[] = [];
      for (let index = 0; index < 61; index += 1) {
        const response = await limited.app.inject({
          method: 'GET',
          url: '/files/abc/v1.x.y.z',
          remoteAddress: '203.0.113.77',
        });
        answers.push(response.statusCode);
      }
      expect(answers.slice(0, 60).every((status) => status === 403)).toBe(true);
      expect(answers[60]).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe('what members and employers see', () => {
  it('a Member sees only their scheme’s member-facing documents', async () => {
    const facing = await uploaded('Member booklet.pdf', SAMPLES.pdf, {
      documentType: 'member_booklet',
      memberFacing: 'true',
    });
    const internal = await uploaded('Board minutes.pdf', SAMPLES.pdf, { documentType: 'other' });
    const list = await t.requestAs(memberUser, 'GET', `/api/schemes/${place.schemeId}/documents`);
    expect(list.statusCode).toBe(200);
    const ids = list.json().items.map((item: { id: string }) => item.id);
    expect(ids).toContain(facing.id);
    expect(ids).not.toContain(internal.id);
    expect(list.json().items.every((item: { memberFacing: boolean }) => item.memberFacing)).toBe(
      true,
    );
    expect((await t.requestAs(memberUser, 'GET', `/api/documents/${internal.id}`)).statusCode).toBe(
      404,
    );
    expect((await urlOf(memberUser, internal.id)).statusCode).toBe(404);
    const mine = await urlOf(memberUser, facing.id);
    expect(mine.statusCode).toBe(200);
    expect((await fetchFile(mine.json().url)).statusCode).toBe(200);
  });
});

describe('documents about one member', () => {
  let otherMemberUser: UserRow;
  let otherMemberId: string;

  beforeAll(async () => {
    const other = await createMember(t.database, place);
    otherMemberId = other.id;
    otherMemberUser = await createUser(t.database, {
      brokerId: place.brokerId,
      employerId: place.employerId,
      role: 'Member',
      memberId: other.id,
    });
  });

  const listedFor = async (user: UserRow) => {
    const list = await t.requestAs(user, 'GET', `/api/schemes/${place.schemeId}/documents`);
    expect(list.statusCode, list.body).toBe(200);
    return list.json().items.map((item: { id: string }) => item.id) as string[];
  };

  it('is listed, read and served through a signed URL to that member and to staff, never to another member of the scheme', async () => {
    const statement = await uploaded('Statement Niamh Byrne.pdf', SAMPLES.pdf, {
      documentType: 'benefit_statement',
      memberId: ownMemberId,
    });
    expect(statement).toMatchObject({ memberId: ownMemberId, memberFacing: true });

    expect(await listedFor(memberUser)).toContain(statement.id);
    expect(await listedFor(staff)).toContain(statement.id);
    expect(await listedFor(otherMemberUser)).not.toContain(statement.id);

    expect(
      (await t.requestAs(otherMemberUser, 'GET', `/api/documents/${statement.id}`)).statusCode,
    ).toBe(404);
    expect((await urlOf(otherMemberUser, statement.id)).statusCode).toBe(404);
    expect(
      (await t.requestAs(memberUser, 'GET', `/api/documents/${statement.id}`)).json(),
    ).toMatchObject({ id: statement.id, memberId: ownMemberId });

    const own = await urlOf(memberUser, statement.id);
    expect(own.statusCode).toBe(200);
    expect((await fetchFile(own.json().url)).statusCode).toBe(200);
    const staffs = await urlOf(staff, statement.id);
    expect(staffs.statusCode).toBe(200);
    expect((await fetchFile(staffs.json().url)).statusCode).toBe(200);
  });

  it('a signed URL issued to another member of the scheme for the document does not open it', async () => {
    const statement = await uploaded('Statement 2026.pdf', SAMPLES.pdf, {
      documentType: 'benefit_statement',
      memberId: ownMemberId,
    });
    // A grant signed for the other member's account, as if the URL route had issued it.
    const signer = createUrlSigner({
      current: TEST_SECRETS.DOCUMENT_URL_KEY,
      previous: null,
      now: () => clock,
    });
    const { token } = signer.sign({
      documentId: statement.id,
      version: statement.version,
      tenantId: place.brokerId,
      userId: otherMemberUser.id,
      sessionEpoch: otherMemberUser.sessionEpoch,
    });
    const refused = await t.app.inject({
      method: 'GET',
      url: `/files/${statement.id}/${token}`,
      remoteAddress: uniqueClientAddress(),
    });
    expect(refused.statusCode).toBe(404);
  });

  it('a benefit statement must name a member of its scheme: without one, or with one of another scheme or tenant, it is refused with 400', async () => {
    const refusal = async (fields: Record<string, string>) => {
      const response = await upload(staff, documentForm('Statement.pdf', SAMPLES.pdf, fields));
      expect(response.statusCode, response.body).toBe(400);
      return response.json() as { issues: Array<{ path: string; code: string }> };
    };
    expect((await refusal({ documentType: 'benefit_statement' })).issues).toEqual([
      expect.objectContaining({ path: 'memberId' }),
    ]);
    const elsewhere = await createScheme(t.database, {
      id: place.employerId,
      brokerId: place.brokerId,
    });
    const ofAnotherScheme = await createMember(t.database, {
      ...place,
      schemeId: elsewhere,
    });
    const ofAnotherTenant = await createMember(t.database, otherPlace);
    const unknown = [
      await refusal({ documentType: 'benefit_statement', memberId: ofAnotherScheme.id }),
      await refusal({ documentType: 'benefit_statement', memberId: ofAnotherTenant.id }),
      await refusal({ documentType: 'benefit_statement', memberId: 'nosuchmember0000000000' }),
    ];
    // Alike, whoever the id is: the refusal tells nothing of other members.
    for (const body of unknown) {
      expect(body.issues).toEqual([
        {
          path: 'memberId',
          code: 'unknown_member',
          message: 'There is no such member in this scheme',
        },
      ]);
    }
    expect((await refusal({ documentType: 'trust_deed', memberId: ownMemberId })).issues).toEqual([
      expect.objectContaining({ path: 'memberId' }),
    ]);
  });

  it('two members’ documents of one name are separate documents, each its own first version', async () => {
    const mine = await uploaded('Annual statement 2025.pdf', SAMPLES.pdf, {
      documentType: 'benefit_statement',
      memberId: ownMemberId,
    });
    const theirs = await uploaded('Annual statement 2025.pdf', SAMPLES.png, {
      documentType: 'benefit_statement',
      memberId: otherMemberId,
    });
    expect([mine.version, theirs.version]).toEqual([1, 1]);
    const again = await uploaded('Annual statement 2025.pdf', SAMPLES.pdf, {
      documentType: 'benefit_statement',
      memberId: ownMemberId,
    });
    expect(again.version).toBe(2);
    expect(await listedFor(memberUser)).toEqual(expect.arrayContaining([again.id]));
    expect(await listedFor(memberUser)).not.toContain(theirs.id);
    expect(await listedFor(otherMemberUser)).toContain(theirs.id);
    expect(await listedFor(staff)).toEqual(expect.arrayContaining([again.id, theirs.id]));
  });
});

describe('storage', () => {
  it('keys stored files by ids only, and still serves files stored under the earlier layout’s keys (with the file name)', async () => {
    const root = t.config.documents.storageRoot;
    const document = await uploaded('Statement Seán Ó Briain 1234567TA.pdf', SAMPLES.pdf, {
      documentType: 'other',
    });
    const [row] = await ownerOf(t.database)
      .select({ storageKey: documents.storageKey })
      .from(documents)
      .where(eq(documents.id, document.id));
    expect(row?.storageKey).toBe(`${place.brokerId}/${place.schemeId}/${document.id}`);
    expect(await readdir(path.join(root, place.brokerId, place.schemeId))).not.toContain('other');

    // As an upload before ids-only keys stored it: tenant/scheme/type/filename/v<version>.
    const oldKey = `${place.brokerId}/${place.schemeId}/other/Statement Seán Ó Briain 1234567TA.pdf/v1`;
    await mkdir(path.dirname(path.join(root, oldKey)), { recursive: true });
    await rename(path.join(root, row?.storageKey as string), path.join(root, oldKey));
    await ownerOf(t.database)
      .update(documents)
      .set({ storageKey: oldKey })
      .where(eq(documents.id, document.id));
    const url = await urlOf(staff, document.id);
    expect(url.statusCode).toBe(200);
    const file = await fetchFile(url.json().url);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(SAMPLES.pdf)).toBe(true);
  });

  it('the sweep moves a committed upload left staged by a crash, and removes one never committed', async () => {
    const document = await uploaded('crash.pdf', SAMPLES.pdf);
    const root = t.config.documents.storageRoot;
    const [row] = await ownerOf(t.database)
      .select({ storageKey: documents.storageKey })
      .from(documents)
      .where(eq(documents.id, document.id));
    const storedPath = path.join(root, row?.storageKey as string);
    // The process died after the commit, before the rename.
    const staged = path.join(root, '.staging', document.id);
    await rename(storedPath, staged);
    const orphan = path.join(root, '.staging', 'zzorphan000000000000000000');
    await writeFile(orphan, 'never committed');
    const fresh = path.join(root, '.staging', 'zzfresh0000000000000000000');
    await writeFile(fresh, 'still uploading');
    const old = new Date(clock.getTime() - 2 * 60 * 60 * 1000);
    await utimes(staged, old, old);
    await utimes(orphan, old, old);
    await utimes(fresh, clock, clock);
    const job = t.app.scheduledJobs.get('storage-sweep');
    expect(job).toBeDefined();
    const counts = await job?.run({ scheduledFor: clock, runId: 'test' });
    expect(counts).toMatchObject({ committed: 1, removed: 1 });
    expect(existsSync(storedPath)).toBe(true);
    expect(existsSync(staged)).toBe(false);
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(fresh)).toBe(true);
    expect((await stat(storedPath)).size).toBe(SAMPLES.pdf.length);
    const { url } = (await urlOf(staff, document.id)).json();
    expect((await fetchFile(url)).statusCode).toBe(200);
  });

  it('keeps each tenant’s rows from the other by row-level security', async () => {
    await uploaded('rls.pdf', SAMPLES.pdf);
    const asOther = await withActor(
      t.database,
      {
        userId: otherTenantStaff.id,
        email: otherTenantStaff.email,
        role: 'BrokerAdmin',
        tenantId: otherPlace.brokerId,
        employerId: null,
        memberId: null,
        ipAddress: 'unknown',
        userAgent: 'unknown',
      },
      (tx) => tx.select({ brokerId: documents.brokerId }).from(documents),
    );
    expect(asOther.length).toBeGreaterThan(0);
    expect(asOther.every((row) => row.brokerId === otherPlace.brokerId)).toBe(true);
    // Nor can a tenant write a row into another tenant.
    await expect(
      withActor(
        t.database,
        {
          userId: otherTenantStaff.id,
          email: otherTenantStaff.email,
          role: 'BrokerAdmin',
          tenantId: otherPlace.brokerId,
          employerId: null,
          memberId: null,
          ipAddress: 'unknown',
          userAgent: 'unknown',
        },
        (tx) =>
          tx
            .update(documents)
            .set({ title: 'changed' })
            .where(eq(documents.brokerId, place.brokerId))
            .returning({ id: documents.id }),
      ),
    ).resolves.toEqual([]);
  });
});
