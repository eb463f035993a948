import type { AuditService } from '../../platform/audit/audit-log.js';
import {
  createPpsKeyring,
  ppsKeyId,
  UnknownPpsKeyError,
} from '../../platform/crypto/pps-keyring.js';
import { SealedBoxError } from '../../platform/crypto/sealed-box.js';
import type { Database } from '../../platform/db/database.js';
import { withActor, withPlatformReadOnly } from '../../platform/db/with-actor.js';
import type { PlatformActor } from '../../platform/tenancy/actor.js';
import {
  countSealedByKey,
  idsSealedBy,
  lockSealedBatch,
  SEALED_TABLES,
  type SealedTable,
  writeResealed,
} from './members.data.js';

/**
 * Re-encrypts every PPS number the service holds, members' (soft-deleted ones too) and the
 * employees of employers' payroll uploads, that is not yet under the current key (docs/decisions/0031-pps-key-rotation.md). Each batch is one transaction that locks its rows, opens
 * each with the key that sealed it, seals it again under the current key with the same bound
 * context and replaces its lookup hash, so a run killed at any point leaves every row wholly
 * old or wholly new, and the next run carries on with what is left.
 */

export const DEFAULT_BATCH_SIZE = 500;
/** Three parameters a row in one UPDATE; PostgreSQL takes at most 65,535 per statement. */
export const MAX_BATCH_SIZE = 10_000;
/** Member ids named in a message; the rest are counted. */
const MAX_LISTED_IDS = 100;

export interface PpsRotationProgress {
  /** 1-based number of the batch just committed. */
  batch: number;
  batchRows: number;
  /** Rows rotated by this run so far. */
  rotated: number;
  /** Rows not under the current key when the run started. */
  total: number;
}

export interface PpsRotationOptions {
  /** Hex keys: PPS_ENCRYPTION_KEY and PPS_ENCRYPTION_KEY_PREVIOUS. */
  keys: { current: string; previous: string | null };
  /** Who the audit record names; the CLI acts as the system. */
  actor: PlatformActor;
  batchSize?: number;
  /** Called after each batch has committed. An error thrown here ends the run. */
  onBatch?: (progress: PpsRotationProgress) => void | Promise<void>;
}

export interface PpsRotationResult {
  currentKeyId: string;
  previousKeyId: string | null;
  /** Rows not under the current key when the run started. */
  total: number;
  rotated: number;
  batches: number;
  /**
   * Rows still not under the current key after the run: rows another run held locked when this
   * one passed them, or rows an instance still running with the old key wrote meanwhile.
   */
  remaining: number;
  /** The run's `pps_key.rotated` record; null when the run changed nothing. */
  auditRecordId: string | null;
}

/**
 * A run refused or stopped; the message names counts, key ids and row ids (of members or payroll
 * employees, as it says), never a value.
 */
export class PpsRotationError extends Error {
  override name = 'PpsRotationError';
  constructor(
    message: string,
    readonly memberIds: readonly string[] = [],
  ) {
    super(message);
  }
}

function listIds(ids: readonly string[], total = ids.length): string {
  const listed = ids.slice(0, MAX_LISTED_IDS).join(', ');
  return total > MAX_LISTED_IDS ? `${listed} and ${total - MAX_LISTED_IDS} more` : listed;
}

/** Each table's rows not under the current key, by the key that sealed them. */
async function countByKey(database: Database, currentKeyId: string) {
  return withPlatformReadOnly(database, async (tx) => {
    const counted: { table: SealedTable; keyId: string; rows: number }[] = [];
    for (const table of SEALED_TABLES) {
      const groups = await countSealedByKey(tx, table, currentKeyId);
      for (const group of groups) counted.push({ table, ...group });
    }
    return counted;
  });
}

