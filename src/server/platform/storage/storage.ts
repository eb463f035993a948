import { createReadStream } from 'node:fs';
import { type FileHandle, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where documents' bytes live (docs/decisions/0062-document-vault.md), behind one interface so that another back end can take
 * the local file system's place. An upload is written to a staged file first and made reachable
 * (committed under its key) only after its row has committed: a crash in between leaves a staged
 * file that no key, row or URL names, which the storage-sweep job settles (docs/decisions/0062-document-vault.md).
 */
export interface StagedFile {
  /** The document id the file was staged for: its name in the staging area. */
  readonly id: string;
  /** A local path, for the checks that read the whole file (DOCX's central directory). */
  readonly path: string;
  write(chunk: Buffer): Promise<void>;
  /**
   * Flushes and closes the file; it stays staged until committed or discarded. A back end whose
   * bytes live elsewhere stores its staged copy there now, before the row can commit.
   */
  close(): Promise<void>;
  discard(): Promise<void>;
}

/** A staged upload as the sweep finds it: named by its document id, wherever it is kept. */
export interface StagedName {
  readonly id: string;
}

export interface DocumentStorage {
  stage(id: string): Promise<StagedFile>;
  /** Makes a closed staged file reachable under `key`; done again, it does no harm. */
  commit(staged: StagedName, key: string): Promise<void>;
  /** The stored bytes of `key`, or null when nothing is stored there. */
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
  /** Staged uploads last written before `before`: uploads that never committed, or crashed after. */
  stagedBefore(before: Date): Promise<StagedName[]>;
  removeStaged(staged: StagedName): Promise<void>;
  /**
   * Removes the bytes stored under `key`, for an erasure (docs/decisions/0149-retention-and-erasure.md);
   * nothing stored there is no error, so a second removal, or one after a restore, does no harm.
   */
  remove(key: string): Promise<void>;
}

/** The document store did not answer (or failed on its side): the request gets the generic 503. */
export class StorageUnavailableError extends Error {
  constructor(cause: unknown) {
    super('the document store is unavailable', { cause });
    this.name = 'StorageUnavailableError';
  }
}

/** The file system's answers that mean "no room": the whole disk, or the service's quota. */
const NO_SPACE_CODES = new Set(['ENOSPC', 'EDQUOT']);

/**
 * A full disk under DATA_DIR is an outage of the document store, as an unreachable bucket is:
 * the upload is refused with the generic 503 and nothing of it is kept (docs/faults.md, "Disk
 * full"). Any other error is passed on as it is.
 */
export function asStorageFault(error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && NO_SPACE_CODES.has(code)
    ? new StorageUnavailableError(error)
    : error;
}

/** Runs a file-system step, a full disk reported as the store being unavailable. */
async function onDisk<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw asStorageFault(error);
  }
}

/** A document id as createId makes them: the only names the staging area holds. */
const STAGED_NAME = /^[a-z0-9]{1,64}$/;

export function isStagedName(name: string): boolean {
  return STAGED_NAME.test(name);
}
const STAGING_DIRECTORY = '.staging';

/**
 * The key of one stored version: `{tenantId}/{schemeId}/{documentId}`, ids only. Every version is
 * a row, and every row an id, so no two versions share a key. The uploaded file's name, which can
 * hold a member's name or PPS number, is never part of a key (bucket listings, access logs and
 * backups of the store carry keys); it is kept on the row (documents.filename and
 * original_filename) under row-level security (docs/decisions/0092-object-keys-by-id.md). Keys of
 * an earlier layout, `{tenantId}/{schemeId}/{documentType}/{filename}/v{version}`, stay readable:
 * every read and the storage sweep take the key from the row, never rebuild it.
 */
export function storageKeyOf(parts: {
  tenantId: string;
  schemeId: string;
  documentId: string;
}): string {
  const plain = /^[A-Za-z0-9_-]{1,64}$/;
  for (const segment of [parts.tenantId, parts.schemeId, parts.documentId]) {
    if (!plain.test(segment)) throw new Error('a storage key segment is not a plain word');
  }
  return `${parts.tenantId}/${parts.schemeId}/${parts.documentId}`;
}

/**
 * The staging area on local disk, `<root>/.staging/<documentId>`, which every back end writes an
 * upload to first: the content checks and the hash read a local file whatever keeps the bytes.
 */
export interface LocalStaging {
  readonly directory: string;
  stage(id: string): Promise<StagedFile>;
  pathOf(id: string): string;
  stagedBefore(before: Date): Promise<StagedName[]>;
  remove(id: string): Promise<void>;
}

export function createLocalStaging(root: string): LocalStaging {
  const directory = path.join(root, STAGING_DIRECTORY);

  function pathOf(id: string): string {
    if (!STAGED_NAME.test(id)) throw new Error('a staged file name is not a document id');
    return path.join(directory, id);
  }

  return {
    directory,
    pathOf,
    async stage(id) {
      await onDisk(() => mkdir(directory, { recursive: true, mode: 0o700 }));
      const file = pathOf(id);
      const handle: FileHandle = await onDisk(() => open(file, 'wx', 0o600));
      let closed = false;
      const close = async () => {
        if (closed) return;
        closed = true;
        try {
          await onDisk(() => handle.sync());
        } finally {
          await handle.close();
        }
      };
      return {
        id,
        path: file,
        async write(chunk) {
          let written = 0;
          while (written < chunk.length) {
            const { bytesWritten } = await onDisk(() => handle.write(chunk, written));
            written += bytesWritten;
          }
        },
        close,
        async discard() {
          if (!closed) {
            closed = true;
            await handle.close().catch(() => undefined);
          }
          await rm(file, { force: true });
        },
      };
    },

    async stagedBefore(before) {
      const names = await readdir(directory).catch(() => [] as string[]);
      const found: StagedName[] = [];
      for (const name of names) {
        if (!STAGED_NAME.test(name)) continue;
        const info = await stat(path.join(directory, name)).catch(() => null);
        if (info?.isFile() && info.mtimeMs < before.getTime()) found.push({ id: name });
      }
      return found;
    },

    async remove(id) {
      await rm(pathOf(id), { force: true });
    },
  };
}

/** The local file system under DATA_DIR/documents (the default back end). */
export function createLocalStorage(root: string): DocumentStorage {
  const staging = createLocalStaging(root);

  function pathOfKey(key: string): string {
    const resolved = path.resolve(root, key);
    // Keys are built by storageKeyOf; this is the last word that none leaves the root.
    if (!resolved.startsWith(`${path.resolve(root)}${path.sep}`)) {
      throw new Error('a storage key leads outside the storage root');
    }
    return resolved;
  }

  return {
    stage: staging.stage,

    async commit(staged, key) {
      const target = pathOfKey(key);
      await onDisk(() => mkdir(path.dirname(target), { recursive: true, mode: 0o700 }));
      // Same file system (both under the root): the rename is atomic, the file is whole or absent.
      // A second commit of the same upload finds it already under its key.
      const moved = await rename(staging.pathOf(staged.id), target).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'ENOENT') return false;
          throw asStorageFault(error);
        },
      );
      if (!moved && !(await stat(target).catch(() => null))?.isFile()) {
        throw new Error('a staged upload to commit is neither staged nor stored');
      }
    },

    async open(key) {
      const file = pathOfKey(key);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return null;
      return { stream: createReadStream(file), size: info.size };
    },

    stagedBefore: staging.stagedBefore,

    async removeStaged(staged) {
      await staging.remove(staged.id);
    },

    async remove(key) {
      await rm(pathOfKey(key), { force: true });
    },
  };
}
