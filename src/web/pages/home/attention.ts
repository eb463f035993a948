import { OBLIGATION_STATUS_LABELS } from '../../../contracts/governance-rules';
import { counted } from '../../../contracts/plain-english';
import type { Overview, RemittanceMonth } from '../../api/types';
import { formatDate, formatPeriod } from '../../format';

type SchemeAttention = Overview['schemes'][number];
type SchemeNeed = SchemeAttention['needs'][number];
type MemberNeed = Overview['membersNeedingAttention'][number]['needs'][number];

/**
 * What each reason for attention means, in the words of the people who act on it. A scheme's
 * governance is named by its standing, in the words the governance counts use ("Incomplete").
 */
export function schemeNeedText(
  need: SchemeNeed,
  scheme: Pick<SchemeAttention, 'governance' | 'duePeriodMembers'>,
  duePeriod: string,
): string {
  switch (need) {
    case 'governance':
      return `Governance: ${OBLIGATION_STATUS_LABELS[scheme.governance ?? 'ok'].toLowerCase()}`;
    case 'no_members':
      return 'No members yet';
    case 'no_funds':
      return 'No fund to invest in';
    case 'contributions_due':
      return `${formatPeriod(duePeriod)} contributions not in`;
    case 'contributions_missing':
      return `${formatPeriod(duePeriod)}: nothing paid for ${counted(scheme.duePeriodMembers.unpaid, 'member')}`;
  }
}

export function memberNeedText(need: MemberNeed, duePeriod: string): string {
  switch (need) {
    case 'no_email':
      return 'No e-mail address on file';
    case 'missed_last_period':
      return `Nothing paid for ${formatPeriod(duePeriod)}`;
  }
}

/**
 * The heading above the schemes' cards: it asks for an upload only while some scheme still lacks
 * the due month's contributions, of some member or all, and only of those who may upload; once
 * every scheme has them in, or owed none, it names the month and no more. Where every scheme was
 * added after the due month, no month is named: none is asked for.
 */
export function dueHeading(overview: Pick<Overview, 'duePeriod' | 'schemes'>, canUpload: boolean) {
  if (overview.schemes.every((scheme) => scheme.dueStanding === 'before_service')) {
    return 'Contributions';
  }
  const due = formatPeriod(overview.duePeriod);
  const stillDue = overview.schemes.some((scheme) => AWAITED.has(scheme.dueStanding));
  return canUpload && stillDue ? `Upload ${due} contributions` : `${due} contributions`;
}

/** The standings in which some member's contributions for the due month are still awaited. */
const AWAITED = new Set<SchemeAttention['dueStanding']>(['not_in', 'part_in']);

/**
 * Where a scheme's card says the due month stands, as the server gives it: in for every member
 * who owed contributions for it, in for some (naming how many have nothing paid), the latest
 * month that is in, that nobody owed any, or that the scheme was added after it, so it is not
 * asked for (the remittance calendar's "Not chased").
 */
export function dueStanding(scheme: SchemeAttention, duePeriod: string): string {
  const due = formatPeriod(duePeriod);
  const { owing, unpaid } = scheme.duePeriodMembers;
  switch (scheme.dueStanding) {
    case 'in':
      return `${due} contributions are in.`;
    case 'part_in':
      return `${due} contributions are in for ${owing - unpaid} of ${counted(owing, 'member')}; nothing is paid for ${counted(unpaid, 'member')}.`;
    case 'not_in':
      return scheme.lastPeriod === null
        ? 'No contributions yet.'
        : `Latest contributions: ${formatPeriod(scheme.lastPeriod)}.`;
    case 'nothing_owed':
      return scheme.memberCount === 0
        ? 'No members yet.'
        : `No member owed contributions for ${due}.`;
    case 'before_service':
      return `Added in ${formatPeriod(scheme.chasedFrom)}: contributions are asked for from ${formatPeriod(scheme.chasedFrom)}.`;
  }
}

/**
 * The months of the remittance calendar that need the employer's attention, oldest first: those
 * past their due day and not received in full, then those received after it
 * (docs/decisions/0136-contribution-remittance.md).
 */
export function remittanceNotes(months: readonly RemittanceMonth[]): string[] {
  const deductions = (month: RemittanceMonth) =>
    `${formatPeriod(month.month)} deductions, due by ${formatDate(month.dueOn)}`;
  return [
    ...months
      .filter((month) => month.status === 'missing')
      .map((month) => `${deductions(month)}: not received in full`),
    ...months
      .filter((month) => month.status === 'late')
      .map(
        (month) =>
          `${deductions(month)}: received late${month.receivedOn ? `, on ${formatDate(month.receivedOn)}` : ''}`,
      ),
  ];
}

/**
 * The upload button on a scheme's card, by where the due month stands: its contributions while
 * none are in, the missing ones while some member has nothing paid, else a correction, or any
 * month's contributions where nobody owed the due one.
 */
export function uploadAction(
  scheme: SchemeAttention,
  duePeriod: string,
): { text: string; label: string; pressing: boolean } {
  const due = formatPeriod(duePeriod);
  switch (scheme.dueStanding) {
    case 'in':
      return {
        text: 'Upload a correction',
        label: `Upload a correction to ${due} contributions for ${scheme.name}`,
        pressing: false,
      };
    case 'nothing_owed':
    case 'before_service':
      return {
        text: 'Upload contributions',
        label: `Upload contributions for ${scheme.name}`,
        pressing: false,
      };
    case 'part_in':
    case 'not_in': {
      const text =
        scheme.dueStanding === 'part_in'
          ? `Upload the missing ${due} contributions`
          : `Upload ${due} contributions`;
      return { text, label: `${text} for ${scheme.name}`, pressing: true };
    }
  }
}