export async function rotatePpsKeys(
  database: Database,
  audit: AuditService,
  { keys, actor, batchSize = DEFAULT_BATCH_SIZE, onBatch }: PpsRotationOptions,
): Promise<PpsRotationResult> {
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > MAX_BATCH_SIZE) {
    throw new PpsRotationError(`The batch size must be a whole number from 1 to ${MAX_BATCH_SIZE}`);
  }
  const ring = createPpsKeyring(keys);
  const currentKeyId = ring.currentKeyId;
  const previousKeyId = keys.previous === null ? null : ppsKeyId(keys.previous);

  const byKey = await countByKey(database, currentKeyId);
  const total = byKey.reduce((sum, group) => sum + group.rows, 0);
  const rowsOf = (kind: SealedTable['kind']) =>
    byKey.filter((group) => group.table.kind === kind).reduce((sum, group) => sum + group.rows, 0);
  const result: PpsRotationResult = {
    currentKeyId,
    previousKeyId,
    total,
    rotated: 0,
    batches: 0,
    remaining: total,
    auditRecordId: null,
  };
  if (total === 0) return result;

  // Refused before anything changes: the ring could open none of these rows, and rotating the
  // others would still leave the operator unable to drop the previous key.
  if (previousKeyId === null) {
    throw new PpsRotationError(
      `PPS_ENCRYPTION_KEY_PREVIOUS is not set, but ${countsByKind(byKey)} have PPS numbers ` +
        `sealed by another key (key id ${[...new Set(byKey.map((group) => group.keyId))].join(', ')}). Set ` +
        'PPS_ENCRYPTION_KEY_PREVIOUS to the key that sealed them and run again; nothing was changed.',
    );
  }
  const foreign = byKey.filter((group) => group.keyId !== previousKeyId);
  if (foreign.length > 0) {
    const foreignKeyIds = [...new Set(foreign.map((group) => group.keyId))];
    const foreignRows = foreign.reduce((sum, group) => sum + group.rows, 0);
    const ids = await withPlatformReadOnly(database, async (tx) => {
      const found: string[] = [];
      for (const table of new Set(foreign.map((group) => group.table))) {
        const rows = await idsSealedBy(tx, table, foreignKeyIds, MAX_LISTED_IDS);
        found.push(...rows.map((row) => row.id));
      }
      return found.slice(0, MAX_LISTED_IDS);
    });
    throw new PpsRotationError(
      `${countsByKind(foreign)} have PPS numbers sealed by a key that is neither ` +
        `PPS_ENCRYPTION_KEY nor PPS_ENCRYPTION_KEY_PREVIOUS (key id ${foreignKeyIds.join(', ')}): ` +
        `${listIds(ids, foreignRows)}. Nothing was changed.`,
      ids,
    );
  }

  for (const table of SEALED_TABLES) {
    // Keyset by id: each batch starts where the last one ended, so the whole run reads the table
    // once, and rows another run holds (skipped, not waited for) are left to that run.
    let after: string | null = null;
    for (;;) {
      const batch = result.batches + 1;
      const committed = await withActor(database, actor, async (tx) => {
        const rows = await lockSealedBatch(tx, table, currentKeyId, after, batchSize);
        if (rows.length === 0) return null;

        const resealed: { brokerId: string; id: string; encrypted: string; lookup: string }[] = [];
        const unknownKey: string[] = [];
        const unverified: string[] = [];
        for (const row of rows) {
          const owner = { tenantId: row.brokerId, memberId: row.id };
          try {
            const ppsNumber = ring.open(
              { encrypted: row.ppsEncrypted, keyId: row.ppsKeyId },
              owner,
            );
            const sealed = ring.seal(ppsNumber, owner);
            resealed.push({
              brokerId: row.brokerId,
              id: row.id,
              encrypted: sealed.encrypted,
              lookup: ring.lookup(row.brokerId, ppsNumber),
            });
          } catch (error) {
            if (error instanceof UnknownPpsKeyError) unknownKey.push(row.id);
            else if (error instanceof SealedBoxError) unverified.push(row.id);
            else throw error;
          }
        }
        if (unknownKey.length > 0 || unverified.length > 0) {
          // Throwing rolls this batch back whole; the batches before it have committed.
          throw stoppedError(table.kind, unknownKey, unverified, result.rotated);
        }

        // The run's one record travels with its first change: no committed change lacks it.
        const auditRecordId =
          result.auditRecordId ??
          (await audit.record(tx, actor, {
            action: 'pps_key.rotated',
            entityType: 'pps_key',
            entityId: currentKeyId,
            tenantId: null,
            previousState: null,
            newState: {
              currentKeyId,
              previousKeyId,
              rowsToRotate: total,
              membersToRotate: rowsOf('member'),
              payrollEmployeesToRotate: rowsOf('payroll employee'),
              batchSize,
            },
          }));
        try {
          await writeResealed(tx, table, currentKeyId, resealed);
        } catch (error) {
          // The driver's error quotes the statement's parameters (ciphertexts, lookup hashes);
          // only the database's own message, which names the constraint, goes on.
          const reason = (error as { cause?: { message?: string } }).cause?.message ?? 'unknown';
          throw new PpsRotationError(
            `The database refused batch ${batch} (${reason}); it was rolled back. ` +
              `${result.rotated} row(s) rotated before it stay rotated.`,
          );
        }
        return { rows: rows.length, lastId: rows[rows.length - 1]?.id ?? null, auditRecordId };
      });
      if (committed === null) break;
      after = committed.lastId;
      result.auditRecordId = committed.auditRecordId;
      result.batches = batch;
      result.rotated += committed.rows;
      await onBatch?.({ batch, batchRows: committed.rows, rotated: result.rotated, total });
      // LIMIT with SKIP LOCKED stops short only when the scan reached the end of the table.
      if (committed.rows < batchSize) break;
    }
  }

  const left = await countByKey(database, currentKeyId);
  result.remaining = left.reduce((sum, group) => sum + group.rows, 0);
  return result;
}

