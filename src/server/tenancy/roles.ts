/** service-spec §2.1, highest first. The order is the authority: a role passes any check for a role below it. */
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

/** 0 for the highest role; a smaller number ranks higher. */
export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}

/** Roles that work inside one employer of a tenant. */
export const EMPLOYER_ROLES = [
  'EmployerAdmin',
  'EmployerUser',
  'Member',
] as const satisfies readonly Role[];
export type EmployerRole = (typeof EMPLOYER_ROLES)[number];

export function isEmployerRole(role: Role): role is EmployerRole {
  return (EMPLOYER_ROLES as readonly Role[]).includes(role);
}
