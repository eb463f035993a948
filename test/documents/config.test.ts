import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/server/config/config.js';
import { testConfig } from '../helpers/config.js';

/** Documents' configuration (issue 16; README, environment table). */
describe('document settings', () => {
  it('store documents under DATA_DIR and sign URLs with DOCUMENT_URL_KEY', () => {
    const config = testConfig();
    expect(config.documents.storageRoot.startsWith(config.dataDir)).toBe(true);
    expect(config.documents.urlKey).toMatch(/^[0-9a-f]{64}$/);
    expect(config.documents.scanner).toBeNull();
  });

  it('generate a missing DOCUMENT_URL_KEY in development, and refuse one missing in production', () => {
    expect(testConfig({ DOCUMENT_URL_KEY: undefined }).documents.urlKey).toMatch(/^[0-9a-f]{64}$/);
    expect(() => testConfig({ APP_ENV: 'production', DOCUMENT_URL_KEY: undefined })).toThrow(
      /DOCUMENT_URL_KEY is required/,
    );
    expect(() => testConfig({ DOCUMENT_URL_KEY: 'short' })).toThrow(/DOCUMENT_URL_KEY must be/);
  });

  it('refuse to start staging or production without a scanner unless DOCUMENT_SCAN=off', () => {
    for (const APP_ENV of ['staging', 'production']) {
      expect(() => testConfig({ APP_ENV, DOCUMENT_SCAN: undefined })).toThrow(
        /CLAMD_SOCKET or CLAMD_HOST is required/,
      );
      expect(testConfig({ APP_ENV, DOCUMENT_SCAN: 'off' }).documents.scanner).toBeNull();
      expect(
        testConfig({ APP_ENV, DOCUMENT_SCAN: undefined, CLAMD_SOCKET: '/run/clamav/clamd.ctl' })
          .documents.scanner,
      ).toEqual({ socketPath: '/run/clamav/clamd.ctl' });
    }
  });

  it('refuse contradictions and malformed values, naming variables only', () => {
    expect(() => testConfig({ CLAMD_SOCKET: '/s', CLAMD_HOST: 'clamd' })).toThrow(
      /CLAMD_SOCKET and CLAMD_HOST must not both be set/,
    );
    expect(() => testConfig({ CLAMD_HOST: 'clamd', DOCUMENT_SCAN: 'off' })).toThrow(
      /DOCUMENT_SCAN=off must not be set together/,
    );
    expect(() => testConfig({ DOCUMENT_SCAN: 'on' })).toThrow(/DOCUMENT_SCAN must be off/);
    expect(() => testConfig({ DOCUMENT_URL_KEY_PREVIOUS: 'd'.repeat(64) })).toThrow(
      /DOCUMENT_URL_KEY_PREVIOUS must differ/,
    );
    expect(testConfig({ CLAMD_HOST: 'clamd' }).documents.scanner).toEqual({
      host: 'clamd',
      port: 3310,
    });
    try {
      testConfig({ DOCUMENT_URL_KEY: 'not-a-secret-to-echo' });
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).not.toContain('not-a-secret-to-echo');
    }
  });
});
