import { MODULES } from './manifests/index.js';
import type { ModuleManifest } from './manifests/manifest.js';
import { counted } from './plain-english.js';

/** The manifests as the one shape they share, for what is read from every one of them. */
const MANIFESTS: readonly ModuleManifest[] = MODULES;

/**
 * The audit log in words (docs/decisions/0051-readable-audit-log.md), shared by the server (the `summary` of
 * `GET /api/audit`, the CSV export) and the web page, so a reviewer reads the same sentence
 * everywhere. Only words live here: names are resolved by the server when the log is read, and
 * the records themselves keep ids (docs/decisions/0051-readable-audit-log.md).
 */

/** What each kind of record is called: `noun` inside a sentence, `label` on its own. */
const RECORD_TYPES: Readonly<Record<string, { noun: string; label: string }>> = Object.assign(
  {},
  ...MANIFESTS.map((module) => module.audit?.records ?? {}),
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

type ActionsOf<M> = M extends { readonly audit: { readonly actions: infer A } }
  ? keyof A & string
  : never;

/**
 * An action the service records, by its code (`<entity>.<verb>`, docs/api.md "The audit log"): only
 * those a module's manifest gives words, so an action without words is a compile error where it is
 * recorded (and refused by the audit service at run time besides).
 */
export type RecordedAction = ActionsOf<(typeof MODULES)[number]>;

/** The actions the service records, as the manifests give them. */
export const RECORDED_ACTIONS: ReadonlySet<string> = new Set(
  MANIFESTS.flatMap((module) => Object.keys(module.audit?.actions ?? {})),
);

/** Whether the service records this action: it has words in a manifest and is not retired. */
export function isRecordedAction(action: string): action is RecordedAction {
  return RECORDED_ACTIONS.has(action);
}

/**
 * The entity types whose `<entity>.<verb>` the service records for a verb: the reads of platform
 * staff are recorded as `<entity>.viewed` and `<entity>.listed` (docs/api.md, "The audit log").
 */
export type EntityRecordedAs<Verb extends string> = RecordedAction extends infer A
  ? A extends `${infer E}.${Verb}`
    ? E
    : never
  : never;

/**
 * Every action in words, as each module's manifest gives them: those recorded now, and those
 * recorded once whose records stay (`retired`, docs/decisions/0130-what-reads-are-audited.md).
 * `*.viewed` and `*.listed` are platform staff reading a tenant's data (docs/api.md, "The audit
 * log").
 */
export const AUDIT_ACTION_TEXT: Readonly<Record<string, string>> = Object.assign(
  {},
  ...MANIFESTS.flatMap((module) => [module.audit?.actions ?? {}, module.audit?.retired ?? {}]),
);

/**
 * The plain-English sentence for an action. The service records no action without words; one the
 * table does not know (a record written by a later version, read by an earlier one during a
 * rolling upgrade) still reads as a sentence naming its code, so nothing is ever left out.
 */
export function auditSummary(action: string, entityType: string): string {
  const known = AUDIT_ACTION_TEXT[action];
  if (known) return known;
  return `Recorded “${action}” on ${recordTypeNoun(entityType)}`;
}

/**
 * The record id of a list read by platform staff (`<entity>.listed`, docs/api.md "The audit log"):
 * a list has no one record to name, so its record keeps this in place of an id.
 */
export const LIST_ENTITY_ID = 'list';

/**
 * The record an export of the log reads as: it was recorded under the log itself, not under any
 * one record.
 */
export const AUDIT_LOG_NAME = 'The audit log';

/** A list read, in words, by how many records it returned: "A list of 3 records". */
export function listInWords(returned: number): string {
  return `A list of ${counted(returned, 'record')}`;
}

/** Actor ids that are no person. */
export const SYSTEM_ACTOR_ID = 'system';
export const ANONYMOUS_ACTOR_ID = 'anonymous';

/**
 * The role a record's actor acted in, as its code (`BrokerAdmin`, `Anonymous`), or null for the
 * service itself: its scheduled jobs and start-up act with a SuperAdmin's reach, a role no one
 * holds when the service acts, so the page shows none under "The service itself" and the CSV's
 * Role cell is empty (docs/decisions/0051-readable-audit-log.md).
 */
export function actorRole(record: { actorId: string; actorType: string }): string | null {
  return record.actorId === SYSTEM_ACTOR_ID ? null : record.actorType;
}

/**
 * Who acted on a member's data, as the member reads it in the copy of their data they download:
 * by who they are to the member, never by name.
 */
export function actorForMember(record: { actorId: string; actorType: string }): string {
  if (record.actorId === SYSTEM_ACTOR_ID) return 'The service itself';
  switch (record.actorType) {
    case 'Member':
      return 'You';
    case 'BrokerAdmin':
    case 'BrokerUser':
      return 'Your pension administrator';
    case 'EmployerAdmin':
    case 'EmployerUser':
      return 'Your employer';
    case 'SuperAdmin':
      return 'Platform staff';
    default:
      return 'Someone not signed in';
  }
}

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

/** What `X-Forwarded-For` holds when a request carried none (src/server/platform/tenancy). */
export const NOT_FORWARDED = 'unknown';

/**
 * What a record of the service itself (start-up, the CLI) keeps for both addresses: it was no
 * request, so no header was sent and no client was trusted.
 */
export const FROM_THE_SERVICE = 'local';

/**
 * The `X-Forwarded-For` header as the request sent it, or `null` where none was sent: a request
 * without one, or the service itself. The CSV's cell and the page's note both read it here.
 */
export function forwardedForHeader(ipAddress: string): string | null {
  const claimed = ipAddress.trim();
  return claimed === '' || claimed === NOT_FORWARDED || claimed === FROM_THE_SERVICE
    ? null
    : claimed;
}

/**
 * The `X-Forwarded-For` header of a record, when it says something the client address does not:
 * nothing when the request carried none, or when it names the very address the server trusted
 * (a trusted proxy's forwarding, already the client address). Anyone can write the header, so
 * the page shows it as what was claimed, beside the address the server vouches for.
 */
export function forwardedForNote(record: {
  ipAddress: string;
  clientAddress: string | null;
}): string | null {
  const claimed = forwardedForHeader(record.ipAddress);
  if (claimed === null || claimed === record.clientAddress) return null;
  return `Forwarded for: ${claimed}`;
}
