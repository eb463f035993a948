import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/** s3rver's one account (lib/models/account.js): it checks signatures made with this pair. */
const S3RVER_KEY = 'S3RVER';

/**
 * An S3-compatible server on loopback for the documents' S3 back end (README, "Which
 * S3-compatible server the tests use"): s3rver on a port of its own, its objects in a temp
 * directory, one bucket. Its environment is what the service reads (config.ts, STORAGE_URL).
 */
export async function startS3(bucket = 'documents', prefix = 'vault') {
  const directory = await mkdtemp(path.join(tmpdir(), 'pension-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    prefix: prefix === '' ? '' : `${prefix}/`,
    env: {
      STORAGE_URL: `s3://${bucket}/${prefix}?endpoint=${encodeURIComponent(endpoint)}&region=eu-west-1&forcePathStyle=true`,
      STORAGE_ACCESS_KEY_ID: S3RVER_KEY,
      STORAGE_SECRET_ACCESS_KEY: S3RVER_KEY,
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
