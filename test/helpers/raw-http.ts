import { connect } from 'node:net';
import { connect as connectTls } from 'node:tls';

export interface RawResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Sends the request bytes exactly as given (no client-side URL normalisation, unlike inject or
 * fetch) and reads one response; for testing what an attacker's hand-written request gets.
 */
export function rawRequest(
  port: number,
  requestText: string,
  { tls = false }: { tls?: boolean } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    // Over TLS, the test's self-signed certificate is accepted: the bytes are what is tested.
    const socket = tls
      ? connectTls({ port, host: '127.0.0.1', rejectUnauthorized: false })
      : connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => {
      received += chunk;
    });
    socket.on('error', reject);
    socket.on('end', () => {
      const [head = '', ...rest] = received.split('\r\n\r\n');
      const [statusLine = '', ...headerLines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({
        statusCode: Number(statusLine.split(' ')[1]),
        headers,
        body: rest.join('\r\n\r\n'),
      });
    });
    socket.write(requestText);
  });
}

export function rawGet(port: number, path: string, extraHeaders = ''): Promise<RawResponse> {
  return rawRequest(
    port,
    `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${extraHeaders}\r\n`,
  );
}
