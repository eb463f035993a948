import { createId } from '@paralleldrive/cuid2';
import {
  isTotpCode,
  NO_FACTOR_TO_RESET,
  normaliseCode,
  SECOND_FACTOR_RESETTABLE,
  type SecondFactorStatus,
} from '../../../contracts/second-factor.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/database.js';
import {
  type Transaction,
  withActor,
  withAuthenticationRole,
} from '../../platform/db/with-actor.js';
import type { Outbox } from '../../platform/email/outbox.js';
import { ConflictError, ForbiddenError, ValidationError } from '../../platform/errors.js';
import type { RateLimitStore } from '../../platform/http/rate-limit-store.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow } from '../../platform/tenancy/authorize.js';
import { isRole, type Role } from '../../platform/tenancy/roles.js';
import { passkeysOf } from './passkeys.data.js';
import {
  afterFactorRemoved,
  confirmedTotpSecret,
  confirmTotpSecret,
  deleteConfirmedTotpSecret,
  deletePendingTotpSecret,
  deleteTotpSecrets,
  endSessionsOf,
  factorsHeld,
  findFactorAccount,
  findFactorAccountByEmail,
  findResetTarget,
  hasFactor,
  insertTotpSecret,
  pendingTotpSecretForUpdate,
  removeAllFactors,
  replaceRecoveryCodes,
  spendRecoveryCode,
  spendTotpStep,
  type TotpSecretBox,
} from './second-factor.data.js';
import { factorNotices } from './second-factor-notices.service.js';
import {
  base32Decode,
  base32Encode,
  matchingStep,
  newTotpSecret,
  otpauthUrl,
} from './totp.rules.js';

/**
 * Codes checked per account within the window, right or wrong (docs/decisions/0110-second-factor.md).
 * Whoever types them already holds the password or a live session, so beyond the allowance the
 * check is refused outright (429), not slowed down: ten tries at a three-in-a-million guess (three
 * time steps are accepted at once) leave an attacker about one chance in 33,000 a quarter of an
 * hour, and a person confirming their factor every five minutes well within it.
 */
export const CODE_ATTEMPTS = 10;
export const CODE_WINDOW_MS = 15 * 60_000;

/** What the authenticator app shows as the entry's issuer. */
export const TOTP_ISSUER = 'Pension Administration';

export type CodeOutcome =
  | { ok: true; method: 'totp' | 'recovery_code' }
  | { ok: false; reason: 'invalid_code' }
  | { ok: false; reason: 'too_many_attempts'; retryAfterMs: number };

export interface SecondFactorDeps {
  database: Database;
  audit: AuditService;
  outbox: Outbox;
  counters: RateLimitStore;
  now: () => Date;
  publicBaseUrl: URL;
  box: TotpSecretBox;
  /** MFA_REQUIRED_ROLES: accounts of these roles are signed in only to set a factor up. */
  requiredRoles: ReadonlySet<Role>;
  onEmailQueued: () => void;
}

/** The account row a change is about, as the actor's own transaction reads it. */
async function ownerRow(tx: Transaction, userId: string) {
  const row = await findFactorAccount(tx, userId);
  if (!row) throw new Error('the signed-in account has no row');
  return row;
}

/**
 * What a reset does, whoever asks for it, in their transaction: every factor of the account gone,
 * every session ended, the change audited (how many factors of which kind there were, nothing
 * else) and e-mailed to the holder.
 */
async function resetFactors(
  tx: Transaction,
  { audit, notify }: { audit: AuditService; notify: ReturnType<typeof factorNotices> },
  actor: ActorContext,
  account: { id: string; brokerId: string | null; email: string },
): Promise<void> {
  const had = await factorsHeld(tx, account.id);
  // Nothing to remove: no record of a removal, and no e-mail telling the holder of one.
  if (!hasFactor(had)) throw new ConflictError(NO_FACTOR_TO_RESET);
  await removeAllFactors(tx, account.id);
  await endSessionsOf(tx, account.id);
  await audit.record(tx, actor, {
    action: 'user.second_factor_reset',
    entityType: 'user',
    entityId: account.id,
    tenantId: account.brokerId,
    previousState: { totp: had.totp, passkeys: had.passkeys },
    newState: { totp: false, passkeys: 0 },
  });
  await notify(
    tx,
    { userId: account.id, brokerId: account.brokerId, email: account.email },
    'reset_by_administrator',
  );
}

