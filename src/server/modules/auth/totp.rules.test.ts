import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  hotp,
  matchingStep,
  otpauthUrl,
  type TotpAlgorithm,
  totpAt,
} from './totp.rules.js';

/** RFC 6238, Appendix B: the seeds (ASCII "1234567890" repeated to each hash's length). */
const SEEDS: Record<TotpAlgorithm, Buffer> = {
  sha1: Buffer.from('12345678901234567890'),
  sha256: Buffer.from('12345678901234567890123456789012'),
  sha512: Buffer.from('1234567890123456789012345678901234567890123456789012345678901234'),
};

/** RFC 6238, Appendix B: time (seconds since the epoch) and the 8-digit code of each hash. */
const VECTORS: Array<{ time: number; sha1: string; sha256: string; sha512: string }> = [
  { time: 59, sha1: '94287082', sha256: '46119246', sha512: '90693936' },
  { time: 1111111109, sha1: '07081804', sha256: '68084774', sha512: '25091201' },
  { time: 1111111111, sha1: '14050471', sha256: '67062674', sha512: '99943326' },
  { time: 1234567890, sha1: '89005924', sha256: '91819424', sha512: '93441116' },
  { time: 2000000000, sha1: '69279037', sha256: '90698825', sha512: '38618901' },
  { time: 20000000000, sha1: '65353130', sha256: '77737706', sha512: '47863826' },
];

/** RFC 4226, Appendix D: HOTP values of the same SHA-1 seed for counters 0 to 9. */
const HOTP_VECTORS = [
  '755224',
  '287082',
  '359152',
  '969429',
  '338314',
  '254676',
  '287922',
  '162583',
  '399871',
  '520489',
];

describe('TOTP (RFC 6238)', () => {
  for (const algorithm of ['sha1', 'sha256', 'sha512'] as const) {
    it(`gives the RFC's test vectors for ${algorithm.toUpperCase()}`, () => {
      for (const vector of VECTORS) {
        const code = totpAt(SEEDS[algorithm], new Date(vector.time * 1000), {
          algorithm,
          digits: 8,
          stepSeconds: 30,
        });
        expect(code, `T = ${vector.time}`).toBe(vector[algorithm]);
      }
    });
  }

  it("gives RFC 4226's HOTP values, and the six-digit code is the 8-digit one's last six", () => {
    HOTP_VECTORS.forEach((expected, counter) => {
      expect(hotp(SEEDS.sha1, counter)).toBe(expected);
    });
    expect(totpAt(SEEDS.sha1, new Date(59_000))).toBe('287082');
  });

  it('accepts a code one step either side of now, and no further', () => {
    const at = new Date(1_700_000_000_000);
    const step = Math.floor(1_700_000_000 / 30);
    for (const offset of [-1, 0, 1]) {
      const code = hotp(SEEDS.sha1, step + offset);
      expect(matchingStep(SEEDS.sha1, code, at)).toBe(step + offset);
    }
    for (const offset of [-3, -2, 2, 3]) {
      const code = hotp(SEEDS.sha1, step + offset);
      expect(matchingStep(SEEDS.sha1, code, at)).toBeNull();
    }
  });

  it('refuses codes of the wrong length or with anything but digits', () => {
    const at = new Date(59_000);
    expect(matchingStep(SEEDS.sha1, '28708', at)).toBeNull();
    expect(matchingStep(SEEDS.sha1, '2870822', at)).toBeNull();
    expect(matchingStep(SEEDS.sha1, '28708a', at)).toBeNull();
    expect(matchingStep(SEEDS.sha1, ' 87082', at)).toBeNull();
  });
});

describe('base 32 (RFC 4648)', () => {
  it("gives the RFC's test vectors without padding, and reads them back", () => {
    const vectors: Array<[string, string]> = [
      ['', ''],
      ['f', 'MY'],
      ['fo', 'MZXQ'],
      ['foo', 'MZXW6'],
      ['foob', 'MZXW6YQ'],
      ['fooba', 'MZXW6YTB'],
      ['foobar', 'MZXW6YTBOI'],
    ];
    for (const [plain, encoded] of vectors) {
      expect(base32Encode(Buffer.from(plain))).toBe(encoded);
      expect(base32Decode(encoded).toString()).toBe(plain);
    }
    expect(base32Decode('mzxw6ytboi======').toString()).toBe('foobar');
    expect(() => base32Decode('MZXW1')).toThrow();
  });

  it('round-trips a 20-byte secret', () => {
    const secret = Buffer.from('0123456789abcdefghij');
    expect(base32Decode(base32Encode(secret))).toEqual(secret);
    expect(base32Encode(secret)).toHaveLength(32);
  });
});

describe('the otpauth link', () => {
  it('names the issuer and account, and carries the secret in base 32 with the app parameters', () => {
    const url = new URL(
      otpauthUrl(SEEDS.sha1, { issuer: 'Pension Administration', account: 'aoife@example.ie' }),
    );
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/Pension Administration:aoife@example.ie');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      secret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ',
      issuer: 'Pension Administration',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});
