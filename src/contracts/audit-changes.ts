import { DRAFT_KIND_NAMES } from './ai.js';
import { CONTRIBUTION_KIND_LABELS } from './contributions.js';
import { DOCUMENT_FORMAT_NAMES, DOCUMENT_TYPE_LABELS, SCAN_STATUS_LABELS } from './documents.js';
import { fileSizeInWords } from './file-size.js';
import { FITNESS_NAMES, POLICY_KIND_NAMES, TRUSTEE_KIND_NAMES } from './governance-rules.js';
import { dateInWords, isIsoDate, momentInWords, periodInWords } from './irish-dates.js';
import { formatCents } from './money.js';
import { PPS_REVEAL_REASON_WORDS } from './pps-reveal.js';
import { WIND_UP_REASON_WORDS } from './scheme-wind-up.js';
import { FILING_KIND_NAMES } from './scheme-year-rules.js';

/**
 * What an audit record says changed, as lines a reviewer reads ("Status: draft → approved"),
 * not the JSON the record keeps (docs/decisions/0051-readable-audit-log.md). The server keeps
 * the states as they were recorded; the page turns them into lines with this one rule.
 */
export interface StateChange {
  /** The field in words: `Scheme id`, `Totals › Below standard`. */
  field: string;
  /** As it was; absent where the record made it. */
  before?: string;
  /** As it is; absent where the record deleted it. */
  after?: string;
  /** What the record says of a field it keeps no value of (personal data, docs/decisions/0029). */
  note?: string;
  /** An id or a hash: shown apart, under "Technical details", for an auditor to look up. */
  technical: boolean;
}

/** Where a field's value was left out of the record because it is personal data. */
export const NOT_KEPT = 'changed; the audit log keeps no personal data';

type State = Record<string, unknown>;

const isState = (value: unknown): value is State =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Abbreviations a reader of the log knows as they are, written in capitals wherever a field's name
 * holds them: `croNumber` → `CRO number`. Any other abbreviation is given words in `FIELD_NAMES`.
 */
const ACRONYMS = /\b(?:cro|sr|pps|lei|isin|pdf|ai)\b/g;

/**
 * Fields whose names, taken apart, would not read as words: an abbreviation a broker or a trustee
 * may not know, the service's own terms, or a unit the value is kept in.
 */
const FIELD_NAMES: Readonly<Record<string, string>> = {
  actorId: 'Person’s id',
  actorTenantId: 'Person’s firm id',
  annuityFactorHundredths: 'Annuity factor',
  apiKeySealed: 'AI provider key',
  apiKeySet: 'AI provider key given',
  approvedDiff: 'Changes approved',
  brokerId: 'Firm id',
  brokerIds: 'Firm ids',
  deltaCents: 'Change in amount',
  dpcNotifiedAt: 'Data Protection Commission told at',
  dpcReference: 'Data Protection Commission’s reference',
  dpcReferenceGiven: 'Data Protection Commission’s reference given',
  entityId: 'Record id',
  fourEyes: 'Four-eyes review',
  html: 'Page text',
  ipAddress: 'Forwarded for',
  mac: 'Seal',
  oraReports: 'Own-risk assessment reports',
  ordinal: 'Position',
  racKind: 'Retirement annuity contract kind',
  sessionEpoch: 'Sign-outs of every session',
  signInUrl: 'Sign-in web address',
  structParent: 'Place in the document’s structure',
  tenantId: 'Firm id',
  totp: 'Authenticator app',
  url: 'Web address',
  userAgent: 'Browser',
};

/**
 * `schemeId` → `Scheme id`, `below_standard` → `Below standard`, `salaryCents` → `Salary`,
 * `employerBasisPoints` → `Employer rate`, `srNumber` → `SR number`, `lei` → `LEI`,
 * `oraReports` → `Own-risk assessment reports` (`FIELD_NAMES`).
 */
