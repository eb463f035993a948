import { z } from 'zod';
import type { Action } from './policy.js';
import type { Role } from './roles.js';
import { text } from './text.js';

/**
 * A second factor at sign-in, as both sides see it (docs/decisions/0110-second-factor.md,
 * 0111-passkeys.md, 0112-second-factor-required-roles.md): an authenticator app (TOTP,
 * RFC 6238), passkeys (WebAuthn), and one-use recovery codes.
 */

/**
 * Revealing a PPS number, exporting a member's data and changing one's factors need a second
 * factor confirmed within this long, where the account has one (product policy, docs/decisions/
 * 0110-second-factor.md).
 */
export const RECENT_SECOND_FACTOR_SECONDS = 5 * 60;

/** A six-digit code of an authenticator app, as typed: spaces are dropped, nothing else is. */
export const TOTP_CODE = /^[0-9]{6}$/;

/** Recovery codes issued at a time; each signs in once. */
export const RECOVERY_CODE_COUNT = 10;

/**
 * A recovery code: 16 characters of Crockford's base-32 alphabet (80 bits) in four groups,
 * `XXXX-XXXX-XXXX-XXXX`. Typed in any case, with or without the hyphens and spaces.
 */
export const RECOVERY_CODE_GROUPS = 4;
export const RECOVERY_CODE_GROUP_LENGTH = 4;

/** What a person types, reduced to what is compared: no spaces or hyphens, upper case. */
export function normaliseCode(typed: string): string {
  return typed.replace(/[\s-]/g, '').toUpperCase();
}

/** Whether a typed code is an authenticator app's (six digits) rather than a recovery code. */
export function isTotpCode(typed: string): boolean {
  return TOTP_CODE.test(normaliseCode(typed));
}

/** A code as a request field: a TOTP code or a recovery code, bounded. */
export const secondFactorCode = text({ max: 64 }).min(1);

export const codeBody = z.object({ code: secondFactorCode });

/** A passkey's name: what the person calls the device or key, so they can tell them apart. */
export const passkeyName = text({ max: 60 }).min(1);

/** The ways in an account offers at its second step, in the order the sign-in page shows them. */
export const SECOND_FACTOR_METHODS = ['passkey', 'totp', 'recovery_code'] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];

/** The answer to a correct password of an account that has a second factor: no session yet. */
export const secondFactorRequired = z.object({
  mfaRequired: z.literal(true),
  methods: z.array(z.enum(SECOND_FACTOR_METHODS)),
});
export type SecondFactorRequired = z.infer<typeof secondFactorRequired>;

/** `POST /api/auth/mfa/totp`: the secret to put in the app, as a link (the QR code) and as text. */
export const totpSetup = z.object({ otpauthUrl: z.string(), secret: z.string() });
export type TotpSetup = z.infer<typeof totpSetup>;

/** Recovery codes, shown once: only their hashes are kept. */
export const recoveryCodesAnswer = z.object({ recoveryCodes: z.array(z.string()) });

export const passkeyView = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type PasskeyView = z.infer<typeof passkeyView>;

/** `GET /api/me/second-factor`: what the account has, and whether its role must have one. */
export const secondFactorStatus = z.object({
  required: z.boolean(),
  totp: z.boolean(),
  passkeys: z.array(passkeyView),
  recoveryCodesLeft: z.number().int(),
});
export type SecondFactorStatus = z.infer<typeof secondFactorStatus>;

/** A passkey just registered, with recovery codes when it is the account's first factor. */
export const passkeyRegistered = z.object({
  passkey: passkeyView,
  recoveryCodes: z.array(z.string()).optional(),
});

/** What a session read says beyond its user: the account must set up a second factor first. */
export const SECOND_FACTOR_SETUP_REQUIRED =
  'Set up a second factor (an authenticator app or a passkey) on your account page before you continue.';

/** The refusal of an action that needs a recent second factor (RECENT_SECOND_FACTOR_SECONDS). */
export const STEP_UP_REQUIRED =
  'Confirm it is you first: enter a code from your authenticator app or use your passkey. This needs doing every 5 minutes for PPS numbers, exports and changes to your sign-in.';

/** The one answer to a wrong, used, expired or replayed code at sign-in. */
export const INVALID_CODE = 'Invalid or expired code';

/**
 * What an account whose role must have a second factor may do before it has one: its own account
 * and sign-in, nothing of anyone's data (docs/decisions/0112-second-factor-required-roles.md).
 */
export const ACTIONS_BEFORE_SECOND_FACTOR: ReadonlySet<Action> = new Set<Action>([
  'me.read',
  'session.end',
  'account.password.change',
  'account.second_factor.read',
  'account.second_factor.confirm',
  'account.second_factor.change',
]);

/** The refusal of a reset of an account that holds no second factor (409). */
export const NO_FACTOR_TO_RESET =
  'This account has no second factor to remove. Its holder sets one up from My account.';

/**
 * Whose second factor each role may reset when its holder has lost it: the accounts that role
 * looks after, never its own peers (docs/decisions/0112-second-factor-required-roles.md). No
 * account's holder resets a SuperAdmin's through the API.
 */
export const SECOND_FACTOR_RESETTABLE: Readonly<Record<Role, readonly Role[]>> = {
  SuperAdmin: ['BrokerAdmin', 'BrokerUser', 'EmployerAdmin', 'EmployerUser', 'Member'],
  BrokerAdmin: ['BrokerUser', 'EmployerAdmin', 'EmployerUser', 'Member'],
  BrokerUser: [],
  EmployerAdmin: [],
  EmployerUser: [],
  Member: [],
};

/** The roles `MFA_REQUIRED_ROLES` names by default in staging and production. */
export const DEFAULT_SECOND_FACTOR_ROLES: readonly Role[] = [
  'SuperAdmin',
  'BrokerAdmin',
  'BrokerUser',
];
