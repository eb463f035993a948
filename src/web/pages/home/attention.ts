import { OBLIGATION_STATUS_LABELS } from '../../../contracts/governance-rules';
import type { Overview } from '../../api/types';
import { formatPeriod } from '../../format';

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
