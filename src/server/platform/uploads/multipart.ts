import type { Readable } from 'node:stream';

/**
 * A streaming reader of `multipart/form-data` (RFC 7578) for the document upload. Written here
 * rather than taken from @fastify/multipart, which reads the preamble, the epilogue and the
 * overflow of a too-long field to their end whatever their size, so it cannot hold the whole-body
 * limit of docs/decisions/0097-upload-limit-counts-the-whole-body.md (measured in
 * docs/decisions/0115-multipart-uploads.md; tests: test/documents/multipart.test.ts). It never
 * holds a file: each piece of a file part is handed to `onFileData` and awaited before more is
 * read, so memory holds one network chunk and a delimiter's length of carry-over, whatever the
 * upload's size. Small text fields are collected, each bounded.
 */

export class MultipartError extends Error {
  override name = 'MultipartError';
}

export class MultipartTooLargeError extends Error {
  override name = 'MultipartTooLargeError';
  constructor() {
    super('upload larger than the limit');
  }
}

export interface FilePart {
  field: string;
  /** The name as the client sent it (RFC 7578 §4.2), undecoded beyond the header's own quoting. */
  filename: string;
}

export interface MultipartHandlers {
  /** A file part begins; only one is accepted. */
  onFileStart(part: FilePart): void;
  onFileData(chunk: Buffer): Promise<void>;
}

export interface MultipartLimits {
  /**
   * The most bytes of the whole body: every part, its headers, delimiters, preamble and epilogue.
   * Counted as the bytes arrive, so a body past it is refused without reading the rest.
   */
  maxBodyBytes: number;
  /** The most bytes of file content taken. */
  maxFileBytes: number;
  /** The most bytes of a text field's value. */
  maxFieldBytes: number;
  maxFields: number;
  /** The most bytes of one part's headers. */
  maxHeaderBytes: number;
}

/** The boundary of a `multipart/form-data` content type, or null when there is none usable. */
export function boundaryOf(contentType: string | undefined): string | null {
  if (!contentType) return null;
  const [type, ...parameters] = contentType.split(';');
  if (type?.trim().toLowerCase() !== 'multipart/form-data') return null;
  for (const parameter of parameters) {
    const equals = parameter.indexOf('=');
    if (equals === -1) continue;
    if (parameter.slice(0, equals).trim().toLowerCase() !== 'boundary') continue;
    let value = parameter.slice(equals + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
      value = value.slice(1, -1);
    }
    // RFC 2046 §5.1.1: 1 to 70 characters.
    return value.length >= 1 && value.length <= 70 ? value : null;
  }
  return null;
}

/**
 * One parameter of a Content-Disposition header: quoted or a token. Browsers quote without
 * backslash escapes and write `"`, CR and LF as %22, %0D and %0A (the HTML standard's
 * multipart/form-data encoding), so a backslash is a character of the name (a Windows path).
 */
function dispositionParameter(header: string, name: string): string | null {
  const pattern = new RegExp(`(?:^|;)\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;]*))`, 'i');
  const match = pattern.exec(header);
  if (!match) return null;
  if (match[1] !== undefined) {
    return match[1].replace(/%22/gi, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');
  }
  return (match[2] ?? '').trim();
}

/** RFC 5987's `filename*=UTF-8''…`, which some clients send beside or instead of `filename`. */
function extendedFilename(header: string): string | null {
  const value = dispositionParameter(header, 'filename\\*');
  if (value === null) return null;
  const match = /^utf-8'[^']*'(.*)$/i.exec(value);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1] ?? '');
  } catch {
    return null;
  }
}

function partOf(headerBlock: string): { name: string; filename: string | null } {
  let disposition: string | null = null;
  for (const line of headerBlock.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon === -1) throw new MultipartError('a part header is malformed');
    if (line.slice(0, colon).trim().toLowerCase() === 'content-disposition') {
      disposition = line.slice(colon + 1).trim();
    }
  }
  if (disposition === null || !/^form-data\s*(;|$)/i.test(disposition)) {
    throw new MultipartError('a part has no form-data Content-Disposition');
  }
  const name = dispositionParameter(disposition, 'name');
  if (!name) throw new MultipartError('a part has no field name');
  const filename = extendedFilename(disposition) ?? dispositionParameter(disposition, 'filename');
  return { name, filename };
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * Reads the body to its end, calling the handlers for the one file part and answering the text
 * fields. Refuses a second file, too many fields or too large headers, a body that ends before its
 * closing delimiter, and (MultipartTooLargeError, as soon as it is past) a body past
 * `maxBodyBytes`, a file past `maxFileBytes` or a field past `maxFieldBytes`: everything the
 * client sends counts, the epilogue after the closing delimiter too.
 */
