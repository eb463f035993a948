import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiRoutes } from '../../contracts/api-routes';
import { SECOND_FACTOR_SETUP_REQUIRED, STEP_UP_REQUIRED } from '../../contracts/second-factor';
import { ApiError, api, describeError, UnexpectedAnswerError, urlOf } from './client';

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
  yearEnd: '12-31',
  racKind: null,
  srNumber: null,
  startDate: null,
  employeeContributionBasisPoints: null,
  employerContributionBasisPoints: null,
  createdAt: '2026-01-05T09:00:00.000Z',
  updatedAt: '2026-01-05T09:00:00.000Z',
};
/** The scheme as its own page reads it (`GET` and `PATCH /api/schemes/:id`). */
const SCHEME_PAGE = { ...SCHEME, hasMembers: false };

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
    const page = await api(apiRoutes.schemes.list);
    expect(page).toEqual({ items: [SCHEME], nextCursor: null });
  });

  it('refuse an answer that is not what the API promises, rather than use it', async () => {
    answering(200, { ...SCHEME, type: 'Defined contribution' });
    await expect(api(apiRoutes.schemes.get, { params: { id: 'scheme-1' } })).rejects.toBeInstanceOf(
      UnexpectedAnswerError,
    );
    answering(200, SCHEME);
    await expect(api(apiRoutes.members.get, { params: { id: 'scheme-1' } })).rejects.toBeInstanceOf(
      UnexpectedAnswerError,
    );
  });

  it('take an empty 204 as no answer, and only where none is expected', async () => {
    answering(204);
    await expect(
      api(apiRoutes.schemes.remove, { params: { id: 'scheme-1' } }),
    ).resolves.toBeUndefined();
    answering(204);
    await expect(api(apiRoutes.schemes.get, { params: { id: 'scheme-1' } })).rejects.toBeInstanceOf(
      UnexpectedAnswerError,
    );
  });

  it('turn a refusal into an ApiError with the API’s words and issues', async () => {
    answering(400, {
      error: 'Validation failed',
      issues: [{ path: 'name', code: 'too_small', message: 'Enter a name' }],
    });
    const refusal = await api(apiRoutes.schemes.create, {
      body: { employerId: '', name: '', type: 'DC' },
    }).catch((error) => error);
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
    const refusal = await api(apiRoutes.schemes.get, { params: { id: 'scheme-1' } }).catch(
      (error) => error,
    );
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal.retryAfterSeconds).toBe(17);
    const said = describeError(refusal);
    expect(said).toBe(
      'You are going faster than the service allows; wait 17 seconds, then try again. Your work is safe.',
    );
    expect(said).not.toMatch(/busy|unavailable/i);
  });

  it('says what to do when a second factor must be set up or confirmed again, and nothing more of other refusals', async () => {
    for (const sentence of [SECOND_FACTOR_SETUP_REQUIRED, STEP_UP_REQUIRED]) {
      answering(403, { error: sentence });
      const refusal = await api(apiRoutes.schemes.get, { params: { id: 'scheme-1' } }).catch(
        (error) => error,
      );
      expect(describeError(refusal)).toBe(sentence);
    }
    answering(403, { error: 'Forbidden' });
    const other = await api(apiRoutes.schemes.get, { params: { id: 'scheme-1' } }).catch(
      (error) => error,
    );
    expect(describeError(other)).toBe('You do not have permission to do that.');
  });

  it('says a minute when the service named no wait', async () => {
    answering(429, { error: 'Too many requests' });
    const refusal = await api(apiRoutes.schemes.get, { params: { id: 'scheme-1' } }).catch(
      (error) => error,
    );
    expect(refusal.retryAfterSeconds).toBeNull();
    expect(describeError(refusal)).toContain('wait a minute');
  });
});

describe('the address of a request', () => {
  it('comes from the route table, each parameter percent-encoded', () => {
    expect(urlOf(apiRoutes.members.get, { params: { id: 'a/b?c#d' } })).toBe(
      '/api/members/a%2Fb%3Fc%23d',
    );
    expect(urlOf(apiRoutes.payroll.get, { params: { id: 'scheme 1', period: '2026-03' } })).toBe(
      '/api/schemes/scheme%201/payroll/2026-03',
    );
    expect(urlOf(apiRoutes.members.exportCsv, { params: { id: 'm1' } })).toBe(
      '/api/members/m1/export.csv',
    );
  });

  it('carries the query values that are set, encoded by URLSearchParams', () => {
    expect(
      urlOf(apiRoutes.members.listOfScheme, {
        params: { id: 's1' },
        query: { q: 'Ó Sé & co', status: undefined, limit: 100, cursor: '' },
      }),
    ).toBe('/api/schemes/s1/members?q=%C3%93+S%C3%A9+%26+co&limit=100');
    expect(urlOf(apiRoutes.schemes.list, { query: {} })).toBe('/api/schemes');
  });

  it('is refused without a value for every parameter, rather than name another route', () => {
    expect(() => urlOf(apiRoutes.members.get, { params: { id: '' } })).toThrow(/needs its id/);
  });

  it('is where the request goes, with the route’s method and the body as JSON', async () => {
    const sent = vi.fn(
      async (_url: string, _init?: RequestInit) =>
        new Response(JSON.stringify(SCHEME_PAGE), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', sent);
    await api(apiRoutes.schemes.update, { params: { id: 'scheme-1' }, body: { name: 'New' } });
    expect(sent).toHaveBeenCalledWith('/api/schemes/scheme-1', {
      method: 'PATCH',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{"name":"New"}',
    });
  });
});
