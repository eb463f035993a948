import {
  createHash,
  createHmac,
  createSecretKey,
  type KeyObject,
  timingSafeEqual,
} from 'node:crypto';

/** The previous hash of the first record of every chain. */
export const GENESIS_HASH = '0'.repeat(64);
export const PLATFORM_CHAIN = '@platform';

/**
 * How a record's hash was made (docs/decisions/0041-keyed-audit-chain.md and docs/decisions/0051-readable-audit-log.md). 1:
 * plain SHA-256, written before the keyed chain; anyone with database access can recompute it, so
 * it is only trusted up to its chain's head in the sealed cut-over checkpoint. 2: HMAC-SHA256
 * under AUDIT_CHAIN_KEY, which is not in the database. 3: the same HMAC over the same fields and
 * the client address the server trusted; every record written now is version 3.
 *
 * The version is the first thing each MAC covers, so a record cannot be passed off as another
 * version: rewriting a version-3 record as version 2 with its client address removed changes the
 * text the MAC was made over, and without the key no new MAC can be made.
 */
export const LEGACY_HASH = 1;
export const KEYED_HASH = 2;
export const ADDRESSED_HASH = 3;
/** The version every new record is sealed with. */
export const CURRENT_HASH_VERSION = ADDRESSED_HASH;

/**
 * The key the chain is sealed with, and its id: a fingerprint derived from the key, stored with
 * every record and the checkpoint so a verifier holding several keys (after a rotation) knows
 * which one each record needs. The fingerprint reveals nothing usable about the key.
 */
export interface AuditChainKey {
  readonly id: string;
  /** A KeyObject, made once: Node 24 checks a Buffer key's kind at every HMAC, at six times its cost. */
  readonly secret: KeyObject;
}

export function auditChainKey(hex: string): AuditChainKey {
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error('AUDIT_CHAIN_KEY must be 64 hex digits');
  const secret = createSecretKey(Buffer.from(hex, 'hex'));
  const id = createHmac('sha256', secret).update('audit-chain-key-id').digest('hex').slice(0, 16);
  return { id, secret };
}

/**
 * The fields a record's hash covers: every field of an audit record (docs/api.md, "The audit log")
 * plus its place in the chain.
 */
export interface ChainedRecord {
  id: string;
  tenantId: string | null;
  chainKey: string;
  chainIndex: number;
  previousHash: string;
  hashVersion: number;
  keyId: string | null;
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
  /**
   * The client address the server trusted (Fastify's `request.ip`, which believes X-Forwarded-For
   * only from a TRUST_PROXY peer). Covered from version 3; null on records written before it.
   */
  clientAddress: string | null;
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

function coveredFields(record: ChainedRecord): unknown[] {
  return [
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
}

/** The plain SHA-256 of records written before the keyed chain; kept so they keep verifying. */
export function computeLegacyHash(record: ChainedRecord): string {
  return createHash('sha256')
    .update(canonicalJson([LEGACY_HASH, ...coveredFields(record)]))
    .digest('hex');
}

/**
 * The HMAC of a keyed record, by its `hashVersion`: version 2 over the fields of an audit record
 * and its place in the chain, version 3 over those and the client address. The version and
 * key id are covered, so neither can be swapped.
 */
export function computeKeyedHash(record: ChainedRecord, key: AuditChainKey): string {
  let covered: unknown[];
  if (record.hashVersion === KEYED_HASH) {
    covered = [KEYED_HASH, key.id, ...coveredFields(record)];
  } else if (record.hashVersion === ADDRESSED_HASH) {
    covered = [ADDRESSED_HASH, key.id, ...coveredFields(record), record.clientAddress];
  } else {
    throw new Error(`hash version ${record.hashVersion} is not a keyed one`);
  }
  return createHmac('sha256', key.secret).update(canonicalJson(covered)).digest('hex');
}

/** One chain's last legacy record at the cut-over. */
export interface CheckpointHead {
  index: number;
  id: string;
  hash: string;
}

export type CheckpointHeads = Record<string, CheckpointHead>;

/**
 * The seal of the cut-over checkpoint. The leading label keeps it apart from record MACs (whose
 * covered list starts with a number), so no record can be passed off as a checkpoint or back.
 */
export function computeCheckpointMac(heads: CheckpointHeads, key: AuditChainKey): string {
  return createHmac('sha256', key.secret)
    .update(canonicalJson(['audit-chain-checkpoint', key.id, heads]))
    .digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

export type ChainBreak =
  | { kind: 'gap'; expectedIndex: number }
  | { kind: 'previous-hash-mismatch' }
  | { kind: 'hash-mismatch' }
  /** A plain-hash record where only keyed ones may be: past its chain's sealed head, or with no sealed checkpoint. */
  | { kind: 'unkeyed-after-cutover' }
  /** The record at a chain's sealed head is not the one the checkpoint names. */
  | { kind: 'checkpoint-mismatch' }
  /** The chain ends before its sealed head: records the checkpoint vouches for are gone. */
  | { kind: 'checkpoint-head-missing' }
  | { kind: 'unknown-key' }
  | { kind: 'unknown-hash-version' }
  /**
   * A client address on a record whose seal does not cover one (version 1 or 2, written before
   * it was kept), or none on a version-3 record, whose seal does.
   */
  | { kind: 'client-address-not-sealed' };

export interface ChainLink extends ChainedRecord {
  hash: string;
}

/** What a link is checked against: the verifier's keys and its chain's sealed legacy head. */
export interface LinkContext {
  keys: ReadonlyMap<string, AuditChainKey>;
  /** Null when the chain had no legacy records at the cut-over, or no checkpoint holds. */
  legacyHead: CheckpointHead | null;
}

/**
 * Checks the next link of a chain. `previous` is null for the chain's first record. Returns the
 * first fault found, or null when the link is sound.
 */
export function checkLink(
  previous: ChainLink | null,
  link: ChainLink,
  context: LinkContext,
): ChainBreak | null {
  const expectedIndex = previous ? previous.chainIndex + 1 : 1;
  if (link.chainIndex !== expectedIndex) return { kind: 'gap', expectedIndex };
  if (link.previousHash !== (previous ? previous.hash : GENESIS_HASH)) {
    return { kind: 'previous-hash-mismatch' };
  }
  const head = context.legacyHead;
  // Only version 3 covers the address: one planted on an older record would otherwise pass.
  if ((link.hashVersion === ADDRESSED_HASH) !== (link.clientAddress !== null)) {
    return { kind: 'client-address-not-sealed' };
  }
  if (link.hashVersion === LEGACY_HASH) {
    // Anyone with database access can recompute a plain hash: it is believed only inside the
    // prefix the sealed checkpoint vouches for, so a keyed record cannot be rewritten as legacy.
    if (head === null || link.chainIndex > head.index) return { kind: 'unkeyed-after-cutover' };
    if (!sameHash(computeLegacyHash(link), link.hash)) return { kind: 'hash-mismatch' };
  } else if (link.hashVersion === KEYED_HASH || link.hashVersion === ADDRESSED_HASH) {
    const key = link.keyId === null ? undefined : context.keys.get(link.keyId);
    if (!key) return { kind: 'unknown-key' };
    if (!sameHash(computeKeyedHash(link, key), link.hash)) return { kind: 'hash-mismatch' };
  } else {
    return { kind: 'unknown-hash-version' };
  }
  if (head !== null && link.chainIndex === head.index) {
    if (link.id !== head.id || !sameHash(link.hash, head.hash)) {
      return { kind: 'checkpoint-mismatch' };
    }
  }
  return null;
}
