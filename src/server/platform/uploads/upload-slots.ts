import { sql } from 'drizzle-orm';
import { rowsOf } from '../db/database.js';
import type { Transaction } from '../db/with-actor.js';
import { ConflictError, LimitReachedError } from '../errors.js';

/**
 * A second upload into a scheme (or for an employer) while one runs: refused before a byte of it
 * is read or a row of it is written (docs/decisions/0086).
 */
export class UploadRunningError extends ConflictError {}

/** The tenant already runs as many imports and payroll uploads as it may: 429. */
export class TooManyUploadsError extends LimitReachedError {
  constructor() {
    super(
      'Too many imports and payroll uploads are running for this firm; try again when one has finished',
    );
  }
}

/** What an upload targets: its kind of target and the target's id, and the tenant it belongs to. */
export interface UploadTarget {
  tenantId: string;
  /** `scheme` for member and contribution imports, `employer` for payroll uploads. */
  kind: 'scheme' | 'employer';
  id: string;
}

export interface UploadSlots {
  /**
   * Claims the target for one upload and a place in its tenant's allowance, or throws: the target
   * taken (UploadRunningError with `busy`) or the tenant at its cap (TooManyUploadsError).
   * Answers the release, to be called once the upload has ended, however it ended.
   */
  claim(target: UploadTarget, busy: string): () => void;
}

/**
 * The running uploads of this instance, by tenant and target (docs/decisions/0086). A claim is
 * decided in memory, at once, with nothing shared to wait for: an upload that would only queue
 * behind another for the same scheme or employer is refused instead of holding a pooled
 * connection while it waits, and one tenant's uploads hold at most `perTenant` of this
 * instance's connections at a time. Two instances each keep their own: the phase-2 advisory lock
 * (tryUploadLock) is what refuses an overlap between them.
 */
export function createUploadSlots({ perTenant }: { perTenant: number }): UploadSlots {
  const running = new Map<string, Set<string>>();
  return {
    claim(target, busy) {
      const key = `${target.kind}:${target.id}`;
      const tenant = running.get(target.tenantId) ?? new Set<string>();
      if (tenant.has(key)) throw new UploadRunningError(busy);
      if (tenant.size >= perTenant) throw new TooManyUploadsError();
      tenant.add(key);
      running.set(target.tenantId, tenant);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        tenant.delete(key);
        if (tenant.size === 0 && running.get(target.tenantId) === tenant) {
          running.delete(target.tenantId);
        }
      };
    },
  };
}

/**
 * Takes the advisory lock under which an upload's phase 2 checks and writes, without waiting:
 * false when another transaction holds it (an upload for the same target on another instance, or
 * the import sweep looking at it). Waiting would hold a pooled connection for as long as the other
 * upload writes, which is how a burst of small imports once emptied the pool for every tenant.
 */
export async function tryUploadLock(
  tx: Transaction,
  namespace: number,
  key: string,
): Promise<boolean> {
  const [lock] = rowsOf<{ taken: boolean }>(
    await tx.execute(
      sql`select pg_try_advisory_xact_lock(${namespace}, hashtext(${key})) as taken`,
    ),
  );
  return lock?.taken === true;
}
