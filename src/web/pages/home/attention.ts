import { OBLIGATION_STATUS_LABELS } from '../../../contracts/governance-rules';
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
  scheme: Pick<SchemeAttention, 'governance'>,
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
 * the due month's contributions, and only of those who may upload; once every scheme has them in
 * it names the month and no more.
 */
export function dueHeading(overview: Pick<Overview, 'duePeriod' | 'schemes'>, canUpload: boolean) {
  const due = formatPeriod(overview.duePeriod);
  const stillDue = overview.schemes.some(
    (scheme) => scheme.lastPeriod === null || scheme.lastPeriod < overview.duePeriod,
  );
  return canUpload && stillDue ? `Upload ${due} contributions` : `${due} contributions`;
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