export async function readMultipart(
  body: Readable,
  boundary: string,
  handlers: MultipartHandlers,
  limits: MultipartLimits,
): Promise<Map<string, string>> {
  // The first delimiter may open the body without the CRLF every later one has before it.
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const fields = new Map<string, string>();
  let carry: Buffer = Buffer.from(CRLF);
  let state: 'preamble' | 'after-delimiter' | 'headers' | 'body' | 'done' = 'preamble';
  let current: { name: string; file: boolean; chunks: Buffer[]; bytes: number } | null = null;
  let fileSeen = false;
  let fileBytes = 0;

  async function take(data: Buffer): Promise<void> {
    if (!current || data.length === 0) return;
    if (current.file) {
      fileBytes += data.length;
      if (fileBytes > limits.maxFileBytes) throw new MultipartTooLargeError();
      await handlers.onFileData(data);
      return;
    }
    current.bytes += data.length;
    if (current.bytes > limits.maxFieldBytes) throw new MultipartTooLargeError();
    current.chunks.push(data);
  }

  function endPart(): void {
    if (current && !current.file) {
      if (fields.has(current.name))
        throw new MultipartError(`the field ${current.name} is repeated`);
      if (fields.size >= limits.maxFields) throw new MultipartError('the form has too many fields');
      fields.set(current.name, Buffer.concat(current.chunks).toString('utf8'));
    }
    current = null;
  }

  /** Works through `carry` as far as it can; what is left waits for the next chunk. */
  async function advance(): Promise<void> {
    for (;;) {
      if (state === 'done') {
        carry = Buffer.alloc(0);
        return;
      }
      if (state === 'preamble' || state === 'body') {
        const at = carry.indexOf(delimiter);
        if (at === -1) {
          // Keep what could be the start of a delimiter; the rest is content (or preamble).
          const keep = Math.min(carry.length, delimiter.length - 1);
          if (state === 'body') await take(carry.subarray(0, carry.length - keep));
          carry = carry.subarray(carry.length - keep);
          return;
        }
        if (state === 'body') {
          await take(carry.subarray(0, at));
          endPart();
        }
        carry = carry.subarray(at + delimiter.length);
        state = 'after-delimiter';
        continue;
      }
      if (state === 'after-delimiter') {
        if (carry.length < 2) return;
        if (carry[0] === 0x2d && carry[1] === 0x2d) {
          state = 'done';
          continue;
        }
        // Transport padding (RFC 2046) then CRLF.
        const lineEnd = carry.indexOf(CRLF);
        if (lineEnd === -1) {
          if (carry.length > 256) throw new MultipartError('a delimiter line is malformed');
          return;
        }
        if (carry.subarray(0, lineEnd).toString('latin1').trim() !== '') {
          throw new MultipartError('a delimiter line is malformed');
        }
        carry = carry.subarray(lineEnd + 2);
        state = 'headers';
        continue;
      }
      // state === 'headers'
      const end = carry.indexOf(HEADER_END);
      if (end === -1) {
        if (carry.length > limits.maxHeaderBytes)
          throw new MultipartError('a part header is too long');
        return;
      }
      if (end > limits.maxHeaderBytes) throw new MultipartError('a part header is too long');
      const part = partOf(carry.subarray(0, end).toString('utf8'));
      carry = carry.subarray(end + HEADER_END.length);
      if (part.filename !== null) {
        if (fileSeen) throw new MultipartError('only one file may be uploaded at a time');
        fileSeen = true;
        handlers.onFileStart({ field: part.name, filename: part.filename });
        current = { name: part.name, file: true, chunks: [], bytes: 0 };
      } else {
        current = { name: part.name, file: false, chunks: [], bytes: 0 };
      }
      state = 'body';
    }
  }

  let bodyBytes = 0;
  for (let chunk = await nextChunk(body); chunk !== null; chunk = await nextChunk(body)) {
    bodyBytes += chunk.length;
    if (bodyBytes > limits.maxBodyBytes) throw new MultipartTooLargeError();
    carry = carry.length === 0 ? chunk : Buffer.concat([carry, chunk]);
    await advance();
  }
  // `advance` moves the state on; the compiler cannot see that through the closure.
  if ((state as string) !== 'done')
    throw new MultipartError('the form ends before its closing boundary');
  return fields;
}

export class MultipartAbortedError extends MultipartError {
  override name = 'MultipartAbortedError';
}

/**
 * The next chunk of the body, or null at its end. Read by hand rather than with `for await`,
 * whose early exit destroys the stream: the request's socket must survive a refusal to carry the
 * answer (the imports' reader keeps the same rule, imports/csv-upload.ts).
 */
function nextChunk(body: Readable): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const ready = body.read() as Buffer | string | null;
    if (ready !== null) {
      resolve(Buffer.isBuffer(ready) ? ready : Buffer.from(ready));
      return;
    }
    if (body.readableEnded) {
      resolve(null);
      return;
    }
    const settle = (outcome: () => void) => {
      body.off('readable', onReadable);
      body.off('end', onEnd);
      body.off('error', onError);
      body.off('close', onClose);
      outcome();
    };
    const onReadable = () => {
      const chunk = body.read() as Buffer | string | null;
      if (chunk !== null) {
        settle(() => resolve(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk)));
      }
    };
    const onEnd = () => settle(() => resolve(null));
    const onError = (error: Error) => settle(() => reject(error));
    const onClose = () =>
      settle(() =>
        body.readableEnded
          ? resolve(null)
          : reject(new MultipartAbortedError('the client stopped sending the upload')),
      );
    body.on('readable', onReadable);
    body.on('end', onEnd);
    body.on('error', onError);
    body.on('close', onClose);
  });
}
