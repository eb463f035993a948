import { counted } from '../../../contracts/plain-english';
import {
  type DataIssue,
  isSchemeDataIssue,
  SCHEME_DATA_ISSUES,
  type SchemeDataIssue,
} from '../../../contracts/statement-rules';
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

/** Each of the scheme's terms a statement needs, as Edit scheme names it. */
const SCHEME_TERM_NAMES: Record<SchemeDataIssue, string> = {
  no_retirement_age: 'normal retirement age',
  no_accrual_rate: 'accrual rate',
  no_funding_level: 'funding level',
};

/** Words joined as a sentence lists them: `a`, `a and b`, `a, b and c`. */
function listed(words: string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/**
 * The scheme's terms missing, in words, for "Set the scheme's …": the run's scheme-level problems
 * (isSchemeDataIssue), each once, in the order the checks run.
 */
export function schemeTermsInWords(missing: readonly SchemeDataIssue[]): string {
  return listed(
    SCHEME_DATA_ISSUES.filter((issue) => missing.includes(issue)).map(
      (issue) => SCHEME_TERM_NAMES[issue],
    ),
  );
}

/**
 * What a run's problems ask to be corrected, and where: the scheme's terms once, in its details;
 * the members' own problems in their records. A run whose members failed only for want of the
 * scheme's terms has no member's record to correct.
 */
export function whatToCorrect(run: Pick<StatementRunView, 'issues'>): {
  scheme: SchemeDataIssue[];
  /** The members with a problem of their own record. */
  members: number;
  /**
   * The members whose records are sound but who hold a fund with no price up to the date: the
   * fund's price is what is missing, not anything in their record.
   */
  prices: number;
} {
  const scheme = SCHEME_DATA_ISSUES.filter((term) =>
    run.issues.some((issue) => issue.issues.includes(term)),
  );
  const ownRecord = (problem: DataIssue) => !isSchemeDataIssue(problem) && problem !== 'no_price';
  const members = run.issues.filter((issue) => issue.issues.some(ownRecord)).length;
  const prices = run.issues.filter(
    (issue) => issue.issues.includes('no_price') && !issue.issues.some(ownRecord),
  ).length;
  return { scheme, members, prices };
}

/** What to do where a fund held had no price up to the information date. */
export const ADD_FUND_PRICES =
  'add each fund’s price for a day up to the information date with Import prices on the scheme’s page';

/**
 * Whether a finished run had no member to make a statement for: the scheme had no active or
 * deferred member, so nothing was checked (docs/decisions/0141-pension-benefit-statements.md).
 */
export function hadNoMembers(
  run: Pick<StatementRunView, 'status' | 'done' | 'total' | 'issues'>,
): boolean {
  return (
    runMadeNothing(run) && run.status !== 'failed' && run.total === 0 && run.issues.length === 0
  );
}

/**
 * What a run that made no statement asks next, in a sentence: the scheme's terms set with Edit
 * scheme, the members' records corrected, or, for a scheme with no members, members added.
 */
export function nextStepAfterNothing(
  run: Pick<StatementRunView, 'status' | 'done' | 'total' | 'issues'>,
): string {
  if (hadNoMembers(run)) {
    return 'The scheme had no active or deferred members to make statements for. Add its members, then start a new run for the same date.';
  }
  const { scheme, members, prices } = whatToCorrect(run);
  const steps: string[] = [];
  if (scheme.length > 0) {
    steps.push(
      `set the scheme’s ${schemeTermsInWords(scheme)} with Edit scheme on the scheme’s page`,
    );
  }
  if (prices > 0) steps.push(ADD_FUND_PRICES);
  if (members > 0) steps.push(`correct the records of the ${counted(members, 'member')} listed`);
  const first = steps.join(' and ');
  return `${first.charAt(0).toUpperCase()}${first.slice(1)}, then start a new run for the same date.`;
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
