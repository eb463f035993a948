import { type Action, ruleOf, type Scope } from './policy.js';
import { ROLES, type Role } from './roles.js';

/**
 * How the policy table (contracts/policy.ts) is read, the same way by the server, which enforces
 * it, and by the web UI, which offers only what it allows.
 */

/** Who asks: a role and what their account is attached to, from the verified session only. */
export interface Subject {
  role: Role;
  /** The broker firm; null for the platform's SuperAdmin. */
  tenantId: string | null;
  /** The employer, for employer staff and members; null otherwise. */
  employerId: string | null;
  /** A Member's own member record; null for every other role. */
  memberId: string | null;
}

/**
 * Where a record sits, as the database stores it (never as a client says): its firm, its
 * employer (null for rows above any employer: a firm, its staff accounts) and, for a member's
 * record and the rows of it (contributions, fund choices), that member.
 */
export interface RowScope {
  brokerId: string;
  employerId: string | null;
  memberId?: string | null;
}

/**
 * The scope `subject` holds for `action`, or null when they may not carry it out at all: the
 * action is not in the table (deny by default), their role is not listed for it, or their account
 * lacks what the scope is anchored to (an employer role without an employer reaches nothing).
 */
export function scopeFor(subject: Subject, action: string): Scope | null {
  const scope = ruleOf(action)?.roles[subject.role];
  switch (scope) {
    case 'platform':
      return subject.tenantId === null ? scope : null;
    case 'tenant':
      return subject.tenantId !== null ? scope : null;
    case 'employer':
      return subject.tenantId !== null && subject.employerId !== null ? scope : null;
    case 'member':
      return subject.tenantId !== null && subject.employerId !== null && subject.memberId !== null
        ? scope
        : null;
    default:
      return null;
  }
}

/** Whether a record lies within `scope` as `subject` holds it (scopeFor checked the anchors). */
export function reaches(subject: Subject, scope: Scope, row: RowScope): boolean {
  switch (scope) {
    case 'platform':
      return true;
    case 'tenant':
      return row.brokerId === subject.tenantId;
    case 'employer':
      return row.brokerId === subject.tenantId && row.employerId === subject.employerId;
    case 'member':
      return (
        row.brokerId === subject.tenantId &&
        row.employerId === subject.employerId &&
        row.memberId === subject.memberId
      );
  }
}

/**
 * Whether `subject` may carry out `action`, and, when a record is given, on that record. Without
 * a record this answers for the role alone, as the web UI asks before it offers a control.
 */
export function permits(subject: Subject, action: Action, row?: RowScope): boolean {
  const scope = scopeFor(subject, action);
  return scope !== null && (row === undefined || reaches(subject, scope, row));
}

const SCOPE_WORDS: Record<Scope, string> = {
  platform: 'every tenant',
  tenant: 'own tenant',
  employer: 'own employer',
  member: 'own member record',
};

const TARGET_WORDS = {
  record: 'A record outside that reach answers 404, as one that does not exist.',
  parent: 'A parent record outside that reach, or one that does not exist, answers 403.',
  none: '',
} as const;

/**
 * The policy of an action in words, for the API reference: "Action scheme.create: Create a
 * scheme under an employer. Allowed: BrokerAdmin, BrokerUser (own tenant); anyone else 403. …"
 */
export function describeAction(action: Action): string {
  const rule = ruleOf(action);
  if (!rule) throw new Error(`no action ${action} in the policy table`);
  const byScope = new Map<Scope, Role[]>();
  for (const role of ROLES) {
    const scope = rule.roles[role];
    if (scope !== undefined) byScope.set(scope, [...(byScope.get(scope) ?? []), role]);
  }
  const allowed = [...byScope]
    .map(([scope, roles]) => `${roles.join(', ')} (${SCOPE_WORDS[scope]})`)
    .join('; ');
  return [
    `Action ${action}: ${rule.description}.`,
    `Allowed: ${allowed}; anyone else 403.`,
    TARGET_WORDS[rule.target],
  ]
    .filter((part) => part !== '')
    .join(' ');
}
