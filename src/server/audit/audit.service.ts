import { createId } from '@paralleldrive/cuid2';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/database.js';
import { auditLog } from '../db/schema.js';
import { type Transaction, withPlatformReadOnly } from '../db/with-actor.js';
import type { RecordedActor } from '../tenancy/actor.js';
import {
  type ChainBreak,
  type ChainLink,
  checkLink,
  computeRecordHash,
  GENESIS_HASH,
  PLATFORM_CHAIN,
} from './audit-chain.js';

/** Dotted `<entity>.<verb>` names (service-spec §6), e.g. `scheme.created`. */
export type AuditAction = `${string}.${string}`;

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

/** JSON-safe copy: the stored state is exactly what was hashed (dates become ISO strings). */
function toJsonState(state: unknown): unknown {
  return state === null || state === undefined ? null : JSON.parse(JSON.stringify(state));
}

/**
 * Two-key advisory lock namespace for chain heads: records of one tenant are appended one at a
 * time, different tenants never wait for each other.
 */
const CHAIN_LOCK_NAMESPACE = 7_201_190;

export interface AuditServiceDeps {
  now: () => Date;
}

export function createAuditService({ now }: AuditServiceDeps) {
  return {
    /**
     * Appends one record inside the caller's transaction, so the change and its record commit
     * together or not at all.
     */
    async record(tx: Transaction, actor: RecordedActor, change: AuditChange): Promise<string> {
      if (actor.tenantId !== null && change.tenantId !== actor.tenantId) {
        throw new AuditTenantMismatchError();
      }
      const chainKey = change.tenantId ?? PLATFORM_CHAIN;
      await tx.execute(
        sql`select pg_advisory_xact_lock(${CHAIN_LOCK_NAMESPACE}, hashtext(${chainKey}))`,
      );
      const [head] = await tx
        .select({ chainIndex: auditLog.chainIndex, hash: auditLog.hash })
        .from(auditLog)
        .where(eq(auditLog.chainKey, chainKey))
        .orderBy(desc(auditLog.chainIndex))
        .limit(1);
      const record = {
        id: createId(),
        tenantId: change.tenantId,
        chainKey,
        chainIndex: (head?.chainIndex ?? 0) + 1,
        previousHash: head?.hash ?? GENESIS_HASH,
        actorId: actor.userId,
        actorType: actor.role,
        // An anonymous request acts in a tenant without belonging to it.
        actorTenantId: actor.role === 'Anonymous' ? null : actor.tenantId,
        action: change.action,
        entityType: change.entityType,
        entityId: change.entityId,
        previousState: toJsonState(change.previousState),
        newState: toJsonState(change.newState),
        ipAddress: actor.ipAddress,
        userAgent: actor.userAgent,
        timestamp: now(),
      };
      await tx.insert(auditLog).values({ ...record, hash: computeRecordHash(record) });
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

export interface ChainVerification {
  chains: number;
  records: number;
  broken: BrokenLink[];
}

const VERIFY_BATCH = 1_000;

/**
 * Walks every chain (or one tenant's) from its first record and reports, per chain, the first
 * link that does not hold: a record edited in place, removed, or inserted out of order.
 */
export async function verifyAuditChains(
  database: Database,
  options: { tenantId?: string } = {},
): Promise<ChainVerification> {
  const result: ChainVerification = { chains: 0, records: 0, broken: [] };
  let previous: ChainLink | null = null;
  let brokenChain: string | null = null;
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
      if (!sameChain) result.chains += 1;
      result.records += 1;
      if (brokenChain !== link.chainKey) {
        const fault = checkLink(sameChain ? previous : null, link);
        if (fault) {
          brokenChain = link.chainKey;
          result.broken.push({
            chainKey: link.chainKey,
            recordId: link.id,
            chainIndex: link.chainIndex,
            fault,
          });
        }
      }
      previous = link;
    }
    const last = batch.at(-1);
    if (!last || batch.length < VERIFY_BATCH) return result;
    cursor = { chainKey: last.chainKey, chainIndex: last.chainIndex };
  }
}
