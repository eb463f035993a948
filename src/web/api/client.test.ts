import { afterEach, describe, expect, it, vi } from 'vitest';
import { memberView, noAnswer, pageOf, schemeView } from './answers';
import { ApiError, api, describeError, UnexpectedAnswerError } from './client';

/**
 * Every answer the UI reads is parsed with the API's own response schema
 * (docs/decisions/0056-shared-contracts.md).
 */

const SCHEME = {
  id: 'scheme-1',
  brokerId: 'broker-1',
  employerId: 'employer-1',
  name: 'Clew Bay Seafoods DC Scheme',
  type: 'DC',
  createdAt: '2026-01-05T09:00:00.000Z',
  updatedAt: '2026-01-05T09:00:00.000Z',
};

function answering(status: number, body?: unknown) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () =>
      status === 204
        ? new Response(null, { status })
        : new Response(JSON.stringify(body), {
            status,
            headers: { 'content-type': 'application/json' },
          }),
    ),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the UI’s requests to the API', () => {
  it('hand the page what the shared schema parsed, typed by it', async () => {
    answering(200, { items: [SCHEME], nextCursor: null });
    const page = await api(pageOf(schemeView), 'GET', '/api/schemes');
    expect(page).toEqual({ items: [SCHEME], nextCursor: null });
  });

  it('refuse an answer that is not what the API promises, rather than use it', async () => {
    answering(200, { ...SCHEME, type: 'Defined contribution' });
    await expect(api(schemeView, 'GET', '/api/schemes/scheme-1')).rejects.toBeInstanceOf(
      UnexpectedAnswerError,
    );
    answering(200, SCHEME);
    await expect(api(memberView, 'GET', '/api/members/scheme-1')).rejects.toBeInstanceOf(
      UnexpectedAnswerError,
    );
  });

  it('take an empty 204 as no answer, and only where none is expected', async () => {
    answering(204);
    await expect(api(noAnswer, 'DELETE', '/api/schemes/scheme-1')).resolves.toBeUndefined();
    answering(204);
    await expect(api(schemeView, 'GET', '/api/schemes/scheme-1')).rejects.toBeInstanceOf(
      UnexpectedAnswerError,
    );
  });

  it('turn a refusal into an ApiError with the API’s words and issues', async () => {
    answering(400, {
      error: 'Validation failed',
      issues: [{ path: 'name', code: 'too_small', message: 'Enter a name' }],
    });
    const refusal = await api(schemeView, 'POST', '/api/schemes', {}).catch((error) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({
      status: 400,
      error: 'Validation failed',
      issues: [{ path: 'name', code: 'too_small', message: 'Enter a name' }],
    });
  });
});

describe('a refusal for going too fast', () => {
  it('tells a signed-in person it is their own pace, with the wait the service gave', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ error: 'Too many requests' }), {
            status: 429,
            headers: { 'content-type': 'application/json', 'retry-after': '17' },
          }),
      ),
    );
    const refusal = await api(schemeView, 'GET', '/api/schemes/scheme-1').catch((error) => error);
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal.retryAfterSeconds).toBe(17);
    const said = describeError(refusal);
    expect(said).toBe(
      'You are going faster than the service allows; wait 17 seconds, then try again. Your work is safe.',
    );
    expect(said).not.toMatch(/busy|unavailable/i);
  });

  it('says a minute when the service named no wait', async () => {
    answering(429, { error: 'Too many requests' });
    const refusal = await api(schemeView, 'GET', '/api/schemes/scheme-1').catch((error) => error);
    expect(refusal.retryAfterSeconds).toBeNull();
    expect(describeError(refusal)).toContain('wait a minute');
  });
});
