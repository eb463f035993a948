import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Database } from '../../platform/db/database.js';
import { documents } from '../../platform/db/schema.js';
import { withSchedulerRole } from '../../platform/db/with-actor.js';
import { everyMinute, type ScheduledJob } from '../../platform/jobs/scheduled-jobs.js';
import type { Scanner } from '../../platform/storage/clamd.js';
import type { DocumentStorage } from '../../platform/storage/storage.js';

/** No upload is still being written after this long (the upload body deadline is 10 minutes). */
export const STAGED_GRACE_MS = 60 * 60 * 1000;
/** A pending document is scanned again once its upload has had this long to settle it itself. */
export const PENDING_GRACE_MS = 5 * 60 * 1000;
const PENDING_BATCH = 100;

/**
 * `storage-sweep` (docs/decisions/0062-document-vault.md): finishes or removes what uploads
 * left unfinished. A staged file older than the grace period whose row committed (the process died
 * between the commit and the rename) is moved under its key; one with no row never committed and
 * is removed. With a scanner, documents still pending (the scanner failed during the upload) are
 * scanned again. Works as pension_scheduler, which reads where documents live and may change only
 * their scan state (migration 0017). No person acts, so nothing here is audited; the verdict is on
 * the row with its time.
 */
export function storageSweepJob({
  database,
  storage,
  scanner,
  now,
}: {
  database: Database;
  storage: DocumentStorage;
  scanner: Scanner | null;
  now: () => Date;
}): ScheduledJob {
  return {
    name: 'storage-sweep',
    cadence: everyMinute(),
    maxRuntimeMinutes: 30,
    async run() {
      const counts = { committed: 0, removed: 0, scanned: 0, quarantined: 0, scanFailed: 0 };
      const staged = await storage.stagedBefore(new Date(now().getTime() - STAGED_GRACE_MS));
      for (const file of staged) {
        const [row] = await withSchedulerRole(database, (tx) =>
          tx
            .select({ storageKey: documents.storageKey })
            .from(documents)
            .where(eq(documents.id, file.id)),
        );
        if (row) {
          await storage.commit(file, row.storageKey);
          counts.committed += 1;
        } else {
          await storage.removeStaged(file);
          counts.removed += 1;
        }
      }
      if (scanner === null) return counts;
      const pending = await withSchedulerRole(database, (tx) =>
        tx
          .select({
            brokerId: documents.brokerId,
            id: documents.id,
            storageKey: documents.storageKey,
          })
          .from(documents)
          .where(
            and(
              eq(documents.scanStatus, 'pending'),
              isNull(documents.deletedAt),
              lt(documents.createdAt, new Date(now().getTime() - PENDING_GRACE_MS)),
            ),
          )
          .limit(PENDING_BATCH),
      );
      for (const document of pending) {
        let verdict: 'clean' | 'quarantined';
        try {
          const stored = await storage.open(document.storageKey);
          if (!stored) throw new Error('a pending document is not yet stored under its key');
          verdict = await scanner.scan(stored.stream);
        } catch {
          counts.scanFailed += 1;
          continue;
        }
        const at = now();
        await withSchedulerRole(database, (tx) =>
          tx
            .update(documents)
            .set({ scanStatus: verdict, scannedAt: at, updatedAt: at })
            .where(
              and(
                eq(documents.brokerId, document.brokerId),
                eq(documents.id, document.id),
                eq(documents.scanStatus, 'pending'),
              ),
            ),
        );
        counts.scanned += 1;
        if (verdict === 'quarantined') counts.quarantined += 1;
      }
      return counts;
    },
  };
}
