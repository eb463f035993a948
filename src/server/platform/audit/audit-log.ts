import { createId } from '@paralleldrive/cuid2';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import {
  FROM_THE_SERVICE,
  isRecordedAction,
  type RecordedAction,
  SYSTEM_ACTOR_ID,
} from '../../../contracts/audit-text.js';
import { batcherOf, type Database, rowsOf } from '../db/database.js';
import { auditChainCheckpoint, auditLog } from '../db/schema.js';
import {
  type FinalSteps,
  finalStepsOf,
  type Transaction,
  TransactionNotFinishableError,
  withPlatformReadOnly,
  withPlatformRole,
} from '../db/with-actor.js';
import type { RecordedActor } from '../tenancy/actor.js';
import {
  type AuditChainKey,
  type ChainBreak,
  type ChainedRecord,
  type ChainLink,
  type CheckpointHead,
  type CheckpointHeads,
  CURRENT_HASH_VERSION,
  checkLink,
  computeCheckpointMac,
  computeKeyedHash,
  GENESIS_HASH,
  LEGACY_HASH,
  PLATFORM_CHAIN,
  sameHash,
} from './audit-chain.js';

/**
 * Dotted `<entity>.<verb>` names (docs/api.md, "The audit log"), e.g. `scheme.created`: only those
 * a module's manifest gives words (src/contracts/audit-text.ts), so that every record reads as a
 * sentence.
 */
export type AuditAction = RecordedAction;

/** An action no manifest gives words: never recorded, so the log never shows a bare code. */
export class AuditActionWithoutWordsError extends Error {
  override name = 'AuditActionWithoutWordsError';
  constructor(action: string) {
    super(
      `the audit action ${action} has no words: give it some in its module's manifest (src/contracts/manifests)`,
    );
  }
}

export interface AuditChange {
  action: AuditAction;
  entityType: string;
  entityId: string;
  /** The tenant the affected record belongs to, read from that record; null for platform-level entities. */
  tenantId: string | null;
  /** Null for creates. */
  previousState: unknown;
  /** Null for deletes. */
  newState: unknown;
}

export class AuditTenantMismatchError extends Error {
  override name = 'AuditTenantMismatchError';
  constructor() {
    super('a tenant-scoped actor can only write audit records of its own tenant');
  }
}

/**
 * Keys whose values are personal data wherever they appear: the audit chain is append-only, so
 * nothing in it could be erased when GDPR Art. 17 asks
 * (docs/decisions/0098-no-personal-data-in-the-audit-chain.md). Compared without case, `_` or `-`.
 */
const PERSONAL_KEYS = new Set([
  'email',
  'emailaddress',
  'fullname',
  'firstname',
  'lastname',
  'surname',
  'dateofbirth',
  'birthdate',
  'dob',
  'salary',
  'salarycents',
  'annualsalary',
  'pensionablesalary',
  'grosspay',
  'ppsnumber',
  'ppsn',
  'phone',
  'phonenumber',
  'address',
  // An employer's contact person and registered address (docs/decisions/0132-employer-and-scheme-details.md).
  'contactname',
  'contactemail',
  'contactphone',
  'registeredaddress',
]);

/** Entities that are people: their `name` is a person's name. */
const PERSON_ENTITIES = new Set(['user', 'member', 'trustee', 'key_function_holder']);

const normalisedKey = (key: string) => key.toLowerCase().replace(/[_-]/g, '');

/**
 * A state without personal values: the keys above, and `name` of a person, are dropped at any
 * depth. A record says what changed (its `changedFields`) and names things by id, never by the
 * values of names, e-mail addresses, birth dates or salaries.
 */
function withoutPersonalData(value: unknown, person: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => withoutPersonalData(item, person));
  if (value === null || typeof value !== 'object') return value;
  const kept: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const normalised = normalisedKey(key);
    if (PERSONAL_KEYS.has(normalised) || (person && normalised === 'name')) continue;
    kept[key] = withoutPersonalData(item, person);
  }
  return kept;
}

/**
 * JSON-safe copy without personal data: the stored state is exactly what was hashed (dates become
 * ISO strings).
 */
function toJsonState(state: unknown, entityType: string): unknown {
  return state === null || state === undefined
    ? null
    : withoutPersonalData(JSON.parse(JSON.stringify(state)), PERSON_ENTITIES.has(entityType));
}

/** The same rule as the audit_log_action_dotted constraint, checked where the caller can see it. */
const DOTTED_ACTION = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/**
 * Two-key advisory lock namespace for chain heads: records of one tenant are appended one at a
 * time, different tenants never wait for each other.
 */
const CHAIN_LOCK_NAMESPACE = 7_201_190;

/** Rows per INSERT when a transaction appends many records (bound parameters stay far below 65,535). */
const INSERT_BATCH = 500;

