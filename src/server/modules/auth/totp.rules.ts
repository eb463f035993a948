import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Time-based one-time passwords (RFC 6238), over the HMAC-based ones of RFC 4226, written here
 * rather than taken from a library: the whole algorithm is an HMAC and a truncation, and owning it
 * keeps the replay rule (a time step is accepted once) in plain sight
 * (docs/decisions/0110-second-factor.md). Authenticator apps all speak SHA-1, six digits and
 * thirty-second steps, which is what the service issues; the other hashes and lengths of the
 * RFC's test vectors are supported so that those vectors test this code as written.
 */

export type TotpAlgorithm = 'sha1' | 'sha256' | 'sha512';

export interface TotpParameters {
  algorithm: TotpAlgorithm;
  digits: 6 | 8;
  /** X in RFC 6238: the length of a time step. */
  stepSeconds: number;
}

/** What every authenticator app understands (the `otpauth://` defaults). */
export const APP_TOTP: TotpParameters = { algorithm: 'sha1', digits: 6, stepSeconds: 30 };

/** RFC 4226 recommends a 160-bit shared secret; the length of SHA-1's output. */
export const SECRET_BYTES = 20;

/**
 * Steps either side of the current one that still count: a phone's clock a little off, or a code
 * typed just as it changed. One step (30 seconds) each way, as RFC 6238 §6 suggests.
 */
export const ALLOWED_DRIFT_STEPS = 1;

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base 32 without padding: how `otpauth://` links and apps write a secret. */
export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    // Only the bits not yet written are kept, so the value never outgrows 32 bits.
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32_ALPHABET[(value << (5 - bits)) & 31];
  return out;
}

/** The bytes of a base-32 secret (any case, padding and spaces ignored); throws on other characters. */
export function base32Decode(encoded: string): Buffer {
  const clean = encoded.replace(/[\s=]/g, '').toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const character of clean) {
    const index = BASE32_ALPHABET.indexOf(character);
    if (index === -1) throw new Error('not a base-32 string');
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** A new random secret. */
export function newTotpSecret(): Buffer {
  return randomBytes(SECRET_BYTES);
}

/** T in RFC 6238: the number of whole steps since the Unix epoch (T0 = 0). */
export function timeStep(at: Date, stepSeconds = APP_TOTP.stepSeconds): number {
  return Math.floor(at.getTime() / 1000 / stepSeconds);
}

/** RFC 4226 §5.3: HOTP(K, C), dynamic truncation, the last `digits` decimal digits. */
export function hotp(
  secret: Uint8Array,
  counter: number,
  { algorithm, digits }: Pick<TotpParameters, 'algorithm' | 'digits'> = APP_TOTP,
): string {
  const message = Buffer.alloc(8);
  // The counter is an 8-byte big-endian integer; steps until the year 10^5 fit in 53 bits.
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, secret).update(message).digest();
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** The code an app shows at `at`. */
export function totpAt(
  secret: Uint8Array,
  at: Date,
  parameters: TotpParameters = APP_TOTP,
): string {
  return hotp(secret, timeStep(at, parameters.stepSeconds), parameters);
}

/**
 * The time step whose code `code` is, within the allowed drift of `at`, or null. Every candidate
 * is compared in constant time, so the answer's timing says nothing about which step (or digit)
 * was close. The caller accepts a step once only (the replay rule): a step it has already
 * accepted, or any earlier one, is refused by the caller, not here.
 */
export function matchingStep(
  secret: Uint8Array,
  code: string,
  at: Date,
  parameters: TotpParameters = APP_TOTP,
): number | null {
  if (code.length !== parameters.digits || !/^[0-9]+$/.test(code)) return null;
  const now = timeStep(at, parameters.stepSeconds);
  const typed = Buffer.from(code);
  let found: number | null = null;
  for (let step = now - ALLOWED_DRIFT_STEPS; step <= now + ALLOWED_DRIFT_STEPS; step += 1) {
    const expected = Buffer.from(hotp(secret, step, parameters));
    // The latest matching step: codes of neighbouring steps coincide once in a million.
    if (timingSafeEqual(expected, typed)) found = step;
  }
  return found;
}

/**
 * The `otpauth://` link (the de facto Key URI format that authenticator apps read from the QR
 * code): the issuer and the account name label the entry in the app.
 */
export function otpauthUrl(
  secret: Uint8Array,
  { issuer, account }: { issuer: string; account: string },
): string {
  const label = `${encodeURIComponent(issuer)}:${encodeURIComponent(account)}`;
  const query = new URLSearchParams({
    secret: base32Encode(secret),
    issuer,
    algorithm: APP_TOTP.algorithm.toUpperCase(),
    digits: String(APP_TOTP.digits),
    period: String(APP_TOTP.stepSeconds),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
