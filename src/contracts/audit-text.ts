/**
 * The audit log in words (docs/decisions/0051-readable-audit-log.md), shared by the server (the `summary` of
 * `GET /api/audit`, the CSV export) and the web page, so a reviewer reads the same sentence
 * everywhere. Only words live here: names are resolved by the server when the log is read, and
 * the records themselves keep ids (docs/decisions/0051-readable-audit-log.md).
 */

/** What each kind of record is called: `noun` inside a sentence, `label` on its own. */
const RECORD_TYPES: Readonly<Record<string, { noun: string; label: string }>> = {
  broker: { noun: 'a broker firm', label: 'Broker firm' },
  user: { noun: 'a user account', label: 'User account' },
  employer: { noun: 'an employer', label: 'Employer' },
  scheme: { noun: 'a scheme', label: 'Scheme' },
  member: { noun: 'a member', label: 'Member' },
  contribution: { noun: 'a contribution', label: 'Contribution' },
  fund: { noun: 'a fund', label: 'Fund' },
  fund_choice: { noun: 'a fund choice', label: 'Fund choice' },
  import: { noun: 'a CSV import', label: 'CSV import' },
  pps_key: { noun: 'the PPS encryption key', label: 'PPS encryption key' },
  audit: { noun: 'the audit log', label: 'Audit log' },
  trustee: { noun: 'a trustee', label: 'Trustee' },
  key_function_holder: { noun: 'a key function holder', label: 'Key function holder' },
  written_policy: { noun: 'a written policy', label: 'Written policy' },
  ora_report: { noun: 'an own-risk assessment', label: 'Own-risk assessment' },
  significant_change: { noun: 'a significant change', label: 'Significant change' },
  document: { noun: 'a document', label: 'Document' },
};

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
 * Every action the service records (`<entity>.<verb>`, service-spec §6), in words. `*.viewed`
 * and `*.listed` are platform staff reading a tenant's data (service-spec §5.4.5).
 */
export const AUDIT_ACTION_TEXT: Readonly<Record<string, string>> = {
  'broker.created': 'Created a broker firm',
  'broker.updated': 'Changed a broker firm’s details',
  'broker.viewed': 'Viewed a broker firm',
  'broker.listed': 'Listed broker firms',
  'user.created': 'Created a user account',
  'user.updated': 'Changed a user account',
  'user.deactivated': 'Deactivated a user account',
  'user.reactivated': 'Reactivated a user account',
  'user.invitation_sent': 'Sent an invitation to set up an account',
  'user.invitation_accepted': 'Accepted an invitation and set a password',
  'user.password_reset_requested': 'Asked for a password reset link',
  'user.password_reset': 'Set a new password with a reset link',
  'user.password_changed': 'Changed their own password',
  'user.second_factor_setup_started': 'Started setting up an authenticator app',
  'user.second_factor_added': 'Set up an authenticator app as a second factor',
  'user.second_factor_removed': 'Removed their authenticator app',
  'user.recovery_codes_issued': 'Issued new recovery codes for their account',
  'user.passkey_added': 'Added a passkey to their account',
  'user.passkey_removed': 'Removed a passkey from their account',
  'user.second_factor_reset': 'Removed the second factors of an account whose holder lost them',
  'user.viewed': 'Viewed a user account',
  'user.listed': 'Listed user accounts',
  'employer.created': 'Created an employer',
  'employer.updated': 'Changed an employer’s details',
  'employer.deleted': 'Deleted an employer',
  'employer.viewed': 'Viewed an employer',
  'employer.listed': 'Listed employers',
  'scheme.created': 'Created a scheme',
  'scheme.updated': 'Changed a scheme’s details',
  'scheme.deleted': 'Deleted a scheme',
  'scheme.viewed': 'Viewed a scheme',
  'scheme.listed': 'Listed schemes',
  'member.created': 'Added a member',
  'member.updated': 'Changed a member’s details',
  'member.deleted': 'Deleted a member',
  'member.pps_decrypted': 'Revealed a member’s PPS number',
  'member.exported': 'Exported everything held about a member',
  'member.viewed': 'Viewed a member’s record',
  'member.listed': 'Listed members',
  'contribution.created': 'Recorded a contribution',
  'contribution.adjusted': 'Corrected a contribution',
  'contribution.listed': 'Listed contributions',
  'fund.created': 'Added a fund to a scheme',
  'fund.updated': 'Changed a fund',
  'fund.listed': 'Listed funds',
  'fund_choice.changed': 'Changed a member’s fund choice',
  'fund_choice.listed': 'Listed fund choices',
  'import.succeeded': 'Imported a CSV file',
  'import.rejected': 'Had a CSV import rejected',
  'import.failed': 'Had a CSV import fail',
  'import.viewed': 'Viewed a CSV import',
  'import.listed': 'Listed CSV imports',
  'pps_key.rotated': 'Re-encrypted PPS numbers under a new key',
  'trustee.appointed': 'Appointed a trustee',
  'trustee.updated': 'Changed a trustee’s appointment',
  'trustee.deleted': 'Deleted a trustee from the register',
  'trustee.listed': 'Listed trustees',
  'trustee.viewed': 'Viewed a trustee',
  'kfh.appointed': 'Appointed a key function holder',
  'kfh.updated': 'Changed a key function holder’s appointment',
  'kfh.deleted': 'Deleted a key function holder from the register',
  'key_function_holder.listed': 'Listed key function holders',
  'key_function_holder.viewed': 'Viewed a key function holder',
  'policy.drafted': 'Drafted a written policy',
  'policy.updated': 'Changed a draft written policy',
  'policy.approved': 'Recorded the trustees’ approval of a written policy',
  'policy.superseded': 'Replaced a written policy with a newly approved version',
  'policy.deleted': 'Deleted a written policy from the register',
  'written_policy.listed': 'Listed written policies',
  'written_policy.viewed': 'Viewed a written policy',
  'policy.significant_change_recorded': 'Recorded a significant change affecting a written policy',
  'ora.recorded': 'Recorded an own-risk assessment',
  'ora.updated': 'Changed an own-risk assessment',
  'ora.deleted': 'Deleted an own-risk assessment from the register',
  'ora_report.listed': 'Listed own-risk assessments',
  'ora_report.viewed': 'Viewed an own-risk assessment',
  'significant_change.listed': 'Listed significant changes',
  'risk_profile.change_recorded': 'Recorded a significant change in a scheme’s risk profile',
  'compliance.viewed': 'Viewed a scheme’s compliance',
  'compliance.listed': 'Read the compliance calendar or dashboard',
  'document.uploaded': 'Uploaded a document',
  'document.scanned': 'Had a document checked for malware',
  'document.url_issued': 'Was given a link to download a document',
  'document.downloaded': 'Downloaded a document',
  'document.deleted': 'Deleted a document',
  'document.listed': 'Listed documents',
  'document.viewed': 'Viewed a document',
  'scheme.evidence_pack_generated': 'Generated a scheme’s evidence pack',
  'audit.listed': 'Read the audit log',
  'audit.exported': 'Exported the audit log as CSV',
};

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
