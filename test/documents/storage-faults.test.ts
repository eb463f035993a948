import { describe, expect, it } from 'vitest';
import {
  asStorageFault,
  StorageUnavailableError,
} from '../../src/server/platform/storage/storage.js';

/**
 * A full disk under DATA_DIR is the document store being unavailable: the upload gets the generic
 * 503, as an unreachable bucket does (docs/faults.md, "Disk full"; the fault suite fills a real
 * file system in test/faults/disk-full.fault.ts). Other file-system errors keep their own meaning.
 */
const errno = (code: string) => Object.assign(new Error(`${code}: failed`), { code });

describe('file-system errors of the local document store', () => {
  it('reports no space on the disk, or over quota, as the store being unavailable', () => {
    for (const code of ['ENOSPC', 'EDQUOT']) {
      const cause = errno(code);
      const fault = asStorageFault(cause);
      expect(fault).toBeInstanceOf(StorageUnavailableError);
      expect((fault as Error).cause).toBe(cause);
    }
  });

  it('passes every other error on unchanged', () => {
    for (const error of [errno('EACCES'), errno('ENOENT'), new Error('plain'), null]) {
      expect(asStorageFault(error)).toBe(error);
    }
  });
});
