import { describe, expect, it } from 'vitest';
import { FILTERED, scrubTelemetry } from './telemetry-text.js';

const ADDRESS = 'niamh.walsh@example.ie';
const PPS_NUMBER = '1234567TW';

/** `levels` objects nested one in the next, the innermost holding `leaf`. */
function nested(levels: number, leaf: unknown): unknown {
  let value: unknown = leaf;
  for (let level = 0; level < levels; level++) value = { next: value };
  return value;
}

describe('the telemetry scrubber of the browser and the tunnel', () => {
  it('removes cookies, headers, query strings and the user’s address and IP at any depth, however the key is written', () => {
    const scrubbed = scrubTelemetry({
      contexts: {
        deep: [
          {
            Cookie: 'session=abc',
            HEADERS: { Referer: '/members?search=walsh' },
            'query-string': 'a=1',
            Query_String: 'b=2',
            ip_address: '203.0.113.9',
            IpAddress: '203.0.113.9',
            'Email-Address': ADDRESS,
            authorization: 'Bearer token',
            kept: 'ok',
          },
        ],
      },
    });
    expect(scrubbed).toEqual({ contexts: { deep: [{ kept: 'ok' }] } });
  });

  it('filters PPS numbers, e-mail addresses and URL credentials in keys and values', () => {
    expect(
      JSON.stringify(
        scrubTelemetry({
          [`row of ${PPS_NUMBER}`]: [`sent to ${ADDRESS}`, '/reset-password#token=abcdef'],
        }),
      ),
    ).toBe(
      JSON.stringify({
        [`row of ${FILTERED}`]: [`sent to ${FILTERED}`, `/reset-password#token=${FILTERED}`],
      }),
    );
  });

  it('replaces an object that is not plain data with the mask, and keeps numbers, booleans and null', () => {
    class Member {
      email = ADDRESS;
    }
    expect(
      scrubTelemetry({
        map: new Map([['email', ADDRESS]]),
        date: new Date(0),
        member: new Member(),
        count: 3,
        ok: true,
        none: null,
      }),
    ).toEqual({
      map: FILTERED,
      date: FILTERED,
      member: FILTERED,
      count: 3,
      ok: true,
      none: null,
    });
  });

  it('replaces what lies deeper than any event the SDK builds, rather than walking it', () => {
    expect(JSON.stringify(scrubTelemetry(nested(30, ADDRESS)))).not.toContain(ADDRESS);
    expect(JSON.stringify(scrubTelemetry(nested(30, 'plain')))).not.toContain('plain');
    expect(scrubTelemetry(nested(3, 'plain'))).toEqual(nested(3, 'plain'));
  });

  it('leaves the value it was given as it was', () => {
    const event = { user: { email: ADDRESS }, message: `for ${PPS_NUMBER}` };
    scrubTelemetry(event);
    expect(event).toEqual({ user: { email: ADDRESS }, message: `for ${PPS_NUMBER}` });
  });
});
