import { z } from 'zod';
import { recordName } from './organisation.js';
import { FIELD_MESSAGES } from './plain-english.js';
import { ROLES } from './roles.js';
import { text } from './text.js';

/**
 * Accounts and sessions as both sides see them: who is signed in (`/api/auth/session`, the
 * answer of a sign-in), an account in a list, one's own account (`/api/me`).
 */

/** 'invited' until the person sets their password through the invitation. */
export const ACCOUNT_STATES = ['invited', 'active', 'deactivated'] as const;
export type AccountState = (typeof ACCOUNT_STATES)[number];

/** The person a session belongs to (docs/api.md, "Signing in"). */
export const sessionUser = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  brokerId: z.string().nullable(),
  employerId: z.string().nullable(),
});
export type SessionUser = z.infer<typeof sessionUser>;

/**
 * Set when the account's role must have a second factor and it has none yet: the session may do
 * nothing but set one up (docs/decisions/0112-second-factor-required-roles.md).
 */
const setupRequired = z.boolean().optional();

/** `GET /api/auth/session`: the person signed in, or null. */
export const sessionAnswer = z.object({
  user: sessionUser.nullable(),
  secondFactorSetupRequired: setupRequired,
});
/** A sign-in, or an accepted invitation: the person now signed in. */
export const signedIn = z.object({ user: sessionUser, secondFactorSetupRequired: setupRequired });
/** An answer that only tells the person what happened. */
export const messageAnswer = z.object({ message: z.string() });

/**
 * How long an invitation link works, from its sending or a resend (docs/decisions/0044-invitations.md):
 * the e-mail, the pages that send one and the link's own check all say it from here.
 */
export const INVITATION_VALID_HOURS = 72;

/**
 * Whether an invitation link can still set a password, read before the person types one
 * (docs/decisions/0125-invitation-link-checked-first.md): `open`; `used` (the password was set
 * through it); `expired`; or `not_valid` (no such link, withdrawn, replaced by a newer
 * invitation, or the account is no longer waiting for it).
 */
export const INVITATION_LINK_STATES = ['open', 'used', 'expired', 'not_valid'] as const;
export type InvitationLinkState = (typeof INVITATION_LINK_STATES)[number];
/** The body of a link's check: the token from the link's fragment, never in the address. */
export const linkCheckBody = z.object({
  token: text({ max: 256, trim: false }).min(1),
});
export const invitationLinkBody = linkCheckBody;
/**
 * What an open invitation is to, as its e-mail says (docs/decisions/0044-invitations.md): the
 * inviting firm (none for a platform account), the employer for an employer's or a member's
 * account, a member's scheme, and the role, which a page says in words (ROLE_NAMES). Never the
 * invited person's name or address.
 */
export const invitedTo = z.object({
  firm: z.string().nullable(),
  employer: z.string().nullable(),
  scheme: z.string().nullable(),
  role: z.enum(ROLES),
});
export type InvitedTo = z.infer<typeof invitedTo>;
/** Only a link that still works says what it is to; a dead or unknown one says its state alone. */
export const invitationLinkAnswer = z.union([
  z.object({ state: z.literal('open'), invitation: invitedTo }),
  z.object({ state: z.enum(['used', 'expired', 'not_valid']) }),
]);
export type InvitationLinkAnswer = z.infer<typeof invitationLinkAnswer>;

/**
 * Whether a password-reset link can still set a password, read as its page opens
 * (docs/decisions/0020-password-reset.md). One answer for used, expired, replaced and unknown
 * links, as the reset itself gives one refusal for all of them.
 */
export const resetLinkAnswer = z.object({ usable: z.boolean() });

export const userChange = z
  .object({ name: recordName.optional(), status: z.enum(['active', 'deactivated']).optional() })
  .refine((change) => change.name !== undefined || change.status !== undefined, {
    message: FIELD_MESSAGES.somethingToChange,
  });
export type UserChange = z.infer<typeof userChange>;

export const userView = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  brokerId: z.string().nullable(),
  employerId: z.string().nullable(),
  memberId: z.string().nullable(),
  /** 'invited' until the person sets their password through the invitation. */
  status: z.enum(ACCOUNT_STATES),
  /** While invited: when the invitation link stops working (a resend renews it). */
  invitedUntil: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type UserView = z.infer<typeof userView>;

/**
 * An account as the lists of accounts show it: with whether it has a second factor set up (an
 * authenticator app or a passkey), so a reset is offered only where there is one to reset
 * (docs/decisions/0112-second-factor-required-roles.md). Which factor it is stays its holder's.
 */
export const listedAccount = userView.extend({ secondFactor: z.boolean() });
export type ListedAccount = z.infer<typeof listedAccount>;

/**
 * A member's own account for the member portal, as the member's page shows it to those who invite
 * members: its state only, never its address or name, so reading it is no read of personal data
 * (docs/decisions/0143-who-invites-whom.md, 0130-what-reads-are-audited.md).
 */
export const memberPortalAccount = z.object({
  id: z.string(),
  status: z.enum(ACCOUNT_STATES),
  /** While invited: when the invitation link stops working (a resend renews it). */
  invitedUntil: z.string().nullable(),
});
export type MemberPortalAccount = z.infer<typeof memberPortalAccount>;

/** `/api/me`: the account, with the names the header shows (docs/decisions/0045-home-pages-by-role.md). */
export const meView = userView.extend({
  firmName: z.string().nullable(),
  employerName: z.string().nullable(),
});
export type MeView = z.infer<typeof meView>;
