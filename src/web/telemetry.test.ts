import type { ErrorEvent } from '@sentry/react';
import { describe, expect, it } from 'vitest';
import { scrubTelemetry, scrubTelemetryText as scrubText } from '../contracts/telemetry-text';
import { scrubEvent } from './telemetry';

const PPS_NUMBER = '6433435F';
const ADDRESS = 'aoife.byrne@example.ie';
const RESET_TOKEN = 'Zm9yZ290LXBhc3N3b3JkLXJlc2V0LXRva2Vu';

function leakyEvent(): ErrorEvent {
  return {
    type: undefined,
    event_id: '9f2c4b1a7d3e4f5a8b6c0d1e2f3a4b5c',
    message: `Could not save member ${PPS_NUMBER} for ${ADDRESS}`,
    exception: {
      values: [
        {
          type: 'Error',
          value: `Validation failed for ${ADDRESS} (PPS ${PPS_NUMBER.toLowerCase()}W)`,
          stacktrace: {
            frames: [{ filename: 'https://pensions.example.ie/assets/index-a1b2c3.js', lineno: 3 }],
          },
        },
      ],
    },
    breadcrumbs: [
      { category: 'console', message: `member ${PPS_NUMBER} opened`, timestamp: 1 },
      {
        category: 'navigation',
        data: { from: '/members?search=byrne', to: `/reset-password#token=${RESET_TOKEN}` },
        timestamp: 2,
      },
      { category: 'fetch', data: { url: `/api/members?email=${ADDRESS}`, status_code: 400 } },
    ],
    request: {
      url: `https://pensions.example.ie/reset-password#token=${RESET_TOKEN}`,
      cookies: { session: 'cookie-value' },
      headers: { Cookie: 'session=cookie-value', 'User-Agent': 'Mozilla/5.0' },
      query_string: 'token=abc',
    },
    user: { id: 'user-17', email: ADDRESS, ip_address: '203.0.113.9' },
    extra: { [`row for ${ADDRESS}`]: `pps=${PPS_NUMBER}` },
    tags: { page: 'member' },
  };
}

describe('the browser telemetry scrubber (beforeSend)', () => {
  it('strips request cookies, headers and query, and the user e-mail and IP address', () => {
    const scrubbed = scrubEvent(leakyEvent());
    expect(scrubbed.request).toEqual({
      url: 'https://pensions.example.ie/reset-password#token=[Filtered]',
    });
    expect(scrubbed.user).toEqual({ id: 'user-17' });
  });

  it('replaces PPS numbers and e-mail addresses in messages, exceptions and breadcrumbs', () => {
    const scrubbed = scrubEvent(leakyEvent());
    expect(scrubbed.message).toBe('Could not save member [Filtered] for [Filtered]');
    expect(scrubbed.exception?.values?.[0]?.value).toBe(
      'Validation failed for [Filtered] (PPS [Filtered])',
    );
    expect(scrubbed.breadcrumbs?.[0]?.message).toBe('member [Filtered] opened');
    expect(scrubbed.breadcrumbs?.[1]?.data).toEqual({
      from: '/members?search=[Filtered]',
      to: '/reset-password#token=[Filtered]',
    });
    expect(scrubbed.breadcrumbs?.[2]?.data).toEqual({
      url: '/api/members?email=[Filtered]',
      status_code: 400,
    });
    expect(scrubbed.extra).toEqual({ 'row for [Filtered]': 'pps=[Filtered]' });
    const text = JSON.stringify(scrubbed);
    for (const secret of [
      PPS_NUMBER,
      PPS_NUMBER.toLowerCase(),
      ADDRESS,
      RESET_TOKEN,
      'cookie-value',
    ]) {
      expect(text).not.toContain(secret);
    }
  });

  it('keeps what is needed to find the fault: ids, types, frames, tags', () => {
    const scrubbed = scrubEvent(leakyEvent());
    expect(scrubbed.event_id).toBe('9f2c4b1a7d3e4f5a8b6c0d1e2f3a4b5c');
    expect(scrubbed.exception?.values?.[0]?.type).toBe('Error');
    expect(scrubbed.exception?.values?.[0]?.stacktrace?.frames?.[0]).toEqual({
      filename: 'https://pensions.example.ie/assets/index-a1b2c3.js',
      lineno: 3,
    });
    expect(scrubbed.tags).toEqual({ page: 'member' });
  });

  it('leaves the event it was given alone and passes the SDK bookkeeping through', () => {
    const event = leakyEvent();
    const metadata = { spanCountBeforeProcessing: 1, internal: new Map() };
    event.sdkProcessingMetadata = metadata;
    const scrubbed = scrubEvent(event);
    expect(event.message).toContain(PPS_NUMBER);
    expect(scrubbed.sdkProcessingMetadata).toBe(metadata);
  });

  it('sends what the server’s tunnel would send for the same event, the SDK bookkeeping apart', () => {
    const event = leakyEvent();
    event.sdkProcessingMetadata = { spanCountBeforeProcessing: 1 };
    const { sdkProcessingMetadata: _bookkeeping, ...sent } = scrubEvent(event);
    const tunnelled = scrubTelemetry(JSON.parse(JSON.stringify(leakyEvent())));
    expect(JSON.stringify(sent)).toBe(JSON.stringify(tunnelled));
  });

  it('keeps a __proto__ key as data, scrubbed like any other', () => {
    const event = JSON.parse(
      `{"extra":{"__proto__":{"email":"${ADDRESS}","note":"${PPS_NUMBER}"}}}`,
    );
    const scrubbed = scrubEvent(event);
    expect(Object.keys(scrubbed.extra)).toEqual(['__proto__']);
    expect(JSON.stringify(scrubbed)).toBe('{"extra":{"__proto__":{"note":"[Filtered]"}}}');
  });

  it('finds PPS numbers and addresses only where they stand alone', () => {
    expect(scrubText(`PPS:${PPS_NUMBER}, ${PPS_NUMBER}A and 1234567TW`)).toBe(
      'PPS:[Filtered], [Filtered] and [Filtered]',
    );
    expect(scrubText('trace 0123456789abcdef0123456789abcdef, build 12345678A9')).toBe(
      'trace 0123456789abcdef0123456789abcdef, build 12345678A9',
    );
    expect(scrubText('seán@gmaíl.ie wrote')).toBe('[Filtered] wrote');
    expect(scrubText('mail a.b+c@sub.example.ie, user@host, @example.ie, 1@x.io')).toBe(
      'mail [Filtered], user@host, @example.ie, [Filtered]',
    );
  });

  it('scrubs a long message in linear time', () => {
    const started = performance.now();
    for (const text of [
      'x'.repeat(200_000),
      `${'a-'.repeat(100_000)}@b.ie`,
      'a@'.repeat(100_000),
      '1'.repeat(200_000),
      `?${'a'.repeat(200_000)}`,
    ]) {
      scrubText(text);
    }
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
