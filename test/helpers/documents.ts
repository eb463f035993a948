import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';

/** Sample files of each accepted kind, by their real signatures. */
export const SAMPLES = {
  pdf: Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< >>\n%%EOF\n'),
  png: Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.from('IHDR-not-a-real-image-but-a-real-signature'),
  ]),
  jpeg: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF-sample')]),
  docx: zipOf({
    '[Content_Types].xml': '<?xml version="1.0"?><Types/>',
    'word/document.xml': '<?xml version="1.0"?><w:document/>',
  }),
  xlsx: zipOf({
    '[Content_Types].xml': '<?xml version="1.0"?><Types/>',
    'xl/workbook.xml': '<?xml version="1.0"?><workbook/>',
  }),
  text: Buffer.from('Just some words, not a document of an accepted kind.\n'),
};

/** The EICAR test string: every scanner reports it, and it harms nothing. */
export const EICAR = Buffer.from(
  'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*',
);

/** A ZIP archive of stored (uncompressed) entries, as small as a DOCX can be. */
export function zipOf(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of Object.entries(entries)) {
    const nameBytes = Buffer.from(name);
    const data = Buffer.from(content);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    locals.push(local, nameBytes, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

export type FormPart =
  | { name: string; value: string }
  | { name: string; filename: string; content: Buffer; type?: string };

/** A multipart/form-data body as a browser sends it. */
export function multipart(parts: FormPart[], boundary = '----pensionsFormBoundary7MA4YWxk') {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    pieces.push(Buffer.from(`--${boundary}\r\n`));
    if ('filename' in part) {
      pieces.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type ?? 'application/octet-stream'}\r\n\r\n`,
        ),
        part.content,
        Buffer.from('\r\n'),
      );
    } else {
      pieces.push(
        Buffer.from(`Content-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`),
      );
    }
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(pieces),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** The usual upload: one file and its type. */
export function documentForm(
  filename: string,
  content: Buffer,
  fields: Record<string, string> = { documentType: 'trust_deed' },
) {
  return multipart([
    ...Object.entries(fields).map(([name, value]) => ({ name, value })),
    { name: 'file', filename, content },
  ]);
}

/**
 * A stand-in for clamd on loopback speaking INSTREAM: it reads the length-prefixed chunks to the
 * zero length and answers FOUND when the stream holds the EICAR string, OK otherwise.
 */
export async function startFakeClamd(): Promise<{
  port: number;
  scans: number;
  close(): Promise<void>;
}> {
  const state = { scans: 0 };
  const server: Server = createServer((socket: Socket) => {
    let buffer = Buffer.alloc(0);
    let commandRead = false;
    const content: Buffer[] = [];
    socket.on('data', (data: Buffer) => {
      buffer = Buffer.concat([buffer, data]);
      if (!commandRead) {
        const end = buffer.indexOf(0);
        if (end === -1) return;
        if (buffer.subarray(0, end).toString() !== 'zINSTREAM') {
          socket.end('UNKNOWN COMMAND\0');
          return;
        }
        commandRead = true;
        buffer = buffer.subarray(end + 1);
      }
      for (;;) {
        if (buffer.length < 4) return;
        const length = buffer.readUInt32BE(0);
        if (length === 0) {
          state.scans += 1;
          const whole = Buffer.concat(content);
          socket.end(
            whole.includes(EICAR) ? 'stream: Eicar-Test-Signature FOUND\0' : 'stream: OK\0',
          );
          return;
        }
        if (buffer.length < 4 + length) return;
        content.push(buffer.subarray(4, 4 + length));
        buffer = buffer.subarray(4 + length);
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    port: address.port,
    get scans() {
      return state.scans;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Debian's clamd with a signature database the helper writes: the EICAR string's SHA-256 made with
 * sigtool (.hsb), and the string's bytes as a body signature (.ndb) so that it is found inside a
 * PDF too. Nothing is downloaded. Null where clamd or sigtool is not installed
 * (.ci/run installs them).
 */
export async function startRealClamd(): Promise<{
  socketPath: string;
  eicarFile: string;
  stop(): void;
} | null> {
  const clamd = spawnSync('sh', ['-c', 'command -v clamd && command -v sigtool']);
  const found = clamd.stdout.toString().trim().split('\n');
  if (clamd.status !== 0 || found.length !== 2) return null;
  const [clamdPath, sigtoolPath] = found as [string, string];
  const directory = mkdtempSync(path.join(tmpdir(), 'pension-clamd-'));
  const database = path.join(directory, 'db');
  mkdirSync(database);
  const eicarFile = path.join(directory, 'eicar.txt');
  writeFileSync(eicarFile, EICAR);
  // sigtool writes `<sha256>:<size>:<file name>`; the last field becomes the signature's name.
  const hash = spawnSync(sigtoolPath, ['--sha256', eicarFile], { cwd: directory });
  const line = hash.stdout
    .toString()
    .trim()
    .replace(/:[^:]*$/, ':Pension.Test.EICAR');
  writeFileSync(path.join(database, 'eicar.hsb'), `${line}\n`);
  // A hash signature matches a whole file; the string inside a PDF is found by its bytes.
  writeFileSync(
    path.join(database, 'eicar.ndb'),
    `Pension.Test.EICAR.Body:0:*:${EICAR.toString('hex')}\n`,
  );
  const socketPath = path.join(directory, 'clamd.sock');
  const configFile = path.join(directory, 'clamd.conf');
  writeFileSync(
    configFile,
    `LocalSocket ${socketPath}\nDatabaseDirectory ${database}\nForeground yes\nLogFile ${path.join(directory, 'clamd.log')}\n`,
  );
  const child = spawn(clamdPath, [`--config-file=${configFile}`], { stdio: 'ignore' });
  for (let attempt = 0; attempt < 100; attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const ready = await new Promise<boolean>((resolve) => {
      const probe = connect(socketPath);
      probe.once('connect', () => {
        probe.end('zPING\0');
        resolve(true);
      });
      probe.once('error', () => resolve(false));
    });
    if (ready) return { socketPath, eicarFile, stop: () => child.kill('SIGTERM') };
  }
  child.kill('SIGTERM');
  throw new Error('clamd did not start within 10 seconds');
}
