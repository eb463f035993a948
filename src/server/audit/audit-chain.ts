import { createHash } from 'node:crypto';

/** The previous hash of the first record of every chain. */
export const GENESIS_HASH = '0'.repeat(64);
export const PLATFORM_CHAIN = '@platform';

/** The fields a record's hash covers: every field of service-spec §2.8 plus its place in the chain. */
export interface ChainedRecord {
  id: string;
  tenantId: string | null;
  chainKey: string;
  chainIndex: number;
  previousHash: string;
  actorId: string;
  actorType: string;
  actorTenantId: string | null;
  action: string;
  entityType: string;
  entityId: string;
  previousState: unknown;
  newState: unknown;
  ipAddress: string;
  userAgent: string;
  timestamp: Date;
}

/** JSON with object keys sorted at every depth, so equal values always hash equally. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
}

export function computeRecordHash(record: ChainedRecord): string {
  const covered = [
    1, // format version of this list
    record.id,
    record.tenantId,
    record.chainKey,
    record.chainIndex,
    record.previousHash,
    record.actorId,
    record.actorType,
    record.actorTenantId,
    record.action,
    record.entityType,
    record.entityId,
    record.previousState,
    record.newState,
    record.ipAddress,
    record.userAgent,
    record.timestamp.toISOString(),
  ];
  return createHash('sha256').update(canonicalJson(covered)).digest('hex');
}

export type ChainBreak =
  | { kind: 'gap'; expectedIndex: number }
  | { kind: 'previous-hash-mismatch' }
  | { kind: 'hash-mismatch' };

export interface ChainLink extends ChainedRecord {
  hash: string;
}

/**
 * Checks the next link of a chain. `previous` is null for the chain's first record. Returns the
 * first fault found, or null when the link is sound.
 */
export function checkLink(previous: ChainLink | null, link: ChainLink): ChainBreak | null {
  const expectedIndex = previous ? previous.chainIndex + 1 : 1;
  if (link.chainIndex !== expectedIndex) return { kind: 'gap', expectedIndex };
  if (link.previousHash !== (previous ? previous.hash : GENESIS_HASH)) {
    return { kind: 'previous-hash-mismatch' };
  }
  if (computeRecordHash(link) !== link.hash) return { kind: 'hash-mismatch' };
  return null;
}
