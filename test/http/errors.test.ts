import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ConflictError,
  ForbiddenError,
  NotFoundError,
  TooLargeError,
  ValidationError,
} from '../../src/server/platform/errors.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    extend(app) {
      app.post(
        '/api/auth/test-body',
        {
          schema: {
            body: z.object({ name: z.string().min(1).max(200), type: z.enum(['DB', 'DC']) }),
          },
        },
        async () => ({ ok: true }),
      );
      app.get('/api/health/test-crash', async () => {
        const error = new Error(
          'relation "members" does not exist at /srv/app/src/db.ts:12 DATABASE_URL=postgres://u:p@h/db',
        );
        throw error;
      });
      app.get('/api/health/test-db-down', async () => {
        throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.5:5432'), {
          code: 'ECONNREFUSED',
        });
      });
      app.get('/api/health/test-forbidden', async () => {
        throw new ForbiddenError();
      });
      const refusals = {
        invalid: () =>
          new ValidationError([{ path: 'name', code: 'custom', message: 'Enter a name' }]),
        not_found: () => new NotFoundError(),
        conflict: () => new ConflictError('This name is taken'),
        too_large: () => new TooLargeError(),
      };
      for (const [kind, refusal] of Object.entries(refusals)) {
        app.get(`/api/health/test-${kind}`, async () => {
          throw refusal();
        });
      }
    },
  });
});
afterAll(() => t.close());

describe('error responses (docs/api.md, "Errors")', () => {
  it('answers a body that fails its schema with 400 and every issue, without echoing input', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/test-body',
      payload: { name: '', type: 'XX-secret-input' },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body.error).toBe('Validation failed');
    expect(body.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: 'name', code: 'too_small', message: expect.any(String) }),
        expect.objectContaining({
          path: 'type',
          code: 'invalid_value',
          message: expect.any(String),
        }),
      ]),
    );
    expect(response.body).not.toContain('XX-secret-input');
  });

  it('answers malformed JSON with 400 Invalid JSON', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/test-body',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": "unterminated',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'Invalid JSON' });
  });

  it('answers a body over 1 MiB with 413', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/test-body',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 1), type: 'DB' }),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'Payload too large' });
  });

  it('answers an unsupported content type with 415', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/test-body',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ error: 'Unsupported media type' });
  });

  it('answers an unexpected fault with a generic 500 and logs the detail instead', async () => {
    const response = await t.app.inject({ url: '/api/health/test-crash' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'Internal server error' });
    for (const leak of ['relation', '/srv/app', 'DATABASE_URL', 'postgres://', 'stack']) {
      expect(response.body).not.toContain(leak);
    }
    expect(t.logs.text()).toContain('relation \\"members\\" does not exist');
  });

  it('answers a lost database with 503 and no connection detail', async () => {
    const response = await t.app.inject({ url: '/api/health/test-db-down' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ error: 'Service unavailable' });
    expect(response.body).not.toContain('10.0.0.5');
  });

  it('answers an action the policy refuses with 403 and nothing more', async () => {
    const response = await t.app.inject({ url: '/api/health/test-forbidden' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'Forbidden' });
  });

  it('turns each kind of a service’s refusal into its status in one place, with its public words', async () => {
    const answers = await Promise.all(
      ['invalid', 'not_found', 'conflict', 'too_large'].map(async (kind) => {
        const response = await t.app.inject({ url: `/api/health/test-${kind}` });
        return [kind, response.statusCode, response.json()];
      }),
    );
    expect(answers).toEqual([
      [
        'invalid',
        400,
        {
          error: 'Validation failed',
          issues: [{ path: 'name', code: 'custom', message: 'Enter a name' }],
        },
      ],
      ['not_found', 404, { error: 'Not found' }],
      ['conflict', 409, { error: 'This name is taken' }],
      ['too_large', 413, { error: 'Payload too large' }],
    ]);
  });

  it('answers an unknown API route with JSON 404', async () => {
    const response = await t.app.inject({ url: '/api/auth/nothing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Not found' });
  });
});
