import { createHash, createHmac, createSecretKey, type KeyObject } from 'node:crypto';
import { createSealedBox, deriveKey, type SealedBox } from './sealed-box.js';

/** Where a PPS number belongs: its ciphertext opens only on this member of this tenant. */
export interface PpsOwner {
  tenantId: string;
  memberId: string;
}

export interface SealedPps {
  /**
   * base64(IV ‖ 16-byte tag ‖ ciphertext), AES-256-GCM under the key itself
   * (docs/decisions/0028-pps-numbers.md).
   */
  encrypted: string;
  /** Which key sealed it (a fingerprint, not the key): rotation finds the rows still to do. */
  keyId: string;
}

/**
 * PPS numbers sealed as docs/decisions/0028-pps-numbers.md says, with a key rotation in mind
 * (docs/decisions/0031-pps-key-rotation.md). The current key seals; the previous key, while
 * set, still opens what it sealed. A keyed hash (HMAC-SHA256 under a key derived from the
 * encryption key, over tenant and number) finds a duplicate within a tenant without decrypting,
 * and differs between tenants, so hashes cannot be matched across them.
 */
export interface PpsKeyring {
  currentKeyId: string;
  seal(ppsNumber: string, owner: PpsOwner): SealedPps;
  /** Throws SealedBoxError when the tag does not verify or the value belongs to another member. */
  open(sealed: SealedPps, owner: PpsOwner): string;
  /** The lookup hash under the current key. */
  lookup(tenantId: string, ppsNumber: string): string;
  /** The lookup hashes under every key in the ring: a row not yet rotated carries the old one. */
  lookups(tenantId: string, ppsNumber: string): string[];
}

interface RingKey {
  id: string;
  box: SealedBox;
  lookupKey: KeyObject;
}

/** The additional authenticated data that binds a ciphertext to its row. */
export function ppsContext(owner: PpsOwner): string {
  return `member-pps:${owner.tenantId}:${owner.memberId}`;
}

export function ppsKeyId(hexKey: string): string {
  return createHash('sha256')
    .update(`pps-key-id:${hexKey.toLowerCase()}`)
    .digest('hex')
    .slice(0, 16);
}

function ringKey(hexKey: string): RingKey {
  return {
    id: ppsKeyId(hexKey),
    box: createSealedBox(Buffer.from(hexKey, 'hex')),
    // A KeyObject, not the Buffer: see createSealedBox.
    lookupKey: createSecretKey(deriveKey(hexKey.toLowerCase(), 'pps-lookup')),
  };
}

export function createPpsKeyring(keys: { current: string; previous: string | null }): PpsKeyring {
  const current = ringKey(keys.current);
  const ring = keys.previous === null ? [current] : [current, ringKey(keys.previous)];
  const lookupUnder = (key: RingKey, tenantId: string, ppsNumber: string) =>
    createHmac('sha256', key.lookupKey).update(`${tenantId}:${ppsNumber}`).digest('hex');

  return {
    currentKeyId: current.id,
    seal(ppsNumber, owner) {
      return { encrypted: current.box.seal(ppsNumber, ppsContext(owner)), keyId: current.id };
    },
    open(sealed, owner) {
      const key = ring.find((candidate) => candidate.id === sealed.keyId);
      if (!key) throw new UnknownPpsKeyError();
      return key.box.open(sealed.encrypted, ppsContext(owner));
    },
    lookup: (tenantId, ppsNumber) => lookupUnder(current, tenantId, ppsNumber),
    lookups: (tenantId, ppsNumber) => ring.map((key) => lookupUnder(key, tenantId, ppsNumber)),
  };
}

/** A PPS number sealed by a key this process does not hold (a rotation's previous key not set). */
export class UnknownPpsKeyError extends Error {
  override name = 'UnknownPpsKeyError';
  constructor() {
    super('PPS number sealed by a key that is not configured');
  }
}
