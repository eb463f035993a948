import { createServer, type Server } from 'node:http';
import { STATIC_SECURITY_HEADERS } from './security-headers.js';

/**
 * When the service terminates TLS itself, a second listener on plain HTTP answers every request
 * with 301 to the same path on the public HTTPS origin (service-spec §5.6).
 */
export function createHttpsRedirectServer(publicBaseUrl: URL): Server {
  const origin = `https://${publicBaseUrl.host}`;
  return createServer((request, response) => {
    response.writeHead(301, {
      ...STATIC_SECURITY_HEADERS,
      location: `${origin}${request.url ?? '/'}`,
    });
    response.end();
  });
}
