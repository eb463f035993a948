import {
  createHash,
  createHmac,
  createSecretKey,
  type KeyObject,
  timingSafeEqual,
} from 'node:crypto';
import { DOCUMENT_URL_TTL_SECONDS } from '../../../contracts/documents.js';

/**
 * Signed download URLs (docs/decisions/0062-document-vault.md): the path is
 * `/files/<documentId>/<token>`, outside /api, and the token is the credential. It binds the
 * document, its version, its tenant, who it was issued to and the epoch of the session that asked
 * for it (docs/decisions/0099-signed-urls-bound-to-the-session.md), expires after five minutes, and
 * is HMAC-SHA256 under DOCUMENT_URL_KEY, named by a key id so that a URL signed with the previous
 * key (DOCUMENT_URL_KEY_PREVIOUS) still opens during a rotation. Compared in constant time.
 */
export interface DownloadGrant {
  documentId: string;
  version: number;
  tenantId: string;
  /** Who it was issued to: their account is checked again, and their reach, at each download. */
  userId: string;
  /**
   * The account's session epoch (users.session_epoch) under which the URL was issued. Sign-out, a
   * password change or reset, deactivation and any change of role or tenancy raise it (migration
   * 0009), and a URL issued under an earlier epoch stops working with the session it came from.
   */
  sessionEpoch: number;
  /** Seconds since the epoch. */
  expiresAt: number;
}

const FORMAT = 'v1';

/** A key's id: the first 16 hex digits of its SHA-256, so the id names the key and never shows it. */
export function keyIdOf(key: string): string {
  return createHash('sha256').update(`document-url-key:${key}`).digest('hex').slice(0, 16);
}

function signature(key: KeyObject, signed: string): Buffer {
  return createHmac('sha256', key).update(signed).digest();
}

export function createUrlSigner({
  current,
  previous,
  now,
}: {
  current: string;
  previous: string | null;
  now: () => Date;
}) {
  // KeyObjects, made once: Node 24 checks a Buffer key's kind at every HMAC, at six times its cost.
  const keys = new Map<string, KeyObject>();
  for (const key of [current, previous]) {
    if (key !== null) keys.set(keyIdOf(key), createSecretKey(Buffer.from(key, 'hex')));
  }
  const currentId = keyIdOf(current);
  const currentKey = keys.get(currentId) as KeyObject;

  return {
    /** A token for `grant` minus its expiry, good for five minutes from now. */
    sign(grant: Omit<DownloadGrant, 'expiresAt'>): { token: string; expiresAt: Date } {
      const expiresAt = Math.floor(now().getTime() / 1000) + DOCUMENT_URL_TTL_SECONDS;
      const payload = Buffer.from(
        JSON.stringify({
          d: grant.documentId,
          v: grant.version,
          t: grant.tenantId,
          u: grant.userId,
          s: grant.sessionEpoch,
          e: expiresAt,
        }),
      ).toString('base64url');
      const signed = `${FORMAT}.${currentId}.${payload}`;
      return {
        token: `${signed}.${signature(currentKey, signed).toString('base64url')}`,
        expiresAt: new Date(expiresAt * 1000),
      };
    },

    /**
     * The grant of a token for the document the path names, or null: malformed, signed by a key
     * this instance does not hold, signature wrong, expired, or issued for another document.
     */
    verify(token: string, documentId: string): DownloadGrant | null {
      const parts = token.split('.');
      if (parts.length !== 4 || parts[0] !== FORMAT) return null;
      const [format, keyId, payload, mac] = parts as [string, string, string, string];
      const key = keys.get(keyId);
      if (key === undefined) return null;
      const expected = signature(key, `${format}.${keyId}.${payload}`);
      const given = Buffer.from(mac, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      let claims: Record<string, unknown>;
      try {
        claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        return null;
      }
      const { d, v, t, u, s, e } = claims;
      if (
        typeof d !== 'string' ||
        typeof t !== 'string' ||
        typeof u !== 'string' ||
        !Number.isSafeInteger(v) ||
        !Number.isSafeInteger(s) ||
        !Number.isSafeInteger(e)
      ) {
        return null;
      }
      if ((e as number) * 1000 <= now().getTime()) return null;
      if (d !== documentId) return null;
      return {
        documentId: d,
        version: v as number,
        tenantId: t,
        userId: u,
        sessionEpoch: s as number,
        expiresAt: e as number,
      };
    },
  };
}

export type UrlSigner = ReturnType<typeof createUrlSigner>;
