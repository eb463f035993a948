import type { S3StorageSettings } from './s3-storage.js';
import { createLocalStorage, type DocumentStorage } from './storage.js';

/**
 * The document store the configuration names: the local file system under DATA_DIR, or an S3
 * bucket (STORAGE_URL), whose SDK is imported only where configured
 * (docs/decisions/0079-lazy-loading-for-idle-memory.md).
 */
export async function openDocumentStorage(documents: {
  storage: { kind: 'local' } | ({ kind: 's3' } & S3StorageSettings);
  storageRoot: string;
}): Promise<DocumentStorage> {
  return documents.storage.kind === 's3'
    ? (await import('./s3-storage.js')).createS3Storage(documents.storage, documents.storageRoot)
    : createLocalStorage(documents.storageRoot);
}
