import { counted } from '../../../contracts/plain-english';
import {
  RUN_STATUS_NAMES,
  runMadeNothing,
  type StatementAssumptionsView,
  type StatementRunView,
} from '../../../contracts/statements';

/**
 * What the statement pages say of a run and of the run dialog's choices
 * (docs/decisions/0141-pension-benefit-statements.md), worked out apart from the pages so each
 * sentence is tested.
 */

type RunState = Pick<StatementRunView, 'status' | 'done'>;

/**
 * A run's status in a word or two: a run that finished with no statement made says so, where its
 * status alone would call it ready for the trustees with nothing to approve (runMadeNothing).
 */
export function runStatusName(run: RunState): string {
  return runMadeNothing(run) && run.status !== 'failed'
    ? 'No statement made'
    : RUN_STATUS_NAMES[run.status];
}

/** The trustees' approval is offered for a ready run that made statements, and for nothing else. */
export function mayBeApproved(run: RunState): boolean {
  return run.status === 'ready' && !runMadeNothing(run);
}

/** Whether any member of the run had no statement because the scheme has no retirement age. */
export function missingRetirementAge(run: Pick<StatementRunView, 'issues'>): boolean {
  return run.issues.some((issue) => issue.issues.includes('no_retirement_age'));
}

/** The assumption sets the run dialog offers, counted by whose they are: only those there are. */
export function assumptionSetsInWords(sets: Pick<StatementAssumptionsView, 'owner'>[]): string {
  const platform = sets.some((set) => set.owner === 'platform');
  const firm = sets.some((set) => set.owner === 'firm');
  const whose =
    platform && firm
      ? 'the platform’s and your firm’s own'
      : platform
        ? 'the platform’s'
        : 'your firm’s own';
  return `${counted(sets.length, 'set')} to choose from: ${whose}`;
}

/** The set the run dialog starts on: the only one there is, or none to choose yet. */
export function assumptionsChosenAtFirst(sets: Pick<StatementAssumptionsView, 'id'>[]): string {
  return sets.length === 1 ? (sets[0]?.id ?? '') : '';
}
