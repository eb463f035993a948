import { once } from 'node:events';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_BYTES } from '../../src/contracts/documents.js';
import { documents } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import { createBroker, createEmployer, createScheme, createUser } from '../helpers/factories.js';

/**
 * The document upload's limit (25 MiB: docs/api.md, "Requests and answers") holds the whole request
 * body, not only its file part: fields, part headers, delimiters and what follows the closing
 * delimiter count too, with 64 KiB of room for the form around a file of the full size. A body past
 * it is refused with 413 as the limit is passed, without reading the rest.
 */

/** The file limit and the form's room around it (documents.service.ts). */
const BODY_LIMIT = MAX_DOCUMENT_BYTES + 64 * 1024;
const BOUNDARY = 'limitBoundary';

let t: TestApp;
let port: number;
let uploadPath: string;
let token: string;

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore() });
  const brokerId = await createBroker(t.database);
  const employerId = await createEmployer(t.database, brokerId);
  const schemeId = await createScheme(t.database, { id: employerId, brokerId });
  const staff = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  token = await t.tokenFor(staff);
  uploadPath = `/api/schemes/${schemeId}/documents`;
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
afterAll(() => t.close());

/**
 * Opens a chunked upload (no declared length, so only counting can stop it), sends `head`, then
 * offers `filler` bytes in pieces without ever ending the body, and stops offering once the
 * server answers. Returns the answer and how many bytes were offered.
 */
async function openEndedUpload(head: Buffer, filler: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  let answer = '';
  socket.on('data', (data) => {
    answer += data.toString();
  });
  socket.write(
    `POST ${uploadPath} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nTransfer-Encoding: chunked\r\n\r\n`,
  );
  const send = (data: Buffer) => {
    socket.write(`${data.length.toString(16)}\r\n`);
    socket.write(data);
    return socket.write('\r\n');
  };
  let sent = head.length;
  send(head);
  const piece = Buffer.alloc(256 * 1024, 0x41);
  while (sent < head.length + filler && answer === '' && !socket.destroyed) {
    sent += piece.length;
    if (!send(piece)) {
      const settled = new AbortController();
      await Promise.race(
        ['drain', 'data', 'close'].map((event) =>
          once(socket, event, { signal: settled.signal }).catch(() => undefined),
        ),
      );
      settled.abort();
    }
  }
  for (let waited = 0; answer === '' && waited < 100; waited += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  socket.destroy();
  return { answer, sent };
}

const part = (headers: string, value: string) => `--${BOUNDARY}\r\n${headers}\r\n\r\n${value}\r\n`;

async function documentCount() {
  return (await ownerOf(t.database).select({ id: documents.id }).from(documents)).length;
}

describe('the document upload body limit', () => {
  it('refuses with 413 a body of many small fields and a file of the full size, together over the limit', async () => {
    const before = await documentCount();
    // Seven fields, each with a padded part header and a value under the field limit: about
    // 84 KiB of form, more than the room the limit leaves around a 25 MiB file.
    const fields = Array.from({ length: 7 }, (_, index) =>
      part(
        `Content-Disposition: form-data; name="field${index}"\r\nX-Padding: ${'p'.repeat(7_900)}`,
        'v'.repeat(4_000),
      ),
    ).join('');
    const head = Buffer.from(
      `${fields}--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="full.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
    );
    expect(head.length + MAX_DOCUMENT_BYTES).toBeGreaterThan(BODY_LIMIT);
    // The file itself stays within its own limit; the body does not.
    const { answer, sent } = await openEndedUpload(head, MAX_DOCUMENT_BYTES - 16);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('{"error":"Payload too large"}');
    expect(sent).toBeGreaterThan(BODY_LIMIT - 512 * 1024);
    expect(await documentCount()).toBe(before);
  });

  it('refuses with 413 as the limit is passed a body that goes on after its closing delimiter', async () => {
    const head = Buffer.from(
      `${part('Content-Disposition: form-data; name="documentType"', 'other')}--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="small.pdf"\r\n\r\n%PDF-1.4\nsmall\r\n--${BOUNDARY}--\r\n`,
    );
    // 64 MiB of epilogue offered, never ended: the answer must come near the limit.
    const { answer, sent } = await openEndedUpload(head, 64 * 1024 * 1024);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(sent).toBeLessThan(BODY_LIMIT + 8 * 1024 * 1024);
  });

  it('refuses with 413 a huge non-file field as soon as it passes what a field may hold', async () => {
    const head = Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\n\r\n`,
    );
    const { answer, sent } = await openEndedUpload(head, 64 * 1024 * 1024);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('{"error":"Payload too large"}');
    expect(sent).toBeLessThan(8 * 1024 * 1024);
  });

  it('still accepts a file of the full size with its form', async () => {
    const head = Buffer.from(
      `${part('Content-Disposition: form-data; name="documentType"', 'other')}--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="full.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
    );
    const file = Buffer.concat([head, Buffer.alloc(MAX_DOCUMENT_BYTES - 9, 0x20)]);
    const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
    const response = await t.app.inject({
      method: 'POST',
      url: uploadPath,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      },
      payload: Buffer.concat([file, tail]),
    });
    expect(response.statusCode, response.body).toBe(201);
  });
});
