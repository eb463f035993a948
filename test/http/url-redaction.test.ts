import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrubTelemetry, scrubTelemetryText } from '../../src/contracts/telemetry-text.js';
import { redactUrlCredentials } from '../../src/contracts/url-redaction.js';
import { loggableUrl, scrubText } from '../../src/server/platform/http/logger.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

const MASK = '[REDACTED]';
const DOCUMENT_ID = 'cm0doc00000000000000000001';
/** Shaped like a signed download token (src/server/platform/storage/signed-urls.ts). */
const TOKEN = 'v1.0123456789abcdef.eyJkIjoiY20wZG9jIiwidSI6Inh5eiJ9.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg';
const MAC = TOKEN.split('.')[3] as string;

/** Every spelling of a download path that a router or a proxy in front of one might still serve. */
const DOWNLOAD_SPELLINGS = [
  `/files/${DOCUMENT_ID}/${TOKEN}`,
  `/files/${DOCUMENT_ID}/${TOKEN}?download=1`,
  `https://pensions.example.ie/files/${DOCUMENT_ID}/${TOKEN}`,
  `HTTP://pensions.example.ie//files//${DOCUMENT_ID}//${TOKEN}`,
  `//files//${DOCUMENT_ID}//${TOKEN}`,
  `/FILES/${DOCUMENT_ID}/${TOKEN}`,
  `/Files/${DOCUMENT_ID}/${TOKEN}/`,
  `/files%2F${DOCUMENT_ID}%2F${TOKEN}`,
  `/files%2f${DOCUMENT_ID}%2f${TOKEN}`,
  `%2Ffiles%2F${DOCUMENT_ID}%2F${TOKEN}`,
  `\\files\\${DOCUMENT_ID}\\${TOKEN}`,
  `/%66iles/${DOCUMENT_ID}/${TOKEN}`,
  `/%46%49%4C%45%53/${DOCUMENT_ID}/${TOKEN}`,
  `/files/${TOKEN}`,
  `/files/${DOCUMENT_ID}/${encodeURIComponent(TOKEN)}`,
];

describe('redactUrlCredentials, the one redaction of URL credentials', () => {
  it('keeps the document id of a signed download and removes its token', () => {
    expect(redactUrlCredentials(`/files/${DOCUMENT_ID}/${TOKEN}`, MASK)).toBe(
      `/files/${DOCUMENT_ID}/${MASK}`,
    );
    expect(
      redactUrlCredentials(`GET https://h.example/files/${DOCUMENT_ID}/${TOKEN} failed`, MASK),
    ).toBe(`GET https://h.example/files/${DOCUMENT_ID}/${MASK} failed`);
  });

  it('removes the token from every spelling of a download path', () => {
    for (const target of DOWNLOAD_SPELLINGS) {
      const redacted = redactUrlCredentials(target, MASK);
      expect(redacted, target).not.toContain(MAC);
      expect(redacted, target).toContain(MASK);
    }
  });

  it('removes every query and fragment parameter value and keeps the names', () => {
    expect(redactUrlCredentials('/api/x?token=abc&step=2#code=xyz', MASK)).toBe(
      `/api/x?token=${MASK}&step=${MASK}#code=${MASK}`,
    );
  });

  it('leaves text without a URL credential as it is', () => {
    for (const text of ['/api/schemes/abc/documents', 'profiles/x', 'request completed']) {
      expect(redactUrlCredentials(text, MASK)).toBe(text);
    }
  });

  it('is what the log scrubber, the access log and both telemetry scrubbers apply', () => {
    for (const target of DOWNLOAD_SPELLINGS) {
      expect(loggableUrl(target), target).not.toContain(MAC);
      expect(scrubText(`could not serve ${target}`), target).not.toContain(MAC);
      expect(scrubTelemetryText(`navigation to ${target}`), target).not.toContain(MAC);
      expect(JSON.stringify(scrubTelemetry({ request: { url: target } })), target).not.toContain(
        MAC,
      );
    }
    expect(loggableUrl('/api/auth/reset?token=abc&step=2')).toBe(
      `/api/auth/reset?token=${MASK}&step=${MASK}`,
    );
  });

  it('finishes on a mebibyte of separators and names, where a backtracking pattern would not', () => {
    // No clock: at this length a pattern that re-scanned the run from each of its characters
    // would take hours, and the test's own timeout ends it (test/http/linear-patterns.test.ts).
    const size = 1024 * 1024;
    for (const run of ['/', '%2f', '\\']) {
      const separators = run.repeat(Math.ceil(size / run.length));
      expect(redactUrlCredentials(`${separators}x`, MASK)).toBe(`${separators}x`);
      const token = `/files${separators}abc/${'t'.repeat(64)}`;
      expect(redactUrlCredentials(token, MASK)).not.toContain('t'.repeat(64));
    }
    const names = `?${'a'.repeat(size)}`;
    expect(redactUrlCredentials(names, MASK)).toBe(names);
  });
});

describe('the access log', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('writes no signed download token, whatever spelling of the path was requested', async () => {
    for (const target of DOWNLOAD_SPELLINGS.filter((spelling) => spelling.startsWith('/'))) {
      await t.app.inject({ method: 'GET', url: target });
    }
    const logged = t.logs.text();
    expect(logged).toContain(`/files/${DOCUMENT_ID}/${MASK}`);
    expect(logged).not.toContain(MAC);
  });
});
