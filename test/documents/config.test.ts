import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/server/platform/config/config.js';
import { testConfig } from '../helpers/config.js';

/** Documents' configuration (README, environment table). */
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

  it('keep documents on the local file system unless STORAGE_URL names a bucket', () => {
    expect(testConfig().documents.storage).toEqual({ kind: 'local' });
    const storage = testConfig({
      STORAGE_URL:
        's3://pension-documents/firms/vault?endpoint=http://127.0.0.1:9000&forcePathStyle=true',
      STORAGE_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      STORAGE_SECRET_ACCESS_KEY: 'example-secret',
    }).documents.storage;
    expect(storage).toEqual({
      kind: 's3',
      bucket: 'pension-documents',
      prefix: 'firms/vault/',
      region: 'eu-west-1',
      endpoint: 'http://127.0.0.1:9000/',
      forcePathStyle: true,
      accessKeyId: 'AKIAEXAMPLE',
      secretAccessKey: 'example-secret',
    });
    expect(
      testConfig({
        STORAGE_URL: 's3://pension-documents?region=eu-central-1',
        STORAGE_ACCESS_KEY_ID: 'AKIAEXAMPLE',
        STORAGE_SECRET_ACCESS_KEY: 'example-secret',
      }).documents.storage,
    ).toMatchObject({ prefix: '', region: 'eu-central-1', endpoint: null, forcePathStyle: false });
  });

  it('refuse a bucket without both credentials, credentials without a bucket, and malformed URLs', () => {
    const credentials = {
      STORAGE_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      STORAGE_SECRET_ACCESS_KEY: 'example-secret',
    };
    expect(() => testConfig({ STORAGE_URL: 's3://pension-documents' })).toThrow(
      /STORAGE_ACCESS_KEY_ID and STORAGE_SECRET_ACCESS_KEY are required with STORAGE_URL/,
    );
    expect(() =>
      testConfig({ STORAGE_URL: 's3://pension-documents', STORAGE_ACCESS_KEY_ID: 'AKIAEXAMPLE' }),
    ).toThrow(/are required with STORAGE_URL/);
    expect(() => testConfig(credentials)).toThrow(/need STORAGE_URL/);
    for (const STORAGE_URL of [
      'https://pension-documents',
      's3://Pension_Documents',
      's3://pension-documents/../escape',
      's3://pension-documents/.staging',
      's3://key:secret@pension-documents',
      's3://pension-documents?endpoint=ftp://example.ie',
      's3://pension-documents?endpoint=not a url',
      's3://pension-documents?forcePathStyle=yes',
      's3://pension-documents?acl=public-read',
    ]) {
      expect(() => testConfig({ STORAGE_URL, ...credentials }), STORAGE_URL).toThrow(
        /STORAGE_URL must be s3:\/\/<bucket>/,
      );
    }
  });

  it('refuse a plain-http storage endpoint in staging and production, without echoing the secret', () => {
    const values = {
      STORAGE_URL: 's3://pension-documents?endpoint=http://minio.internal:9000',
      STORAGE_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      STORAGE_SECRET_ACCESS_KEY: 'do-not-echo-this-secret',
    };
    for (const APP_ENV of ['staging', 'production']) {
      try {
        testConfig({ APP_ENV, ...values });
        expect.unreachable('an http endpoint was accepted');
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        expect((error as Error).message).toMatch(/endpoint must use https/);
        expect((error as Error).message).not.toContain('do-not-echo-this-secret');
      }
    }
    expect(
      testConfig({
        APP_ENV: 'production',
        ...values,
        STORAGE_URL: 's3://pension-documents?endpoint=https://minio.internal',
      }).documents.storage.kind,
    ).toBe('s3');
  });
});