/** "3 member(s)", or "3 member(s) and 2 payroll employee(s)": the rows a message is about. */
function countsByKind(groups: readonly { table: SealedTable; rows: number }[]): string {
  return SEALED_TABLES.map((table) => ({
    kind: table.kind,
    rows: groups.filter((group) => group.table === table).reduce((sum, g) => sum + g.rows, 0),
  }))
    .filter((counted) => counted.rows > 0)
    .map((counted) => `${counted.rows} ${counted.kind}(s)`)
    .join(' and ');
}

function stoppedError(
  kind: SealedTable['kind'],
  unknownKey: string[],
  unverified: string[],
  rotatedBefore: number,
): PpsRotationError {
  const reasons: string[] = [];
  if (unknownKey.length > 0) {
    reasons.push(
      `${unknownKey.length} sealed by a key that is neither PPS_ENCRYPTION_KEY nor ` +
        `PPS_ENCRYPTION_KEY_PREVIOUS: ${listIds(unknownKey)}`,
    );
  }
  if (unverified.length > 0) {
    reasons.push(
      `${unverified.length} whose authentication tag does not verify (altered, or not sealed ` +
        `for that row): ${listIds(unverified)}`,
    );
  }
  return new PpsRotationError(
    `Stopped: ${kind} PPS numbers that cannot be opened, ${reasons.join('; ')}. ` +
      `That batch was rolled back; ${rotatedBefore} row(s) rotated before it stay rotated.`,
    [...unknownKey, ...unverified],
  );
}

/** Where the command's lines go: progress and the summary to `out`, a refusal to `err`. */
export interface CommandOutput {
  out(line: string): void;
  err(line: string): void;
}

/**
 * `pps:rotate`: runs the rotation, prints a line per batch and a summary, and answers the exit
 * code: 0 when every PPS number is under the current key, 1 otherwise.
 */
export async function ppsRotateCommand(
  database: Database,
  audit: AuditService,
  options: Omit<PpsRotationOptions, 'onBatch'>,
  output: CommandOutput,
): Promise<number> {
  let result: PpsRotationResult;
  try {
    result = await rotatePpsKeys(database, audit, {
      ...options,
      onBatch: ({ batch, rotated, total }) => {
        output.out(`Batch ${batch}: ${rotated} / ${total} rotated`);
      },
    });
  } catch (error) {
    if (!(error instanceof PpsRotationError)) throw error;
    output.err(error.message);
    return 1;
  }
  const { currentKeyId, previousKeyId } = result;
  if (result.total === 0) {
    output.out(
      `Nothing to rotate: every PPS number is already under the current key ` +
        `(${currentKeyId}). No audit record was written.` +
        (previousKeyId === null ? '' : ' PPS_ENCRYPTION_KEY_PREVIOUS can be removed.'),
    );
    return 0;
  }
  output.out(
    `Rotated ${result.rotated} of ${result.total} PPS number(s) from key ${previousKeyId} to key ` +
      `${currentKeyId} in ${result.batches} batch(es)` +
      (result.auditRecordId === null ? '.' : `; audit record ${result.auditRecordId}.`),
  );
  if (result.remaining > 0) {
    output.err(
      `${result.remaining} row(s) are still not under the current key: another run held them, ` +
        'or an instance still sealing with the old key wrote them. Run the command again; keep ' +
        'PPS_ENCRYPTION_KEY_PREVIOUS set until it reports none left.',
    );
    return 1;
  }
  output.out(
    'Every PPS number is under the current key: PPS_ENCRYPTION_KEY_PREVIOUS can be removed.',
  );
  return 0;
}
