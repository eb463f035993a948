import { createReadStream } from 'node:fs';
import { connect, type Socket } from 'node:net';
import type { Readable } from 'node:stream';

/**
 * A client of ClamAV's daemon (clamd) over its INSTREAM command (clamd(8)): `zINSTREAM\0`, then
 * the file as chunks each prefixed with its length (4 bytes, network order), then a zero length;
 * clamd answers one NUL-terminated line, `stream: OK` or `stream: <signature> FOUND`. Written on
 * net.Socket rather than taken as a dependency: the protocol is these few lines.
 */
export type ScanVerdict = 'clean' | 'quarantined';

export interface Scanner {
  /** Scans a local file by its path, or the bytes a stream yields (an object in a bucket). */
  scan(file: string | Readable): Promise<ScanVerdict>;
}

export type ClamdAddress = { socketPath: string } | { host: string; port: number };

export class ScannerError extends Error {
  override name = 'ScannerError';
}

const CHUNK_BYTES = 64 * 1024;
/** clamd's answer is one short line; a longer one is not clamd. */
const MAX_ANSWER_BYTES = 4096;

export function createClamdScanner(address: ClamdAddress, timeoutMs = 60_000): Scanner {
  return {
    scan(file) {
      return new Promise<ScanVerdict>((resolve, reject) => {
        const socket: Socket =
          'socketPath' in address
            ? connect({ path: address.socketPath })
            : connect({ host: address.host, port: address.port });
        const answer: Buffer[] = [];
        let answerBytes = 0;
        let settled = false;
        const finish = (outcome: () => void) => {
          if (settled) return;
          settled = true;
          socket.destroy();
          source.destroy();
          outcome();
        };
        const fail = (message: string) => finish(() => reject(new ScannerError(message)));
        socket.setTimeout(timeoutMs, () => fail('the scanner did not answer in time'));
        socket.on('error', (error) => fail(`the scanner could not be reached (${error.name})`));
        socket.on('data', (data: Buffer) => {
          answer.push(data);
          answerBytes += data.length;
          if (answerBytes > MAX_ANSWER_BYTES) fail('the scanner answered too much');
          if (data.includes(0)) settle();
        });
        socket.on('end', () => settle());

        function settle() {
          const line = Buffer.concat(answer).toString('utf8').split('\0')[0]?.trim() ?? '';
          if (/^stream: OK$/.test(line)) finish(() => resolve('clean'));
          else if (/^stream: .+ FOUND$/.test(line)) finish(() => resolve('quarantined'));
          else fail('the scanner answered with an error');
        }

        const source: Readable =
          typeof file === 'string' ? createReadStream(file, { highWaterMark: CHUNK_BYTES }) : file;
        source.on('error', (error: Error) => fail(`the file could not be read (${error.name})`));
        socket.once('connect', () => {
          socket.write('zINSTREAM\0');
          source.on('data', (chunk: Buffer) => {
            const data = chunk as Buffer;
            const length = Buffer.alloc(4);
            length.writeUInt32BE(data.length);
            socket.write(length);
            // Wait for the socket to drain before reading more: the file is never held whole.
            if (!socket.write(data)) {
              source.pause();
              socket.once('drain', () => source.resume());
            }
          });
          source.on('end', () => socket.write(Buffer.alloc(4)));
        });
      });
    },
  };
}
