import { createHash } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { PasskeyView } from '../../../contracts/second-factor.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/database.js';
import {
  type Transaction,
  withActor,
  withAuthenticationRole,
} from '../../platform/db/with-actor.js';
import type { SecondFactorChange } from '../../platform/email/messages.js';
import type { Outbox } from '../../platform/email/outbox.js';
import { NotFoundError, ValidationError } from '../../platform/errors.js';
import type { RateLimitStore } from '../../platform/http/rate-limit-store.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize } from '../../platform/tenancy/authorize.js';
import { CHALLENGE_SECONDS } from './challenge-tokens.service.js';
import {
  credentialRegistered,
  deletePasskey,
  findPasskeyByCredential,
  findPasskeyOwner,
  insertPasskey,
  type PasskeyRow,
  passkeyCredentialsOf,
  recordPasskeyUse,
} from './passkeys.data.js';
import {
  afterFactorRemoved,
  endSessionsOf,
  factorsHeld,
  hasFactor,
  replaceRecoveryCodes,
} from './second-factor.data.js';
import { factorNotices } from './second-factor-notices.service.js';

/**
 * Passkeys (WebAuthn; docs/decisions/0111-passkeys.md), verified by SimpleWebAuthn: several per
 * account, named and removable, used as the second step after a password or as the whole of a
 * sign-in. The library is loaded with the first ceremony, not at start-up: an instance nobody
 * uses a passkey on does not carry it (docs/decisions/0079-lazy-loading-for-idle-memory.md).
 */

export interface PasskeysDeps {
  database: Database;
  audit: AuditService;
  outbox: Outbox;
  counters: RateLimitStore;
  now: () => Date;
  /** The relying party is the service's public address: its host name and origin. */
  publicBaseUrl: URL;
  onEmailQueued: () => void;
}

/** What the relying party calls itself in the browser's passkey prompt. */
export const RELYING_PARTY_NAME = 'Pension Administration';

/** The one answer to a passkey that does not verify, whatever the reason. */
export class PasskeyRefusedError extends Error {
  override name = 'PasskeyRefusedError';
  constructor() {
    super('the passkey did not verify');
  }
}

export const passkeyViewOf = (row: PasskeyRow): PasskeyView => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

const webauthn = () => import('@simplewebauthn/server');