/**
 * The client address a record keeps. Every actor built from a request carries the one the server
 * trusted (request-context.ts). The service's own actor (start-up, the CLI: user id `system`) is
 * no request: it acts from the server itself, `local`. Any other actor without one says so,
 * rather than borrowing the untrusted header.
 */
function clientAddressOf(actor: RecordedActor): string {
  if (actor.clientAddress !== undefined) return actor.clientAddress;
  return actor.userId === SYSTEM_ACTOR_ID ? FROM_THE_SERVICE : 'unknown';
}

/** A record as the caller described it, waiting for its place in the chain. */
type QueuedRecord = Omit<ChainedRecord, 'chainIndex' | 'previousHash' | 'hashVersion' | 'keyId'>;

export interface AuditServiceDeps {
  now: () => Date;
  /** AUDIT_CHAIN_KEY: every record this service writes is sealed with it. */
  chainKey: AuditChainKey;
}

/** A transaction's records not yet in their chains; closed once they are being appended. */
interface Queue {
  records: QueuedRecord[];
  closed: boolean;
}

export function createAuditService({ now, chainKey }: AuditServiceDeps) {
  const queues = new WeakMap<FinalSteps, Queue>();

  /**
   * Appends a transaction's queued records to their chains. Runs as its last step before
   * COMMIT (docs/decisions/0037-audit-records-appended-at-commit.md): the chain lock is taken here, not when the record was made, so
   * a long transaction (an import) holds its tenant's chain only for the instant of this append
   * and commit. The lock is released at COMMIT, so chains grow in commit order. Chains are locked
   * in sorted order, so two transactions touching the same chains cannot deadlock.
   */
  async function appendQueued(tx: Transaction, queue: Queue): Promise<void> {
    queue.closed = true;
    const byChain = new Map<string, QueuedRecord[]>();
    for (const record of queue.records) {
      const chain = byChain.get(record.chainKey);
      if (chain) chain.push(record);
      else byChain.set(record.chainKey, [record]);
    }
    // The lock and the head read travel as one message (the read is its own statement, so it
    // sees what committed while the lock was awaited), and the records go with the COMMIT
    // (docs/decisions/0060-request-path-one-round-trip.md).
    const batcher = batcherOf(tx);
    for (const chainKeyOfRecords of [...byChain.keys()].sort()) {
      const records = byChain.get(chainKeyOfRecords) as QueuedRecord[];
      const [, found] = await batcher.together([
        sql`select pg_advisory_xact_lock(${CHAIN_LOCK_NAMESPACE}, hashtext(${chainKeyOfRecords}))`,
        sql`select ${auditLog.chainIndex} as chain_index, ${auditLog.hash} as hash from ${auditLog}
            where ${auditLog.chainKey} = ${chainKeyOfRecords}
            order by ${auditLog.chainIndex} desc limit 1`,
      ]);
      const head = found?.[0] as { chain_index: number; hash: string } | undefined;
      let chainIndex = head ? Number(head.chain_index) : 0;
      let previousHash = head?.hash ?? GENESIS_HASH;
      const rows = records.map((record) => {
        chainIndex += 1;
        const linked: ChainedRecord = {
          ...record,
          chainIndex,
          previousHash,
          hashVersion: CURRENT_HASH_VERSION,
          keyId: chainKey.id,
        };
        previousHash = computeKeyedHash(linked, chainKey);
        return { ...linked, hash: previousHash };
      });
      for (let start = 0; start < rows.length; start += INSERT_BATCH) {
        await batcher.atCommit(tx.insert(auditLog).values(rows.slice(start, start + INSERT_BATCH)));
      }
    }
  }

  return {
    /**
     * Adds one record to the caller's transaction, so the change and its record commit together
     * or not at all. The record is checked and its content fixed now, and its id is returned at
     * once; it takes its place in the chain as the transaction's last step before COMMIT (see
     * appendQueued), and is never written when the work fails. Throws for a transaction that
     * would not run that step (one not opened by withActor or its siblings).
     */
    async record(tx: Transaction, actor: RecordedActor, change: AuditChange): Promise<string> {
      if (actor.tenantId !== null && change.tenantId !== actor.tenantId) {
        throw new AuditTenantMismatchError();
      }
      if (!DOTTED_ACTION.test(change.action)) {
        throw new Error('an audit action is a dotted <entity>.<verb> name (docs/api.md)');
      }
      if (!isRecordedAction(change.action)) throw new AuditActionWithoutWordsError(change.action);
      const final = finalStepsOf(tx);
      let queue = queues.get(final);
      if (!queue) {
        const created: Queue = { records: [], closed: false };
        final.add((finishing) => appendQueued(finishing, created));
        queues.set(final, created);
        queue = created;
      }
      // Its records are already being written, or committed: this one would be lost.
      if (queue.closed)
        throw new TransactionNotFinishableError('this transaction is already committing');
      const record: QueuedRecord = {
        id: createId(),
        tenantId: change.tenantId,
        chainKey: change.tenantId ?? PLATFORM_CHAIN,
        actorId: actor.userId,
        actorType: actor.role,
        // An anonymous request acts in a tenant without belonging to it.
        actorTenantId: actor.role === 'Anonymous' ? null : actor.tenantId,
        action: change.action,
        entityType: change.entityType,
        entityId: change.entityId,
        previousState: toJsonState(change.previousState, change.entityType),
        newState: toJsonState(change.newState, change.entityType),
        ipAddress: actor.ipAddress,
        userAgent: actor.userAgent,
        timestamp: now(),
        clientAddress: clientAddressOf(actor),
      };
      queue.records.push(record);
      return record.id;
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;

export interface BrokenLink {
  chainKey: string;
  recordId: string;
  chainIndex: number;
  fault: ChainBreak;
}

/**
 * The cut-over checkpoint as the verifier found it. sealed: its MAC holds under a known key, so
 * each listed chain's legacy prefix is believed. missing: none was written (a database that had
 * no records at the cut-over, or one whose checkpoint was removed); forged: present, but its seal
 * fails or names a key the verifier lacks. Without a sealed checkpoint no plain-hash record is
 * believed anywhere.
 */
export type CheckpointState = 'sealed' | 'missing' | 'forged';

/** The last record of a chain as the verifier read it: what an evidence pack's manifest names. */
export interface ChainHead {
  position: number;
  recordId: string;
  hash: string;
}

export interface ChainVerification {
  chains: number;
  records: number;
  checkpoint: CheckpointState;
  broken: BrokenLink[];
  /** Each chain's last record, by chain key (a tenant id, or @platform). */
  heads: Record<string, ChainHead>;
}

/** The chain is sound: every link holds and no checkpoint was forged. */
export function chainsAreSound(report: ChainVerification): boolean {
  return report.broken.length === 0 && report.checkpoint !== 'forged';
}

const VERIFY_BATCH = 1_000;

async function readCheckpoint(
  database: Database,
  keys: ReadonlyMap<string, AuditChainKey>,
): Promise<{ state: CheckpointState; heads: CheckpointHeads }> {
  const [row] = await withPlatformReadOnly(database, (tx) =>
    tx.select().from(auditChainCheckpoint).limit(1),
  );
  if (!row) return { state: 'missing', heads: {} };
  const key = keys.get(row.keyId);
  const heads = row.heads as CheckpointHeads;
  if (!key || !sameHash(computeCheckpointMac(heads, key), row.mac)) {
    return { state: 'forged', heads: {} };
  }
  return { state: 'sealed', heads };
}

/**
 * Walks every chain (or one tenant's) from its first record and reports, per chain, the first
 * link that does not hold: a record edited in place, removed, inserted out of order, resealed
 * without the key, or downgraded to a plain hash past the sealed cut-over. `keys` are the chain
 * keys to check keyed records with: AUDIT_CHAIN_KEY, plus retired keys after a rotation.
 */
export async function verifyAuditChains(
  database: Database,
  options: { keys: readonly AuditChainKey[]; tenantId?: string },
): Promise<ChainVerification> {
  const keys = new Map(options.keys.map((key) => [key.id, key]));
  const checkpoint = await readCheckpoint(database, keys);
  const result: ChainVerification = {
    chains: 0,
    records: 0,
    checkpoint: checkpoint.state,
    broken: [],
    heads: {},
  };
  const brokenChains = new Set<string>();
  const report = (chainKey: string, recordId: string, chainIndex: number, fault: ChainBreak) => {
    brokenChains.add(chainKey);
    result.broken.push({ chainKey, recordId, chainIndex, fault });
  };
  const headOf = (chainKey: string): CheckpointHead | null =>
    Object.hasOwn(checkpoint.heads, chainKey) ? (checkpoint.heads[chainKey] ?? null) : null;
  // A chain cut short below its sealed head lost records the checkpoint vouches for.
  const checkChainEnd = (chainKey: string, lastIndex: number) => {
    const head = headOf(chainKey);
    if (head && lastIndex < head.index && !brokenChains.has(chainKey)) {
      report(chainKey, head.id, head.index, { kind: 'checkpoint-head-missing' });
    }
  };

  const endChain = (last: ChainLink) => {
    result.heads[last.chainKey] = {
      position: last.chainIndex,
      recordId: last.id,
      hash: last.hash,
    };
    checkChainEnd(last.chainKey, last.chainIndex);
  };

  const seen = new Set<string>();
  let previous: ChainLink | null = null;
  let cursor: { chainKey: string; chainIndex: number } | null = null;
  for (;;) {
    const position: { chainKey: string; chainIndex: number } | null = cursor;
    const batch: ChainLink[] = await withPlatformReadOnly(database, (tx) =>
      tx
        .select()
        .from(auditLog)
        .where(
          and(
            options.tenantId === undefined ? undefined : eq(auditLog.chainKey, options.tenantId),
            position
              ? sql`(${auditLog.chainKey}, ${auditLog.chainIndex}) > (${position.chainKey}, ${position.chainIndex})`
              : undefined,
          ),
        )
        .orderBy(asc(auditLog.chainKey), asc(auditLog.chainIndex))
        .limit(VERIFY_BATCH),
    );
    for (const link of batch) {
      const sameChain = previous !== null && previous.chainKey === link.chainKey;
      if (!sameChain) {
        if (previous) endChain(previous);
        result.chains += 1;
        seen.add(link.chainKey);
      }
      result.records += 1;
      if (!brokenChains.has(link.chainKey)) {
        const fault = checkLink(sameChain ? previous : null, link, {
          keys,
          legacyHead: headOf(link.chainKey),
        });
        if (fault) report(link.chainKey, link.id, link.chainIndex, fault);
      }
      previous = link;
    }
    const last = batch.at(-1);
    if (!last || batch.length < VERIFY_BATCH) break;
    cursor = { chainKey: last.chainKey, chainIndex: last.chainIndex };
  }
  if (previous) endChain(previous);
  for (const chainKey of Object.keys(checkpoint.heads).sort()) {
    const wanted = options.tenantId === undefined || options.tenantId === chainKey;
    if (wanted && !seen.has(chainKey)) checkChainEnd(chainKey, 0);
  }
  return result;
}

/** One-key advisory lock taken while the cut-over checkpoint is written. */
const CHECKPOINT_LOCK = 7_201_191;

export type CutoverOutcome = 'written' | 'present' | 'refused';

/**
 * The migration that brings in the keyed chain. Only the run that applies it writes the cut-over
 * checkpoint: one found missing on a later start was removed, and writing it again would vouch for
 * whatever plain-hash records are there by then (docs/decisions/0041-keyed-audit-chain.md).
 */
export const KEYED_CHAIN_MIGRATION = '0011_keyed_audit_chain';

/** The cut-over as start-up and `migrate` perform it: sealed only by the run that applied 0011. */
export function sealCutoverOnUpgrade(
  database: Database,
  key: AuditChainKey,
  appliedTags: readonly string[],
): Promise<CutoverOutcome | 'not-this-run'> {
  if (!appliedTags.includes(KEYED_CHAIN_MIGRATION)) return Promise.resolve('not-this-run');
  return sealAuditCutover(database, key);
}

/**
 * Seals the cut-over to the keyed chain (docs/decisions/0041-keyed-audit-chain.md): one checkpoint row
 * listing each chain's last plain-hash record, MAC'd with AUDIT_CHAIN_KEY. Run at start-up,
 * before any request; idempotent, and serialised by a lock so instances starting together write
 * one row. Since migration 0011 no plain-hash record can be inserted (hash_version has no
 * default), so the heads no longer change and every instance would seal the same list.
 *
 * 'refused': no checkpoint, yet keyed records exist. The cut-over happened and its checkpoint
 * was removed; sealing the database's present state would vouch for whatever plain-hash records
 * someone put there since, so nothing is written and audit:verify keeps refusing them.
 */
export async function sealAuditCutover(
  database: Database,
  key: AuditChainKey,
): Promise<CutoverOutcome> {
  return withPlatformRole(database, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${CHECKPOINT_LOCK})`);
    const [existing] = await tx
      .select({ id: auditChainCheckpoint.id })
      .from(auditChainCheckpoint)
      .limit(1);
    if (existing) return 'present';
    const [keyed] = await tx
      .select({ id: auditLog.id })
      .from(auditLog)
      .where(ne(auditLog.hashVersion, LEGACY_HASH))
      .limit(1);
    if (keyed) return 'refused';
    const rows = rowsOf<{
      chain_key: string;
      chain_index: string | number;
      id: string;
      hash: string;
    }>(
      await tx.execute(
        sql`select distinct on (chain_key) chain_key, chain_index, id, hash from audit_log
            order by chain_key, chain_index desc`,
      ),
    );
    const heads: CheckpointHeads = {};
    for (const row of rows) {
      heads[row.chain_key] = { index: Number(row.chain_index), id: row.id, hash: row.hash };
    }
    await tx
      .insert(auditChainCheckpoint)
      .values({ id: 1, keyId: key.id, heads, mac: computeCheckpointMac(heads, key) })
      .onConflictDoNothing();
    return 'written';
  });
}
