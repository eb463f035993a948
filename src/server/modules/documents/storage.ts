import { createReadStream } from 'node:fs';
import { type FileHandle, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where documents' bytes live (issue 16), behind one interface so that another back end can take
 * the local file system's place. An upload is written to a staged file first and made reachable
 * (committed under its key) only after its row has committed: a crash in between leaves a staged
 * file that no key, row or URL names, which the storage-sweep job settles (docs/decisions.md,
 * "Documents (issue 16)").
 */
export interface StagedFile {
  /** The document id the file was staged for: its name in the staging area. */
  readonly id: string;
  /** A local path, for the checks that read the whole file (DOCX's directory, the scanner). */
  readonly path: string;
  write(chunk: Buffer): Promise<void>;
  /** Flushes and closes the file; it stays staged until committed or discarded. */
  close(): Promise<void>;
  discard(): Promise<void>;
}

export interface DocumentStorage {
  stage(id: string): Promise<StagedFile>;
  /** Makes a closed staged file reachable under `key`. */
  commit(staged: Pick<StagedFile, 'id' | 'path'>, key: string): Promise<void>;
  /** The stored bytes of `key`, or null when nothing is stored there. */
  open(key: string): Promise<{ stream: Readable; size: number } | null>;
  /** A local path of the stored bytes of `key`, for the scanner. */
  localPath(key: string): string;
  /** Staged files last written before `before`: uploads that never committed, or crashed after. */
  stagedBefore(before: Date): Promise<Array<Pick<StagedFile, 'id' | 'path'>>>;
  removeStaged(staged: Pick<StagedFile, 'id' | 'path'>): Promise<void>;
}

/** A document id as createId makes them: the only names the staging area holds. */
const STAGED_NAME = /^[a-z0-9]{1,64}$/;
const STAGING_DIRECTORY = '.staging';

/**
 * The key of one version: `{tenantId}/{schemeId}/{documentType}/{filename}/v{version}`, the path of
 * service-spec §2.7 with each version a file inside it, side by side. Every segment is checked
 * here, whatever the caller did: ids and types are plain words, the filename is already safe.
 */
export function storageKeyOf(parts: {
  tenantId: string;
  schemeId: string;
  documentType: string;
  filename: string;
  version: number;
}): string {
  const plain = /^[A-Za-z0-9_-]{1,64}$/;
  for (const segment of [parts.tenantId, parts.schemeId, parts.documentType]) {
    if (!plain.test(segment)) throw new Error('a storage key segment is not a plain word');
  }
  if (
    parts.filename === '' ||
    parts.filename.startsWith('.') ||
    /[/\\\0]/.test(parts.filename) ||
    !Number.isSafeInteger(parts.version) ||
    parts.version < 1
  ) {
    throw new Error('a storage key filename or version is unsafe');
  }
  return `${parts.tenantId}/${parts.schemeId}/${parts.documentType}/${parts.filename}/v${parts.version}`;
}

/** The local file system under DATA_DIR/documents (the default back end). */
export function createLocalStorage(root: string): DocumentStorage {
  const staging = path.join(root, STAGING_DIRECTORY);

  function pathOfKey(key: string): string {
    const resolved = path.resolve(root, key);
    // Keys are built by storageKeyOf; this is the last word that none leaves the root.
    if (!resolved.startsWith(`${path.resolve(root)}${path.sep}`)) {
      throw new Error('a storage key leads outside the storage root');
    }
    return resolved;
  }

  function stagedPath(id: string): string {
    if (!STAGED_NAME.test(id)) throw new Error('a staged file name is not a document id');
    return path.join(staging, id);
  }

  return {
    async stage(id) {
      await mkdir(staging, { recursive: true, mode: 0o700 });
      const file = stagedPath(id);
      const handle: FileHandle = await open(file, 'wx', 0o600);
      let closed = false;
      const close = async () => {
        if (closed) return;
        closed = true;
        await handle.sync();
        await handle.close();
      };
      return {
        id,
        path: file,
        async write(chunk) {
          let written = 0;
          while (written < chunk.length) {
            const { bytesWritten } = await handle.write(chunk, written);
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

    async commit(staged, key) {
      const target = pathOfKey(key);
      await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      // Same file system (both under the root): the rename is atomic, the file is whole or absent.
      await rename(stagedPath(staged.id), target);
    },

    async open(key) {
      const file = pathOfKey(key);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return null;
      return { stream: createReadStream(file), size: info.size };
    },

    localPath: pathOfKey,

    async stagedBefore(before) {
      const names = await readdir(staging).catch(() => [] as string[]);
      const found: Array<{ id: string; path: string }> = [];
      for (const name of names) {
        if (!STAGED_NAME.test(name)) continue;
        const file = path.join(staging, name);
        const info = await stat(file).catch(() => null);
        if (info?.isFile() && info.mtimeMs < before.getTime()) found.push({ id: name, path: file });
      }
      return found;
    },

    async removeStaged(staged) {
      await rm(stagedPath(staged.id), { force: true });
    },
  };
}
