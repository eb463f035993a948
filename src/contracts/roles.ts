/**
 * The six roles (docs/api.md, "Who may do what"), shared by the server and the web UI. Their order
 * only sets the order roles are listed in: no role passes a check because it ranks above another.
 * What each may do is the policy table's (contracts/policy.ts).
 */
export const ROLES = [
  'SuperAdmin',
  'BrokerAdmin',
  'BrokerUser',
  'EmployerAdmin',
  'EmployerUser',
  'Member',
] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/**
 * Each role in words, for the people who read it: a page, a list or an e-mail names a role this
 * way and never by its code. Keyed by the role, so a role added above fails the build until it
 * has its words.
 */
export const ROLE_NAMES: Record<Role, string> = {
  SuperAdmin: 'Platform administrator',
  BrokerAdmin: 'Broker administrator',
  BrokerUser: 'Broker staff',
  EmployerAdmin: 'Employer administrator',
  EmployerUser: 'Employer staff',
  Member: 'Member',
};

/**
 * A role in a sentence, after "as": "an employer administrator", "a member", "broker staff". The
 * invitation e-mail and the page its link opens name the role alike.
 */
export function roleInASentence(role: Role): string {
  const words = ROLE_NAMES[role].toLowerCase();
  if (words.endsWith('staff')) return words;
  return /^[aeiou]/.test(words) ? `an ${words}` : `a ${words}`;
}
