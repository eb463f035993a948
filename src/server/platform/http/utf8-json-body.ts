import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';

/** The charsets a JSON body may declare: JSON exchanged between systems is UTF-8 (RFC 8259 §8.1). */
const UTF8_NAMES = new Set(['utf-8', 'utf8']);

/** The codes the error handler answers (error-handler.ts): 400 for bytes that are not UTF-8, 415 for another charset. */
export const BODY_NOT_UTF8 = 'BODY_NOT_UTF8';
export const BODY_CHARSET_NOT_UTF8 = 'BODY_CHARSET_NOT_UTF8';

function bodyError(code: string): Error & { code: string; statusCode: number } {
  return Object.assign(new Error(code), {
    code,
    statusCode: code === BODY_NOT_UTF8 ? 400 : 415,
  });
}

/** The `charset` parameter of a Content-Type header, lower-cased; undefined when none is named. */
export function declaredCharset(contentType: string | undefined): string | undefined {
  for (const parameter of (contentType ?? '').split(';').slice(1)) {
    const [name, ...value] = parameter.split('=');
    if (name?.trim().toLowerCase() === 'charset') {
      return value.join('=').trim().replace(/^"|"$/g, '').toLowerCase();
    }
  }
  return undefined;
}

/**
 * JSON bodies are read as strict UTF-8 (docs/decisions/0150-json-bodies-in-utf-8.md). Fastify's own
 * parser decodes bytes leniently: a body a script wrote in Latin-1 or Windows-1252 (a member's
 * name with a fada, "Ó Briain", from a payroll export) was saved with U+FFFD in place of its
 * letters, and nobody was told. Such a body is refused whole, and so is one that declares another
 * charset, so that nothing is saved mangled. A leading byte order mark is read past, as the
 * decoder does by default.
 */
const utf8JsonBody: FastifyPluginAsync = async (app) => {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const charset = declaredCharset(request.headers['content-type']);
    if (charset !== undefined && !UTF8_NAMES.has(charset)) {
      done(bodyError(BODY_CHARSET_NOT_UTF8), undefined);
      return;
    }
    let text: string;
    try {
      text = decoder.decode(body as Buffer);
    } catch {
      done(bodyError(BODY_NOT_UTF8), undefined);
      return;
    }
    parseJson(request, text, done);
  });
};

export default fp(utf8JsonBody, { name: 'utf8-json-body' });
