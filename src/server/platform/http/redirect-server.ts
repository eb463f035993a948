import type { Server } from 'node:http';
import { originFormOf } from './api-paths.js';
import { answerClientError } from './malformed-request.js';
import { STATIC_SECURITY_HEADERS } from './security-headers.js';

/**
 * When the service terminates TLS itself, a second listener on plain HTTP answers every request
 * with 301 to the same path on the public HTTPS origin (docs/api.md, "HTTPS and headers"): an
 * absolute-form target by its path, a target with none (`*`) to the root.
 */
export function createHttpsRedirectServer(publicBaseUrl: URL): Server {
  const origin = `https://${publicBaseUrl.host}`;
  // Not `import … from 'node:http'`: see malformed-request.ts.
  const { createServer } = process.getBuiltinModule('node:http');
  const server = createServer((request, response) => {
    response.writeHead(301, {
      ...STATIC_SECURITY_HEADERS,
      location: `${origin}${originFormOf(request.url ?? '/') ?? '/'}`,
    });
    response.end();
  });
  // A request the parser refuses is answered as the service answers one (malformed-request.ts).
  server.on('clientError', answerClientError);
  return server;
}
