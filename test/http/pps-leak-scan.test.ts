import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { evidence, findPpsLeaks } from '../helpers/leak-registry.js';
import { newPpsNumber } from '../helpers/pps.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

describe('the PPS leak scan run after every test file', () => {
  it('reports a known number in a log line or a body, and a PPS-shaped text in a log line', () => {
    const number = newPpsNumber();
    expect(findPpsLeaks(`{"msg":"member ${number} added"}`, '', [number]).known).toEqual([number]);
    expect(findPpsLeaks('', `{"ppsNumber":"${number}"}`, [number]).known).toEqual([number]);
    expect(findPpsLeaks('pps=6433435OA;', '', []).shaped).toEqual(['6433435OA']);
    expect(findPpsLeaks('"time":1795330350656,"id":"x1234567Abc"', '', [number])).toEqual({
      known: [],
      shaped: [],
    });
  });

  it('sees what the apps of the file logged and answered', async () => {
    const logsBefore = evidence.logs.length;
    expect(logsBefore).toBeGreaterThan(0);
    await t.app.inject({ method: 'GET', url: '/api/health/live' });
    expect(evidence.bodies.at(-1)).toContain('"status":"ok"');
    t.app.log.warn('a line the scan reads');
    expect(evidence.logs.map((read) => read()).join('')).toContain('a line the scan reads');
  });

  it('finds no number even when code logs one, because the logger redacts PPS-shaped values', () => {
    const number = newPpsNumber();
    t.app.log.error({ detail: `lookup failed for ${number}` }, `could not match ${number}`);
    expect(t.logs.text()).not.toContain(number);
  });
});
