import { mkdir, open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

/**
 * The erasure ledger (docs/decisions/0149-retention-and-erasure.md): every erasure, by id, in an
 * append-only file outside the database (ERASURE_LEDGER_FILE). A backup of the database taken
 * before an erasure still holds what was erased; restoring it would bring the data back. The
 * ledger is not restored with the database, so `restore` and every start-up read it and apply
 * again each entry the database lacks, before anyone is served. It holds ids and days only: no
 * name, no PPS number, no document's name.
 */

const plainId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

export const erasureEntry = z.object({
  v: z.literal(1),
  id: plainId,
  brokerId: plainId,
  memberId: plainId,
  scope: z.enum(['member', 'contact_details']),
  trigger: z.enum(['request', 'retention_ended']),
  requestId: plainId.nullable(),
  erasedAt: z.iso.datetime(),
});
export type ErasureEntry = z.infer<typeof erasureEntry>;

export interface ErasureLedger {
  /** Appends one entry and waits until it is on disk. */
  append(entry: ErasureEntry): Promise<void>;
  /** Every entry, in the order written. */
  entries(): Promise<ErasureEntry[]>;
}

/** The ledger's lines could not be read as entries: the file is damaged, and start-up stops. */
export class ErasureLedgerDamagedError extends Error {
  override name = 'ErasureLedgerDamagedError';
}

export function createFileErasureLedger(file: string): ErasureLedger {
  return {
    async append(entry) {
      const line = `${JSON.stringify(erasureEntry.parse(entry))}\n`;
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      // O_APPEND: a line shorter than a page is written whole, after every other instance's.
      const handle = await open(file, 'a+', 0o600);
      try {
        // An append cut short by a crash leaves a line without its newline: end it first, so this
        // entry starts a line of its own and the torn one stays a line that is not JSON.
        const { size } = await handle.stat();
        const last = Buffer.alloc(1);
        if (size > 0) await handle.read(last, 0, 1, size - 1);
        await handle.write(size > 0 && last[0] !== 0x0a ? `\n${line}` : line);
        await handle.sync();
      } finally {
        await handle.close();
      }
    },

    async entries() {
      const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return '';
        throw error;
      });
      const found: ErasureEntry[] = [];
      for (const [index, line] of text.split('\n').entries()) {
        if (line === '') continue;
        let parsed: unknown;
        try {
          parsed = JSON.parse(line);
        } catch {
          // A torn append: the entry is written before its transaction commits, so an entry cut
          // short belongs to an erasure that never committed.
          continue;
        }
        const entry = erasureEntry.safeParse(parsed);
        if (!entry.success) {
          throw new ErasureLedgerDamagedError(
            `the erasure ledger's line ${index + 1} is not an erasure entry`,
          );
        }
        found.push(entry.data);
      }
      return found;
    },
  };
}
