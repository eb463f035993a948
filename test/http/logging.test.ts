import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_LOGGED_TEXT, scrub, scrubText } from '../../src/server/platform/http/logger.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const PASSWORD = 'Correct-Horse-Battery-Staple-42';
const EMAIL = 'mary.murphy@employer.example.ie';
const PPSN = '6433435F';
const RESET_TOKEN = 'a3f1'.repeat(16);

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    extend(app) {
      // Careless code on purpose: logs the whole body and fails with the input in its message.
      app.post('/api/auth/test-careless', async (request) => {
        request.log.info({ body: request.body, headers: request.headers }, 'received');
        request.log.warn(`sign-in attempt for ${EMAIL} with ${PPSN}`);
        throw new Error(`could not process ${JSON.stringify(request.body)}`);
      });
    },
  });
});
afterAll(() => t.close());

describe('structured logs', () => {
  it('contain no password, token, e-mail address or PPS number from a request, whatever the code logs', async () => {
    const { token: session } = await t.signedInUser();
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/auth/test-careless?token=${RESET_TOKEN}&email=${encodeURIComponent(EMAIL)}`,
      headers: { authorization: `Bearer ${session}`, cookie: `session=${session}` },
      payload: {
        email: EMAIL,
        password: PASSWORD,
        ppsNumber: PPSN,
        nested: { Password: PASSWORD },
      },
    });
    expect(response.statusCode).toBe(500);
    const logged = t.logs.text();
    expect(logged.length).toBeGreaterThan(0);
    for (const secret of [
      PASSWORD,
      EMAIL,
      PPSN,
      RESET_TOKEN,
      session,
      session.split('.')[1] as string,
    ]) {
      expect(logged).not.toContain(secret);
    }
    expect(logged).toContain('[REDACTED]');
  });

  it('write one access line per request with its id, status and route, query values removed', async () => {
    await t.app.inject({ url: `/api/auth/reset?token=${RESET_TOKEN}&step=2` });
    const lines = t.logs
      .entries()
      .filter((line) => JSON.stringify(line).includes('/api/auth/reset'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      message: 'request completed',
      reqId: expect.any(String),
      req: { method: 'GET', url: '/api/auth/reset?token=[REDACTED]&step=[REDACTED]' },
      res: { statusCode: 404 },
      responseTime: expect.any(Number),
    });
  });

  it("carry the request's id on the lines its handler writes, the same id as its access line", async () => {
    await t.app.inject({ method: 'POST', url: '/api/auth/test-careless', payload: {} });
    const lines = t.logs.entries().filter((line) => line.reqId !== undefined);
    const last = (message: string) => lines.filter((line) => line.message === message).at(-1);
    const received = last('received');
    expect(received?.reqId).toEqual(expect.any(String));
    expect(last('unexpected error')?.reqId).toBe(received?.reqId);
    expect(last('request completed')).toMatchObject({
      reqId: received?.reqId,
      res: { statusCode: 500 },
    });
  });

  it('leave successful health probes out of the access log, but not failing ones', async () => {
    await t.app.inject({ url: '/api/health/live' });
    await t.app.inject({ url: '/api/health/unknown-probe' });
    const probeLines = t.logs
      .entries()
      .filter((line) => JSON.stringify(line).includes('/api/health/'));
    expect(probeLines.map((line) => (line.res as { statusCode: number }).statusCode)).toEqual([
      404,
    ]);
  });
});

describe('scrubbing', () => {
  it('cuts overlong text, dropping the word the cut falls in, and still scrubs what is kept', () => {
    const address = 'someone.long@example.ie';
    const text = `${'x '.repeat(2_040)}${address} ${'y'.repeat(10_000)}`;
    const scrubbed = scrubText(text);
    expect(scrubbed.length).toBeLessThanOrEqual(MAX_LOGGED_TEXT + '…[truncated]'.length);
    expect(scrubbed.endsWith('…[truncated]')).toBe(true);
    expect(scrubbed).not.toContain('someone');
    expect(scrubText(`${'a'.repeat(MAX_LOGGED_TEXT - 20)} ${address}`)).not.toContain(address);
    expect(scrubText('short text')).toBe('short text');
  });

  it('removes secrets by key at any depth and by shape in free text', () => {
    expect(scrub({ user: { EMAIL_ADDRESS: 'x', api_key: 'k', name: 'Ann' } })).toEqual({
      user: { EMAIL_ADDRESS: '[REDACTED]', api_key: '[REDACTED]', name: 'Ann' },
    });
    expect(scrubText(`PPSN 6433435oa for ${EMAIL}`)).toBe('PPSN [REDACTED] for [REDACTED]');
  });
});