export function createPasskeysService({
  database,
  audit,
  outbox,
  counters,
  now,
  publicBaseUrl,
  onEmailQueued,
}: PasskeysDeps) {
  const rpID = publicBaseUrl.hostname;
  const expectedOrigin = publicBaseUrl.origin;
  const notices = factorNotices({ outbox, now, publicBaseUrl });
  const notify = (
    tx: Transaction,
    owner: { id: string; brokerId: string | null; email: string },
    change: SecondFactorChange,
  ) => notices(tx, { userId: owner.id, brokerId: owner.brokerId, email: owner.email }, change);

  /**
   * A challenge answers once: a second answer to it within its lifetime (a captured response
   * sent again) is refused, on every instance, through the shared counters.
   */
  const spendChallenge = async (challenge: string) => {
    const key = `webauthn-challenge:${createHash('sha256').update(challenge).digest('hex')}`;
    const { count } = await counters.hit(key, CHALLENGE_SECONDS * 1000);
    if (count > 1) throw new PasskeyRefusedError();
  };

  const ownerRow = async (tx: Transaction, userId: string) => {
    const row = await findPasskeyOwner(tx, userId);
    if (!row) throw new Error('the signed-in account has no row');
    return row;
  };

  /**
   * Verifies an assertion against a passkey found by its credential id (as pension_auth, before
   * any session), and records its use. `expectedUserId` is the account the ceremony is for (the
   * second step, or a signed-in person confirming it is them); null for a sign-in with the
   * passkey alone, which must then have verified its user (a PIN or biometric) besides.
   */
  const verifyAssertion = async (
    response: AuthenticationResponseJSON,
    expectedChallenge: string,
    expectedUserId: string | null,
  ): Promise<string> => {
    await spendChallenge(expectedChallenge);
    const { verifyAuthenticationResponse } = await webauthn();
    return withAuthenticationRole(database, async (tx) => {
      const passkey = await findPasskeyByCredential(tx, response.id);
      if (!passkey || (expectedUserId !== null && passkey.userId !== expectedUserId)) {
        throw new PasskeyRefusedError();
      }
      let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
      try {
        verification = await verifyAuthenticationResponse({
          response,
          expectedChallenge,
          expectedOrigin,
          expectedRPID: rpID,
          credential: {
            id: passkey.credentialId,
            publicKey: Buffer.from(passkey.publicKey, 'base64url'),
            counter: passkey.counter,
            transports: passkey.transports,
          },
          requireUserVerification: expectedUserId === null,
        });
      } catch {
        throw new PasskeyRefusedError();
      }
      if (!verification.verified) throw new PasskeyRefusedError();
      await recordPasskeyUse(tx, passkey, {
        counter: verification.authenticationInfo.newCounter,
        backedUp: verification.authenticationInfo.credentialBackedUp,
        lastUsedAt: now(),
      });
      return passkey.userId;
    });
  };

  return {
    /**
     * The options for a passkey prompt: for one account's passkeys (the second step, a
     * confirmation), or for whichever passkey the person picks (a sign-in with it alone).
     */
    async authenticationOptions(
      userId: string | null,
    ): Promise<PublicKeyCredentialRequestOptionsJSON> {
      const { generateAuthenticationOptions } = await webauthn();
      const allowCredentials =
        userId === null
          ? undefined
          : (await withAuthenticationRole(database, (tx) => passkeyCredentialsOf(tx, userId))).map(
              (passkey) => ({ id: passkey.id, transports: passkey.transports }),
            );
      return generateAuthenticationOptions({
        rpID,
        userVerification: userId === null ? 'required' : 'preferred',
        ...(allowCredentials ? { allowCredentials } : {}),
      });
    },

    /** A sign-in's second step, or a sign-in with the passkey alone: the account it proves. */
    signIn(
      response: AuthenticationResponseJSON,
      expectedChallenge: string,
      expectedUserId: string | null,
    ): Promise<string> {
      return verifyAssertion(response, expectedChallenge, expectedUserId);
    },

    /** A signed-in person confirms it is them with a passkey of their account. */
    async confirm(
      actor: ActorContext,
      response: AuthenticationResponseJSON,
      expectedChallenge: string,
    ): Promise<void> {
      authorize(actor, 'account.second_factor.confirm');
      await verifyAssertion(response, expectedChallenge, actor.userId);
    },

    /** The options for adding a passkey to the signed-in person's account. */
    async registrationOptions(
      actor: ActorContext,
    ): Promise<PublicKeyCredentialCreationOptionsJSON> {
      authorize(actor, 'account.second_factor.change');
      const existing = await withActor(database, actor, (tx) =>
        passkeyCredentialsOf(tx, actor.userId),
      );
      const { generateRegistrationOptions } = await webauthn();
      return generateRegistrationOptions({
        rpName: RELYING_PARTY_NAME,
        rpID,
        userName: actor.email,
        // The user handle is the account's id: never personal data (WebAuthn §14.6.1).
        userID: new TextEncoder().encode(actor.userId),
        attestationType: 'none',
        excludeCredentials: existing,
        // Discoverable, so the passkey alone can sign in; with its user verified (PIN, biometric).
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      });
    },

    /**
     * Adds a verified passkey to the signed-in person's account. As the account's first factor it
     * brings ten recovery codes, shown once. Every session of the account ends; the route gives
     * the caller a new one.
     */
    async register(
      actor: ActorContext,
      { name, response }: { name: string; response: RegistrationResponseJSON },
      expectedChallenge: string,
    ): Promise<{ passkey: PasskeyView; recoveryCodes?: string[] }> {
      authorize(actor, 'account.second_factor.change');
      await spendChallenge(expectedChallenge);
      const { verifyRegistrationResponse } = await webauthn();
      let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
      try {
        verification = await verifyRegistrationResponse({
          response,
          expectedChallenge,
          expectedOrigin,
          expectedRPID: rpID,
          requireUserVerification: true,
        });
      } catch {
        throw new PasskeyRefusedError();
      }
      if (!verification.verified) throw new PasskeyRefusedError();
      const { credential, credentialBackedUp } = verification.registrationInfo;
      const outcome = await withActor(database, actor, async (tx) => {
        const owner = await ownerRow(tx, actor.userId);
        const had = await factorsHeld(tx, owner.id);
        if (await credentialRegistered(tx, credential.id)) {
          throw new ValidationError([
            {
              path: 'response',
              code: 'registered',
              message: 'This passkey is already registered.',
            },
          ]);
        }
        const row = await insertPasskey(tx, {
          userId: owner.id,
          brokerId: owner.brokerId,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          transports: credential.transports ?? [],
          name,
          backedUp: credentialBackedUp,
          createdAt: now(),
        });
        const recoveryCodes = hasFactor(had)
          ? undefined
          : await replaceRecoveryCodes(tx, { userId: owner.id, brokerId: owner.brokerId }, now());
        await endSessionsOf(tx, owner.id);
        const passkey = row as PasskeyRow;
        await audit.record(tx, actor, {
          action: 'user.passkey_added',
          entityType: 'user',
          entityId: owner.id,
          tenantId: owner.brokerId,
          previousState: { totp: had.totp, passkeys: had.passkeys },
          newState: {
            passkeyId: passkey.id,
            passkeys: had.passkeys + 1,
            ...(recoveryCodes ? { recoveryCodesIssued: recoveryCodes.length } : {}),
          },
        });
        await notify(tx, owner, 'passkey_added');
        return { passkey: passkeyViewOf(passkey), ...(recoveryCodes ? { recoveryCodes } : {}) };
      });
      onEmailQueued();
      return outcome;
    },

    /**
     * Removes a passkey of the signed-in person's account; the recovery codes go with the last
     * factor. Every session of the account ends; the route gives the caller a new one.
     */
    async remove(actor: ActorContext, passkeyId: string): Promise<void> {
      authorize(actor, 'account.second_factor.change');
      await withActor(database, actor, async (tx) => {
        const owner = await ownerRow(tx, actor.userId);
        const had = await factorsHeld(tx, owner.id);
        const removed = await deletePasskey(tx, owner.id, passkeyId);
        if (!removed) throw new NotFoundError();
        await afterFactorRemoved(tx, owner.id);
        await audit.record(tx, actor, {
          action: 'user.passkey_removed',
          entityType: 'user',
          entityId: owner.id,
          tenantId: owner.brokerId,
          previousState: { passkeyId: removed.id, totp: had.totp, passkeys: had.passkeys },
          newState: { totp: had.totp, passkeys: had.passkeys - 1 },
        });
        await notify(tx, owner, 'passkey_removed');
      });
      onEmailQueued();
    },
  };
}

export type PasskeysService = ReturnType<typeof createPasskeysService>;
