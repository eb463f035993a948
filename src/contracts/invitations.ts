import { ROLES, type Role, roleInASentence } from './roles.js';

/**
 * Who may invite whom (docs/decisions/0143-who-invites-whom.md), read by the server when an
 * account is invited and by the invitation form, which offers only these roles. The policy table
 * (contracts/policy.ts) says who may invite at all and where; this says which roles each inviter
 * may give there.
 *
 * An account is invited into one of two places: the firm itself (its staff: `POST /api/users`
 * for the firm's own BrokerAdmin, `POST /api/brokers/:brokerId/users` for the platform) or one of
 * its employers (`POST /api/employers/:id/users`).
 */
export type InvitationPlace = 'firm' | 'employer';

const NONE: readonly Role[] = [];

export const INVITABLE_ROLES: Readonly<
  Record<Role, Readonly<Record<InvitationPlace, readonly Role[]>>>
> = {
  // The platform sets a firm up with its first administrator, and may add staff to it.
  SuperAdmin: { firm: ['BrokerAdmin', 'BrokerUser'], employer: NONE },
  // A firm's administrator runs it: a second administrator (so the firm never hangs on one
  // person), its staff, and every account of its employers.
  BrokerAdmin: {
    firm: ['BrokerAdmin', 'BrokerUser'],
    employer: ['EmployerAdmin', 'EmployerUser', 'Member'],
  },
  BrokerUser: { firm: NONE, employer: NONE },
  // An employer's administrator brings in their payroll colleagues and their own employees; a
  // second EmployerAdmin stays the broker's to appoint, since it may change the employer's record.
  EmployerAdmin: { firm: NONE, employer: ['EmployerUser', 'Member'] },
  EmployerUser: { firm: NONE, employer: NONE },
  Member: { firm: NONE, employer: NONE },
};

/** The roles `inviter` may give an account invited into `place`, in the roles' own order. */
export function invitableRoles(inviter: Role, place: InvitationPlace): readonly Role[] {
  return INVITABLE_ROLES[inviter][place];
}

/** The sentence under the role when it is one the inviter may not give. */
export function invitableRolesMessage(inviter: Role, place: InvitationPlace): string {
  const roles = invitableRoles(inviter, place);
  if (roles.length === 0) return 'You may not invite accounts here';
  return `Choose a role you may give: ${rolesInWords(roles)}`;
}

/** "EmployerUser", "EmployerUser or Member", "BrokerAdmin, BrokerUser or Member". */
function rolesInWords(roles: readonly Role[]): string {
  return roles.length === 1
    ? (roles[0] as Role)
    : `${roles.slice(0, -1).join(', ')} or ${roles[roles.length - 1]}`;
}

/**
 * The roles of the accounts `manager` may send a new invitation, deactivate or reactivate
 * (docs/decisions/0143-who-invites-whom.md), read by the service, which refuses any other (403),
 * and by the accounts tables, which offer those actions only on these. The policy table
 * (contracts/policy.ts) says who may at all and how far they reach. An employer's administrator
 * looks after exactly the accounts they may invite: their payroll colleagues and members, never a
 * fellow EmployerAdmin, whom the broker appoints. The firm's administrator and the platform look
 * after every account within their reach.
 */
export function manageableRoles(manager: Role): readonly Role[] {
  switch (manager) {
    case 'SuperAdmin':
      return ROLES;
    case 'BrokerAdmin':
      return ROLES.filter((role) => role !== 'SuperAdmin');
    case 'EmployerAdmin':
      return invitableRoles(manager, 'employer');
    default:
      return NONE;
  }
}

/** The refusal of an account whose role `manager` may not look after. */
export function manageableRolesMessage(manager: Role): string {
  const roles = manageableRoles(manager);
  if (roles.length === 0) return 'You may not change accounts';
  return `You may change only ${rolesInWords(roles)} accounts; your broker looks after this one`;
}

/**
 * The words after "… has invited you to Pension Administration": the role, in the words the
 * account's pages use, and what the account is for. The invitation e-mail and the page its link
 * opens say the same (docs/decisions/0044-invitations.md).
 */
export function invitationPurpose(
  role: Role,
  employer: string | null,
  scheme: string | null,
): string {
  const as = `as ${roleInASentence(role)}`;
  const their = employer ?? 'your employer';
  switch (role) {
    case 'EmployerAdmin':
      return `${as}, to look after the pension schemes of ${their}`;
    case 'EmployerUser':
      return `${as}, to see the pension schemes of ${their}`;
    case 'Member':
      return scheme
        ? `${as}, to see your pension in ${scheme}, the scheme ${their} provides`
        : `${as}, to see your pension with ${their}`;
    case 'SuperAdmin':
      return as;
    default:
      return `${as}, to work on its clients’ pension schemes`;
  }
}
