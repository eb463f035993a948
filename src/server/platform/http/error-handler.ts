import type { FastifyError, FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import {
  databaseErrorSummary,
  isDatabaseBoundReached,
  isDatabaseUnavailable,
  isRequestCancelled,
} from '../db/database-errors.js';
import { isSessionEnded } from '../db/session-check.js';
import {
  DomainError,
  type DomainErrorKind,
  ValidationError,
  type ValidationIssue,
} from '../errors.js';
import { StorageUnavailableError } from '../storage/storage.js';
import { logSecurityEvent } from './security-events.js';
import { BODY_CHARSET_NOT_UTF8, BODY_NOT_UTF8 } from './utf8-json-body.js';

/** The one place a service's refusal becomes a status code (docs/decisions/0056-shared-contracts.md). */
const STATUS_OF: Record<DomainErrorKind, number> = {
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  limit_reached: 429,
  unavailable: 503,
};

/**
 * Every error body is JSON with an `error` string (docs/api.md, "Errors"); nothing internal (stack,
 * SQL, file path, variable name, input value) ever reaches a client. Details go to the log.
 */
const errorHandler: FastifyPluginAsync = async (app) => {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues: ValidationIssue[] = error.validation.map((issue) => ({
        path: issue.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        code: issue.keyword,
        message: issue.message ?? 'Invalid value',
      }));
      return reply.code(400).send({ error: 'Validation failed', issues });
    }
    if (error instanceof ValidationError) {
      return reply.code(400).send({ error: 'Validation failed', issues: error.issues });
    }
    if (error instanceof DomainError) {
      if (error.kind === 'forbidden') {
        logSecurityEvent(request.log, 'access.forbidden', {
          userId: request.session?.userId ?? null,
        });
      }
      return reply.code(STATUS_OF[error.kind]).send({ error: error.publicMessage });
    }
    // The request's session failed its check inside its transaction (with-actor.ts): answered as
    // the gate answers a request without a session; the gate's onSend hook drops any cookie set.
    if (isSessionEnded(error)) {
      return reply.code(401).send({ error: 'Unauthorized' });
    }
    if (error instanceof StorageUnavailableError) {
      request.log.error({ err: error }, 'document storage unavailable');
      return reply.code(503).send({ error: 'Service unavailable' });
    }
    // A connection bound reached (docs/decisions/0085): the SQLSTATE is all the log needs; the
    // error's message and detail can quote the statement's values.
    if (isDatabaseBoundReached(error)) {
      if (isRequestCancelled(error)) {
        request.log.info('client went away: its database work was cancelled');
      } else {
        request.log.warn(
          { database: databaseErrorSummary(error) },
          'database bound reached: statement, lock wait or open transaction took too long',
        );
      }
      return reply.code(503).send({ error: 'Service unavailable' });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      return reply.code(503).send({ error: 'Service unavailable' });
    }
    switch (error.code) {
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
        return reply.code(400).send({ error: 'Invalid JSON' });
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return reply.code(413).send({ error: 'Payload too large' });
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return reply.code(415).send({ error: 'Unsupported media type' });
      case BODY_NOT_UTF8:
        return reply.code(400).send({ error: 'The body is not UTF-8: send JSON in UTF-8' });
      case BODY_CHARSET_NOT_UTF8:
        return reply.code(415).send({ error: 'Send JSON in UTF-8' });
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
        return reply.code(400).send({ error: 'Bad request' });
    }
    if (error instanceof SyntaxError && error.statusCode === 400) {
      return reply.code(400).send({ error: 'Invalid JSON' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      request.log.info({ err: error }, 'request rejected');
      return reply.code(status).send({ error: 'Bad request' });
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send({ error: 'Internal server error' });
  });
};

export default fp(errorHandler, { name: 'error-handler' });
