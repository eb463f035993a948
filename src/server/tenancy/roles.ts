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
