import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { routedPathOf } from './api-paths.js';
import { DOCUMENT_SECURITY_HEADERS } from './security-headers.js';

/** vite.config.ts writes this into every script, style and link tag (html.cspNonce). */
export const NONCE_PLACEHOLDER = '__CSP_NONCE__';

export interface WebUiOptions {
  /** The Vite build output: index.html and assets/. */
  root: string;
  /**
   * SENTRY_DSN, given to the page in `<meta name="telemetry-dsn">` so that the browser reports
   * errors through /monitoring; without it the page carries no tag and loads no telemetry code.
   * A DSN's key is public by design: it lets a client send events, nothing else.
   */
  telemetryDsn?: string | null;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '"': '&quot;',
  '<': '&lt;',
  '>': '&gt;',
  "'": '&#39;',
};
const escapeAttribute = (value: string) =>
  value.replace(/[&"<>']/g, (character) => HTML_ESCAPES[character] ?? character);

function withTelemetryDsn(page: string, dsn: string): string {
  if (!page.includes('</head>')) throw new Error('The built index.html has no </head>');
  // A function, so that no `$` sequence in the value is read as a replacement pattern.
  return page.replace(
    '</head>',
    () => `<meta name="telemetry-dsn" content="${escapeAttribute(dsn)}" />\n  </head>`,
  );
}

declare module 'fastify' {
  interface FastifyReply {
    sendAppPage(): FastifyReply;
  }
}

/**
 * Serves the built single-page app: hashed assets as static files, and index.html with this
 * response's CSP nonce on every tag that needs one. Unknown non-API GETs that want HTML get the
 * page too, so client-side routes survive a reload; everything else under /api gets JSON 404.
 */
const webUi: FastifyPluginAsync<WebUiOptions> = async (app, { root, telemetryDsn }) => {
  const indexFile = path.join(root, 'index.html');
  if (!existsSync(indexFile)) {
    throw new Error(
      `The web UI is not built (${path.basename(root)}/index.html is missing): run npm run build`,
    );
  }
  const page = readFileSync(indexFile, 'utf8');
  const pageParts = (telemetryDsn ? withTelemetryDsn(page, telemetryDsn) : page).split(
    NONCE_PLACEHOLDER,
  );

  app.decorateReply('sendAppPage', function sendAppPage(this: FastifyReply) {
    return this.code(200)
      .type('text/html; charset=utf-8')
      .headers(DOCUMENT_SECURITY_HEADERS)
      .header('cache-control', 'no-store')
      .send(pageParts.join(this.cspNonce));
  });

  await app.register(fastifyStatic, {
    root,
    index: false,
    wildcard: false,
    serve: true,
    setHeaders(res, filePath) {
      const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
      res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
    allowedPath: (pathName) => pathName !== '/index.html' && !pathName.endsWith('.map'),
  });

  app.get('/', { schema: { hide: true } }, (_request, reply) => reply.sendAppPage());

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !routedPathOf(request).api &&
      (request.headers.accept ?? '').includes('text/html');
    if (wantsPage) return reply.sendAppPage();
    return reply.code(404).send({ error: 'Not found' });
  });
};

export default fp(webUi, { name: 'web-ui' });
