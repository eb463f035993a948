import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** How long this route's request body may take to arrive; the plugin's default when unset. */
    bodyDeadlineMs?: number;
  }
}

/** An ordinary JSON body (at most 1 MiB) arrives well within this, even over a poor line. */
export const BODY_DEADLINE_MS = 30_000;

/**
 * A CSV import reads its body as it checks each row, so the upload lasts as long as the
 * checking: up to 25 MiB, on a slow office uplink or a busy server.
 */
export const UPLOAD_BODY_DEADLINE_MS = 10 * 60_000;

function hasBody(request: FastifyRequest): boolean {
  const { headers } = request;
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length']) > 0;
}

/**
 * A deadline for each request body, per route. Node's own `requestTimeout` is one figure for the
 * whole server, so it is set to the longest upload any route accepts, and this plugin holds every
 * other body to its default (BODY_DEADLINE_MS in the service): a client that trickles a body
 * cannot hold a connection for longer. A body still arriving at its deadline gets 408 and the
 * connection is closed.
 */
const bodyDeadline: FastifyPluginAsync<{ defaultMs: number }> = async (app, { defaultMs }) => {
  app.addHook('preParsing', (request, reply, payload, done) => {
    if (!hasBody(request)) {
      done(null, payload);
      return;
    }
    const deadlineMs = request.routeOptions.config.bodyDeadlineMs ?? defaultMs;
    const timer = setTimeout(() => {
      request.log.warn({ deadlineMs }, 'request body not received in time: connection closed');
      const response = reply.raw;
      if (!response.headersSent) {
        // The security headers were set on the reply when the request arrived.
        for (const [name, value] of Object.entries(reply.getHeaders())) {
          if (value !== undefined) response.setHeader(name, value);
        }
        response.setHeader('content-type', 'application/json; charset=utf-8');
        response.setHeader('connection', 'close');
        response.statusCode = 408;
        response.end(JSON.stringify({ error: 'Request timeout' }));
      }
      request.raw.destroy();
    }, deadlineMs);
    const settle = () => clearTimeout(timer);
    payload.once('end', settle);
    payload.once('close', settle);
    reply.raw.once('close', settle);
    done(null, payload);
  });
};

export default fp(bodyDeadline, { name: 'body-deadline' });
