import type { Overview } from '../../api/types';
import { formatPeriod } from '../../format';

type SchemeNeed = Overview['schemes'][number]['needs'][number];
type MemberNeed = Overview['membersNeedingAttention'][number]['needs'][number];

/** What each reason for attention means, in the words of the people who act on it. */
export function schemeNeedText(need: SchemeNeed, duePeriod: string): string {
  switch (need) {
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
