import {
  createCipheriv,
  createDecipheriv,
  createSecretKey,
  hkdfSync,
  randomBytes,
} from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

export class SealedBoxError extends Error {
  override name = 'SealedBoxError';
  constructor() {
    super('sealed value could not be opened: wrong key, wrong context or altered');
  }
}

/**
 * AES-256-GCM with a fresh 12-byte IV per value, stored as base64(IV ‖ 16-byte tag ‖ ciphertext).
 * `context` is additional authenticated data: a value opens only under the context it was sealed
 * with, so a ciphertext copied onto another row fails instead of decrypting.
 */
export interface SealedBox {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

/**
 * IVs are cut from a block of the CSPRNG's output, drawn afresh every 256 seals and never written
 * again, so each IV is still 12 random bytes used once. One draw per seal cost about 4 µs, more
 * than the encryption, and an upload seals a PPS number per new person (docs/decisions/0074-reading-a-payroll-upload-faster.md).
 */
const IVS_PER_DRAW = 256;
let ivBlock = Buffer.alloc(0);
let ivAt = 0;

function freshIv(): Buffer {
  if (ivAt + IV_BYTES > ivBlock.length) {
    ivBlock = randomBytes(IV_BYTES * IVS_PER_DRAW);
    ivAt = 0;
  }
  const iv = ivBlock.subarray(ivAt, ivAt + IV_BYTES);
  ivAt += IV_BYTES;
  return iv;
}

export function createSealedBox(keyBytes: Buffer): SealedBox {
  if (keyBytes.length !== KEY_BYTES) throw new Error('a sealed box needs a 256-bit key');
  // A KeyObject made once: given the key as a Buffer, Node 24 spends about 12 µs of each cipher
  // and HMAC checking what kind of key it is, six times the work itself (docs/decisions/0074-reading-a-payroll-upload-faster.md).
  const key = createSecretKey(keyBytes);
  return {
    seal(plaintext, context) {
      const iv = freshIv();
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64');
    },
    open(sealed, context) {
      const bytes = Buffer.from(sealed, 'base64');
      if (bytes.length < IV_BYTES + TAG_BYTES) throw new SealedBoxError();
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([
          decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new SealedBoxError();
      }
    },
  };
}

/**
 * A key for one purpose, derived from a secret with HKDF-SHA256, so one secret can serve several
 * purposes without any two sharing a key.
 */
export function deriveKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, '', `pension-admin:${purpose}`, KEY_BYTES));
}