export function fieldInWords(key: string): string {
  const given = FIELD_NAMES[key];
  if (given !== undefined) return given;
  const words = key
    .replace(/Cents$/, '')
    .replace(/Hundredths$/, '')
    .replace(/BasisPoints$/, 'Rate')
    .replace(/(^s|S)ha256$/, ' SHA-256')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase()
    .replace(/sha-256/, 'SHA-256')
    .replace(ACRONYMS, (acronym) => acronym.toUpperCase())
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * Fields an auditor looks up rather than reads: ids, hashes and seals. The page shows them apart
 * from the lines in words, under "Technical details" (docs/decisions/0051-readable-audit-log.md).
 */
export function isTechnicalField(key: string): boolean {
  return /(^id|Id|Ids)$|(^h|H)ash$|(^s|S)ha256$|^mac$|Sealed$|^hashVersion$/.test(key);
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const CODE = /^[a-z]+(_[a-z]+)+$/;
/** A pay period, `YYYY-MM`. */
const PERIOD = /^\d{4}-(0[1-9]|1[0-2])$/;
/** Fields named for a pay period (`fromPeriod`) read as `period` does. */
const PERIOD_FIELD = /(^p|P)eriod$/;

/** How one field's value is written; `undefined` where the value is none it knows. */
type ValueWords = (value: unknown, recordType: string | undefined) => string | undefined;

/** A code of a list the contracts keep in words. */
const coded =
  (words: Readonly<Record<string, string>>): ValueWords =>
  (value) =>
    typeof value === 'string' && Object.hasOwn(words, value) ? words[value] : undefined;

/** A code whose list depends on the record it is in: a trustee's `kind` is not a contribution's. */
const codedByRecordType =
  (lists: Readonly<Record<string, Readonly<Record<string, string>>>>): ValueWords =>
  (value, recordType) => {
    const words = recordType === undefined ? undefined : lists[recordType];
    return words ? coded(words)(value, recordType) : undefined;
  };

const inPeriod: ValueWords = (value) =>
  typeof value === 'string' && PERIOD.test(value) ? periodInWords(value) : undefined;

const inBytes: ValueWords = (value) =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0
    ? fileSizeInWords(value)
    : undefined;

/**
 * Fields whose values the contracts have words for, by the field's name in a record's state, one
 * line a field: the lists' own words, never restated here, so the page says what the pages that
 * keep the record say (docs/decisions/0051-readable-audit-log.md). Ids and hashes are not here:
 * an auditor looks them up as they are.
 */
const FIELD_VALUES: Readonly<Record<string, ValueWords>> = {
  contentType: coded(DOCUMENT_FORMAT_NAMES),
  documentType: coded(DOCUMENT_TYPE_LABELS),
  fitnessAndProbity: coded(FITNESS_NAMES),
  kind: codedByRecordType({
    ai_draft: DRAFT_KIND_NAMES,
    contribution: CONTRIBUTION_KIND_LABELS,
    filing: FILING_KIND_NAMES,
    trustee: TRUSTEE_KIND_NAMES,
    written_policy: POLICY_KIND_NAMES,
  }),
  month: inPeriod,
  period: inPeriod,
  policyKind: coded(POLICY_KIND_NAMES),
  ppsRevealReason: coded(PPS_REVEAL_REASON_WORDS),
  scanStatus: coded(SCAN_STATUS_LABELS),
  size: inBytes,
  windUpReason: coded(WIND_UP_REASON_WORDS),
};

/**
 * One value as a line shows it; `key` says what it is (`…Cents` is money), and `recordType` (the
 * record's `entityType`) which list a code shared by several records is of.
 */
export function valueInWords(key: string, value: unknown, recordType?: string): string {
  if (value === null || value === undefined) return 'none';
  const rule = FIELD_VALUES[key] ?? (PERIOD_FIELD.test(key) ? FIELD_VALUES.period : undefined);
  const words = rule?.(value, recordType);
  if (words !== undefined) return words;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') {
    if (key.endsWith('Cents')) return formatCents(value);
    if (key.endsWith('BasisPoints')) return `${value / 100}%`;
    if (key.endsWith('Hundredths')) return (value / 100).toLocaleString('en-IE');
    return value.toLocaleString('en-IE');
  }
  if (typeof value === 'string') {
    if (value === '') return 'empty';
    // Dates, months and instants in words (docs/decisions/0129-dates-shown-in-words.md).
    if (isIsoDate(value)) return dateInWords(value);
    if (value.length <= 40 && TIMESTAMP.test(value)) return momentInWords(value);
    if (CODE.test(value)) return value.replace(/_/g, ' ');
    return value;
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return 'none';
    if (value.every((item) => typeof item !== 'object' || item === null)) {
      return value.map((item) => valueInWords(key, item, recordType)).join(', ');
    }
    return value.length === 1 ? '1 entry' : `${value.length.toLocaleString('en-IE')} entries`;
  }
  return JSON.stringify(value);
}

/** A state's leaves, nested objects flattened under their parent's name. */
function leaves(
  state: State,
  path: string[] = [],
): Map<string, { path: string[]; value: unknown }> {
  const found = new Map<string, { path: string[]; value: unknown }>();
  for (const [key, value] of Object.entries(state)) {
    const at = [...path, key];
    if (isState(value)) {
      for (const [name, leaf] of leaves(value, at)) found.set(name, leaf);
    } else found.set(at.join('.'), { path: at, value });
  }
  return found;
}

const fieldOf = (path: readonly string[]) => path.map(fieldInWords).join(' › ');
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The lines of one record: for a change, each field whose value reads differently (before →
 * after); for a record made, each field it was made with; for one deleted, each field it had. The
 * record's own id is left out (the page shows it beside), and a field the record names in
 * `changedFields` without keeping its value (personal data) reads as changed, without one.
 * `recordType` is the record's `entityType`: it says which list a shared field's code is of.
 */
export function stateChanges(previous: unknown, next: unknown, recordType?: string): StateChange[] {
  const before = isState(previous) ? previous : null;
  const after = isState(next) ? next : null;
  const named = after?.changedFields ?? before?.changedFields;
  const omit = (key: string) => key === 'id' || key === 'changedFields';
  const beforeLeaves = before ? leaves(before) : new Map();
  const afterLeaves = after ? leaves(after) : new Map();
  const changes: StateChange[] = [];
  for (const name of new Set([...beforeLeaves.keys(), ...afterLeaves.keys()])) {
    const was = beforeLeaves.get(name);
    const is = afterLeaves.get(name);
    const path = (is ?? was)?.path ?? [name];
    if (path.length === 1 && omit(path[0] as string)) continue;
    const key = path.at(-1) as string;
    if (before && after) {
      if (same(was?.value, is?.value)) continue;
      const change = {
        before: valueInWords(key, was?.value, recordType),
        after: valueInWords(key, is?.value, recordType),
      };
      // Two instants a few seconds apart read alike: a line saying "x → x" says nothing.
      if (change.before === change.after) continue;
      changes.push({ field: fieldOf(path), ...change, technical: isTechnicalField(key) });
    } else if (after) {
      changes.push({
        field: fieldOf(path),
        after: valueInWords(key, is?.value, recordType),
        technical: isTechnicalField(key),
      });
    } else
      changes.push({
        field: fieldOf(path),
        before: valueInWords(key, was?.value, recordType),
        technical: isTechnicalField(key),
      });
  }
  if (Array.isArray(named)) {
    for (const field of named) {
      if (typeof field !== 'string' || beforeLeaves.has(field) || afterLeaves.has(field)) continue;
      changes.push({ field: fieldInWords(field), note: NOT_KEPT, technical: false });
    }
  }
  return changes;
}

/** What a line says of its field: `draft → approved`, `Acme` (made), `was Acme` (deleted). */
export function changeValue(change: StateChange): string {
  if (change.note !== undefined) return change.note;
  if (change.before === undefined) return change.after ?? 'none';
  if (change.after === undefined) return `was ${change.before}`;
  return `${change.before} → ${change.after}`;
}

/** One change as its line: `Status: draft → approved`, `Name: Acme` (made), `Name: was Acme`. */
export function changeLine(change: StateChange): string {
  return `${change.field}: ${changeValue(change)}`;
}

/** One labelled line of a record's technical details. */
export interface TechnicalDetail {
  label: string;
  value: string;
}

/**
 * What an auditor looks up, each under a label in words, apart from what the record says in
 * words: the action's code, the ids of who acted, of the record and of the audit record itself,
 * the firm whose log it is in, the acting person's own firm, and the browser the request named
 * (docs/decisions/0051-readable-audit-log.md).
 */
export function technicalDetails(record: {
  id: string;
  action: string;
  actorId: string;
  actorTenantId: string | null;
  entityId: string;
  tenantId: string | null;
  userAgent: string;
}): TechnicalDetail[] {
  return [
    { label: 'Action code', value: record.action },
    { label: fieldInWords('actorId'), value: record.actorId },
    { label: fieldInWords('entityId'), value: record.entityId },
    { label: 'Audit record id', value: record.id },
    { label: 'Firm id', value: record.tenantId ?? 'none: the platform’s own log' },
    { label: fieldInWords('actorTenantId'), value: record.actorTenantId ?? 'none' },
    {
      label: fieldInWords('userAgent'),
      value: record.userAgent === '' ? 'none' : record.userAgent,
    },
  ];
}
