import type { LifecycleView, StatusChangeView } from '../../../contracts/member-lifecycle';
import {
  CHANGE_FROM,
  type LeavingOption,
  type LifecycleStatus,
} from '../../../contracts/member-lifecycle-rules';
import type { Action } from '../../../contracts/policy';

/**
 * What the membership panel offers (docs/decisions/0135-members-lifecycle.md): only the steps the
 * signed-in person's role may take on the member (the policy table, read by `may`) and that the
 * member's status allows (CHANGE_FROM). The service refuses anything else all the same.
 */

/** The steps, each one a dialog of the panel. */
export type LifecycleStep = 'leave' | 'choose' | 'retire' | 'death' | 'rejoin' | 'undo';

/** What the person may do, as the policy table answers for this member. */
export type May = (action: Action) => boolean;

/** Whether a change may start from `status`. */
const from = (change: keyof typeof CHANGE_FROM, status: LifecycleStatus) =>
  CHANGE_FROM[change].includes(status);

/** Who may record each choice, and the change it makes of the member. */
const CHOICES: Record<LeavingOption, { action: Action; change: keyof typeof CHANGE_FROM }> = {
  preserved: { action: 'member.leaving_choice', change: 'preserved' },
  refund: { action: 'member.leaving_choice', change: 'refunded' },
  transfer: { action: 'member.transfer_out', change: 'transferred_out' },
};

/**
 * What a deferred member may still choose, as far as the person may record it: the options the
 * service gave on leaving while none is chosen; once a preserved benefit is kept, a transfer only.
 */
export function choicesOffered(lifecycle: LifecycleView, may: May): LeavingOption[] {
  const { status, leaving } = lifecycle;
  const open =
    leaving !== null && leaving.chosen === null
      ? leaving.options.map((option) => option.option)
      : (['transfer'] as LeavingOption[]);
  return open.filter((option) => {
    const { action, change } = CHOICES[option];
    return may(action) && from(change, status);
  });
}

/** The change a correction would undo: the newest one not already undone, corrections aside. */
export function latestUndoable(history: readonly StatusChangeView[]): StatusChangeView | null {
  const undoable = history.filter((change) => change.kind !== 'corrected' && !change.corrected);
  return undoable.reduce<StatusChangeView | null>(
    (newest, change) => (newest === null || change.createdAt > newest.createdAt ? change : newest),
    null,
  );
}

/** The steps to offer, in the order the panel shows their buttons. */
export function stepsOffered(lifecycle: LifecycleView, may: May): LifecycleStep[] {
  const { status } = lifecycle;
  const steps: LifecycleStep[] = [];
  if (may('member.leave') && from('left', status)) steps.push('leave');
  if (choicesOffered(lifecycle, may).length > 0) steps.push('choose');
  if (may('member.rejoin') && from('rejoined', status)) steps.push('rejoin');
  if (may('member.retire') && from('retired', status)) steps.push('retire');
  if (may('member.death') && from('died', status)) steps.push('death');
  if (may('member.status.correct') && latestUndoable(lifecycle.history) !== null) {
    steps.push('undo');
  }
  return steps;
}

/** The newest of a member's changes first, as the history table lists them. */
export function newestFirst(history: readonly StatusChangeView[]): StatusChangeView[] {
  return [...history].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
}
