import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import {
  createLocalStaging,
  type DocumentStorage,
  isStagedName,
  type StagedName,
  StorageUnavailableError,
} from './storage.js';

/** Where the S3-compatible back end keeps documents (config.ts, STORAGE_URL). */
export interface S3StorageSettings {
  bucket: string;
  /** Every key starts with it: empty, or segments each ending in `/`. */
  prefix: string;
  region: string;
  /** An S3-compatible server's address; null for AWS's own, found from the region. */
  endpoint: string | null;
  forcePathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
}

/** The bucket's staging area, beside the keys (which begin with a tenant id, never a dot). */
const STAGING_PREFIX = '.staging/';

/** The object is not there: GET's NoSuchKey, or HEAD's bodiless 404. Not a missing bucket. */
function missing(error: unknown): boolean {
  return (
    error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound')
  );
}

/**
 * Documents in an S3-compatible bucket (docs/decisions/0063-documents-s3-back-end.md). An
 * upload is written to the local staging area first (the content checks and the hash read a local
 * file), and on closing is put to `<prefix>.staging/<documentId>` in the bucket, before its row can
 * commit; once the row has committed it is copied under its key inside the bucket and the staged
 * copies removed. A crash before the row commits leaves a staged object no row names, which is
 * never served and which the storage-sweep job removes; a crash after leaves one the sweep
 * finishes copying. The bucket's staging area is shared by every instance, so whichever runs the
 * sweep settles them; the local staged file is only ever a copy.
 */
export function createS3Storage(settings: S3StorageSettings, stagingRoot: string): DocumentStorage {
  const client = bucketClient(s3ClientOf(settings));
  const staging = createLocalStaging(stagingRoot);
  const { bucket, prefix } = settings;
  const stagedKey = (id: string) => {
    if (!isStagedName(id)) throw new Error('a staged object name is not a document id');
    return `${prefix}${STAGING_PREFIX}${id}`;
  };

  async function exists(key: string): Promise<boolean> {
    try {
      await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      return true;
    } catch (error) {
      if (missing(error)) return false;
      throw error;
    }
  }

  async function putFile(file: string, key: string): Promise<void> {
    const { size } = await stat(file);
    await client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: createReadStream(file),
        ContentLength: size,
        ContentType: 'application/octet-stream',
      }),
    );
  }

  return {
    async stage(id) {
      const local = await staging.stage(id);
      let uploaded = false;
      return {
        ...local,
        async close() {
          await local.close();
          await putFile(local.path, stagedKey(id));
          uploaded = true;
        },
        async discard() {
          await local.discard();
          if (uploaded) {
            await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: stagedKey(id) }));
          }
        },
      };
    },

    async commit(staged, key) {
      const from = stagedKey(staged.id);
      const to = `${prefix}${key}`;
      try {
        // Inside the bucket, in one request: the object under its key is whole or absent.
        await client.send(
          new CopyObjectCommand({
            Bucket: bucket,
            Key: to,
            CopySource: `${bucket}/${from.split('/').map(encodeURIComponent).join('/')}`,
            MetadataDirective: 'REPLACE',
            ContentType: 'application/octet-stream',
          }),
        );
      } catch (error) {
        // Committed before (the sweep after a crash between the copy and the clean-up).
        if (!missing(error) || !(await exists(to))) throw error;
      }
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: from }));
      await staging.remove(staged.id);
    },

    async open(key) {
      try {
        const object = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: `${prefix}${key}` }),
        );
        if (!object.Body || object.ContentLength === undefined) return null;
        return { stream: object.Body as Readable, size: object.ContentLength };
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },

    async stagedBefore(before) {
      const found = new Map<string, StagedName>();
      for (const local of await staging.stagedBefore(before)) found.set(local.id, local);
      let continuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: `${prefix}${STAGING_PREFIX}`,
            ContinuationToken: continuationToken,
          }),
        );
        for (const object of page.Contents ?? []) {
          const id = object.Key?.slice(prefix.length + STAGING_PREFIX.length) ?? '';
          if (isStagedName(id) && object.LastModified && object.LastModified < before) {
            found.set(id, { id });
          }
        }
        continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (continuationToken);
      return [...found.values()];
    },

    async removeStaged(staged) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: stagedKey(staged.id) }));
      await staging.remove(staged.id);
    },

    // With the bucket's versioning on (docs/backups.md), a delete leaves earlier versions behind a
    // marker: the bucket's lifecycle rule expires them (docs/decisions/0149-retention-and-erasure.md).
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: `${prefix}${key}` }));
    },
  };
}

/**
 * The client, with every failure that is not the bucket's own answer to the request (a network
 * error, a timeout, a 5xx) told apart as the store being unavailable: the error handler answers
 * those with the generic 503 and logs them as the storage's, not the database's.
 */
function bucketClient(client: S3Client): Pick<S3Client, 'send'> {
  return {
    send: (async (command: Parameters<S3Client['send']>[0]) => {
      try {
        return await client.send(command);
      } catch (error) {
        const answered =
          error instanceof S3ServiceException && (error.$metadata.httpStatusCode ?? 500) < 500;
        throw answered ? error : new StorageUnavailableError(error);
      }
    }) as S3Client['send'],
  };
}

export function s3ClientOf(settings: S3StorageSettings): S3Client {
  return new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    credentials: {
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
    },
    // A bucket that does not answer fails the request rather than holding an upload (or the
    // sweep) open: as with clamd, a minute of silence is a failure (the upload is refused and
    // nothing commits). The socket's idle time counts, not the whole transfer's.
    requestHandler: { connectionTimeout: 10_000, socketTimeout: 60_000 },
    // Checksums only where S3 requires them: the SDK's default (a CRC trailer in aws-chunked
    // encoding on every upload) is not understood by every S3-compatible server, and the bytes'
    // integrity is ours to check anyway (the SHA-256 on the row).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}
