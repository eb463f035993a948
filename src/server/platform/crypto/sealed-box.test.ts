import { createDecipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSealedBox, deriveKey, SealedBoxError } from './sealed-box.js';

const key = randomBytes(32);
const box = createSealedBox(key);

describe('sealed box (AES-256-GCM)', () => {
  it('stores base64 of a 12-byte IV, a 16-byte tag and the ciphertext, readable with the key alone', () => {
    const sealed = box.seal('reset link inside', 'email_outbox:abc');
    const bytes = Buffer.from(sealed, 'base64');
    expect(bytes).toHaveLength(12 + 16 + Buffer.byteLength('reset link inside'));
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12), {
      authTagLength: 16,
    });
    decipher.setAAD(Buffer.from('email_outbox:abc'));
    decipher.setAuthTag(bytes.subarray(12, 28));
    const plain = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]);
    expect(plain.toString('utf8')).toBe('reset link inside');
  });

  it('uses a fresh IV for every value, across the blocks they are drawn in', () => {
    const ivs = new Set(
      Array.from({ length: 1_000 }, () =>
        Buffer.from(box.seal('same', 'ctx'), 'base64').subarray(0, 12).toString('hex'),
      ),
    );
    expect(ivs.size).toBe(1_000);
  });

  it('refuses an altered value, another context and another key', () => {
    const sealed = box.seal('payload', 'row:1');
    const altered = Buffer.from(sealed, 'base64');
    altered[altered.length - 1] = (altered.at(-1) ?? 0) ^ 1;
    expect(() => box.open(altered.toString('base64'), 'row:1')).toThrow(SealedBoxError);
    expect(() => box.open(sealed, 'row:2')).toThrow(SealedBoxError);
    expect(() => createSealedBox(randomBytes(32)).open(sealed, 'row:1')).toThrow(SealedBoxError);
    expect(() => box.open('dG9vIHNob3J0', 'row:1')).toThrow(SealedBoxError);
    expect(box.open(sealed, 'row:1')).toBe('payload');
  });

  it('derives different keys for different purposes from one secret', () => {
    const secret = 'a secret that is long enough for this test';
    expect(deriveKey(secret, 'email-outbox')).toHaveLength(32);
    expect(deriveKey(secret, 'email-outbox').equals(deriveKey(secret, 'email-outbox'))).toBe(true);
    expect(deriveKey(secret, 'email-outbox').equals(deriveKey(secret, 'other'))).toBe(false);
  });
});