/**
 * `npm run cli -- second-factor:reset <email>`: the one way back for a SuperAdmin who has lost
 * their factors and recovery codes, as no one may reset a SuperAdmin's through the API
 * (docs/decisions/0112-second-factor-required-roles.md). Whoever runs it on the server acts as
 * the system; the reset is audited and e-mailed as an administrator's is. Other accounts are
 * refused: their firm's BrokerAdmin or a SuperAdmin resets them, in the open.
 */
export async function resetSuperAdminFactors(
  deps: Pick<SecondFactorDeps, 'database' | 'audit' | 'outbox' | 'now' | 'publicBaseUrl'>,
  actor: ActorContext,
  email: string,
): Promise<void> {
  const notify = factorNotices(deps);
  await withActor(deps.database, actor, async (tx) => {
    const account = await findFactorAccountByEmail(tx, email.trim().toLowerCase());
    if (account?.role !== 'SuperAdmin') {
      // Said without the address: the command's errors are printed as it may be logged.
      throw new Error(
        'No SuperAdmin account has this e-mail address. A firm’s accounts are reset in the web UI, by its BrokerAdmin or a SuperAdmin.',
      );
    }
    await resetFactors(tx, { audit: deps.audit, notify }, actor, account);
  });
}

/**
 * An account's authenticator app and recovery codes, the second step of a sign-in by code, and an
 * administrator's reset (docs/decisions/0110-second-factor.md, 0112-second-factor-required-roles.md).
 * Every change runs as the person making it, is audited in the same transaction with no secret
 * and no personal data in the record, is e-mailed to the account's holder, and (adding or removing
 * a factor) ends every other session of the account.
 */
