import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  boundaryOf,
  MultipartAbortedError,
  MultipartError,
  type MultipartLimits,
  MultipartTooLargeError,
  readMultipart,
} from '../../src/server/platform/uploads/multipart.js';

/**
 * The document upload's own multipart reader (docs/decisions/0115-multipart-uploads.md, kept in
 * place of @fastify/multipart because that library cannot count the whole body, 0097). These
 * tests hold the reader alone; test/documents/documents.test.ts and
 * test/http/upload-body-limit.test.ts hold the route around it.
 */

const B = 'unitBoundary';
const LIMITS: MultipartLimits = {
  maxBodyBytes: 1024 * 1024,
  maxFileBytes: 512 * 1024,
  maxFieldBytes: 64,
  maxFields: 3,
  maxHeaderBytes: 256,
};

const field = (name: string, value: string) =>
  `--${B}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const filePart = (disposition: string, content: string | Buffer) =>
  Buffer.concat([
    Buffer.from(`--${B}\r\nContent-Disposition: form-data; ${disposition}\r\n\r\n`),
    Buffer.from(content),
    Buffer.from('\r\n'),
  ]);
const close = `--${B}--\r\n`;

/**
 * A body served on demand in `size`-byte chunks, counting what the reader has pulled, so a test
 * can tell how far the reader read.
 */
function source(body: Buffer, size: number) {
  let offset = 0;
  const counter = { pulled: 0 };
  const stream = new Readable({
    highWaterMark: size,
    read() {
      if (offset >= body.length) {
        this.push(null);
        return;
      }
      const chunk = body.subarray(offset, offset + size);
      offset += chunk.length;
      counter.pulled += chunk.length;
      this.push(chunk);
    },
  });
  return { stream, counter };
}

async function read(body: Buffer, chunkSize = 64 * 1024, limits: MultipartLimits = LIMITS) {
  const files: { field: string; filename: string; bytes: Buffer }[] = [];
  const fields = await readMultipart(
    source(body, chunkSize).stream,
    B,
    {
      onFileStart(part) {
        files.push({ ...part, bytes: Buffer.alloc(0) });
      },
      async onFileData(chunk) {
        const file = files.at(-1);
        if (file) file.bytes = Buffer.concat([file.bytes, chunk]);
      },
    },
    limits,
  );
  return { fields: Object.fromEntries(fields), files };
}

describe('boundaryOf', () => {
  it('reads the boundary of multipart/form-data, quoted or not, whatever the case', () => {
    expect(boundaryOf('multipart/form-data; boundary=abc')).toBe('abc');
    expect(boundaryOf('Multipart/Form-Data; charset=utf-8; BOUNDARY="a b:c"')).toBe('a b:c');
  });

  it('finds none for another type, a missing boundary or one RFC 2046 does not allow', () => {
    expect(boundaryOf(undefined)).toBeNull();
    expect(boundaryOf('application/json; boundary=abc')).toBeNull();
    expect(boundaryOf('multipart/form-data')).toBeNull();
    expect(boundaryOf('multipart/form-data; boundary=""')).toBeNull();
    expect(boundaryOf(`multipart/form-data; boundary=${'x'.repeat(71)}`)).toBeNull();
  });
});

describe('readMultipart', () => {
  const content = Buffer.from(`%PDF-1.4\r\n--${B.slice(0, 5)} not a delimiter\r\n\r\n-- end`);
  const body = Buffer.concat([
    Buffer.from(`preamble text\r\n${field('documentType', 'other')}${field('title', 'Año 2026')}`),
    filePart('name="file"; filename="report.pdf"', content),
    Buffer.from(`${close}epilogue`),
  ]);

  it('gives the same fields and file bytes however the body is cut into chunks', async () => {
    for (const size of [1, 2, 7, 13, 64, body.length]) {
      const { fields, files } = await read(body, size);
      expect(fields, `chunks of ${size}`).toEqual({ documentType: 'other', title: 'Año 2026' });
      expect(
        files.map((file) => [file.field, file.filename]),
        `chunks of ${size}`,
      ).toEqual([['file', 'report.pdf']]);
      expect(files[0]?.bytes.equals(content), `chunks of ${size}`).toBe(true);
    }
  });

  it('takes the filename as the browser writes it: %22, %0D and %0A decoded, a backslash kept, filename* preferred', async () => {
    const named = async (disposition: string) =>
      (
        await read(
          Buffer.concat([filePart(`name="file"; ${disposition}`, 'x'), Buffer.from(close)]),
        )
      ).files[0]?.filename;
    expect(await named('filename="say %22hi%22.pdf"')).toBe('say "hi".pdf');
    expect(await named('filename="C:\\docs\\a.pdf"')).toBe('C:\\docs\\a.pdf');
    expect(await named(`filename="plain.pdf"; filename*=UTF-8''Relat%C3%B3rio.pdf`)).toBe(
      'Relatório.pdf',
    );
  });

  it('does not read ahead of a file handler that has not finished with the last chunk', async () => {
    const big = Buffer.concat([
      filePart('name="file"; filename="big.bin"', Buffer.alloc(4 * 1024 * 1024, 0x61)),
      Buffer.from(close),
    ]);
    const { stream, counter } = source(big, 64 * 1024);
    let release: () => void = () => undefined;
    const blocked = new Promise<void>((resolve) => {
      release = resolve;
    });
    let firstChunkSeen: () => void = () => undefined;
    const firstChunk = new Promise<void>((resolve) => {
      firstChunkSeen = resolve;
    });
    let handled = 0;
    const reading = readMultipart(
      stream,
      B,
      {
        onFileStart() {},
        async onFileData(chunk) {
          handled += chunk.length;
          firstChunkSeen();
          await blocked;
        },
      },
      { ...LIMITS, maxBodyBytes: 8 * 1024 * 1024, maxFileBytes: 8 * 1024 * 1024 },
    );
    await firstChunk;
    await new Promise((resolve) => setTimeout(resolve, 50));
    // One chunk in hand and the stream's own buffer: nowhere near the 4 MiB on offer.
    expect(counter.pulled).toBeLessThanOrEqual(3 * 64 * 1024);
    release();
    await reading;
    expect(handled).toBe(4 * 1024 * 1024);
  });

  it('counts the preamble and the epilogue toward the body limit, and stops reading once past it', async () => {
    const limits = { ...LIMITS, maxBodyBytes: 256 * 1024 };
    const padding = Buffer.alloc(4 * 1024 * 1024, 0x41);
    const cases = [
      Buffer.concat([padding, Buffer.from(`\r\n${field('documentType', 'other')}${close}`)]),
      Buffer.concat([Buffer.from(`${field('documentType', 'other')}${close}`), padding]),
    ];
    for (const body of cases) {
      const { stream, counter } = source(body, 16 * 1024);
      await expect(
        readMultipart(stream, B, { onFileStart() {}, async onFileData() {} }, limits),
      ).rejects.toBeInstanceOf(MultipartTooLargeError);
      expect(counter.pulled).toBeLessThanOrEqual(256 * 1024 + 3 * 16 * 1024);
    }
  });

  it('refuses a file past its limit and a field past its limit as too large, before their end', async () => {
    const hugeFile = Buffer.concat([
      filePart('name="file"; filename="a.bin"', Buffer.alloc(LIMITS.maxFileBytes + 1)),
      Buffer.from(close),
    ]);
    await expect(read(hugeFile)).rejects.toBeInstanceOf(MultipartTooLargeError);
    const longField = Buffer.from(
      `${field('title', 't'.repeat(LIMITS.maxFieldBytes + 1))}${close}`,
    );
    await expect(read(longField)).rejects.toBeInstanceOf(MultipartTooLargeError);
    // At the limit exactly, both are taken.
    const atLimit = Buffer.concat([
      Buffer.from(field('title', 't'.repeat(LIMITS.maxFieldBytes))),
      filePart('name="file"; filename="a.bin"', Buffer.alloc(LIMITS.maxFileBytes)),
      Buffer.from(close),
    ]);
    const { fields, files } = await read(atLimit);
    expect(fields.title).toHaveLength(LIMITS.maxFieldBytes);
    expect(files[0]?.bytes.length).toBe(LIMITS.maxFileBytes);
  });

  it('refuses a malformed form with a message that says what is wrong', async () => {
    const refusals: [string, Buffer][] = [
      [
        'only one file may be uploaded at a time',
        Buffer.concat([
          filePart('name="file"; filename="a.pdf"', 'a'),
          filePart('name="other"; filename="b.pdf"', 'b'),
          Buffer.from(close),
        ]),
      ],
      [
        'the field title is repeated',
        Buffer.from(`${field('title', 'a')}${field('title', 'b')}${close}`),
      ],
      [
        'the form has too many fields',
        Buffer.from(
          `${field('a', '1')}${field('b', '2')}${field('c', '3')}${field('d', '4')}${close}`,
        ),
      ],
      [
        'a part header is too long',
        Buffer.from(
          `--${B}\r\nContent-Disposition: form-data; name="title"\r\nX-Pad: ${'p'.repeat(300)}\r\n\r\nx\r\n${close}`,
        ),
      ],
      [
        'a part has no form-data Content-Disposition',
        Buffer.from(`--${B}\r\nContent-Type: text/plain\r\n\r\nx\r\n${close}`),
      ],
      [
        'a part has no field name',
        Buffer.from(`--${B}\r\nContent-Disposition: form-data\r\n\r\nx\r\n${close}`),
      ],
      ['the form ends before its closing boundary', Buffer.from(field('title', 'cut short'))],
      ['the form ends before its closing boundary', Buffer.from('no delimiter at all')],
    ];
    for (const [message, body] of refusals) {
      const refusal = read(body, 7);
      await expect(refusal, message).rejects.toBeInstanceOf(MultipartError);
      await expect(refusal, message).rejects.toThrow(message);
    }
  });

  it('says the client stopped when the body is cut off mid-file', async () => {
    let sent = false;
    const stream = new Readable({
      read() {
        if (sent) {
          // The connection goes away: closed without an end.
          setImmediate(() => this.destroy());
          return;
        }
        sent = true;
        this.push(filePart('name="file"; filename="a.pdf"', 'partial'));
      },
    });
    await expect(
      readMultipart(stream, B, { onFileStart() {}, async onFileData() {} }, LIMITS),
    ).rejects.toBeInstanceOf(MultipartAbortedError);
  });
});
