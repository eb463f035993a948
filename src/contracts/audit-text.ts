import { MODULES } from './manifests/index.js';

/**
 * The audit log in words (docs/decisions/0051-readable-audit-log.md), shared by the server (the `summary` of
 * `GET /api/audit`, the CSV export) and the web page, so a reviewer reads the same sentence
 * everywhere. Only words live here: names are resolved by the server when the log is read, and
 * the records themselves keep ids (docs/decisions/0051-readable-audit-log.md).
 */

/** What each kind of record is called: `noun` inside a sentence, `label` on its own. */
const RECORD_TYPES: Readonly<Record<string, { noun: string; label: string }>> = Object.assign(
  {},
  ...MODULES.map((module) => ('audit' in module ? (module.audit.records ?? {}) : {})),
);

/** The record types the service writes, in the order a picker offers them. */
export const AUDIT_RECORD_TYPES: readonly string[] = Object.keys(RECORD_TYPES);

/** "Member" for `member`; an unknown type as itself, words apart ("Trustee" for `trustee`). */
export function recordTypeLabel(entityType: string): string {
  const known = RECORD_TYPES[entityType];
  if (known) return known.label;
  const words = entityType.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function recordTypeNoun(entityType: string): string {
  return RECORD_TYPES[entityType]?.noun ?? `a record of type “${entityType.replace(/_/g, ' ')}”`;
}

/**
 * Every action the service records (`<entity>.<verb>`, service-spec §6), in words, as each module's
 * manifest gives them. `*.viewed` and `*.listed` are platform staff reading a tenant's data
 * (service-spec §5.4.5).
 */
export const AUDIT_ACTION_TEXT: Readonly<Record<string, string>> = Object.assign(
  {},
  ...MODULES.map((module) => ('audit' in module ? (module.audit.actions ?? {}) : {})),
);

/**
 * The plain-English sentence for an action. One the table does not know yet (a new feature's)
 * still reads as a sentence naming its code, so nothing is ever left out of the log.
 */
export function auditSummary(action: string, entityType: string): string {
  const known = AUDIT_ACTION_TEXT[action];
  if (known) return known;
  return `Recorded “${action}” on ${recordTypeNoun(entityType)}`;
}

/** Actor ids that are no person. */
export const SYSTEM_ACTOR_ID = 'system';
export const ANONYMOUS_ACTOR_ID = 'anonymous';

/**
 * Who acted, for a reader: the person's name when the reader may see it, otherwise what is known
 * without it. A tenant's reader sees platform staff as such, never their names.
 */
export function actorDescription(record: {
  actorId: string;
  actorType: string;
  actorName: string | null;
}): string {
  if (record.actorName !== null) return record.actorName;
  if (record.actorId === SYSTEM_ACTOR_ID) return 'The service itself';
  if (record.actorType === 'Anonymous') return 'Someone not signed in';
  if (record.actorType === 'SuperAdmin') return 'Platform staff';
  return 'An account no longer found';
}