export function createSecondFactorService({
  database,
  audit,
  outbox,
  counters,
  now,
  publicBaseUrl,
  box,
  requiredRoles,
  onEmailQueued,
}: SecondFactorDeps) {
  const notify = factorNotices({ outbox, now, publicBaseUrl });

  /** One attempt of the account's allowance; the refusal when it is used up. */
  const spendAttempt = async (
    userId: string,
  ): Promise<{ ok: false; reason: 'too_many_attempts'; retryAfterMs: number } | null> => {
    const { count, resetInMs } = await counters.hit(`second-factor:${userId}`, CODE_WINDOW_MS);
    return count > CODE_ATTEMPTS
      ? { ok: false, reason: 'too_many_attempts', retryAfterMs: resetInMs }
      : null;
  };

  /**
   * Checks a code against the account's confirmed authenticator app, or spends one of its
   * recovery codes, before any session (as pension_auth, which may mark a step or a code used
   * and nothing else). A time step is accepted once: the update that marks it used succeeds only
   * for a step later than every step accepted before, so the same code, or an earlier one, cannot
   * be replayed, even by two requests at once.
   */
  const checkCode = (userId: string, typed: string): Promise<CodeOutcome> =>
    withAuthenticationRole(database, async (tx) => {
      const code = normaliseCode(typed);
      if (isTotpCode(code)) {
        const secret = await confirmedTotpSecret(tx, userId);
        if (!secret) return { ok: false, reason: 'invalid_code' };
        const bytes = base32Decode(
          box.open({ sealed: secret.secretSealed, keyId: secret.keyId }, secret),
        );
        const step = matchingStep(bytes, code, now());
        if (step === null || (secret.lastUsedStep !== null && step <= secret.lastUsedStep)) {
          return { ok: false, reason: 'invalid_code' };
        }
        const spent = await spendTotpStep(tx, { userId, id: secret.id }, secret.lastUsedStep, step);
        return spent ? { ok: true, method: 'totp' } : { ok: false, reason: 'invalid_code' };
      }
      const spent = await spendRecoveryCode(tx, userId, code, now());
      return spent ? { ok: true, method: 'recovery_code' } : { ok: false, reason: 'invalid_code' };
    });

  return {
    /**
     * The second step of a sign-in: a code from the app or a recovery code, counted against the
     * account's allowance. The caller issues the session.
     */
    async verifyForSignIn(userId: string, code: string): Promise<CodeOutcome> {
      return (await spendAttempt(userId)) ?? checkCode(userId, code);
    },

    /** GET /api/me/second-factor: what the account has, and whether its role must have one. */
    async status(actor: ActorContext): Promise<SecondFactorStatus> {
      authorize(actor, 'account.second_factor.read');
      return withActor(database, actor, async (tx) => {
        const held = await factorsHeld(tx, actor.userId);
        const passkeys = await passkeysOf(tx, actor.userId);
        return {
          required: requiredRoles.has(actor.role),
          totp: held.totp,
          passkeys: passkeys.map((passkey) => ({
            id: passkey.id,
            name: passkey.name,
            createdAt: passkey.createdAt.toISOString(),
            lastUsedAt: passkey.lastUsedAt?.toISOString() ?? null,
          })),
          recoveryCodesLeft: held.recoveryCodesLeft,
        };
      });
    },

    /**
     * A signed-in person confirms their second factor again, for an action that needs a recent
     * one (the policy table's `stepUp`). The caller re-issues the session with the time.
     */
    async confirm(actor: ActorContext, code: string): Promise<CodeOutcome> {
      authorize(actor, 'account.second_factor.confirm');
      return (await spendAttempt(actor.userId)) ?? checkCode(actor.userId, code);
    },

    /**
     * POST /api/auth/mfa/totp: a new secret for the app, waiting for its first code. An app
     * already confirmed keeps working until the new one is confirmed.
     */
    async startTotp(actor: ActorContext): Promise<{ otpauthUrl: string; secret: string }> {
      authorize(actor, 'account.second_factor.change');
      const secret = newTotpSecret();
      const encoded = base32Encode(secret);
      await withActor(database, actor, async (tx) => {
        const owner = await ownerRow(tx, actor.userId);
        await deletePendingTotpSecret(tx, owner.id);
        const id = createId();
        const sealed = box.seal(encoded, { userId: owner.id, id });
        await insertTotpSecret(tx, {
          userId: owner.id,
          id,
          brokerId: owner.brokerId,
          secretSealed: sealed.sealed,
          keyId: sealed.keyId,
          createdAt: now(),
        });
        await audit.record(tx, actor, {
          action: 'user.second_factor_setup_started',
          entityType: 'user',
          entityId: owner.id,
          tenantId: owner.brokerId,
          previousState: null,
          newState: { method: 'totp' },
        });
      });
      return {
        otpauthUrl: otpauthUrl(secret, { issuer: TOTP_ISSUER, account: actor.email }),
        secret: encoded,
      };
    },

    /**
     * POST /api/auth/mfa/totp/confirm: the first code from the app makes it the account's
     * authenticator (replacing an earlier one), and ten new recovery codes are issued, shown once.
     * Every session of the account ends; the route gives the caller a new one.
     */
    async confirmTotp(
      actor: ActorContext,
      typed: string,
    ): Promise<
      | { ok: true; recoveryCodes: string[] }
      | { ok: false; reason: 'too_many_attempts'; retryAfterMs: number }
    > {
      authorize(actor, 'account.second_factor.change');
      const refused = await spendAttempt(actor.userId);
      if (refused) return refused;
      const wrong = () =>
        new ValidationError([
          {
            path: 'code',
            code: 'invalid_code',
            message: 'This is not the code your app shows now. Check the app and try again.',
          },
        ]);
      const recoveryCodes = await withActor(database, actor, async (tx) => {
        const owner = await ownerRow(tx, actor.userId);
        const pending = await pendingTotpSecretForUpdate(tx, owner.id);
        if (!pending) throw wrong();
        const bytes = base32Decode(
          box.open({ sealed: pending.secretSealed, keyId: pending.keyId }, pending),
        );
        const step = matchingStep(bytes, normaliseCode(typed), now());
        if (step === null) throw wrong();
        const had = await factorsHeld(tx, owner.id);
        await deleteConfirmedTotpSecret(tx, owner.id);
        await confirmTotpSecret(tx, { userId: owner.id, id: pending.id }, step, now());
        const codes = await replaceRecoveryCodes(
          tx,
          { userId: owner.id, brokerId: owner.brokerId },
          now(),
        );
        await endSessionsOf(tx, owner.id);
        await audit.record(tx, actor, {
          action: 'user.second_factor_added',
          entityType: 'user',
          entityId: owner.id,
          tenantId: owner.brokerId,
          previousState: { totp: had.totp, passkeys: had.passkeys },
          newState: { method: 'totp', recoveryCodesIssued: codes.length },
        });
        await notify(
          tx,
          { userId: owner.id, brokerId: owner.brokerId, email: owner.email },
          'authenticator_added',
        );
        return codes;
      });
      onEmailQueued();
      return { ok: true, recoveryCodes };
    },

    /**
     * DELETE /api/auth/mfa/totp: the authenticator app stops being a factor. The recovery codes
     * go with the last factor. Every session of the account ends; the route gives the caller a
     * new one.
     */
    async removeTotp(actor: ActorContext): Promise<void> {
      authorize(actor, 'account.second_factor.change');
      await withActor(database, actor, async (tx) => {
        const owner = await ownerRow(tx, actor.userId);
        const had = await factorsHeld(tx, owner.id);
        if (!had.totp) {
          throw new ValidationError([
            { path: 'totp', code: 'none', message: 'No authenticator app is set up.' },
          ]);
        }
        await deleteTotpSecrets(tx, owner.id);
        await afterFactorRemoved(tx, owner.id);
        await audit.record(tx, actor, {
          action: 'user.second_factor_removed',
          entityType: 'user',
          entityId: owner.id,
          tenantId: owner.brokerId,
          previousState: { totp: true, passkeys: had.passkeys },
          newState: { totp: false, passkeys: had.passkeys },
        });
        await notify(
          tx,
          { userId: owner.id, brokerId: owner.brokerId, email: owner.email },
          'authenticator_removed',
        );
      });
      onEmailQueued();
    },

    /** POST /api/auth/mfa/recovery-codes: ten new codes replace the old ones, shown once. */
    async newRecoveryCodes(actor: ActorContext): Promise<string[]> {
      authorize(actor, 'account.second_factor.change');
      const codes = await withActor(database, actor, async (tx) => {
        const owner = await ownerRow(tx, actor.userId);
        if (!hasFactor(await factorsHeld(tx, owner.id))) {
          throw new ValidationError([
            {
              path: 'recoveryCodes',
              code: 'no_factor',
              message:
                'Set up an authenticator app or a passkey first: recovery codes stand in for one.',
            },
          ]);
        }
        const issued = await replaceRecoveryCodes(
          tx,
          { userId: owner.id, brokerId: owner.brokerId },
          now(),
        );
        await audit.record(tx, actor, {
          action: 'user.recovery_codes_issued',
          entityType: 'user',
          entityId: owner.id,
          tenantId: owner.brokerId,
          previousState: null,
          newState: { recoveryCodesIssued: issued.length },
        });
        await notify(
          tx,
          { userId: owner.id, brokerId: owner.brokerId, email: owner.email },
          'recovery_codes_issued',
        );
        return issued;
      });
      onEmailQueued();
      return codes;
    },

    /**
     * DELETE /api/users/:id/second-factor: an administrator removes the second factors of an
     * account they look after whose holder has lost them (a BrokerAdmin for their firm's
     * BrokerUsers and employer accounts, a SuperAdmin for any firm's account). Every session of that account ends; its holder is told by e-mail and sets a
     * factor up again at their next sign-in.
     */
    async reset(actor: ActorContext, userId: string): Promise<void> {
      authorize(actor, 'user.second_factor.reset');
      await withActor(database, actor, async (tx) => {
        const target = await findResetTarget(tx, userId);
        const reached = authorizeRow(
          actor,
          'user.second_factor.reset',
          target?.brokerId
            ? { brokerId: target.brokerId, employerId: target.employerId }
            : undefined,
        );
        const account = target as NonNullable<typeof target>;
        if (!isRole(account.role) || !SECOND_FACTOR_RESETTABLE[actor.role].includes(account.role)) {
          throw new ForbiddenError();
        }
        await resetFactors(tx, { audit, notify }, actor, {
          ...account,
          brokerId: reached.brokerId,
        });
      });
      onEmailQueued();
    },
  };
}

export type SecondFactorService = ReturnType<typeof createSecondFactorService>;
